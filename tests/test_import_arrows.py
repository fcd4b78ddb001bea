"""Imports point one way.

Every Python module of ``scoring/`` and ``tournament/`` (not ``tournament/migrations/``)
is parsed with :mod:`ast`, and every import statement is collected, those inside
functions and methods included. Then:

(a) no module under ``tournament/selectors/`` imports a module under
    ``tournament/services/`` (reads do not call writes);
(b) nothing under ``scoring/`` imports ``tournament`` or ``django`` (the rules are pure);
(c) the project's modules import one another without a cycle of any length.

How an import becomes an edge of the module graph (a package's ``__init__`` is a node of
its own, named after the package):

* ``import a.b.c`` is an edge to ``a.b.c`` (to the longest prefix that is a project module);
* ``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to ``a.b``;
* relative imports are resolved against the importing module's package first.

The parent packages Python also runs on the way (``a`` and ``a.b`` for ``import a.b.c``)
are not edges: otherwise every package whose ``__init__`` re-exports from its submodules
would be a cycle with each of them. Imports by string (``importlib.import_module``) are
not seen.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "tournament")
EXCLUDED = ("tournament.migrations",)


@dataclass(frozen=True)
class Import:
    """One import statement's target, resolved to an absolute dotted name."""

    source: str  # the importing module
    name: str  # the absolute name imported (``a.b`` for ``from a.b import c``)
    names: tuple[str, ...]  # the names taken by ``from … import`` (empty for ``import``)
    line: int


