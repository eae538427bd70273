"""Finding English left in a text meant for a Chinese reader (a test helper).

A leak is a run of two or more ASCII letters: rule IDs (``W3``, ``R1–R4``), card
notation (``♠A``; the jokers ``BJ``/``SJ`` are allowed) and numbers never make one, so
what is found is almost surely an untranslated word, however short ("or", "no"). The ``{placeholders}`` of a template (a label the
front end fills in) are not words.

>>> english_words("你出了♠A ♠A（W3）。")
[]
>>> english_words("座位3出了BJ BJ：a pair or two。")
['pair', 'or', 'two']
>>> english_words("Seat 3: ok", allow={"Seat", "ok"}), english_words("已选 {count}/{pick} 张。")
([], [])
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[A-Za-z]{2,}")
_PLACEHOLDER = re.compile(r"\{\w+(?::[^{}]*)?\}")

ALLOWED: frozenset[str] = frozenset({"BJ", "SJ"})
"""Runs of letters allowed in any translated text: the jokers' notation."""


def english_words(text: str, allow: Iterable[str] = ()) -> list[str]:
    """The runs of 3+ ASCII letters in ``text``, except those in ``allow`` (and
    :data:`ALLOWED`), in order of appearance."""
    allowed = ALLOWED | frozenset(allow)
    return [word for word in _WORD.findall(_PLACEHOLDER.sub(" ", text)) if word not in allowed]


def assert_no_english(text: str, where: str = "", allow: Iterable[str] = ()) -> None:
    """Fail with the leaked words and the text when ``text`` holds English."""
    leaked = english_words(text, allow)
    assert not leaked, f"English {leaked} in {where or 'text'}: {text!r}"
