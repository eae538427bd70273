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

import ast
import copy
import pickle
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from tutor import parse_cards
from tools.catalogs import ROOT, Message, code_messages, differences, lesson_notebooks, problems, read_catalog
from tutor.core.errors import TutorError
from tutor.core.i18n import LANGUAGES, Text, Translator, and_list, capitalized, locale_dir, negotiate
from tutor.teach.localize import LANGUAGE_CELL, READING_CELL, SWITCH_CELL, choose_language, language_switch, localize

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
    assert [c.id for c in page.cells] == [READING_CELL, LANGUAGE_CELL, SWITCH_CELL] + [c.id for c in english.cells]
    assert page.cells[1].source.endswith(f"set_language({language!r})")
    for ours, theirs in zip(page.cells[3:], english.cells, strict=True):
        assert ours.cell_type == theirs.cell_type
        if ours.cell_type == "code":
            assert ours.source == theirs.source  # the same examples and drills
        else:
            assert ours.source != theirs.source, f"{path.stem}#{ours.id} is not translated into {language}"
    assert english.cells[0].id not in (READING_CELL, LANGUAGE_CELL, SWITCH_CELL)  # the English notebook is untouched
    assert not any("tags" in c.metadata for c in english.cells)


def test_english_pages_keep_their_text_and_get_the_switch() -> None:
    english = nbformat.read(NOTEBOOKS[1], as_version=4)
    page = localize(english, NOTEBOOKS[1].stem, "en")
    assert [c.source for c in page.cells[3:]] == [c.source for c in english.cells]
    assert 'aria-current="page" lang="en"' in page.cells[2].source


def test_a_changed_english_cell_falls_back_to_english_until_translated_again() -> None:
    english = nbformat.read(NOTEBOOKS[1], as_version=4)
    cell = next(c for c in english.cells if c.cell_type == "markdown")
    cell.source += "\n\nA new sentence."
    page = localize(english, NOTEBOOKS[1].stem, "zh-Hans")
    assert page.cells[3 + english.cells.index(cell)].source == cell.source


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


# ---------------------------------------------------------------- plural forms

DEALT = ("{count} card is still to be dealt", "{count} cards are still to be dealt")


def test_a_plural_message_reads_in_the_form_its_count_needs() -> None:
    assert [Text.plural(*DEALT, count=n) for n in (1, 2, 0)] == [
        "1 card is still to be dealt", "2 cards are still to be dealt", "0 cards are still to be dealt"]
    left = Text.plural(*DEALT, count=1)
    assert (left.template, left.plural_template, left.params["count"]) == (*DEALT, 1)
    for n in (1, 5):  # Chinese has one form for every number (msgstr[0])
        assert Translator("zh-Hans")(Text.plural(*DEALT, count=n)) == f"还有{n}张牌没发"
        assert Translator("zh-Hant")(Text.plural(*DEALT, count=n)) == f"還有{n}張牌沒發"
    assert Translator("zh-Hans")(Text("{a}", a=Text.plural("a tractor", "{count} tractors", count=1))) == "1个拖拉机"
    with pytest.raises(TypeError):
        Text.plural(*DEALT, count=True)


def test_a_plural_message_missing_from_the_catalog_is_said_in_english() -> None:
    for n, said in ((1, "one thing nobody translated"), (3, "3 things nobody translated")):
        message = Text.plural("one thing nobody translated", "{count} things nobody translated", count=n)
        assert Translator("zh-Hans")(message) == said


@pytest.mark.parametrize("make", [copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))], ids=["copy", "pickle"])
def test_a_copied_plural_message_keeps_both_forms(make: Callable[[Text], Text]) -> None:
    for text in (Text.plural(*DEALT, count=1), capitalized(Text.plural(*DEALT, count=4))):
        copied = make(text)
        assert copied == text and copied.plural_template == DEALT[1] and type(copied) is type(text)
        assert all(Translator(language)(copied) == Translator(language)(text) for language in LANGUAGES)


def test_plural_messages_are_extracted_and_written_with_their_forms() -> None:
    assert DEALT in code_messages()["game"]
    for language in CHINESE:
        entry = read_catalog(locale_dir(language) / "game.po").get(DEALT)
        assert entry is not None and entry.id == DEALT and len(entry.string) == 1  # msgstr[0] only
        text = (locale_dir(language) / "game.po").read_text("utf-8")
        assert f'msgid_plural "{DEALT[1]}"\nmsgstr[0] ' in text


def test_the_catalog_check_reads_plural_forms() -> None:
    dealt = Message(DEALT, None, ())
    assert differences(dealt, ("还有{count}张牌没发",)) == []
    assert differences(dealt, ("还有牌没发",)) == ["placeholders [] instead of ['count']"]
    assert differences(dealt, ("{who}还有{count}张", "还有{count}张牌没发")) == ["form 0 adds placeholders ['who']"]


SAID = {"Text", "tr", "_"}
GENUINE = {
    "{who} declares with {cards}: {trump} (declaration {count}, D1–D5).",  # the first declaration, or an overturn
    "{lead} is not a throw; it always stands (L2)",  # one component (L2), or a throw that stands (L3)
    "you hold no {card}; call a card of which you hold exactly one copy",  # no copy, or both (F1)
}
"""Branches on one that choose between two different sentences, not two forms of one."""


def _template(node: ast.AST) -> str | None:
    """The template of a ``Text("…")`` or ``tr("…")`` written in ``node`` (not ``Text.plural``)."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in SAID \
                and call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            return call.args[0].value
    return None


def _on_one(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq | ast.NotEq) \
        and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 1


def test_no_branch_on_one_chooses_between_two_templates() -> None:
    """``Text.plural`` says a sentence whose English changes with a number, so no code picks
    the singular or the plural template itself (``if n == 1: Text("1 card") else Text("{n} cards")``)."""
    found = []
    for path in sorted([*(ROOT / "tutor").rglob("*.py"), *(ROOT / "widgets").rglob("*.py")]):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            pairs: list[tuple[ast.AST, ast.AST]] = []
            if isinstance(node, ast.IfExp) and _on_one(node.test):
                pairs.append((node.body, node.orelse))
            for body in (getattr(node, "body", None), getattr(node, "orelse", None)):
                if not isinstance(body, list):
                    continue
                for i, statement in enumerate(body):
                    if isinstance(statement, ast.If) and _on_one(statement.test):
                        ends = isinstance(statement.body[-1], ast.Return | ast.Raise)
                        after = statement.orelse or (body[i + 1:i + 2] if ends else [])
                        if after:
                            pairs.append((ast.Module(statement.body, []), ast.Module(after, [])))
            for one, other in pairs:
                first, second = _template(one), _template(other)
                if first and second and first != second and first not in GENUINE:
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')} {first[:60]!r}")
    assert not found, "singular/plural chosen by hand (use Text.plural):\n" + "\n".join(found)
