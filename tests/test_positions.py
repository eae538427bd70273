"""A teacher's positions (tutor.teach.positions): the text format read and written, every
kind's drill judged by the rules module as its seeded drill is, and bad positions
refused with a note naming the entry — never a traceback."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.teach.drills import KINDS, AnswerKind, Drill, DrillError, generate
from tutor.core.i18n import Translator
from tutor.rules.notation import parse_cards
from tutor.teach.positions import (
    FORMS,
    MAX_POSITION,
    Position,
    PositionError,
    make_drill,
    parse_position,
    position_from_query,
    make_link,
    position_text,
    read_position,
)


def position_of(drill: Drill, form: str) -> Position:
    """The position a seeded drill shows (what a teacher would type to ask it)."""
    plays = tuple(cards for _, cards in drill.table.plays)
    asked = drill.shown if form in ("is-legal", "can-ruff", "beat-ruff", "is-tractor", "stands", "lead-instead",
                                    "cost") else ()
    return Position(drill.kind, form, drill.trump, hand=drill.hand,
                    leader=drill.table.plays[0][0] if plays else 0,
                    seat=drill.seat if drill.kind in ("throw", "tractor") and drill.seat is not None else 0,
                    table=plays, ask=asked,
                    others=tuple(cards for _, cards in drill.others))


def _seeded(kind: str, seed: int, level: int, lang: str = "en") -> tuple[Drill, str]:
    forms = KINDS[kind].forms
    return generate(kind, seed, level, lang), forms[seed % len(forms)]


SEEDED = [(kind, seed, level) for kind in FORMS for level in (1, 2, 3) for seed in range(6)]


@pytest.mark.parametrize(("kind", "seed", "level"), SEEDED)
def test_seeded_drill_as_a_position_is_the_same_drill(kind: str, seed: int, level: int) -> None:
    """Every seeded drill of the five kinds, written as a position and read back, asks
    the same question about the same cards and has the same answers (a trick's rule
    is the position's own: the lesson the trick is in)."""
    seeded, form = _seeded(kind, seed, level)
    text = position_text(position_of(seeded, form))
    mine = read_position(text)
    def asked(drill: Drill) -> tuple[object, ...]:  # everything but the wording (the lessons' engineers edit it)
        return (drill.kind, drill.trump, drill.hand, drill.seat, drill.table, drill.shown, drill.others,
                drill.answer, drill.pick, [c.key for c in drill.choices], drill.correct, drill.number, drill.rules,
                drill.rule if kind != "trick" else None)

    assert asked(mine) == asked(seeded), text
    assert mine.solutions() == seeded.solutions()
    if mine.answer is AnswerKind.CARDS:
        for cards in [*seeded.solutions()[0][:3], str(seeded.hand[0])]:
            ours, theirs = mine.check(cards), seeded.check(cards)  # the same verdict (the reason may
            assert (ours.correct, ours.rule, ours.answers, ours.error) == (  # list the cards in another order)
                theirs.correct, theirs.rule, theirs.answers, theirs.error)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(FORMS)), seed=st.integers(0, 2**31 - 1), level=st.sampled_from((1, 2, 3)),
       lang=st.sampled_from(("en", "zh-Hans", "zh-Hant")))
def test_round_trip(kind: str, seed: int, level: int, lang: str) -> None:
    """A drill written out as position text and read back is the same drill."""
    try:
        seeded, form = _seeded(kind, seed, level, lang)
    except DrillError:  # no natural position within the redraws: nothing to write out
        return
    position = position_of(seeded, form)
    drill = make_drill(position, lang)
    text = position_text(position)
    assert parse_position(text) == position
    assert read_position(text, lang) == drill
    made = make_link(text, lang)
    assert made.drill == drill and made.href is not None
    again, notes = position_from_query(made.href.partition("?")[2], lang)
    assert again == drill and notes == ()


@pytest.mark.parametrize(("text", "form", "correct"), [
    ("kind: follow; trump: ♥; lead: ♠K ♠K; hand: ♠3 ♠3 ♠5 ♥2; ask: ♠3 ♠5", "is-legal", "no"),
    ("kind=follow\ntrump=h\nleader=2\nlead=♠9\nplayed=♠3\nhand=♠A ♥4\nask=♥4", "is-legal", "no"),
    ("Kind: Follow  # a comment\n\ntrump: ♥; lead: ♠9 # led by seat 0\nhand: ♠A ♥4; ask: ♠A", "is-legal", "yes"),
    ("kind: ruff; trump: ♥; lead: ♠A; hand: ♥3 ♣4; ask: ♥3", "can-ruff", "yes"),
    ("kind: ruff; form: beat-ruff; trump: ♥; lead: ♠A; played: ♥5; hand: ♥3 ♥K ♣4; ask: ♥3", "beat-ruff", "no"),
    ("kind: trick; trump: ♥; leader: 3; lead: ♦3; played: ♣A / ♦3 / ♠4 / ♠5", "who-wins", "3"),
    ("kind: tractor; trump: ♠; ask: ♥9 ♥9 ♥8 ♥8", "is-tractor", "yes"),
    ("kind: tractor; trump: ♠; ask: ♥A ♥A ♥3 ♥3", "is-tractor", "no"),
    ("kind: throw; trump: ♥; seat: 2; hand: ♠A ♠K ♠K ♣3; throw: ♠A ♠K ♠K; others: ♠Q ♠Q ♠3 / ♠9 ♥4 / - / ♦4",
     "stands", "yes"),
], ids=["follow-W3", "follow-W2-lines", "follow-comments", "ruff-R2", "ruff-R5", "trick-T6", "tractor-M2", "tractor-wrap",
        "throw-L3"])
