"""What changed of a seat's view, sent as a patch: :func:`diff` of the view last sent and the
view now, which :func:`apply` turns back into the view now, exactly (``null`` values too:
no JSON-merge-patch ``null`` deletes). A patch is a JSON object of one of three forms:

- ``{"r": value}``: the value is replaced by ``value``;
- ``{"k": n, "a": items}``: a list keeps its first ``n`` items, then ``items`` follow;
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

import json
from typing import Any, Final

__all__ = ["VERSION", "apply", "diff", "receive"]

VERSION: Final = "\x00version"
"""The key under which :func:`receive` keeps the version of the view it holds."""


def diff(old: Any, new: Any) -> dict[str, Any] | None:
    """The patch that turns ``old`` into ``new`` (``None``: they are equal). Values are JSON's."""
    if _same(old, new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        put = {k: v for k, v in new.items()
               if k not in old or (not _same_kind(old[k], v) and not _same(old[k], v))}
        deeper = {k: p for k, v in new.items() if k in old and k not in put and (p := diff(old[k], v)) is not None}
        gone = [k for k in old if k not in new]
        return {name: part for name, part in (("s", put), ("p", deeper), ("d", gone)) if part}
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):  # the same items, some changed (the seats)
            return {"i": {str(i): part for i, (a, b) in enumerate(zip(old, new)) if (part := diff(a, b)) is not None}}
        kept = 0
        for a, b in zip(old, new):
            if not _same(a, b):
                break
            kept += 1
        return {"k": kept, "a": new[kept:]}
    return {"r": new}


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``True == 1`` in Python, not in JSON)."""
    return a == b and type(a) is type(b) and (not isinstance(a, dict | list) or json.dumps(a) == json.dumps(b))


def _same_kind(a: Any, b: Any) -> bool:
    """Whether a patch goes into ``a`` to make ``b`` (both objects, or both lists)."""
    return (isinstance(a, dict) and isinstance(b, dict)) or (isinstance(a, list) and isinstance(b, list))


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
        return [*old[:patch["k"]], *patch["a"]]
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