def _is_under(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def discover(root: Path, packages=PACKAGES, excluded=EXCLUDED) -> dict[str, Path]:
    """Module name → file, for every ``.py`` file of the packages under ``root``."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            name = ".".join(parts)
            if any(_is_under(name, e) for e in excluded):
                continue
            modules[name] = path
    return modules


def imports_of(module: str, path: Path) -> list[Import]:
    """Every import statement of one file, at any depth, with relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    # The package a relative import starts from: a package's __init__ is in itself.
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                assert len(base) == len(here) - (node.level - 1), f"{module}: beyond top level"
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            taken = tuple(alias.name for alias in node.names)
            found.append(Import(module, name, taken, node.lineno))
    return found


def _known_prefix(name: str, modules) -> str | None:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def targets(imp: Import, modules) -> set[str]:
    """The project modules one import statement is an edge to (see the module docstring)."""
    found = set()
    if imp.names:
        for taken in imp.names:
            submodule = f"{imp.name}.{taken}"
            if submodule in modules:
                found.add(submodule)
            else:
                target = _known_prefix(imp.name, modules)
                if target:
                    found.add(target)
    else:
        target = _known_prefix(imp.name, modules)
        if target:
            found.add(target)
    return found


def graph_of(all_imports: list[Import], modules) -> dict[str, dict[str, list[int]]]:
    """module → {imported project module → lines of the imports}."""
    graph: dict[str, dict[str, list[int]]] = {module: {} for module in modules}
    for imp in all_imports:
        for target in targets(imp, modules):
            graph[imp.source].setdefault(target, []).append(imp.line)
    return graph


def strongly_connected(graph) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative: no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return components


def cycles(graph) -> list[str]:
    """One message per cycle: each strongly connected component of more than one module,
    and each module that imports itself, with the edges inside it."""
    messages = []
    for component in strongly_connected(graph):
        members = set(component)
        if len(component) == 1 and component[0] not in graph[component[0]]:
            continue
        edges = [
            f"    {source} -> {target} (line {', '.join(map(str, sorted(graph[source][target])))})"
            for source in component
            for target in sorted(graph[source])
            if target in members
        ]
        messages.append(f"cycle among {', '.join(component)}:\n" + "\n".join(edges))
    return messages


def selector_to_service(all_imports: list[Import], modules) -> list[str]:
    """(a) Imports of a module under tournament.services by one under tournament.selectors."""
    return [
        f"{imp.source} (line {imp.line}) imports {target}"
        for imp in all_imports
        if _is_under(imp.source, "tournament.selectors")
        for target in sorted(targets(imp, modules) or {imp.name})
        if _is_under(target, "tournament.services")
    ]


def scoring_impure(all_imports: list[Import]) -> list[str]:
    """(b) Imports of tournament or django by a module under scoring."""
    found = []
    for imp in all_imports:
        if not _is_under(imp.source, "scoring"):
            continue
        # ``from . import x`` resolves to a name; ``import django`` has it in ``name``.
        for name in [imp.name, *(f"{imp.name}.{n}" for n in imp.names)]:
            if _is_under(name, "tournament") or _is_under(name, "django"):
                found.append(f"{imp.source} (line {imp.line}) imports {name}")
                break
    return found


def project(root: Path = ROOT):
    modules = discover(root)
    all_imports = [imp for module, path in modules.items() for imp in imports_of(module, path)]
    return modules, all_imports


# --- the project -------------------------------------------------------------------------


@functools.cache
def this_project():
    """The repository's modules and imports, parsed once for the tests below."""
    return project(ROOT)


def test_modules_are_found():
    modules, all_imports = this_project()
    assert "tournament.services" in modules and "scoring" in modules
    assert "tournament.selectors.boxes" in modules
    assert not any(m.startswith("tournament.migrations") for m in modules)
    assert len(all_imports) > len(modules)


def test_selectors_do_not_import_services():
    modules, all_imports = this_project()
    found = selector_to_service(all_imports, modules)
    assert not found, "selectors import services:\n" + "\n".join(found)


def test_scoring_imports_neither_tournament_nor_django():
    _, all_imports = this_project()
    found = scoring_impure(all_imports)
    assert not found, "scoring imports tournament or django:\n" + "\n".join(found)


def test_no_import_cycles():
    modules, all_imports = this_project()
    found = cycles(graph_of(all_imports, modules))
    assert not found, f"{len(found)} import cycle(s):\n" + "\n".join(found)


# --- the checker itself ------------------------------------------------------------------


def test_checker_catches_what_it_should(tmp_path):
    files = {
        "scoring/__init__.py": "",
        "scoring/pure.py": "def f():\n    from django.db import models\n",
        "scoring/other.py": "from tournament import models\n",
        "tournament/__init__.py": "",
        "tournament/models.py": "",
        "tournament/selectors/__init__.py": "",
        "tournament/selectors/a.py": "def f():\n    from ..services import b\n",
        "tournament/selectors/c.py": "import tournament.services\n",
        "tournament/selectors/clean.py": "from tournament.models import X\n",
        "tournament/services/__init__.py": "from .b import g\n",
        # b -> d -> e -> b: a cycle of three, one edge inside a method.
        "tournament/services/b.py": "from tournament.services.d import h\n",
        "tournament/services/d.py": "class K:\n    def m(self):\n        from . import e\n",
        "tournament/services/e.py": "from tournament.services import b\n",
        "tournament/services/self.py": "from tournament.services import self\n",
        "tournament/migrations/__init__.py": "from tournament.services import b\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    modules, all_imports = project(tmp_path)
    assert "tournament.migrations" not in modules

    assert selector_to_service(all_imports, modules) == [
        "tournament.selectors.a (line 2) imports tournament.services.b",
        "tournament.selectors.c (line 1) imports tournament.services",
    ]
    assert scoring_impure(all_imports) == [
        "scoring.other (line 1) imports tournament",
        "scoring.pure (line 2) imports django.db",
    ]

    graph = graph_of(all_imports, modules)
    assert graph["tournament.services"] == {"tournament.services.b": [1]}
    found = cycles(graph)
    assert len(found) == 2, found
    three, itself = sorted(found)
    assert three.startswith(
        "cycle among tournament.services.b, tournament.services.d, tournament.services.e:"
    )
    assert "tournament.services.d -> tournament.services.e (line 3)" in three
    assert "tournament.services.e -> tournament.services.b (line 1)" in three
    assert itself == (
        "cycle among tournament.services.self:\n"
        "    tournament.services.self -> tournament.services.self (line 1)"
    )

    # Without the closing edge the graph has no cycle left.
    del graph["tournament.services.e"]["tournament.services.b"]
    del graph["tournament.services.self"]["tournament.services.self"]
    assert cycles(graph) == []