def test_choice_positions(text: str, form: str, correct: str) -> None:
    assert parse_position(text).form == form
    drill = read_position(text)
    assert drill.correct == frozenset({correct})
    verdict = drill.check(correct)
    assert verdict.correct and verdict.rule


def test_cards_positions_have_right_and_wrong_answers() -> None:
    follow = read_position("kind: follow; trump: ♥; lead: ♠K ♠K; hand: ♠3 ♠3 ♠5 ♥2 ♣A")
    assert (follow.check("♠3 ♠3").correct, follow.check("♠3 ♠5").correct, follow.check("♠3 ♠5").rule) == (
        True, False, "W3")
    ruff = read_position("kind: ruff; trump: ♥; lead: ♠A; played: ♥5; hand: ♥3 ♥K ♣4")
    assert ruff.check("♥K").correct and not ruff.check("♥3").correct and ruff.check("♥3").rule == "R5"
    picks = read_position("kind: tractor; trump: ♠; hand: ♥9 ♥9 ♥8 ♥8 ♥5 ♣3")
    assert picks.check("♥9 ♥9 ♥8 ♥8").correct and not picks.check("♥9 ♥9").correct
    cost = read_position("kind: throw; form: cost; trump: ♥; hand: ♠A ♠Q ♠Q; throw: ♠A ♠Q ♠Q; "
                         "others: ♠K ♠K / - / - / -")
    assert cost.check("15").correct and cost.check("15").rule == "L5"
    instead = read_position("kind: throw; form: lead-instead; trump: ♥; hand: ♠A ♠Q ♠Q; throw: ♠A ♠Q ♠Q; "
                            "others: ♠K ♠K / - / - / -")
    assert [c.label for c in instead.choices if c.key in instead.correct] == ["♠Q ♠Q"]


def test_said_in_chinese() -> None:
    drill = read_position("kind: trick; trump: ♥; lead: ♦3; played: ♣A", "zh-Hans")
    assert drill.question == Translator("zh-Hans")("With {trump}, seat {leader} led {lead}. Who wins this trick?",
                                                   trump=str(drill.trump), leader=0, lead=parse_cards("♦3"))


@pytest.mark.parametrize(("text", "says"), [
    ("kind: follow; colour: red", "colour: there is no such key"),
    ("kind: follow; trump: ♥; trump: ♠", "trump: it is given twice"),
    ("trump: ♥; hand: ♠3", "kind: the position needs its kind"),
    ("kind: chess", "kind: 'chess' is no kind of position"),
    ("kind: follow; form: guess; trump: ♥; lead: ♠K; hand: ♠3", "form: 'guess' is no form of a follow drill"),
    ("kind: follow; lead: ♠K; hand: ♠3", "trump: the position needs its trump"),
    ("kind: follow; trump: purple; lead: ♠K; hand: ♠3", "trump: 'purple' is not a suit"),
    ("kind: follow; trump: ♥; lead: ♠K ♠X; hand: ♠3", "lead: cannot read '♠X' at offset 3"),
    ("kind: follow; trump: ♥; lead: ♠K; hand: ♠3 ♠3 ♠3", "hand: three copies of ♠3"),
    ("kind: follow; trump: ♥; lead: ♠K ♠K; hand: ♠K ♠3", "the position has three copies of ♠K"),
    ("kind: follow; trump: ♥; lead: ♠K; hand: ♠AKQJ1098765432 ♣AKQJ1098765",
     "hand: 23 cards are more than a hand holds"),
    ("kind: follow; trump: ♥; lead: ♠K ♣K; hand: ♠3 ♠4", "lead: the lead ♠K ♣K mixes ♠ and ♣"),
    ("kind: follow; trump: ♥; lead: ♠K ♠Q; hand: ♠3", "hand: 1 cards cannot follow a lead of 2"),
    ("kind: follow; trump: ♥; lead: ♠K; played: ♠3 ♠4; hand: ♠5", "played: ♠3 ♠4 has 2 cards but the lead has 1"),
    ("kind: follow; trump: ♥; lead: ♠K; played: ♠3 / ♠4 / ♠5 / ♠6; hand: ♠7", "played: at most 3 plays"),
    ("kind: follow; trump: ♥; lead: ♠K; hand: ♠5; ask: ♠6", "ask: ♠6 must be cards of the hand"),
    ("kind: follow; trump: ♥; lead: ♠K; hand: ♠5; seat: 2", "seat: a follow drill does not use it"),
    ("kind: follow; trump: ♥; leader: 7; lead: ♠K; hand: ♠5", "leader must be a seat number from 0 to 4, not 7"),
    ("kind: follow; trump: ♥; hand: ♠5", "lead: a follow drill needs the cards led"),
    ("kind: follow; trump: ♥; lead: ♠K", "hand: 0 cards cannot follow a lead of 1"),
    ("kind: trick; trump: ♥; lead: ♠K", "played: a trick drill needs the plays after the lead"),
    ("kind: ruff; trump: ♥; lead: ♠K; hand: ♠3 ♣4", "hand: no play from it is a ruff that wins"),
    ("kind: ruff; form: beat-ruff; trump: ♥; lead: ♠K; hand: ♥3; ask: ♥3", "played: a beat-ruff question needs"),
    ("kind: throw; trump: ♥; hand: ♠A ♠K; throw: ♠A ♠K; others: - / -", "others: give the other 4 hands"),
    ("kind: throw; form: cost; trump: ♥; hand: ♠A ♠K; throw: ♠A ♠K; others: - / - / - / -",
     "throw: ♠A ♠K stands against the other hands"),
    ("kind: tractor; trump: ♥; hand: ♠A ♠K ♣3", "hand: it holds no tractor"),
    ("kind: tractor; form: is-tractor; trump: ♥", "ask: a is-tractor question needs the cards"),
    ("kind follow", "cannot read 'kind follow': write each entry as key: value"),
    ("x" * (MAX_POSITION + 1), "a position has at most 1500 characters"),
], ids=lambda value: value[:24])
def test_bad_positions_get_a_note(text: str, says: str) -> None:
    with pytest.raises(PositionError) as error:
        read_position(text)
    assert says in str(error.value)
    drill, notes = position_from_query("position=" + quote(text) + "&seed=3")
    assert drill is None and len(notes) == 2 and says in notes[0]
    assert notes[1] == "Ignored seed=3: this page does not use it."


