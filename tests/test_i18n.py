"""Every word in English, Simplified and Traditional Chinese (issue 6).

- The catalogs are complete and in step: every message of the code and every markdown
  cell of every lesson has a reviewed translation in both Chinese scripts, with the same
  placeholders (and, in lesson text, the same rule IDs, cards, code and links).
- The language versions of a lesson cannot drift: a lesson in any language is the English
  notebook with its markdown translated — same cells, same code, so the same examples and
  the same drills.
- The messages themselves: :class:`Text` reads as English and says itself in Chinese.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from tutor import parse_cards
from tutor.catalogs import code_messages, lesson_notebooks, problems
from tutor.errors import TutorError
from tutor.i18n import LANGUAGES, Text, Translator, and_list, capitalized, negotiate
from tutor.localize import LANGUAGE_CELL, SWITCH_CELL, choose_language, language_switch, localize

CHINESE = ("zh-Hans", "zh-Hant")
NOTEBOOKS = lesson_notebooks()


def test_every_message_and_lesson_text_is_translated_and_reviewed() -> None:
    found = problems()
    assert not found, f"{len(found)} catalog problems (./dev catalogs lists them):\n" + "\n".join(found[:40])


def test_messages_are_found_in_code_and_lessons() -> None:
    messages = code_messages()
    assert "Streak: {count}" in messages["drills"]  # a widget label marked with N_
    assert "{first} and {last}" in messages["rules"]
    assert sum(len(found) for found in messages.values()) > 300


@pytest.mark.parametrize("language", CHINESE)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_lesson_is_the_same_notebook_in_every_language(path: Path, language: str) -> None:
    english = nbformat.read(path, as_version=4)
    page = localize(english, path.stem, language, "seed=3")
    assert [c.id for c in page.cells] == [LANGUAGE_CELL, SWITCH_CELL] + [c.id for c in english.cells]
    assert page.cells[0].source.endswith(f"set_language({language!r})")
    for ours, theirs in zip(page.cells[2:], english.cells, strict=True):
        assert ours.cell_type == theirs.cell_type
        if ours.cell_type == "code":
            assert ours.source == theirs.source  # the same examples and drills
        else:
            assert ours.source != theirs.source, f"{path.stem}#{ours.id} is not translated into {language}"
    assert english.cells[0].id not in (LANGUAGE_CELL, SWITCH_CELL)  # the English notebook is untouched


def test_english_pages_keep_their_text_and_get_the_switch() -> None:
    english = nbformat.read(NOTEBOOKS[1], as_version=4)
    page = localize(english, NOTEBOOKS[1].stem, "en")
    assert [c.source for c in page.cells[2:]] == [c.source for c in english.cells]
    assert 'aria-current="page" lang="en"' in page.cells[1].source


def test_a_changed_english_cell_falls_back_to_english_until_translated_again() -> None:
    english = nbformat.read(NOTEBOOKS[1], as_version=4)
    cell = next(c for c in english.cells if c.cell_type == "markdown")
    cell.source += "\n\nA new sentence."
    page = localize(english, NOTEBOOKS[1].stem, "zh-Hans")
    assert page.cells[2 + english.cells.index(cell)].source == cell.source


@pytest.mark.parametrize(("query", "cookie", "accept", "expected"), [
    ("lang=zh-Hans", "zh-Hant", "en", "zh-Hans"),  # a shared link wins
    ("seed=1", "zh-Hant", "zh-CN", "zh-Hant"),  # then what this browser chose before
    ("", None, "zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"),  # then the browser's languages
    ("", None, "zh-TW", "zh-Hant"),
    ("", None, "zh-HK,en;q=0.5", "zh-Hant"),
    ("", None, "zh-Hant-TW", "zh-Hant"),
    ("", None, "en-US,zh-CN;q=0.5", "en"),
    ("", None, "fr-FR,zh-CN;q=0.5", "zh-Hans"),  # the first the course speaks
    ("", None, "fr-FR", "en"),
    ("", None, "zh-CN;q=0, en", "en"),
    ("lang=xx", "yy", "garbage;;q=abc,,", "en"),  # nothing usable: English
    ("lang=", None, None, "en"),
    (None, None, "*", "en"),
])
def test_the_page_language_is_chosen_from_link_memory_and_browser(query: str | None, cookie: str | None,
                                                                   accept: str | None, expected: str) -> None:
    assert choose_language(query, cookie, accept) == expected


def test_the_switch_keeps_the_link_and_cannot_be_injected() -> None:
    html = language_switch("en", 'seed=5&kind=follow&lang=en&x="><script>')
    assert "?seed=5&amp;kind=follow&amp;x=%22%3E%3Cscript%3E&amp;lang=zh-Hans" in html
    assert "<script>" not in html


def test_negotiate_refuses_nothing() -> None:
    for header in ("", ",,,", "q=1", "zh;q=1.5.5", "x" * 10_000, "zh-" * 300):
        assert negotiate(header) in LANGUAGES


def test_text_reads_as_english_and_is_said_in_chinese() -> None:
    text = Text("{card} is not in your hand", card=parse_cards("BJ")[0])
    assert text == "BJ is not in your hand" and isinstance(text, str)
    with pytest.raises(AttributeError):
        text.template = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        text.params["card"] = "♠A"  # type: ignore[index]
    for language in CHINESE:
        said = Translator(language)(text)
        assert "大王" in said and "hand" not in said


@pytest.mark.parametrize("make", [copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))], ids=["copy", "pickle"])
def test_a_copied_message_is_still_translatable(make: Callable[[Text], Text]) -> None:
    for text in (Text("{card} is not in your hand", card=parse_cards("BJ")[0]), capitalized(Text("trumps"))):
        copied = make(text)
        assert isinstance(copied, Text) and copied == text and copied.template == text.template
        for language in LANGUAGES:
            assert Translator(language)(copied) == Translator(language)(text)


def test_no_cards_say_nothing() -> None:
    assert Text("you played {cards}", cards=()) == "you played "
    assert Translator("zh-Hans")(Text("{cards}", cards=[])) == ""


def test_nested_messages_lists_and_sentences_are_translated_whole() -> None:
    listed = and_list([Text("trumps"), "♠", "♥"])
    assert listed == "trumps, ♠ and ♥"
    assert Translator("zh-Hans")(listed) == "主牌、♠和♥"
    assert capitalized(Text("trumps")) == "Trumps"
    assert Translator("zh-Hant")(capitalized(Text("trumps"))) == "主牌"


def test_unknown_languages_are_refused_clearly() -> None:
    with pytest.raises(TutorError, match="unknown language 'fr'") as refused:
        Translator("fr")
    assert "不认识的语言" in Translator("zh-Hans")(refused.value.args[0])
    english = nbformat.read(NOTEBOOKS[1], as_version=4)
    with pytest.raises(ValueError, match="unknown language"):  # nothing else reaches the language cell's code
        localize(english, NOTEBOOKS[1].stem, "en')\nimport os  #")
