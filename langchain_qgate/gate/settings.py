"""Operator settings: the knobs changed without a deploy, from the environment or a TOML file.

================================== ============================================ ===================
Environment variable               TOML key (``[qgate]`` or ``[tool.qgate]``)   Value
================================== ============================================ ===================
``QGATE_PROFILE``                  ``profile``                                  strict / default /
                                                                                brainstorm
``QGATE_GROUNDING_THRESHOLD``      ``grounding_threshold``                      float in [0, 1]
``QGATE_CONFIDENCE_THRESHOLD``     ``confidence_threshold``                     float in [0, 1]
``QGATE_INFERRED_WEIGHT``          ``inferred_weight``                          float in [0, 1]
``QGATE_MAX_RETRIES``              ``max_retries``                              int >= 0
``QGATE_ON_EXHAUSTED``             ``on_exhausted``                             escalate /
                                                                                pass_with_warning /
                                                                                raise
``QGATE_MAX_CONTRADICTIONS``       ``max_contradictions``                       int >= 0 or none
``QGATE_ON_UNSUPPORTED_LANGUAGE``  ``on_unsupported_language``                  warn / reject /
                                                                                verifier
``QGATE_PAIR_MODEL``               ``pair_model``                               bundled, a folder,
                                                                                or none
``QGATE_MAX_CLAIMS``               ``max_claims``                               int >= 1 or none
``QGATE_MAX_EVIDENCE_CHUNKS``      ``max_evidence_chunks``                      int >= 1
================================== ============================================ ===================

``QGATE_CONFIG`` names the TOML file (a ``qgate.toml`` with a ``[qgate]`` table, or a
``pyproject.toml`` with ``[tool.qgate]``).

Precedence, highest first: arguments given in code (an explicit ``policy=`` wins whole; the
keywords of :meth:`GateSettings.policy` win one by one), then the environment, then the
config file, then the profile's defaults (the profile named by the settings, else
``default``). Per call, ``RunnableConfig["configurable"]`` overrides (``qgate_*``) apply on
top of whatever policy results. A threshold set anywhere wins over the profile, whichever
source named the profile.

An unusable value raises :class:`~langchain_qgate.errors.SettingsError` naming the variable
(or the file and key).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from langchain_qgate.config import GroundingPolicy
from langchain_qgate.errors import SettingsError
from langchain_qgate.gate.policy import PROFILES, GatePolicy, _coerce

__all__ = ["CONFIG_ENV", "ENV_PREFIX", "GateSettings", "load_settings"]

ENV_PREFIX = "QGATE_"
"""Prefix of the environment variables (``QGATE_MAX_RETRIES``...)."""

CONFIG_ENV = "QGATE_CONFIG"
"""The environment variable naming the TOML config file."""

_POLICY_KEYS = (
    "grounding_threshold",
    "confidence_threshold",
    "inferred_weight",
    "max_retries",
    "on_exhausted",
    "max_contradictions",
    "on_unsupported_language",
)
_GROUNDING_KEYS = ("pair_model", "max_claims", "max_evidence_chunks")
"""Settings of the monitor's :class:`~langchain_qgate.config.GroundingPolicy`."""
_KEYS = ("profile", *_POLICY_KEYS, *_GROUNDING_KEYS)


