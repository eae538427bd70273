"""No code in ``tutor`` or ``widgets`` reads another class's private names: ``obj._x``, where
``obj`` is not ``self`` or ``cls`` (or ``super()``), is allowed only for a name its own module
defines (a class's private names, read by its other instances or its classmethods). A server
that drives a widget through its private calls, or a subclass that overrides its parent's
private methods from another module, fails here; so does a widget reading a session's insides.

Names defined nowhere in the project are a library's (the Voila patches of ``tutor/server``,
each with its reason) and are not this test's; names ending in ``_`` are protocols
(``_repr_html_``), not private.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tutor", "widgets")
FILES = sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and not name.endswith("_")


def defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, assignments at any level, attributes
    set on any object, class fields and ``__slots__`` entries."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)  # __slots__ entries, setattr names
    return {name for name in names if private(name)}


def made_by_cls(tree: ast.AST) -> set[int]:
    """The ids of the name nodes that read an instance a classmethod has just made (``made =
    cls(...)``, then ``made._x``): the class's own instance."""
    ids: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        made = {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "cls" for target in node.targets if isinstance(target, ast.Name)}
        ids |= {id(node) for node in ast.walk(function) if isinstance(node, ast.Name) and node.id in made}
    return ids


def own(value: ast.expr, made: set[int]) -> bool:
    """``value`` is the object's own: ``self``, ``cls``, ``super()`` or an instance ``cls`` made."""
    if isinstance(value, ast.Name):
        return value.id in ("self", "cls") or id(value) in made
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def borrowed(trees: dict[Path, ast.AST]) -> list[str]:
    """Every read of a private name another module of the project defines, as ``path:line: code``."""
    mine = {path: defined(tree) for path, tree in trees.items()}
    everywhere = set().union(*mine.values())
    found = []
    for path, tree in trees.items():
        made = made_by_cls(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and private(node.attr) and not own(node.value, made) and \
                    node.attr in everywhere and node.attr not in mine[path]:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


def test_no_class_reads_another_class_private_names() -> None:
    trees = {path: ast.parse(path.read_text("utf-8"), str(path)) for path in FILES}
    assert not borrowed(trees)


def test_a_server_driving_a_widget_through_its_private_calls_is_found() -> None:
    widget = ast.parse("class Page:\n    def _handle_custom_msg(self, content):\n        self._seen = content\n")
    server = ast.parse("def carry(view, content):\n    view._handle_custom_msg(content)\n    return view._seen\n")
    found = borrowed({ROOT / "widgets" / "page.py": widget, ROOT / "tutor" / "server.py": server})
    assert found == ["tutor/server.py:2: view._handle_custom_msg", "tutor/server.py:3: view._seen"]
    assert not borrowed({ROOT / "widgets" / "page.py": widget})  # its own names, read by itself
