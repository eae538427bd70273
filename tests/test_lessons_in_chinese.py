"""Every lesson, run in each Chinese script, shows no English a learner would have to read.

Each lesson is put into the language as the Voila page does (:func:`tutor.teach.localize.localize`)
and executed in a real kernel (nbclient, widget state kept). Everything a learner sees is
then read: the markdown, the text and HTML outputs (tags, styles and scripts left out;
``aria-label`` and ``title`` kept: screen readers say them) and the text of every widget
(buttons, labels, the drill's question, hints and labels). Only card notation, rule IDs,
numbers and the English glossary terms the Chinese text gives in parentheses may be Latin.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import nbformat
import pytest
from leaks import english_words
from nbclient import NotebookClient

from tutor import parse_cards
from tools.catalogs import lesson_notebooks
from tutor.core.errors import TutorError
from tutor.teach.localize import localize

NOTEBOOKS = lesson_notebooks()
_HIDDEN = re.compile(r"<(style|script)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_SPOKEN = re.compile(r'\b(?:aria-label|title|alt)="([^"]*)"')
_UNSEEN = {"layout", "style", "lang", "storage_key", "checks_key", "mistakes_key", "progress_json",  # widget traits nobody reads
           "behavior", "orientation",  # an ipywidgets slider's settings
           "kind", "answer", "key", "phase", "waiting", "delay", "game_actions"}  # keys the front end switches on
_CODE = re.compile(r"`[^`]*`|\]\([^)]*\)")  # code spans and link targets are the same in every language
_CJK = re.compile(r"[\u4e00-\u9fff]")
_PARENTHESES = re.compile(r"[（(][^（）()]*[）)]")
_TOKEN = re.compile(r"[^\s,，。、；;:：「」“”\"'`]+")
_NOTATION_LETTERS = re.compile(r"[♠♥♣♦][A-Za-z0-9]*|[AKQJBS0-9]+")  # cards, and the bad ones a lesson explains
ALLOWED = {"None", "Enter"}  # Python's "no value" (lesson 8 explains it); the key named as printed on keyboards


def without_card_notation(text: str) -> str:
    """``text`` without the card notation it teaches (``♠AAK55``, ``sqj d3 ck``, and
    the bad examples ``BJBJ``, ``♠AAA`` it explains)."""

    def keep(match: re.Match[str]) -> str:
        if _NOTATION_LETTERS.fullmatch(match.group()):
            return " "
        try:
            parse_cards(match.group())
        except TutorError:
            return match.group()
        return " "

    return _TOKEN.sub(keep, text)


def visible_html(html: str) -> Iterator[str]:
    """What a person sees or hears of an HTML fragment."""
    html = _HIDDEN.sub(" ", html)
    yield from (unescape(label) for label in _SPOKEN.findall(html))
    yield unescape(_TAG.sub(" ", html))


def widget_texts(state: Any, key: str = "") -> Iterator[str]:
    """The user-visible strings of a widget's state (private traits, code, styles and the
    keys the front end switches on left out)."""
    if isinstance(state, dict):
        for name, value in state.items():
            if (not name.startswith("_") or name == "_options_labels") and name not in _UNSEEN:
                yield from widget_texts(value, name)
    elif isinstance(state, list):
        for value in state:
            yield from widget_texts(value, key)
    elif isinstance(state, str) and not state.startswith("IPY_MODEL_"):
        yield from visible_html(state) if "<" in state else (state,)


def seen(page: Any) -> Iterator[tuple[str, str]]:
    """(where, text) for everything a learner reads on an executed page."""
    for cell in page.cells:
        if cell.cell_type == "markdown" and cell.id not in ("qd-languages", "qd-reading"):  # the switch; a style
            for line in _CODE.sub(" ", _TAG.sub(" ", cell.source)).splitlines():
                if not (line.startswith("#") and _CJK.search(line)):  # a Chinese heading may add its English name
                    yield cell.id, _PARENTHESES.sub(" ", line)  # so may a term in parentheses: 拖拉机（tractor）
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/html" in data:
                for text in visible_html(data["text/html"]):
                    yield cell.id, text
            elif "text/plain" in data and "application/vnd.jupyter.widget-view+json" not in data:
                yield cell.id, data["text/plain"]
            if output.get("output_type") == "stream":
                yield cell.id, output["text"]
            if output.get("output_type") == "error":
                yield cell.id, f"error {output['ename']}: {output['evalue']}"
    state = page.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model_id, model in state.items():
        if model.get("model_name") in ("LayoutModel", "StyleModel") or model.get("model_name", "").endswith("StyleModel"):
            continue  # sizes and colours
        for text in widget_texts(model.get("state", {})):
            yield f"widget {model.get('model_name')} {model_id[:6]}", text


@pytest.mark.parametrize("language", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_reads_in_chinese(path: Path, language: str) -> None:
    page = localize(nbformat.read(path, as_version=4), path.stem, language)
    NotebookClient(page, timeout=120, kernel_name="python3", store_widget_state=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    leaks = []
    for where, text in seen(page):
        words = english_words(without_card_notation(text), ALLOWED)
        if words:
            leaks.append(f"{where}: {words[:6]} in {text.strip()[:120]!r}")
    assert not leaks, f"English left in {path.stem} ({language}):\n" + "\n".join(leaks[:30])