def test_notes_are_said_in_the_learners_language() -> None:
    _, notes = position_from_query("position=" + quote("kind: chess"), "zh-Hant")
    assert notes and "chess" in notes[0] and not notes[0].startswith("This position")


@pytest.mark.parametrize(("query", "count"), [(None, 0), ("", 0), ("seed=3", 1), ("position=" + "x" * 7000, 1),
                                            ("position=a&position=b", 2), ("position=%FF%FE", 1), ("position=", 1),
                                            ("position=" + quote("kind: follow;" * 200), 1)])
def test_links_never_raise(query: str | None, count: int) -> None:
    drill, notes = position_from_query(query)
    assert drill is None
    assert len(notes) == count


TRICK = quote("kind: trick; trump: ♥; lead: ♠A; played: ♠3")


@pytest.mark.parametrize(("query", "says"), [
    ("seed=²", ["Ignored seed=²: this page does not use it."]),
    ("level=-1&kind=follow&x", ["Ignored level=-1: this page does not use it.",
                                "Ignored kind=follow: this page does not use it.",
                                "Ignored x=: this page does not use it."]),
    ("lang=xx", ["Ignored lang=xx: the languages are en, zh-Hans, zh-Hant."]),
    ("lang=", ["Ignored lang=: the languages are en, zh-Hans, zh-Hant."]),
    ("lang=en&lang=en", ["Ignored lang=en: it was given twice."]),
    (f"position={TRICK}", ["Ignored position=kind: trick; trump: ♥; lead: ♠: it was given twice."]),
    ("position=", ["Ignored position=: it was given twice."]),
    ("Position=x&=1", ["Ignored Position=x: this page does not use it.", "Ignored =1: this page does not use it."]),
], ids=["seed-superscript", "unused", "lang-bad", "lang-empty", "lang-twice", "position-twice", "position-empty",
        "unknown-keys"])
def test_every_parameter_the_page_does_not_use_gets_a_note(query: str, says: list[str]) -> None:
    """positions.ipynb?seed=² and the like: each parameter of the link the page does not
    use is said in a note; a good position beside them still opens."""
    drill, notes = position_from_query(f"position={TRICK}&{query}")
    assert drill is not None and drill.correct == frozenset({"0"})
    assert notes == tuple(says)


_PIECES = st.sampled_from(["kind", "form", "trump", "hand", "lead", "played", "ask", "seat", "leader", "throw",
                           "others", ":", "=", ";", "\n", "/", "-", "#", " ", "follow", "ruff", "trick", "throw",
                           "tractor", "is-legal", "cost", "♥", "none", "♠K", "♠3", "♥2", "BJ", "SJ", "♠AAK", "10",
                           "3", "7", "x", "大王", "\x00", "🂡"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join) | st.text(max_size=200))
def test_any_text_is_a_drill_or_a_note(text: str) -> None:
    """Whatever a link holds, reading it makes a drill or refuses it with a note: never
    another error (the page shows the note and keeps working)."""
    try:
        drill = read_position(text)
    except PositionError as error:
        assert str(error)
    else:
        assert drill.kind in FORMS and drill.solutions()[1] >= 1
    found, notes = position_from_query("position=" + quote(text))
    assert (found is None) == bool(notes)
