"""The modules of ``tutor`` and ``widgets`` are layers: no import cycle, not even one
hidden inside a function, and no private name borrowed from another module.

Every module is parsed (nothing is imported), and every ``import`` in it counts, at the
top or inside a function. Importing a package's submodule runs the package's
``__init__`` too; that implicit step is not counted (a package that imports its own
submodules is the ordinary shape), only the imports written down.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tutor", "widgets", "tools")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imports(name: str) -> Iterator[tuple[str, str, int]]:
    """``(module, imported name, line)`` for every import ``name``'s module writes, at any depth;
    the imported name is ``""`` for a whole module."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, "", node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:
                    yield submodule, "", node.lineno
                else:
                    yield base, alias.name, node.lineno


def graph() -> dict[str, set[str]]:
    """Module → the project modules it imports."""
    return {name: {module for module, _, _ in imports(name) if module in MODULES and module != name}
            for name in MODULES}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def borrowed(name: str, tree: ast.AST) -> Iterator[tuple[str, int]]:
    """``(module._name, line)`` for every private name of another project module that the
    module ``name`` (parsed as ``tree``) imports (``from tutor.x import _y``) or reads
    (``x._y`` where ``x`` is an imported project module). gettext's ``_`` is public by convention."""
    def private(imported: str) -> bool:
        return imported.startswith("_") and imported != "_" and not imported.startswith("__")

    package = name if MODULES.get(name, Path()).name == "__init__.py" else name.rpartition(".")[0]
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
                elif base in MODULES and base != name and private(alias.name):
                    yield f"{base}.{alias.name}", node.lineno
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            target = ast.unparse(node.value)
            module = aliases.get(target)
            if module is not None and module != name:
                yield f"{module}.{node.attr}", node.lineno


def private_imports() -> list[str]:
    """Every private name of a project module imported or read by another module."""
    return [f"{MODULES[name].relative_to(ROOT)}:{line} uses {used}"
            for name in MODULES
            for used, line in borrowed(name, ast.parse(MODULES[name].read_text("utf-8")))]


def test_every_module_is_seen() -> None:
    assert {"tutor.core.text", "tutor.rules.cards", "tutor.core.i18n", "tutor.teach.display", "tutor.teach.drills.base",
            "widgets.table"} <= set(MODULES)
    edges = graph()
    assert "tutor.core.text" in edges["tutor.rules.cards"] and "tutor.teach.drills.base" in edges["tutor.teach.drills.declare"]


def test_no_import_cycle() -> None:
    found = cycles(graph())
    assert not found, "import cycles (imports inside functions count):\n" + "\n".join(
        " ⇄ ".join(group) + "\n  " + "\n  ".join(f"{a} → {b}" for a in group for b in sorted(graph()[a])
                                                   if b in group) for group in found)


def test_the_text_module_is_the_bottom_layer() -> None:
    """Every message is a ``Text``: the module that makes one imports nothing of the project."""
    assert graph()["tutor.core.text"] == set()
    assert graph()["tutor.core.errors"] == {"tutor.core.text"}


def test_the_cycle_check_sees_a_cycle_inside_a_function() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_is_borrowed() -> None:
    found = private_imports()
    assert not found, "private names used across modules (make them public and documented):\n" + "\n".join(found)


@pytest.mark.parametrize("source", ["from tutor.rules.follow import _Position", "from .follow import _Position",
                                    "import tutor.rules.follow\nx = tutor.rules.follow._Position",
                                    "from tutor.rules import follow\nx = follow._Position",
                                    "def f():\n    from tutor.rules.follow import _Position"])
def test_the_private_check_sees_a_borrowed_name(source: str) -> None:
    assert [used for used, _ in borrowed("tutor.rules.ruff", ast.parse(source))] == ["tutor.rules.follow._Position"]


def test_the_private_check_lets_public_and_own_names_be() -> None:
    source = "from tutor.rules.follow import check_follow\nfrom tutor.core.i18n import _\nimport tutor.rules.follow\nx = tutor.rules.follow.__doc__"
    assert list(borrowed("tutor.rules.ruff", ast.parse(source))) == []
    assert list(borrowed("tutor.rules.follow", ast.parse("import tutor.rules.follow\nx = tutor.rules.follow._Position"))) == []


LAYERS = ("tutor.core", "tutor.rules", "tutor.play", "tutor.teach", "widgets", "tutor.server", "tools")
"""The packages from the bottom up: a module imports only from its own package and those below.
``tutor`` itself (its ``__init__``) is the rules' public face: it counts as the rules, and may also
hand on the random player of :mod:`tutor.play.bots`."""


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the package ``module`` belongs to."""
    if module == "tutor":
        return LAYERS.index("tutor.rules")
    for index, package in enumerate(LAYERS):
        if module == package or module.startswith(package + "."):
            return index
    raise AssertionError(f"{module} belongs to no layer: add its package to LAYERS")


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a package above its own."""
    return [f"{name} → {other}" for name in sorted(edges) for other in sorted(edges[name])
            if layer_of(other) > layer_of(name) and not (name == "tutor" and other.startswith("tutor.play."))]


def test_every_module_is_in_a_layer() -> None:
    for name in MODULES:
        layer_of(name)


def test_no_package_imports_from_a_package_above_it() -> None:
    found = upward_imports(graph())
    assert not found, "imports from a higher layer (" + " < ".join(LAYERS) + "):\n" + "\n".join(found)


def test_the_layer_check_sees_an_upward_import() -> None:
    assert upward_imports({"tutor.rules.game": {"tutor.play.search", "tutor.core.text"}}) == [
        "tutor.rules.game → tutor.play.search"]
    assert upward_imports({"tutor.teach.narration": {"tutor.play.coach"}}) == []
