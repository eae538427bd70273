"""No drill gives its answer away before it is answered: the cards the drill player sends
the page are drawn without any mark that rests on what the drill asks.

A card's face can carry two marks besides the card: its points (a badge, C3) and that it
is a trump (an edge, ", trump" in its name, the "Trumps" group of a hand). Both are facts a
drill may ask. So, for every kind, level and many seeds, the page's state before any
answer (``DrillPlayer.state``) is read as a learner would read it, and:

- in a drill that asks the trump — one of the bidding rules' (D1–D6), which decide it —
  every card marked as a trump is a trump by what the screen says in words (``Seat 3
  declared ♥2``, ``With ♥ trumps``) — or, when the screen names no trump, one that is a
  trump whatever the trump (a 2 or a joker). (Elsewhere the trump is a given of the
  position, which its cards may well show);
- no card whose points the answer rests on carries its points: the answer is recomputed
  from the screen alone (``test_drills_fair``), and the cards whose points that reads are
  the cards that must be drawn without a badge.

Lesson 03's kitty flips drew the suit that decides trump with the trump edge, and lesson
01's point drills the badges on the very cards to count: both failed here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

import pytest

from test_drills import RULE_KINDS, expected_cards_ok, expected_choice, expected_number
from test_drills_fair import NotOnScreen, screen
from tutor import Trump
from tutor.rules.bidding import flip_trump
from tutor.rules.cards import Card
from tutor.rules.notation import parse_cards
from tutor.core.i18n import Translator
from tutor.teach.display import hand_html
from tutor.teach.drills import KINDS, AnswerKind, Drill
from widgets.drill import DrillPlayer

_DECLARED = re.compile(r"\b(You|Seat \d) declared ")
SEEDS = range(0, 80)
LEVELS = (1, 2, 3)
TRUMP_RULES = frozenset({"D1", "D2", "D3", "D4", "D5", "D6"})
"""The bidding rules: a drill practising one asks what decides the trump."""


class Faces(HTMLParser):
    """The card faces in some markup, each as ``card`` (its notation), ``classes``, ``name``
    (what a screen reader says), ``points`` (whether it carries its points badge) and
    ``group`` (the group of a hand it is held in: "Trumps", a suit, or None)."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[dict[str, object]] = []
        self._open: list[tuple[str, object]] = []  # ("card", face) / ("group", label) / ("", None)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if "qd-card" in classes:
            group = next((label for what, label in reversed(self._open) if what == "group"), None)
            card: dict[str, object] = {"card": a.get("data-card"), "classes": classes,
                                       "name": a.get("aria-label") or "", "points": False, "group": group}
            self.cards.append(card)
            self._open.append(("card", card))
            return
        if "qd-points" in classes:
            face = next(face for what, face in reversed(self._open) if what == "card")
            face["points"] = True  # type: ignore[index]
        self._open.append(("group", a.get("aria-label")) if "qd-group" in classes else ("", None))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()


def faces(markup: str) -> list[dict[str, object]]:
    parser = Faces()
    parser.feed(markup)
    return parser.cards


def drawn(state: dict) -> tuple[list[dict[str, object]], set[str]]:
    """Every card face the page is sent (the picker's cards with their spoken names), and the
    notations of the cards drawn as trumps by their place in a hand (the "Trumps" group). A
    picker's card shows its points if its face or its label (which says the face's text) does."""
    found = faces(state.get("table_html", "")) + faces(state.get("shown_html", "")) + faces(state.get("hand_html", ""))
    grouped = {str(face["card"]) for face in found if face["group"] == "Trumps"}
    for card in state.get("hand", []):
        face, = faces(card["face"])
        face["name"] = card["name"]
        face["points"] = face["points"] or bool(re.search(r"[♠♥♣♦★]\ufe0e?\d+ — ", card["label"]))
        found.append(face)
        if card["group"] == "Trumps":
            grouped.add(card["text"])
    return found, grouped


def screen_trump(drill: Drill) -> Trump:
    """The trump as the screen says it: ``With … trumps``, or the suit of a declared 2
    (D1), or — when it says none — no-trump, whose trumps are trumps whatever is declared."""
    seen = screen(drill)
    try:
        return seen.trump
    except NotOnScreen:
        pass
    if _DECLARED.search(drill.question) and drill.shown:
        return flip_trump(drill.shown[0])
    return Trump(None)


