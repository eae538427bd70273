"""The learner's own mistakes come back (issue 27, item 5): the store of costly table plays
(tutor.teach.mistakes) — kept, due, answered, cleared after three right answers in a row, read
back from whatever a browser holds — the table's ``review=mistakes`` link, and the home page
listing what has come due (served: widgets.course.CourseMap; static: its facts for home.js)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from functools import cache

import pytest

from tutor.core.errors import TutorError
from tutor.core.i18n import LANGUAGES, Text, Translator
from tutor.play.record import HEADER, export_hand
from tutor.play.strategy import play_computer_hand
from tutor.rules.actions import Play
from tutor.rules.game import Game
from tutor.teach.course import parse_link
from tutor.teach.drills.progress import MAX_REVIEWS, Progress, is_due, utc
from tutor.teach.mistakes import (CLEARED_AFTER, MAX_HAND, MAX_KEPT, MAX_STORED, MISTAKES_KEY, REVIEW_LINK, Kept,
                                  Mistakes, MistakesError, ToReview, position_key, to_review)

NOW = utc(2025, 3, 1, 12)


@cache
def hand(seed: int = 3) -> tuple[str, tuple[tuple[int, str], ...]]:
    """A finished hand's record and seat 0's plays in it (index, cards)."""
    game = play_computer_hand(seed)
    plays = tuple((i, str(a.cards)) for i, a in enumerate(game.history) if isinstance(a, Play) and a.seat == 0)
    return export_hand(game), plays


def kept(count: int = 2, seed: int = 3, now: object = NOW) -> Mistakes:
    text, plays = hand(seed)
    return Mistakes().keep(text, 0, plays[:count], now)  # type: ignore[arg-type]


# ----------------------------------------------------------------- keep, due, answered


def test_the_storage_key_and_the_link_are_the_courses() -> None:
    assert MISTAKES_KEY == "qidong-tutor/mistakes/v1"
    assert MISTAKES_KEY not in ("qidong-tutor/progress/v1", "qidong-tutor/checks/v1")
    assert REVIEW_LINK == "10-play.ipynb?review=mistakes"


def test_a_kept_play_comes_back_a_little_later() -> None:
    store = kept(2)
    assert [k.index for k in store.kept] == [p[0] for p in hand()[1][:2]]
    assert all(k.seat == 0 and k.cleared == 0 and k.hand == hand()[0] for k in store.kept)
    assert store.due(NOW) == ()
    later = NOW + timedelta(minutes=5)
    assert {k.key for k in store.due(later)} == {k.key for k in store.kept}


def test_due_is_most_overdue_first() -> None:
    first = kept(1)
    both = first.keep(hand(5)[0], 0, hand(5)[1][:1], NOW + timedelta(hours=1))
    due = both.due(NOW + timedelta(days=1))
    assert [k.hand for k in due] == [hand(3)[0], hand(5)[0]]
    assert both.due(NOW + timedelta(minutes=5)) == first.kept  # the second is not due yet


def test_a_hand_kept_twice_is_not_duplicated_and_keeps_its_schedule() -> None:
    store = kept(2)
    again = store.keep(hand()[0], 0, hand()[1][:3], NOW + timedelta(days=3))
    assert len(again.kept) == 3 and again.kept[:2] == store.kept


def test_the_key_is_stable_and_names_the_hand_and_the_play() -> None:
    store = kept(2)
    keys = [k.key for k in store.kept]
    assert keys == [position_key(hand()[0], i) for i, _ in hand()[1][:2]]
    assert len(set(keys)) == 2
    assert [k.key for k in Mistakes.from_json(store.to_json())[0].kept] == keys
    assert position_key(hand(5)[0], hand()[1][0][0]) != keys[0]


def test_at_most_max_kept_are_kept_the_oldest_give_way() -> None:
    header = HEADER + "\nseed: {}"
    store = Mistakes()
    for i in range(MAX_KEPT + 5):
        store = store.keep(header.format(i), 0, [(60, "♠A")], NOW + timedelta(seconds=i))
    assert len(store.kept) == MAX_KEPT
    assert store.kept[0].hand == header.format(5) and store.kept[-1].hand == header.format(MAX_KEPT + 4)


@pytest.mark.parametrize(("hand_text", "seat", "plays", "now"), [
    ("not a record", 0, [], NOW),
    (HEADER + "x" * MAX_HAND, 0, [], NOW),
    (HEADER, 5, [], NOW),
    (HEADER, True, [], NOW),
    (HEADER, 0, [(60, "♠Z")], NOW),
    (HEADER, 0, [(-1, "♠A")], NOW),
    (HEADER, 0, [("60", "♠A")], NOW),
    (HEADER, 0, [(60, "")], NOW),
    (HEADER, 0, [60], NOW),
    (HEADER, 0, [], NOW.replace(tzinfo=None)),
], ids=["not-a-record", "too-long", "seat-5", "seat-bool", "bad-cards", "negative-index", "index-text", "no-cards",
        "not-a-pair", "naive-time"])
def test_what_is_not_a_position_is_refused_with_a_reason(hand_text: object, seat: object, plays: object,
                                                       now: object) -> None:
    with pytest.raises(MistakesError) as caught:
        Mistakes().keep(hand_text, seat, plays, now)  # type: ignore[arg-type]
    assert isinstance(caught.value, TutorError) and str(caught.value)


def _answer_when_due(store: Mistakes, key: str, accepted: bool, helped: bool = False) -> Mistakes:
    item = store.get(key)
    assert item is not None
    return store.answered(key, accepted, helped, item.due)


def test_three_right_answers_in_a_row_clear_a_position() -> None:
    store = kept(1)
    key = store.kept[0].key
    for streak in range(1, CLEARED_AFTER):
        before = store.get(key)
        store = _answer_when_due(store, key, True)
        after = store.get(key)
        assert before is not None and after is not None
        assert after.cleared == streak and after.due - before.due > timedelta(0)
    store = _answer_when_due(store, key, True)
    assert store.get(key) is None and store.kept == ()


@pytest.mark.parametrize(("accepted", "helped"), [(False, False), (True, True), (False, True)])
def test_a_miss_or_a_helped_answer_starts_the_streak_again(accepted: bool, helped: bool) -> None:
    key = kept(1).kept[0].key
    store = _answer_when_due(_answer_when_due(kept(1), key, True), key, True)
    assert store.kept[0].cleared == 2
    answered_at = store.kept[0].due
    store = _answer_when_due(store, key, accepted, helped)
    item = store.get(key)
    assert item is not None and item.cleared == 0
    assert item.due - answered_at <= timedelta(minutes=10)  # Again: it comes back soon


def test_an_answer_before_the_position_is_due_or_to_an_unknown_key_changes_nothing() -> None:
    store = kept(1)
    key = store.kept[0].key
    assert store.answered(key, True, False, NOW) is store  # not due: a retry right after the review
    assert store.answered("nothing-0", True, False, NOW + timedelta(days=9)) is store
    with pytest.raises(MistakesError):
        store.answered(key, True, False, NOW.replace(tzinfo=None))


def test_forget_drops_one_position() -> None:
    store = kept(2)
    assert store.forget(store.kept[0].key).kept == store.kept[1:]


def test_a_kept_position_replays_the_same_deal_to_just_before_the_play() -> None:
    text, plays = hand()
    game = play_computer_hand(3)
    for item in kept(3).kept:
        before = item.position()
        assert isinstance(before, Game)
        assert before.history == game.history[:item.index] and before.actor == item.seat
        assert str(game.history[item.index].cards) == item.cards  # type: ignore[union-attr]
    broken = Kept(HEADER + "\nseed: 3\nnonsense", 0, 60, "♠A", kept(1).kept[0].card)
    with pytest.raises(MistakesError):
        broken.position()
    wrong_seat = Kept(text, 1, plays[0][0], plays[0][1], kept(1).kept[0].card)
    with pytest.raises(MistakesError):
        wrong_seat.position()


# ----------------------------------------------------------------- stored form


def test_a_round_trip_keeps_everything_and_each_hand_once() -> None:
    store = kept(4).keep(hand(5)[0], 0, hand(5)[1][:2], NOW)
    store = _answer_when_due(store, store.kept[0].key, True)
    text = store.to_json()
    assert Mistakes.from_json(text) == (store, None)
    body = json.loads(text)
    assert body["version"] == 1 and len(body["hands"]) == 2 and len(body["kept"]) == 6


def test_nothing_stored_is_an_empty_store() -> None:
    assert Mistakes.from_json(None) == (Mistakes(), None)


def test_the_stored_form_is_bounded() -> None:
    store = Mistakes()
    for i in range(MAX_KEPT):
        text = f"{HEADER}\nseed: {i}\n" + "#" * (MAX_HAND - len(HEADER) - 20)
        store = store.keep(text[:MAX_HAND], 0, [(1999, "♠A ♠A ♠K ♠K ♠Q ♠Q ♠J ♠J ♠10 ♠10")], NOW)
    text = store.to_json()
    assert len(text) <= MAX_STORED
    assert Mistakes.from_json(text) == (store, None)


def _stored(**changes: object) -> str:
    body = json.loads(kept(2).to_json())
    body.update(changes)
    return json.dumps(body)


def _one(**changes: object) -> str:
    """The stored store with its first position changed (None: a field removed)."""
    body = json.loads(kept(2).to_json())
    for name, value in changes.items():
        if value is None:
            del body["kept"][0][name]
        else:
            body["kept"][0][name] = value
    return json.dumps(body)


def _card(**changes: object) -> str:
    body = json.loads(kept(2).to_json())
    body["kept"][0]["card"].update(changes)
    return json.dumps(body)


def _card_without(name: str) -> str:
    body = json.loads(kept(2).to_json())
    del body["kept"][0]["card"][name]
    return json.dumps(body)


GOOD = kept(2)

TAMPERED: dict[str, tuple[object, int]] = {
    # what a browser holds: (the stored text, how many positions still read)
    "not JSON": ("{kept", 0),
    "empty": ("", 0),
    "a list": ("[1, 2]", 0),
    "bytes": (b"{}", 0),
    "a number": (7, 0),
    "far too long": ("x" * (MAX_STORED + 1), 0),
    "another version": (_stored(version=2), 0),
    "version true": (_stored(version=True), 0),
    "deeply nested": ("[" * 100_000, 0),
    "hands not a list": (_stored(hands={"a": 1}), 0),
    "kept not a list": (_stored(kept="x"), 0),
    "a hand that is no record": (_stored(hands=["hello"]), 0),
    "a hand far too long": (_stored(hands=[HEADER + "x" * MAX_HAND]), 0),
    "a position that is no object": (_stored(kept=[7, *json.loads(GOOD.to_json())["kept"][1:]]), 1),
    "a hand number beyond": (_one(hand=9), 1),
    "a seat of 5": (_one(seat=5), 1),
    "a seat as text": (_one(seat="0"), 1),
    "an index far beyond": (_one(index=10**9), 1),
    "no cards": (_one(cards=None), 1),
    "cards with a control character": (_one(cards="♠A\u0007"), 1),
    "cleared three times": (_one(cleared=CLEARED_AFTER), 1),
    "no schedule": (_one(card=None), 1),
    "a schedule's due not a time": (_card(due="tomorrow"), 1),
    "a due on 30 February": (_card(due="2025-02-30T00:00:00+00:00"), 1),
    "a due without a zone": (_card(due="2025-01-01T00:00:00"), 1),
    "a state of 9": (_card(state=9), 1),
    "a card id as text": (_card(card_id="5"), 1),
    "a stability of text": (_card(stability="x"), 1),
    "a field missing": (_card_without("difficulty"), 1),
    "kept twice": (_stored(kept=json.loads(GOOD.to_json())["kept"] * 2), 2),
    "more than are kept": (_stored(kept=json.loads(GOOD.to_json())["kept"][:1] * (MAX_KEPT + 3)), 1),
}


@pytest.mark.parametrize("case", list(TAMPERED))
def test_what_cannot_be_read_is_dropped_with_a_note_and_nothing_else_is_lost(case: str) -> None:
    text, readable = TAMPERED[case]
    store, note = Mistakes.from_json(text)
    assert len(store.kept) == readable
    assert isinstance(note, Text) and note
    for language in LANGUAGES:
        assert Translator(language)(note)  # said in every language, never a traceback
    good = {k.key: k for k in GOOD.kept}
    assert all(good.get(k.key) == k for k in store.kept)  # what is read is read as it was


def test_a_schedule_with_a_field_more_still_reads() -> None:
    """A field FSRS may add one day is ignored, as FSRS itself ignores it."""
    assert Mistakes.from_json(_card(extra=1)) == (GOOD, None)


def test_the_note_names_a_few_problems_and_counts_the_rest() -> None:
    body = json.loads(GOOD.to_json())
    body["kept"] = [{"hand": 0, "seat": 9, "index": i, "cards": "♠A", "card": {}} for i in range(6)] + body["kept"]
    store, note = Mistakes.from_json(json.dumps(body))
    assert store == GOOD and note is not None and str(note).endswith("and 3 more")


# ----------------------------------------------------------------- the link


def test_the_tables_lesson_takes_review_mistakes() -> None:
    params, notes = parse_link(REVIEW_LINK.partition("?")[2], lesson="10-play")
    assert params.review == "mistakes" and notes == ()
    params, notes = parse_link("review=all&seed=3", lesson="10-play")
    assert params.review is None and params.seed == 3
    assert notes == ("Ignored review=all: the table reviews only review=mistakes.",)
    assert parse_link("review=mistakes&review=mistakes", lesson="10-play")[1] == (
        "Ignored review=mistakes: it was given twice.",)
    params, notes = parse_link("review=mistakes", lesson="05-following")
    assert params.review is None and notes == ("Ignored review=mistakes: this page does not use it.",)
    assert "review=" in parse_link("review=%3Cb%3E", lesson="10-play", tr=Translator("zh-Hans"))[1][0]


# ----------------------------------------------------------------- what has come due


def _progress(*kinds: str) -> Progress:
    progress = Progress()
    for seed, kind in enumerate(kinds):
        progress = progress.record(kind, seed, 1, False, NOW, lesson=None)
    return progress


def test_the_home_page_counts_due_positions_and_due_missed_drills() -> None:
    progress = _progress("follow", "throw", "follow")
    store = kept(2)
    assert to_review(progress, store, NOW) == ToReview()
    later = NOW + timedelta(minutes=5)
    due = to_review(progress, store, later)
    assert due == ToReview(2, (("follow", 2), ("throw", 1)), ("05-following", "07-throws"))
    assert due.total == 5
    assert len(progress.due(None, later)) == 3 and all(is_due(r.card, later) for r in progress.due(None, later))


def test_a_missed_drill_is_sent_back_to_a_lesson_reached() -> None:
    """A drill of "who wins the trick" missed in lesson 02 comes back in lesson 02's practice,
    not lesson 06's (which practises the kind too but was not reached yet); once the learner
    answers that kind in lesson 06, its practice is the one linked."""
    missed = Progress().record("trick", 5, 1, False, NOW, lesson="02-trumps")
    later = NOW + timedelta(minutes=5)
    assert to_review(missed, Mistakes(), later).lessons == ("02-trumps",)
    html = _course(later, missed.to_json(), None)
    assert 'href="02-trumps.ipynb"' in html and "06-ruffing.ipynb\"" not in html.split("qd-course-list")[0]
    on = missed.record("trick", 6, 1, True, NOW, lesson="06-ruffing")
    assert to_review(on, Mistakes(), later).lessons == ("06-ruffing",)


def _course(clock_now: datetime, stored: str | None, mistakes: str | None, **options: object) -> str:
    from widgets.course import CourseMap

    course = CourseMap(lang=options.pop("lang", "en"), query=options.pop("query", ""),  # type: ignore[arg-type]
                       clock=lambda: clock_now)
    course._on_message(course, {"type": "sync", "progress": stored, "mistakes": mistakes}, None)
    return str(course.html)


def test_the_served_home_lists_what_has_come_due() -> None:
    pytest.importorskip("anywidget")
    later = NOW + timedelta(minutes=5)
    html = _course(later, _progress("follow", "throw", "follow").to_json(), kept(2).to_json())
    assert "5 positions to review" in html and 'data-count="5"' in html
    assert '<a href="10-play.ipynb?review=mistakes">Replay 2 positions from your own hands at the table</a>' in html
    assert "3 missed drills come back in practice:" in html
    assert '<a href="05-following.ipynb">Leading and following</a> · <a href="07-throws.ipynb">Throws</a>' in html
    assert html.index('data-qd="review"') < html.index("<ol")  # above the lessons


def test_the_served_home_says_one_position_in_the_singular_and_keeps_the_language() -> None:
    pytest.importorskip("anywidget")
    later = NOW + timedelta(minutes=5)
    html = _course(later, None, kept(1).to_json(), lang="zh-Hant", query="lang=zh-Hant")
    assert 'href="10-play.ipynb?review=mistakes&amp;lang=zh-Hant"' in html
    assert Translator("zh-Hant")(Text.plural("{count} position to review", "{count} positions to review",
                                             count=1)) in html
    assert "1 position to review" in _course(later, None, kept(1).to_json())
    assert "review-drills" not in _course(later, None, kept(1).to_json())
    assert "review-positions" not in _course(later, _progress("trick").to_json(), None)


def test_the_served_home_shows_nothing_when_nothing_is_due() -> None:
    pytest.importorskip("anywidget")
    for stored, mistakes in [(None, None), (_progress("follow").to_json(), kept(2).to_json())]:
        html = _course(NOW, stored, mistakes)
        assert 'data-qd="review"' not in html and "to review" not in html


def test_the_served_home_notes_positions_it_cannot_read_and_shows_the_rest() -> None:
    pytest.importorskip("anywidget")
    later = NOW + timedelta(minutes=5)
    html = _course(later, None, TAMPERED["a seat of 5"][0])  # type: ignore[arg-type]
    assert "1 position to review" in html and "could not be read" in html
    html = _course(later, "not progress", "not positions")
    assert html.count('class="qd-link-note"') == 2 and 'data-qd="review"' not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_static_home_gets_every_sentence_the_served_one_says(language: str) -> None:
    from tools.static_site.home import review_facts
    from widgets.course import review_drills, review_headline, review_positions

    facts = review_facts(language)  # checks every count's sentence as it is made
    tr = Translator(language)
    for name, message, most in [("headline", review_headline, MAX_KEPT + MAX_REVIEWS),
                                ("positions", review_positions, MAX_KEPT), ("drills", review_drills, MAX_REVIEWS)]:
        plural = facts[name]
        assert len(plural["formOf"]) == most + 1
        for count in (1, 2, 5, most):
            form = plural["forms"][int(plural["formOf"][count])]
            assert form.replace("{count}", str(count)) == tr(message(count))
    assert facts["mistakes"]["key"] == MISTAKES_KEY and facts["href"] == "10-play.html?review=mistakes"
