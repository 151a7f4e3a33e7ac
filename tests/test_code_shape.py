"""The shape of ``lib``: one job per module said first, short functions, layers without cycles.

Read from the source (``ast``), nothing imported: a new module or function is held
to the same rules as the old ones.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIB = ROOT / "lib"
MAX_FUNCTION_LINES = 100
GAME_FOLDERS = {"search", "arena", "drawing"}  # lib/games packages that are not games


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(LIB.rglob("*.py"))}


def trees() -> Iterator[tuple[str, ast.Module]]:
    for name, path in MODULES.items():
        yield name, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_modules(name: str, tree: ast.Module) -> set[str]:
    """The project modules ``name`` imports, anywhere in its body (lazy imports included)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:  # relative: from the package of ``name``
                package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}"
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imported_modules(name, tree) for name, tree in trees()}


def layer(module: str) -> str:
    """The layer a module belongs to: lib.games.<game> for a game's folder, else its package."""
    parts = module.split(".")
    if parts[:2] == ["lib", "games"] and len(parts) > 2:
        return "lib.games." + parts[2]
    return ".".join(parts[:2])


def test_every_module_says_its_job_in_its_first_docstring_line():
    for name, tree in trees():
        doc = ast.get_docstring(tree)
        assert doc and doc.splitlines()[0].strip(), f"{name} has no docstring saying its job"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_function_in_lib_is_longer_than_a_screen(name):
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{name}: {', '.join(long)}"


def test_there_is_no_import_cycle():
    # Tarjan's strongly connected components: a component of two or more is a cycle
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in GRAPH:
        if node not in index:
            visit(node)
    assert not cycles


def test_only_the_ui_imports_streamlit():
    for name, tree in trees():
        if name.startswith("lib.ui"):
            continue
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.split(".")[0] == "streamlit" for n in names), name


def test_the_three_areas_never_import_each_other():
    areas = ("lib.games", "lib.routes", "lib.portfolio")
    for name, targets in GRAPH.items():
        mine = next((a for a in areas if name.startswith(a)), None)
        if mine is None:
            continue
        for target in targets:
            assert not any(target.startswith(a) for a in areas if a != mine), (name, target)
            assert not target.startswith("lib.ui"), (name, target)


def test_game_rules_import_only_the_contract():
    for name, targets in GRAPH.items():
        parts = name.split(".")
        if parts[:2] != ["lib", "games"] or len(parts) != 3 or parts[2] in GAME_FOLDERS:
            continue
        if MODULES[name].name != "__init__.py":
            continue
        allowed = {"lib.errors", "lib.common", "lib.games", "lib.games.core"}
        assert targets <= allowed, (name, targets - allowed)


def test_the_search_knows_no_game_and_no_arena():
    # the formula compiler, like the contract, knows no game: it reads a GameSpec's features;
    # so does the compiled solvers' warm-up, which the search asks whether it is compiling
    allowed = {
        "lib.games",
        "lib.games.compiled_code",
        "lib.games.core",
        "lib.games.formula",
        "lib.games.search",
        "lib.games.textbook_tree",
    }
    for name, targets in GRAPH.items():
        if name.startswith("lib.games.search"):
            project = {layer(t) for t in targets if t.startswith(("lib.games", "lib.ui"))}
            assert project <= allowed, (name, project - allowed)
