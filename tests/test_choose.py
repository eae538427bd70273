"""The lessons' one "choose, then see the verdict" widget (widgets/choose.py), and every
lesson's "Try it" made with it: each option of each lesson's widget is chosen in turn and
judged without an error."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import ipywidgets as ipw
import nbformat
import pytest

from tutor import Trump, TutorError, check_follow, parse_cards
from tutor.core.i18n import Text
from widgets import NOTHING, Buttons, Choose, Hand, Html, Menu, Number, Tick, Typed, answer_html, row
from widgets.choose import Choice

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
NUMBERED = sorted(LESSONS.glob("[0-9][0-9]-*.ipynb"))
TRY = [path for path in NUMBERED if any(c.get("id") == "try-code" for c in nbformat.read(path, as_version=4).cells)]


def test_each_choice_is_a_core_control_named_by_its_label() -> None:
    box = Choose(lambda play, trump, text, total, solo: "ok",
                 play=Buttons(["♠A", "♠K"], label="Your play"), trump=Menu.trumps("♠", label="Trump"),
                 text=Typed("♠A", label="Your cards"), total=Number(75, -30, 300, 5, label="Total"),
                 solo=Tick("独打"))
    kinds = {name: type(control) for name, control in box.controls.items()}
    assert kinds == {"play": ipw.ToggleButtons, "trump": ipw.Dropdown, "text": ipw.Text, "total": ipw.BoundedIntText,
                     "solo": ipw.Checkbox}
    assert [c.description for c in box.controls.values()] == ["Your play", "Trump", "Your cards", "Total", "独打"]
    assert box.controls["play"].style.description_width == "initial"  # a label is never cut short
    assert box.children == (*box.controls.values(), box.verdict)
    assert isinstance(box, ipw.VBox) and box._model_name == "VBoxModel"  # drawn by the core front end everywhere
    assert box.controls["text"].continuous_update is False  # judged on Enter, not on every key


def test_buttons_wait_for_a_click() -> None:
    calls: list[Any] = []

    def judge(play: str) -> str:
        calls.append(play)
        return play

    box = Choose(judge, play=Buttons(["♠A", "♠K"]))
    assert box.value == {"play": NOTHING} and not box.chosen
    assert box.verdict.value == "" and calls == []
    box.choose(play="♠K")
    assert calls == ["♠K"] and box.chosen and "♠K" in box.verdict.value
    assert box.verdict.value.startswith('<div role="status">')


def test_a_verdict_is_drawn_as_a_row() -> None:
    hand, lead = "♠K ♠K ♠5", "♠8 ♠8"
    box = Choose(lambda play: row(parse_cards(play), check_follow(hand, lead, play, "♥"), trump="♥"),
                 play=Buttons(["♠K ♠K", "♠K ♠5"], value="♠K ♠K"))
    assert "Legal: ♠K ♠K follows a pair in ♠ (W3)." in box.verdict.value
    box.choose(play="♠K ♠5")
    assert check_follow(hand, lead, "♠K ♠5", "♥").say() in box.verdict.value.replace("&#x27;", "'")


def test_any_value_may_be_an_option() -> None:
    """Options go to the page by position: None (nothing on the table), cards and trumps are
    options like any other, chosen and read back as themselves."""
    seen: list[Any] = []
    box = Choose(lambda table, card, trump: seen.append((table, card, trump)),
                 table=Menu([("—", None), "♥2"], value="♥2"), card=Menu(parse_cards("♠A ♥3")),
                 trump=Buttons([("no-trump", Trump(None)), ("♥", Trump("♥"))], value=Trump(None)))
    box.choose(table=None)
    assert seen[-1] == (None, parse_cards("♠A")[0], Trump(None)) and box.controls["table"].index == 0
    box.choose(trump=Trump("♥"), card=parse_cards("♥3")[0])
    assert seen[-1] == (None, parse_cards("♥3")[0], Trump("♥"))
    assert box.controls["card"].options == (("♠A", 0), ("♥3", 1))


def test_an_option_given_twice_is_offered_once() -> None:
    menu = Menu([*parse_cards("♠A ♠A ♥3"), *parse_cards("♥3 BJ")])
    assert [label for label, _ in menu.labels()] == ["♠A", "♥3", "BJ"]


def test_labels_made_by_the_rules_are_said_in_the_widgets_language() -> None:
    box = Choose(lambda trump: str(trump), lang="zh-Hans", trump=Menu.trumps("♥"))
    labels = [label for label, _ in box.controls["trump"].options]
    assert len(labels) == 5 and all("trumps" not in label for label in labels)
    assert box.value == {"trump": Trump("♥")}


def test_a_refusal_is_shown_as_its_reason() -> None:
    box = Choose(lambda cards: parse_cards(cards), cards=Typed("♠A"))
    box.choose(cards="♠1")
    assert "♠1" in box.verdict.value and "Traceback" not in box.verdict.value
    chinese = Choose(lambda cards: parse_cards(cards), lang="zh-Hans", cards=Typed("♠1"))
    assert chinese.verdict.value != box.verdict.value


def test_other_errors_are_not_hidden() -> None:
    with pytest.raises(ZeroDivisionError):
        Choose(lambda total: 1 / total, total=Number(0, 0, 5))


@pytest.mark.parametrize("make", [
    lambda: Choose(lambda play: play, play=["♠A"]),  # type: ignore[arg-type]  # options, not a choice
    lambda: Choose(lambda play: play, play=Buttons("♠A ♠K")),  # a string, not a list of options
    lambda: Choose(lambda play: play, play=Buttons(["♠A"], value="♠K")),  # not one of the options
    lambda: Choose(lambda play: play, play=Buttons(["♠A"])).choose(card="♠A"),  # no such choice
])
def test_a_wrong_wiring_is_refused_with_a_reason(make: Any) -> None:
    with pytest.raises(TutorError):
        make()


@pytest.mark.parametrize("answer, expected", [
    (None, ""),
    (Html("<b>!</b>"), "<b>!</b>"),
    ("a sentence", "a sentence"),
    (Text("{n} points", n=5), "5 points"),
    (TutorError(Text("refused")), "refused"),
    (check_follow("♠K ♠K ♠5", "♠8 ♠8", "♠K ♠5", "♥"), "Illegal (W3)"),
    ((parse_cards("♠A"), "and a sentence"), "and a sentence"),
    (parse_cards("♠A ♠K"), 'data-card="♠K"'),
    (Hand("♠A ♥3", "♥"), 'class="qd-hand"'),
])
def test_what_an_answer_looks_like(answer: object, expected: str) -> None:
    drawn = answer_html(answer)
    assert isinstance(drawn, Html) and expected in drawn and (expected or drawn == "")


# Every lesson's "Try it"


def try_widget(path: Path) -> Choose:
    """Run a lesson's code up to its "Try it" cell, in this process, and return that cell's widget."""
    namespace: dict[str, Any] = {"__name__": "__lesson__"}
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        if cell.id == "try-code":
            last = tree.body.pop()
            assert isinstance(last, ast.Expr), f"{path.stem}: the Try it cell ends with its widget"
            exec(compile(tree, cell.id, "exec"), namespace)
            widget = eval(compile(ast.Expression(last.value), cell.id, "eval"), namespace)
            assert isinstance(widget, Choose), f"{path.stem}: the Try it cell makes a Choose"
            return widget
        exec(compile(tree, cell.id, "exec"), namespace)
    raise AssertionError(f"{path.stem} has no Try it")


def options(choice: Choice) -> list[Any]:
    """Values worth trying for a choice: every option, the slider's ends and middle, both ticks,
    typed cards and a mistake."""
    if isinstance(choice, Buttons | Menu):
        return choice.values()
    if isinstance(choice, Number):
        return [choice.low, choice.high, choice.value]
    if isinstance(choice, Tick):
        return [True, False]
    return ["♠AA ♠KK", "BJ BJ SJ SJ", "♠1", "", choice.value]


@pytest.mark.parametrize("path", TRY, ids=[path.stem for path in TRY])
def test_every_option_of_a_lessons_try_it_is_judged(path: Path) -> None:
    box = try_widget(path)
    assert all(control.description for control in box.controls.values()), "every control is labelled"
    for name, choice in box.choices.items():
        for value in options(choice):
            box.choose(**{name: value})
            assert box.verdict.value.startswith('<div role="status">'), (path.stem, name, value)


def test_every_numbered_lesson_but_the_table_has_a_try_it() -> None:
    assert {path.stem for path in TRY} == {path.stem for path in NUMBERED} - {"00-welcome", "10-play",
                                                                               "11-playing-well"}


@pytest.mark.parametrize("path", NUMBERED, ids=[path.stem for path in NUMBERED])
def test_a_lesson_wires_no_widget_by_hand(path: Path) -> None:
    """A lesson's controls come from ``widgets`` (the "Try it" is a :class:`Choose`); only the
    table's page puts the link's notes above the table itself."""
    code = [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
    hand_wired = [cell.id for cell in code if "ipywidgets" in cell.source or ".observe(" in cell.source]
    assert hand_wired == ([] if path.stem != "10-play" else ["cell-1"])