@contextmanager
def points_read(read: set[str]) -> Iterator[None]:
    """Record the notation of every card whose ``points`` is read meanwhile."""
    slot = Card.__dict__["points"]

    class Traced:
        def __get__(self, card: Card | None, owner: type | None = None) -> object:
            if card is None:
                return self
            read.add(str(card))
            return slot.__get__(card, owner)

        def __set__(self, card: Card, value: int) -> None:
            slot.__set__(card, value)

    Card.points = Traced()  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        Card.points = slot  # type: ignore[misc]


def cards_counted(drill: Drill) -> set[str]:
    """The cards whose points the answer rests on: those the answer, recomputed from the
    screen alone, reads the points of."""
    seen = screen(drill)
    read: set[str] = set()
    with points_read(read):
        if drill.answer is AnswerKind.CHOICE:
            expected_choice(seen)
        elif drill.answer is AnswerKind.NUMBER:
            if drill.kind != "throw":  # a failed throw's cost rests on how many cards it holds (L5)
                expected_number(seen)
        else:
            expected_cards_ok(seen, tuple(parse_cards(drill.solutions()[0][0])))
    return read


def marks_resting_on_the_answer(kind: str, seed: int, level: int) -> list[str]:
    """What the page is sent for this drill that gives its answer away (empty: nothing)."""
    player = DrillPlayer(kind, seed=seed, level=level, lang="en")
    drill, state = player.drill, player.state
    assert drill is not None and not player.feedback
    cards, grouped = drawn(state)
    trump = screen_trump(drill) if TRUMP_RULES & set(drill.rules) else drill.trump
    problems = []
    for face in cards:
        card, = parse_cards(str(face["card"]))
        marked = "qd-trump" in face["classes"] or str(face["name"]).endswith(", trump")
        if marked and not trump.is_trump(card):
            problems.append(f"{card} is drawn as a trump, but the screen says {trump}")
    problems += [f"{c} is held among the trumps, but the screen says {trump}" for c in sorted(grouped)
                 if not trump.is_trump(parse_cards(c)[0])]
    counted = cards_counted(drill)
    problems += [f"{face['card']} shows its points, which the answer counts" for face in cards
                 if face["points"] and face["card"] in counted]
    return problems


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", RULE_KINDS)
def test_no_drill_is_drawn_with_its_answer(kind, level):
    for seed in SEEDS:
        problems = marks_resting_on_the_answer(kind, seed, level)
        assert not problems, (kind, seed, level, problems[:3])


@pytest.mark.parametrize("kind", [k for k, info in KINDS.items() if info.advice])
def test_the_coachs_drills_show_no_answer_either(kind):
    """The coach's drills ask plays, never points or the trump: their cards may show both,
    but only the trump the question names."""
    for seed in range(6):
        player = DrillPlayer(kind, seed=seed, level=1, lang="en")
        cards, grouped = drawn(player.state)
        trump = screen_trump(player.drill)
        assert all(trump.is_trump(parse_cards(str(f["card"]))[0]) for f in cards if "qd-trump" in f["classes"])
        assert all(trump.is_trump(parse_cards(c)[0]) for c in grouped)


def test_the_check_sees_both_marks():
    """The check itself: the point drills do count points, and the kitty flips' screen names
    no trump — so a badge, or a trump edge on a side suit, would be caught."""
    counted = [cards_counted(DrillPlayer("points", seed=s, level=1, lang="en").drill) for s in range(4)]
    assert all(counted)
    flip = DrillPlayer("declare", seed=2, level=1, lang="en").drill
    assert "which card decides trump" in flip.question and screen_trump(flip) == Trump(None)
    badge = faces('<span class="qd-card qd-s" data-card="♠5"><span class="qd-rank">5</span>'
                  '<span class="qd-points" aria-hidden="true">5</span></span>')
    assert badge == [{"card": "♠5", "classes": ["qd-card", "qd-s"], "name": "", "points": True, "group": None}]
    held = faces(hand_html(parse_cards("♥3 ♠K ♠4"), Trump("♥"), tr=Translator("en"), style=False))
    assert [(f["card"], f["group"], f["points"]) for f in held] == [("♥3", "Trumps", False), ("♠K", "♠", True),
                                                                     ("♠4", "♠", False)]
