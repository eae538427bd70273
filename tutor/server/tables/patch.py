"""What changed of a seat's view, sent as a patch: :func:`diff` of the view last sent and the
view now, which :func:`apply` turns back into the view now, exactly (``null`` values too:
no JSON-merge-patch ``null`` deletes). A patch is a JSON object of one of these forms:

- ``{"r": value}``: the value is replaced by ``value``;
- ``{"k": n, "a": items, "t": m}``: a list keeps its first ``n`` items, then ``items``, then
  its last ``m`` items (``"t"`` only when ``m`` is not 0): a card played from the middle of a
  hand, a card dealt into it, a line added to the log;
- ``{"o": n, "a": items}``: a list loses its first ``n`` items, and ``items`` follow (a log
  that keeps its last lines, scrolled);
- ``{"i": {index: patch}}``: a list of the same length, the items at those indexes patched;
- ``{"s": {key: value}, "p": {key: patch}, "d": [key, …]}`` (each part only when not empty):
  an object's keys set, patched and deleted.

:func:`receive` is the page's side (``static/client.js`` does the same): a ``traits`` message
with ``"full": true`` is the whole view; any other applies only on top of the version before it.

>>> old = {"phase": "playing", "log": ["a", "b"], "trump": None, "gone": 1}
>>> new = {"phase": "playing", "log": ["a", "b", "c"], "trump": "S"}
>>> p = diff(old, new)
>>> p
{'s': {'trump': 'S'}, 'p': {'log': {'k': 2, 'a': ['c']}}, 'd': ['gone']}
>>> apply(old, p) == new, diff(new, new)
(True, None)
>>> diff(["♠A", "♠K", "♥3", "♣2"], ["♠A", "♥3", "♣2"])  # ♠K played
{'k': 1, 'a': [], 't': 2}
>>> diff(["one", "two", "three"], ["two", "three", "four"])  # the log scrolled by a line
{'o': 1, 'a': ['four']}
>>> view = {}
>>> receive(view, {"kind": "traits", "version": 3, "full": True, "traits": {"hand": [1, 2]}})
True
>>> receive(view, {"kind": "traits", "version": 4, "traits": {}, "patch": {"hand": {"k": 1, "a": []}}})
True
>>> view["hand"], view[VERSION]
([1], 4)
>>> receive(view, {"kind": "traits", "version": 6, "traits": {"hand": []}})  # version 5 was missed
False
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["VERSION", "apply", "diff", "receive"]

VERSION: Final = "\x00version"
"""The key under which :func:`receive` keeps the version of the view it holds."""


def diff(old: Any, new: Any) -> dict[str, Any] | None:
    """The patch that turns ``old`` into ``new`` (``None``: they are equal). Values are JSON's.
    Parts Python finds equal are checked once more, for JSON (:func:`_same`)."""
    if old == new:
        return None if _same(old, new) else {"r": new}
    if type(old) is dict and type(new) is dict:
        put: dict[str, Any] = {}
        deeper: dict[str, Any] = {}
        for key, value in new.items():
            if key not in old:
                put[key] = value
            elif (part := diff(old[key], value)) is not None:
                if "r" in part:  # replaced: set
                    put[key] = part["r"]
                else:
                    deeper[key] = part
        gone = [k for k in old if k not in new]
        return {name: part for name, part in (("s", put), ("p", deeper), ("d", gone)) if part} or None
    if type(old) is list and type(new) is list:
        if len(old) == len(new):
            parts = {str(i): part for i, (a, b) in enumerate(zip(old, new)) if (part := diff(a, b)) is not None}
            if not parts:
                return None
            scrolled = _scrolled(old, new) if len(parts) > 1 else None
            if scrolled is not None:
                return {"o": scrolled, "a": new[len(new) - scrolled:]}
            return {"i": parts}  # the same items, some changed (the seats)
        head = _common(old, new)
        tail = _common(old[head:][::-1], new[head:][::-1])
        return {"k": head, "a": new[head:len(new) - tail], **({"t": tail} if tail else {})}
    return None if _same(old, new) else {"r": new}


SCROLL: Final = 4
"""The most lines a list is looked at as scrolled by (:func:`diff`'s ``"o"``)."""


def _common(old: list[Any], new: list[Any]) -> int:
    """How many first items ``old`` and ``new`` have in common."""
    kept = 0
    for a, b in zip(old, new):
        if not _same(a, b):
            break
        kept += 1
    return kept


def _scrolled(old: list[Any], new: list[Any]) -> int | None:
    """By how many items (at most :data:`SCROLL`, fewer than all) ``new`` is ``old`` scrolled: its
    first items gone, as many new ones after; ``None`` if it is not."""
    for by in range(1, min(SCROLL, len(old) - 1) + 1):
        if _same(old[by:], new[:len(new) - by]):
            return by
    return None


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``True == 1`` in Python, not in JSON): the same types all the way down.

    >>> _same({"a": [1, True]}, {"a": [1, True]}), _same({"a": [1, True]}, {"a": [1, 1]})
    (True, False)
    """
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return len(a) == len(b) and all(key in b and _same(value, b[key]) for key, value in a.items())
    if type(a) is list:
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def apply(old: Any, patch: dict[str, Any]) -> Any:
    """``old`` with ``patch`` applied (a new value; ``old`` is not changed)."""
    if "r" in patch:
        return patch["r"]
    if "i" in patch:
        items = list(old)
        for index, part in patch["i"].items():
            items[int(index)] = apply(old[int(index)], part)
        return items
    if "k" in patch:
        tail = patch.get("t", 0)
        return [*old[:patch["k"]], *patch["a"], *(old[len(old) - tail:] if tail else [])]
    if "o" in patch:
        return [*old[patch["o"]:], *patch["a"]]
    out = {k: v for k, v in old.items() if k not in patch.get("d", ())}
    out.update(patch.get("s", {}))
    for key, part in patch.get("p", {}).items():
        out[key] = apply(old[key], part)
    return out


def receive(view: dict[str, Any], message: dict[str, Any]) -> bool:
    """Take a ``traits`` message into ``view`` (the traits a page holds): ``False``, and
    ``view`` unchanged, when it is a patch on a version ``view`` does not hold (ask for the whole)."""
    version = message.get("version")
    if not message.get("full") and (VERSION not in view or version != view[VERSION] + 1):
        return False
    patched = {name: apply(view[name], part) for name, part in message.get("patch", {}).items()}
    view.update(message["traits"])
    view.update(patched)
    view[VERSION] = version
    return True
