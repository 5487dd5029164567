"""The package's import graph: no circles, and dependencies point one way (the README's
"Architecture", drawn in docs/architecture.md).

Every ``import`` / ``from ... import`` of every module counts, wherever it stands: at module
level, inside a function (a lazy import), under ``TYPE_CHECKING``. So does a string constant
naming a package module (``import_module`` targets such as the CLI's subcommand plugins).
Importing ``a.b.c`` also runs the packages ``a.b`` and ``a`` (their ``__init__``), so those
count too, except a module's own enclosing packages (already running when it is imported).
"""

from __future__ import annotations

import ast
from pathlib import Path

import langchain_qgate

PACKAGE = "langchain_qgate"
ROOT = Path(langchain_qgate.__file__).resolve().parent

SHARED = {"_lazy", "_text", "config", "errors", "schemas"}
"""Shared leaves at the top level: they import nothing but each other."""

_UNDER_INTEGRATIONS = {
    "shared",
    "grounding",
    "calibration",
    "gate",
    "judge",
    "tool_gating",
    "memory",
}

ALLOWED: dict[str, set[str]] = {
    "shared": set(),
    "grounding": {"shared"},
    "calibration": {"shared"},
    "judge": {"shared"},
    "memory": {"shared", "grounding"},
    "tool_gating": {"shared", "grounding"},
    "gate": {"shared", "grounding", "calibration"},
    "testing": {"shared"},
    "evaluation": {"shared", "grounding", "calibration", "gate"},
    "integrations": _UNDER_INTEGRATIONS,
    "cli": _UNDER_INTEGRATIONS | {"integrations", "testing", "evaluation", "facade"},
}
"""The systems each system may import (besides itself): from the integrations and the CLI down
to the shared leaves. ``facade`` is ``langchain_qgate/__init__`` (re-exports only)."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py")) if "__pycache__" not in p.parts}


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not _is_package(importer):
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(importer: str, tree: ast.AST) -> set[str]:
    """Package modules named by the imports (and module-name strings) of one module."""
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(importer, node)
            named.add(module)
            named.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named.add(node.value)
    found: set[str] = set()
    for name in named:
        if name not in MODULES:
            continue
        found.add(name)
        # Importing a.b.c runs a.b and a first, unless the importer already sits inside them.
        parts = name.split(".")
        for i in range(2, len(parts)):
            parent = ".".join(parts[:i])
            if not importer.startswith(f"{parent}."):
                found.add(parent)
    found.discard(importer)
    found.discard(PACKAGE)  # the facade is the parent of everything; see test_facade_...
    return found


def _graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = _targets(name, tree)
        # An explicit import of the facade itself (``from langchain_qgate import __version__``).
        if any(
            isinstance(node, ast.ImportFrom)
            and _resolve(name, node) == PACKAGE
            and any(f"{PACKAGE}.{a.name}" not in MODULES for a in node.names)
            for node in ast.walk(tree)
        ):
            graph[name].add(PACKAGE)
    return graph


GRAPH = _graph()


def _system(module: str) -> str:
    if module == PACKAGE:
        return "facade"
    top = module.split(".")[1]
    return "shared" if top in SHARED else top


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_imports_it_must() -> None:
    # Module level, function level (lazy), TYPE_CHECKING, and an import_module string.
    assert "langchain_qgate.gate.policy" in GRAPH["langchain_qgate.gate.noise_gate"]
    assert "langchain_qgate.grounding" in GRAPH["langchain_qgate.gate.noise_gate"]
    assert "langchain_qgate.gate.metadata" in GRAPH["langchain_qgate.gate.annotate"]
    assert "langchain_qgate.cli.demo" in GRAPH["langchain_qgate.cli.app"]
    assert "langchain_qgate.integrations.middleware" in GRAPH["langchain_qgate"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycles_in_the_package() -> None:
    assert _cycles(GRAPH) == []


def test_dependencies_point_one_way_from_integrations_down_to_grounding() -> None:
    wrong = []
    for module, targets in sorted(GRAPH.items()):
        if module == PACKAGE:
            continue  # the facade re-exports every system
        system = _system(module)
        for target in sorted(targets):
            other = _system(target)
            if other != system and other not in ALLOWED[system]:
                wrong.append(f"{module} ({system}) imports {target} ({other})")
    assert wrong == []


def test_every_module_belongs_to_a_known_system() -> None:
    systems = {_system(m) for m in MODULES}
    assert systems <= {*ALLOWED, "facade"}


def test_the_top_level_holds_only_the_facade_and_a_few_shared_modules() -> None:
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert top == [
        "__init__.py",
        "_lazy.py",
        "_text.py",
        "config.py",
        "errors.py",
        "evaluation.py",
        "schemas.py",
        "testing.py",
    ]
    folders = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file())
    assert folders == [
        "calibration",
        "cli",
        "gate",
        "grounding",
        "integrations",
        "judge",
        "memory",
        "tool_gating",
    ]


def test_grounding_shows_its_pipeline_one_folder_per_stage() -> None:
    """Issue 46: a folder per stage inside grounding/ and one short module that runs them in
    order (docs/architecture.md, "Inside grounding/"); a stage folder's ``__init__`` is only a
    docstring saying what the stage does (modules are imported by their full path)."""
    grounding = ROOT / "grounding"
    top = sorted(p.name for p in grounding.glob("*.py"))
    assert top == ["__init__.py", "aggregate.py", "monitor.py", "pipeline.py"]
    folders = sorted(p.name for p in grounding.iterdir() if (p / "__init__.py").is_file())
    assert folders == ["checks", "claims", "evidence", "records", "verifier"]
    for folder in folders:
        tree = ast.parse((grounding / folder / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), folder
        assert len(tree.body) == 1, folder
    assert "langchain_qgate.grounding.pipeline" in GRAPH["langchain_qgate.grounding.monitor"]


MAX_FUNCTION_LINES = 80
"""Issue 46: a function a reader can see whole on one screen, decorators and docstring
included."""


def _long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[tuple[str, int]]:
    tree = ast.parse(source)
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_the_length_check_finds_a_long_function() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert _long_functions(f"def long():\n{body}\n") == [("long", MAX_FUNCTION_LINES + 1)]
    assert _long_functions("def short():\n    return 1\n") == []


def test_no_function_in_the_package_is_over_80_lines() -> None:
    long = {
        f"{name}.{fn}": n
        for name, path in MODULES.items()
        for fn, n in _long_functions(path.read_text(encoding="utf-8"))
    }
    assert long == {}


def _bound_twice(source: str) -> list[str]:
    """Module-level names bound by more than one statement (the later silently replaces the
    earlier everywhere the name is read, as a second ``_DURATION_KEYS`` did in ``fields``)."""
    seen: dict[str, int] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        else:
            continue
        for name in names:
            seen[name] = seen.get(name, 0) + 1
    return sorted(n for n, k in seen.items() if k > 1 and n != "__all__")


def test_the_rebinding_check_finds_a_name_bound_twice() -> None:
    assert _bound_twice("A = 1\ndef f():\n    return A\nA = 2\n") == ["A"]
    assert _bound_twice("A = 1\nB: int = 2\n") == []


def test_no_module_binds_a_name_twice() -> None:
    twice = {
        name: found
        for name, path in MODULES.items()
        if (found := _bound_twice(path.read_text(encoding="utf-8")))
    }
    assert twice == {}
