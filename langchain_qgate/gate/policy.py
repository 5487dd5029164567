"""The gate policy: thresholds, retry budget, exhaustion policy, profiles, config overrides.

Private module; the names are public through :mod:`langchain_qgate.gate`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from langchain_qgate.errors import InvalidInputError

__all__ = [
    "CONFIG_KEYS",
    "PROFILES",
    "PROFILE_FIELDS",
    "ExhaustionPolicy",
    "GatePolicy",
    "ProfileName",
    "UnsupportedLanguagePolicy",
    "as_gate_policy",
    "describe_policy",
]

ExhaustionPolicy = Literal["escalate", "pass_with_warning", "raise"]
"""What happens when a rejected output has no retries left: hand it to a human (the
integrations call LangGraph ``interrupt()``), pass it with a low-confidence warning, or raise
``QualityGateRejected``."""

UnsupportedLanguagePolicy = Literal["warn", "reject", "verifier"]
"""What happens when the answer, or most of the evidence, is in a language the checks do not read
(today anything but English; ``langchain_qgate.grounding.claims.language``). ``"warn"``: the answer
is delivered as ``pass_with_warning``, its metadata and log say it was not verified, and its
grounding figures (computed as if it were English) decide nothing. ``"reject"``: rejected like
any failed check, with guidance to answer in English; evidence the checks cannot read leaves
nothing to retry for, so ``on_exhausted`` decides at once. ``"verifier"``: every claim goes to
the LLM verifier configured on the monitor (``HallucinationMonitor(verifier=LLMVerifier(...))``
or the second stage of a ``CascadeVerifier``) and its grades decide; without one, ``"warn"``,
and the verdict says so."""

ProfileName = Literal["strict", "default", "brainstorm"]
"""Named gate profiles: ``strict`` (grounding 0.8, no contradiction), ``default`` (0.6, no
contradiction), ``brainstorm`` (0.4, contradictions only cost score)."""

CONFIG_KEYS = (
    "qgate_profile",
    "qgate_grounding_threshold",
    "qgate_confidence_threshold",
    "qgate_inferred_weight",
    "qgate_max_retries",
    "qgate_on_exhausted",
    "qgate_max_contradictions",
)
"""Keys of ``RunnableConfig["configurable"]`` that override the gate policy per call."""

PROFILE_FIELDS = (
    "grounding_threshold",
    "confidence_threshold",
    "inferred_weight",
    "max_contradictions",
)
"""What a profile sets: how strict the check is. The retry budget (``max_retries``) and the
exhaustion policy (``on_exhausted``) are not part of a profile: switching the profile of a
policy (:meth:`GatePolicy.with_profile`, or ``qgate_profile`` per call) keeps them."""


@dataclass(frozen=True, kw_only=True)
class GatePolicy:
    """Thresholds and the retry budget of the noise gate.

    Attributes:
        grounding_threshold: Minimum grounding score to pass.
        confidence_threshold: Minimum calibrated confidence to pass.
        inferred_weight: Credit of an INFERRED claim in the gate's grounding score. At the
            monitor's default (0.5) the report's score is used as is; otherwise inferred
            claims' credit is replaced by this weight.
        max_retries: Rejections the model may retry before ``on_exhausted`` applies. In a
            :class:`~langchain_qgate.gate.QualityGate` this is the retry budget: its default
            load monitor follows it (per-call overrides included); an explicit load monitor's
            ``LoadBudget.max_retries`` can only lower it (the stricter of the two applies).
        on_exhausted: What happens when the budget is spent.
        max_contradictions: Contradicted claims tolerated in a passing output, whatever the
            score. ``0`` (the default, and the ``default`` and ``strict`` profiles): any claim
            the evidence contradicts fails the grounding dimension, since a contradiction is
            the most damaging error. ``None`` (the ``brainstorm`` profile): no limit beyond
            the grounding score, where a contradicted claim counts as a fabricated one.
        profile: Name of the profile the policy came from (reported in the metadata).
        on_unsupported_language: What happens when the answer or most of the evidence is in a
            language the checks cannot read (see :data:`UnsupportedLanguagePolicy`);
            ``"warn"`` by default. Not part of a profile.

    Precedence of a call's policy, lowest first: the instance's policy, then the per-call
    profile (``qgate_profile``: replaces only the :data:`PROFILE_FIELDS`, the thresholds),
    then the single per-call keys (``qgate_max_retries``...). A per-call profile never changes
    the retry budget or the exhaustion policy you set on the instance.

    Example:
        ```python
        policy = GatePolicy(max_retries=0, on_exhausted="raise")
        strict = policy.with_profile("strict")  # strict thresholds, still 0 retries, raise
        policy = policy.with_overrides({"configurable": {"qgate_max_retries": 1}})
        ```
    """

    grounding_threshold: float = 0.6
    confidence_threshold: float = 0.5
    inferred_weight: float = 0.5
    max_retries: int = 3
    on_exhausted: ExhaustionPolicy = "escalate"
    max_contradictions: int | None = 0
    profile: str = "default"
    on_unsupported_language: UnsupportedLanguagePolicy = "warn"

    def __post_init__(self) -> None:
        for name in ("grounding_threshold", "confidence_threshold", "inferred_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"GatePolicy.{name} must be a number, got {value!r}")
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"GatePolicy.{name} must be in [0, 1], got {value}")
        if isinstance(self.max_retries, bool) or not isinstance(self.max_retries, int):
            raise ValueError(f"GatePolicy.max_retries must be an int, got {self.max_retries!r}")
        if self.max_retries < 0:
            raise ValueError(f"GatePolicy.max_retries must be >= 0, got {self.max_retries}")
        if self.on_exhausted not in get_args(ExhaustionPolicy):
            raise ValueError(
                f"GatePolicy.on_exhausted must be one of {get_args(ExhaustionPolicy)}, "
                f"got {self.on_exhausted!r}"
            )
        if self.on_unsupported_language not in get_args(UnsupportedLanguagePolicy):
            raise ValueError(
                "GatePolicy.on_unsupported_language must be one of "
                f"{get_args(UnsupportedLanguagePolicy)}, got {self.on_unsupported_language!r}"
            )
        mc = self.max_contradictions
        if mc is not None and (isinstance(mc, bool) or not isinstance(mc, int) or mc < 0):
            raise ValueError(
                f"GatePolicy.max_contradictions must be an int >= 0 or None, got {mc!r}"
            )

    @classmethod
    def from_profile(cls, name: ProfileName | str, **overrides: Any) -> GatePolicy:
        """The named profile, with keyword overrides.

        Raises:
            ValueError: Unknown profile name.
        """
        if name not in PROFILES:
            raise ValueError(f"unknown gate profile {name!r}; choose one of {sorted(PROFILES)}")
        return replace(PROFILES[name], **overrides)

    def with_profile(self, name: ProfileName | str) -> GatePolicy:
        """This policy with the thresholds of profile ``name`` (see :data:`PROFILE_FIELDS`).

        ``max_retries`` and ``on_exhausted`` are kept: a profile says how strict the check is,
        not how many retries you allow or what happens when they are spent.

        Raises:
            ValueError: Unknown profile name.
        """
        if name not in PROFILES:
            raise ValueError(f"unknown gate profile {name!r}; choose one of {sorted(PROFILES)}")
        source = PROFILES[name]
        return replace(
            self, profile=source.profile, **{f: getattr(source, f) for f in PROFILE_FIELDS}
        )

    def with_overrides(self, config: Mapping[str, Any] | None) -> GatePolicy:
        """This policy with the per-call overrides of a ``RunnableConfig`` applied.

        Args:
            config: A ``RunnableConfig`` (its ``configurable`` is read), the ``configurable``
                mapping itself, or ``None``. Values may be strings (``"0.7"``).

        Returns:
            A new policy (``self`` when nothing applies): ``qgate_profile`` first, through
            :meth:`with_profile` (thresholds only; this policy's ``max_retries`` and
            ``on_exhausted`` stay), then the single keys.

        Raises:
            InvalidInputError: An override has an unusable value (also a ``ValueError``).
        """
        if config is None:
            return self
        if not isinstance(config, Mapping):
            raise InvalidInputError(
                "config", f"expected a RunnableConfig mapping or None, got {type(config).__name__}"
            )
        conf = config.get("configurable", config)
        if conf is None:
            return self
        if not isinstance(conf, Mapping):
            raise InvalidInputError(
                "configurable", f"expected a mapping, got {type(conf).__name__}"
            )
        keys = {k: conf[k] for k in CONFIG_KEYS if k in conf}
        if not keys:
            return self
        base = self
        if "qgate_profile" in keys:
            try:
                base = self.with_profile(str(keys.pop("qgate_profile")))
            except ValueError as exc:
                raise InvalidInputError("qgate_profile", str(exc)) from exc
        updates: dict[str, Any] = {}
        for key, value in keys.items():
            name = key.removeprefix("qgate_")
            try:
                updates[name] = _coerce(name, value)
            except (TypeError, ValueError, OverflowError) as exc:
                raise InvalidInputError(key, f"cannot use {_brief(value)}: {exc}") from exc
        try:
            return replace(base, **updates)
        except ValueError as exc:
            raise InvalidInputError("configurable", str(exc)) from exc


def describe_policy(policy: GatePolicy) -> str:
    """The policy for a repr: profile, thresholds, contradictions, retry budget, exhaustion
    (and the language policy when it is not ``"warn"``)."""
    contra = "any" if policy.max_contradictions is None else policy.max_contradictions
    text = (
        f"profile={policy.profile!r}, grounding_threshold={policy.grounding_threshold}, "
        f"confidence_threshold={policy.confidence_threshold}, max_contradictions={contra}, "
        f"max_retries={policy.max_retries}, on_exhausted={policy.on_exhausted!r}"
    )
    if policy.on_unsupported_language != "warn":  # said when it is not the default
        text += f", on_unsupported_language={policy.on_unsupported_language!r}"
    return text


_MAX_COUNT = 2**31 - 1  # larger counts are meaningless and break checkpoint serializers


def _brief(value: Any) -> str:
    """A one-line, bounded repr of a rejected value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _coerce(name: str, value: Any) -> Any:
    """``value`` as the type of ``GatePolicy.<name>``; ``ValueError`` when it is unusable.

    Numbers may be given as strings ("0.7"); booleans, non-finite floats and counts beyond
    ``2**31 - 1`` are refused.
    """
    kinds = {f.name: f.type for f in fields(GatePolicy)}
    kind = str(kinds[name])
    if name == "max_contradictions":
        if value is None or (isinstance(value, str) and value.strip().lower() in {"none", ""}):
            return None
        kind = "int"
    if kind in ("int", "float") and not isinstance(value, str | int | float):
        raise ValueError(f"expected a number, got {type(value).__name__}")
    if isinstance(value, bool):
        raise ValueError("expected a number, got a bool")
    if kind == "int":
        number = float(value) if isinstance(value, str | float) else value
        if isinstance(number, float) and not number.is_integer():
            raise ValueError("not a finite integer")
        count = int(number)
        if not 0 <= count <= _MAX_COUNT:
            raise ValueError(f"must be in [0, {_MAX_COUNT}]")
        return count
    if kind == "float":
        number = float(value)
        if not math.isfinite(number):
            raise ValueError("not a finite number")
        return number
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    return value