@dataclass(frozen=True, kw_only=True)
class GateSettings:
    """Settings read from the environment and the config file.

    Attributes:
        values: The settings that were set, by key (``max_retries``...), already typed;
            ``max_contradictions`` ``None`` means no limit.
        sources: Where each came from (``QGATE_MAX_RETRIES``, ``qgate.toml: max_retries``).

    Example:
        ```python
        policy = load_settings().policy(max_retries=1)  # code > env > file > profile
        ```
    """

    values: Mapping[str, Any] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)

    def grounding_policy(self) -> GroundingPolicy | None:
        """The monitor's policy with the ``pair_model`` (``none``: rules only),
        ``max_claims`` and ``max_evidence_chunks`` settings, or None when none is set."""
        given = {k: self.values[k] for k in _GROUNDING_KEYS if k in self.values}
        if not given:
            return None
        pair_model = given.get("pair_model")
        if isinstance(pair_model, str) and pair_model.lower() == "none":
            given["pair_model"] = None
        return GroundingPolicy(**given)

    def policy(self, **explicit: Any) -> GatePolicy:
        """The gate policy: ``explicit`` keywords > these settings > the profile's defaults.

        Args:
            **explicit: ``GatePolicy`` fields given in code (``profile`` too).

        Raises:
            SettingsError: The combined values do not make a valid policy.
        """
        profile = explicit.pop("profile", None) or self.values.get("profile") or "default"
        values = {k: v for k, v in self.values.items() if k in _POLICY_KEYS}
        values.update(explicit)
        try:
            return replace(GatePolicy.from_profile(profile), **values)
        except (TypeError, ValueError) as exc:
            where = ", ".join(self.sources.values()) or "settings"
            raise SettingsError(where, str(exc)) from exc


def load_settings(
    env: Mapping[str, str] | None = None, *, config_file: str | os.PathLike[str] | None = None
) -> GateSettings:
    """Read the settings: the config file first, then the environment over it.

    Args:
        env: The environment (``os.environ`` when omitted).
        config_file: The TOML file (default: ``$QGATE_CONFIG``; none when unset).

    Raises:
        SettingsError: A value is unusable, a key unknown, or the file unreadable; the error
            names the variable or the file and key.
    """
    env = os.environ if env is None else env
    raw: dict[str, tuple[Any, str]] = {}
    path = config_file if config_file is not None else env.get(CONFIG_ENV) or None
    if path is not None:
        raw.update(_read_file(Path(path)))
    for key in _KEYS:
        name = ENV_PREFIX + key.upper()
        if name in env:
            raw[key] = (env[name], name)
    values = {key: _parse(key, value, source) for key, (value, source) in raw.items()}
    return GateSettings(values=values, sources={k: s for k, (_, s) in raw.items()})


def _read_file(path: Path) -> dict[str, tuple[Any, str]]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SettingsError(CONFIG_ENV, f"cannot read {str(path)!r}: {exc.strerror}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(str(path), f"not valid TOML: {exc}") from exc
    table = data.get("qgate", data.get("tool", {}).get("qgate"))
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise SettingsError(f"{path}: qgate", "expected a table")
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise SettingsError(
            f"{path}: {unknown[0]}", f"unknown setting; known ones: {', '.join(_KEYS)}"
        )
    return {k: (v, f"{path}: {k}") for k, v in table.items()}


def _parse(key: str, value: Any, source: str) -> Any:
    """``value`` as the setting's type; ``SettingsError`` naming ``source`` otherwise."""
    text = value.strip() if isinstance(value, str) else value
    if key == "profile":
        if text not in PROFILES:
            raise SettingsError(
                source, f"unknown profile {value!r}; choose one of {sorted(PROFILES)}"
            )
        return text
    if key == "pair_model":
        if not isinstance(text, str) or not text:
            raise SettingsError(source, "expected 'bundled', a folder path or 'none'")
        return text
    if key in ("max_claims", "max_evidence_chunks"):
        return _parse_size(key, text, value, source)
    if key == "max_contradictions" and isinstance(text, str) and text.lower() == "none":
        return None
    try:
        coerced = _coerce(key, text)
        replace(GatePolicy(), **{key: coerced})  # the policy's own range checks
    except (TypeError, ValueError, OverflowError) as exc:
        raise SettingsError(source, f"cannot use {value!r}: {exc}") from exc
    return coerced


def _parse_size(key: str, text: Any, value: Any, source: str) -> int | None:
    """A size limit: an integer >= 1 (``max_claims`` may also be ``none``: no limit)."""
    if key == "max_claims" and isinstance(text, str) and text.lower() == "none":
        return None
    try:
        number = int(text)
        if isinstance(text, bool | float) or number < 1:
            raise ValueError("expected an integer >= 1")
    except (TypeError, ValueError) as exc:
        raise SettingsError(source, f"cannot use {value!r}: {exc}") from exc
    return number