PROFILES: dict[str, GatePolicy] = {
    "strict": GatePolicy(
        grounding_threshold=0.8,
        confidence_threshold=0.7,
        inferred_weight=0.5,
        max_contradictions=0,
        profile="strict",
    ),
    "default": GatePolicy(max_contradictions=0, profile="default"),
    "brainstorm": GatePolicy(
        grounding_threshold=0.4,
        confidence_threshold=0.3,
        inferred_weight=0.75,
        max_contradictions=None,
        profile="brainstorm",
    ),
}
"""The named profiles (grounding / confidence thresholds: strict 0.8 / 0.7, default 0.6 / 0.5,
brainstorm 0.4 / 0.3 with inferred claims weighted 0.75). ``strict`` and ``default`` reject any
contradicted claim (``max_contradictions=0``); ``brainstorm`` tolerates them as long as the
grounding score passes (``max_contradictions=None``: a contradicted claim only costs its credit).
``GatePolicy()`` equals the ``default`` profile."""


def as_gate_policy(policy: GatePolicy | Mapping[str, Any] | None) -> GatePolicy:
    """``policy`` as a :class:`GatePolicy`; a mapping is validated into one.

    A mapping holds :class:`GatePolicy` fields (``{"max_retries": 1, "on_exhausted":
    "raise"}``); with a ``profile`` key it starts from that profile and the other keys
    override it. ``None`` is the ``default`` profile.

    Raises:
        InvalidInputError: Not a policy or a mapping, an unknown key, an unknown profile or an
            invalid value (the message names it).
    """
    if policy is None:
        return GatePolicy()
    if isinstance(policy, GatePolicy):
        return policy
    if not isinstance(policy, Mapping):
        kind = type(policy).__name__
        raise InvalidInputError("policy", f"expected a GatePolicy or a mapping, got {kind}")
    names = [f.name for f in fields(GatePolicy)]
    unknown = sorted(str(k) for k in policy if k not in names)
    if unknown:
        raise InvalidInputError("policy", f"unknown key(s) {unknown}; GatePolicy fields: {names}")
    values = dict(policy)
    try:
        if "profile" in values:
            return GatePolicy.from_profile(values.pop("profile"), **values)
        return GatePolicy(**values)
    except ValueError as exc:
        raise InvalidInputError("policy", str(exc)) from exc
