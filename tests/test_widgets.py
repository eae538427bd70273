"""The widgets from the Python side: traitlets set as the front end sets them, messages
sent as the front end sends them (``_handle_custom_msg``), and what the kernel sends
back. Every verdict comes from the drill (tutor); these tests check the wiring."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

pytest.importorskip("anywidget")

import ipywidgets  # noqa: E402

from tutor import Trump, TutorError, parse_cards  # noqa: E402
from tools.catalogs import lesson_notebooks  # noqa: E402
from tutor.teach.display import card_html, cards_html, hand_html, trick_html  # noqa: E402
from tutor.teach.drills import KINDS, AnswerKind, generate  # noqa: E402
from tutor.teach.drills.progress import STREAK_PER_STAR, Progress, visit_seed  # noqa: E402
from tutor.core.i18n import LANGUAGES, Translator, current, set_language  # noqa: E402
from widgets import CardPicker, CourseMap, DrillPlayer, Hand, Table, TrickTable, practice  # noqa: E402
from widgets._common import LABELS, labels  # noqa: E402
from tutor.teach.drills.answers import MAX_ANSWER  # noqa: E402
from widgets.table import TABLE_LABELS  # noqa: E402
from widgets.views import Html, row, show, trick, trick_view  # noqa: E402

from leaks import english_words  # noqa: E402

KIND = "follow"


def _cards_seed(kind: str = KIND, level: int = 1) -> int:
    """A seed whose drill is answered with cards (asked of tutor, not assumed)."""
    return next(s for s in range(50) if generate(kind, s, level).answer is AnswerKind.CARDS)


def _choice_seed(kind: str = KIND, level: int = 1) -> int:
    return next(s for s in range(50) if generate(kind, s, level).answer is AnswerKind.CHOICE)


class Clock:
    """A clock that moves one second each time it is read."""

    step = timedelta(seconds=1)

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def player(clock: Clock) -> Iterator[DrillPlayer]:
    widget = DrillPlayer(KIND, seed=_cards_seed(), level=1, clock=clock)
    yield widget
    widget.close()


def send(widget: Any, content: object) -> None:
    """Deliver a message as the front end's ``model.send(content)`` does."""
    widget._handle_custom_msg(content, [])


def positions(widget: DrillPlayer, texts: tuple[str, ...] | list[str]) -> list[int]:
    """Positions in the held hand of the cards named by ``texts``."""
    want = Counter(str(c) for t in texts for c in parse_cards(t))
    out = []
    for i, card in enumerate(widget.state["hand"]):
        if want[card["text"]]:
            want[card["text"]] -= 1
            out.append(i)
    assert not +want, f"{want} not in hand"
    return out


def right_answer(widget: DrillPlayer) -> list[str]:
    assert widget.drill is not None
    answers, _count = widget.drill.solutions()
    return [str(c) for c in parse_cards(answers[0])]


def wrong_answer(widget: DrillPlayer) -> list[str]:
    drill = widget.drill
    assert drill is not None
    size = drill.pick or 1
    hand = [c["text"] for c in widget.state["hand"]]
    for start in range(len(hand) - size + 1):
        candidate = hand[start:start + size]
        feedback = drill.check(candidate)
        if feedback.error is None and not feedback.correct:
            return candidate
    pytest.skip("every pick of this drill is right")


def _a_right_answer(widget: DrillPlayer) -> object:
    """A right answer to the current drill, whatever its kind (asked of the drill)."""
    drill = widget.drill
    assert drill is not None
    if drill.answer is AnswerKind.CHOICE:
        return next(c.key for c in drill.choices if drill.check(c.key).correct)
    if drill.answer is AnswerKind.NUMBER:
        return next(n for n in range(-300, 300) if drill.check(n).correct)
    return right_answer(widget)


def _a_wrong_answer(widget: DrillPlayer) -> object:
    """A readable wrong answer to the current drill, whatever its kind (asked of the drill)."""
    drill = widget.drill
    assert drill is not None
    if drill.answer is AnswerKind.CHOICE:
        return next(c.key for c in drill.choices if not drill.check(c.key).correct)
    if drill.answer is AnswerKind.NUMBER:
        return next(n for n in range(-300, 300) if not drill.check(n).correct)
    return wrong_answer(widget)


def check_message(widget: DrillPlayer, texts: list[str], check_id: int = 1) -> dict[str, Any]:
    send(widget, {"type": "check", "check_id": check_id, "answer": texts, "selected": positions(widget, texts)})
    return widget.feedback


# ------------------------------------------------------------------ the drill shown

def test_state_shows_the_drill_in_holding_order(player: DrillPlayer) -> None:
    drill = player.drill
    assert drill is not None
    state = player.state
    assert state["question"] == drill.question and state["answer"] == "cards"
    assert state["kind"] == KIND and state["seed"] == drill.seed and state["hint_total"] == len(drill.hints)
    held = [c["text"] for c in state["hand"]]
    assert held == [str(c) for c in drill.trump.sorted(drill.hand)]  # Trump.sorted decides
    groups = [c["group"] for c in state["hand"]]
    assert groups[0] == "Trumps" or all(g != "Trumps" for g in groups)
    assert all(c["name"] and 'aria-hidden="true"' in c["face"] for c in state["hand"])
    assert player.feedback == {} and player.selected == [] and player.hints == []
    assert set(player.labels) >= {"check", "retry", "next", "hint", "reset", "reset_ask", "selected"}


def test_table_is_drawn_without_giving_the_winner_away(clock: Clock) -> None:
    seed = next(s for s in range(50) if generate(KIND, s, 1).table.plays)
    widget = DrillPlayer(KIND, seed=seed, level=1, clock=clock)
    assert "qd-trick" in widget.state["table_html"] and "qd-winner" not in widget.state["table_html"]


# ------------------------------------------------------------------ select and check

def test_right_answer_by_message(player: DrillPlayer) -> None:
    texts = right_answer(player)
    feedback = check_message(player, texts, check_id=7)
    assert feedback["correct"] is True and feedback["check_id"] == 7
    assert feedback["rule"] and feedback["message"] and feedback["answers"]
    assert "error" not in feedback
    assert player.selected == positions(player, texts)  # the selection came with the check
    assert player.stats["streak"] == 1 == player.progress.kind(KIND).streak


def test_wrong_answer_by_message(player: DrillPlayer) -> None:
    feedback = check_message(player, wrong_answer(player))
    assert feedback["correct"] is False and feedback["rule"] and feedback["message"]
    assert feedback["answers"] == [] and feedback["can_reveal"] is True  # a first wrong try gives nothing away
    send(player, {"type": "reveal"})  # "Show answer"
    feedback = player.feedback
    assert feedback["answers"] and feedback["answer_count"] >= len(feedback["answers"]) and feedback["revealed"]
    assert player.stats["streak"] == 0


def test_check_uses_the_selected_trait(player: DrillPlayer) -> None:
    player.selected = positions(player, right_answer(player))  # as the front end's save_changes does
    assert player.check()["correct"] is True


def test_feedback_is_the_drills_own(player: DrillPlayer) -> None:
    texts = wrong_answer(player)
    assert player.drill is not None
    expected = player.drill.check(texts)
    feedback = check_message(player, texts)
    assert (feedback["correct"], feedback["rule"], feedback["message"]) == (expected.correct, expected.rule,
                                                                           expected.message)


def test_choice_answer(clock: Clock) -> None:
    widget = DrillPlayer(KIND, seed=_choice_seed(), level=1, clock=clock)
    state = widget.state
    assert state["answer"] == "choice" and state["choices"] and "hand" not in state and state["hand_html"]
    drill = widget.drill
    assert drill is not None
    right = next(c["key"] for c in state["choices"] if drill.check(c["key"]).correct)
    send(widget, {"type": "check", "check_id": 1, "answer": right, "selected": []})
    assert widget.feedback["correct"] is True


# ------------------------------------------------------------------ retry, next, hints

def test_retry_keeps_the_drill_and_counts_only_the_first_answer(player: DrillPlayer) -> None:
    state = player.state
    check_message(player, wrong_answer(player))
    recorded = player.progress.to_json()
    send(player, {"type": "retry"})
    assert player.state is state or player.state == state  # same drill, same token: no intro replay
    assert player.feedback == {} and player.selected == []
    feedback = check_message(player, right_answer(player), check_id=2)
    assert feedback["correct"] is True and feedback.get("practice") is True
    assert player.progress.to_json() == recorded and player.stats["streak"] == 0


def test_next_loads_the_drill_progress_chooses(clock: Clock) -> None:
    player = DrillPlayer(KIND, clock=clock)  # no link seed: progress chooses
    token = player.state["token"]
    send(player, {"type": "check", "check_id": 1, "answer": _a_right_answer(player), "selected": []})
    send(player, {"type": "hint"})
    expected = player.progress.next_drill(KIND, clock.now + clock.step, 1)
    send(player, {"type": "next"})
    assert player.state["token"] != token
    assert (player.state["seed"], player.state["level"]) == expected
    assert player.feedback == {} and player.selected == [] and player.hints == []


def test_next_follows_the_links_seed(player: DrillPlayer) -> None:
    first = player.state["seed"]
    check_message(player, right_answer(player))
    send(player, {"type": "next"})
    assert player.state["seed"] == visit_seed(first, 1, KIND)  # the class's next drill, not this learner's


def test_hints_are_staged(player: DrillPlayer) -> None:
    assert player.drill is not None
    total = len(player.drill.hints)
    assert total >= 1
    for shown in range(1, total + 1):
        send(player, {"type": "hint"})
        assert player.hints == list(player.drill.hints[:shown])
    assert player.hint() is None and len(player.hints) == total


def test_streak_and_stars_follow_progress(player: DrillPlayer) -> None:
    for i in range(STREAK_PER_STAR):
        send(player, {"type": "check", "check_id": i, "answer": _a_right_answer(player), "selected": []})
        assert player.feedback["correct"], player.feedback
        mine = player.progress.kind(KIND)
        assert player.stats["streak"] == mine.streak == i + 1
        assert player.stats["stars"] == mine.stars
        send(player, {"type": "next"})
    assert player.stats["stars"] == 1 <= player.stats["max_stars"]
    send(player, {"type": "check", "check_id": 99, "answer": _a_wrong_answer(player), "selected": []})
    assert player.stats["streak"] == 0 and player.stats["stars"] == 1  # stars are never taken away


def test_auto_advance_is_off_by_default(player: DrillPlayer) -> None:
    assert player.auto_advance is False


# ------------------------------------------------------------------ progress sync

def test_progress_published_after_each_recorded_answer(player: DrillPlayer) -> None:
    before = player.progress_json
    check_message(player, right_answer(player))
    assert player.progress_json != before
    assert player.progress_json == player.progress.to_json()
    assert Progress.from_json(player.progress_json).kind(KIND).streak == 1


def test_sync_takes_the_browsers_progress(clock: Clock) -> None:
    stored = Progress()
    for seed in range(3):
        stored = stored.record(KIND, seed, 1, True, clock())
    widget = DrillPlayer(KIND, clock=clock)  # no seed: the restored progress picks the drill
    send(widget, {"type": "sync", "progress": stored.to_json()})
    assert widget.stats["streak"] == 3 and widget.progress_note == ""
    assert widget.progress.to_json() == stored.to_json()
    assert (widget.state["seed"], widget.state["level"]) == stored.next_drill(KIND, clock.now + clock.step, 1)


def test_sync_keeps_a_pinned_drill(player: DrillPlayer, clock: Clock) -> None:
    token = player.state["token"]
    send(player, {"type": "sync", "progress": Progress().record(KIND, 5, 1, True, clock()).to_json()})
    assert player.state["token"] == token and player.stats["streak"] == 1


def test_sync_with_nothing_stored(player: DrillPlayer) -> None:
    send(player, {"type": "sync", "progress": None})
    assert player.progress_note == "" and player.stats["streak"] == 0


def test_reset(player: DrillPlayer) -> None:
    check_message(player, right_answer(player))
    send(player, {"type": "reset"})
    assert player.stats["streak"] == 0 and player.progress_json == Progress().to_json()


# ------------------------------------------------------------------ tampering

@pytest.mark.parametrize("answer", [
    pytest.param(["BJ", "BJ", "BJ"], id="cards-not-in-hand"),
    pytest.param("junk", id="junk-text"),
    pytest.param([{"x": 1}], id="junk-object"),
    pytest.param(12, id="a-number"),
    pytest.param(None, id="nothing"),
    pytest.param(["♠A"] * (MAX_ANSWER + 1), id="too-long"),
    pytest.param("♠" * 100_000, id="huge-text"),
    pytest.param([["♠A"]], id="nested"),
])
def test_tampered_answer_gets_a_message(player: DrillPlayer, answer: object) -> None:
    before = player.progress.to_json()
    send(player, {"type": "check", "check_id": 3, "answer": answer, "selected": "junk"})
    feedback = player.feedback
    assert feedback["correct"] is False and feedback["error"] and feedback["check_id"] == 3
    assert "Traceback" not in feedback["error"]
    assert player.progress.to_json() == before  # an unreadable answer is not a mistake
    assert player.selected == []  # a junk selection is not taken


def test_wrong_count_gets_a_message(player: DrillPlayer) -> None:
    assert player.drill is not None and player.drill.pick is not None
    texts = [c["text"] for c in player.state["hand"][:player.drill.pick + 1]]
    assert check_message(player, texts)["error"]


def test_cards_not_in_hand_are_named(player: DrillPlayer) -> None:
    held = {c["text"] for c in player.state["hand"]}
    missing = next(str(c) for c in parse_cards("BJ SJ ♠A ♥A ♣A ♦A ♠3") if str(c) not in held)
    send(player, {"type": "check", "check_id": 1, "answer": [missing], "selected": [0]})
    assert missing in player.feedback["error"]


@pytest.mark.parametrize("content", [None, "check", 3, [], {"type": 5}, {"type": "launch"}, {"no": "type"},
                                     {"type": "check", "selected": [10 ** 9, -1, True]}])
def test_odd_messages_are_ignored(player: DrillPlayer, content: object) -> None:
    state = player.state
    send(player, content)
    assert player.state == state and player.selected == []


def test_tampered_progress_keeps_what_is_valid(clock: Clock) -> None:
    good = Progress().record(KIND, 1, 1, True, clock()).record(KIND, 2, 1, True, clock())
    data = json.loads(good.to_json())
    tampered = _tamper(data)
    expected, problem = Progress.from_json_lenient(json.dumps(tampered))
    assert problem  # the tampering is noticed by tutor
    widget = DrillPlayer(KIND, seed=_cards_seed(), clock=clock)
    send(widget, {"type": "sync", "progress": json.dumps(tampered)})
    assert widget.progress_note  # a visible note
    assert widget.progress.to_json() == expected.to_json()
    assert widget.progress_json == widget.progress.to_json()  # the cleaned progress is stored back
    send(widget, {"type": "dismiss_note"})
    assert widget.progress_note == ""


@pytest.mark.parametrize("stored", ["{not json", "[]", '"text"', "null", 42, ["a"]])
def test_unreadable_progress_shows_a_note(player: DrillPlayer, stored: object) -> None:
    send(player, {"type": "sync", "progress": stored})
    assert player.progress_note
    assert player.stats["streak"] == 0


def _tamper(data: Any) -> Any:
    """Spoil one value deep inside the stored progress, keeping the rest."""
    if isinstance(data, dict):
        out = dict(data)
        out["junk-kind"] = {"bogus": True}
        for key, value in data.items():
            if isinstance(value, (dict, list)) and value:
                out[key] = _tamper(value)
                break
        return out
    if isinstance(data, list):
        return [*data, "junk"]
    return data


# ------------------------------------------------------------------ errors and options

def test_a_drill_that_cannot_be_made_shows_a_message(clock: Clock) -> None:
    widget = DrillPlayer("chess", seed=1, clock=clock)
    assert widget.drill is None and "chess" in widget.state["error"]
    send(widget, {"type": "check", "check_id": 1, "answer": ["♠A"], "selected": []})
    assert widget.feedback == {}


def test_language_goes_through_the_translator(clock: Clock) -> None:
    widget = DrillPlayer(KIND, seed=_cards_seed(), lang="zh-Hans", clock=clock)
    assert widget.labels["check"]  # falls back to English until the catalog is filled
    with pytest.raises(Exception):
        DrillPlayer(KIND, seed=1, lang="xx", clock=clock)


@pytest.fixture()
def kernel_language() -> Iterator[Any]:
    """Set this kernel's language as a Voila page does (English again afterwards)."""
    before = current().language
    yield set_language
    set_language(before)


def test_widgets_take_the_kernel_language(kernel_language: Any, clock: Clock) -> None:
    kernel_language("zh-Hant")
    tr = Translator("zh-Hant")
    player = DrillPlayer(KIND, seed=_cards_seed(), clock=clock)
    assert player.lang == "zh-Hant" and player.drill is not None and player.drill.lang == "zh-Hant"
    assert player.labels["check"] == tr(LABELS["check"]) and player.state["title"].startswith(tr(KINDS[KIND].title))
    assert CardPicker("♠A", trump="♥").lang == "zh-Hant"
    assert CourseMap(query="").lang == "zh-Hant"
    assert Table(1, pause_ms=0, deal_ms=0).lang == "zh-Hant"
    assert DrillPlayer(KIND, seed=1, lang="en", clock=clock).lang == "en"  # a given language wins
    kernel_language("en")
    assert DrillPlayer(KIND, seed=1, clock=clock).lang == "en"


SIMPLIFIED_ONLY = set("这们说对张刚选时为会门级连庄独无单机")
"""Characters only Simplified Chinese writes: Traditional text never falls back to them."""


def _widgets_shown(lang: str) -> list[str]:
    """What the widgets made in ``lang`` show: a drill player of every kind (every hint,
    feedback on an answer), one that cannot be made, a card picker, the views, the course map."""
    shown = []
    for kind in KINDS:
        player = DrillPlayer(kind, seed=2, level=2, lang=lang, clock=Clock())
        while player.hint():
            pass
        drill = player.drill
        assert drill is not None
        answer: object = (drill.choices[0].key if drill.answer is AnswerKind.CHOICE else
                          drill.number if drill.answer is AnswerKind.NUMBER else
                          [str(c) for c in player._order[:drill.pick or 2]])
        player.check(answer)
        player.check("maybe" if drill.answer is not AnswerKind.CARDS else ["♠1"])
        state = {k: v for k, v in player.state.items() if k != "token"}
        shown.append(json.dumps([state, player.hints, player.feedback, player.labels], ensure_ascii=False,
                                sort_keys=True))
        player.close()
    broken = DrillPlayer("chess", seed=1, lang=lang, clock=Clock())
    shown += [broken.state["title"], broken.state["error"]]
    picker = CardPicker("♠AAK ♥3 BJ SJ", trump="♥", lang=lang)
    shown.append(json.dumps([picker.cards, picker.labels], ensure_ascii=False, sort_keys=True))
    shown.append(Hand("♠AAK ♥3 BJ", trump="♥", lang=lang)._repr_html_())
    shown.append(TrickTable([(3, "♠A"), (4, "♠3"), (0, "♥4")], trump="♥", lang=lang)._repr_html_())
    shown.append(TrickTable([(3, "♠A ♠K"), (4, "♠3")], trump="♥", lang=lang)._repr_html_())
    shown.append(CourseMap(lang=lang, query="").html)
    return shown


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_widget_speaks_its_own_language_whatever_the_kernels(lang: str, kernel_language: Any) -> None:
    kernel_language("en")
    mine = _widgets_shown(lang)
    kernel_language("zh-Hans")
    other = _widgets_shown(lang)
    for here, there in zip(mine, other, strict=True):
        assert here == there
    title, error = other[len(KINDS)], other[len(KINDS) + 1]
    assert title == Translator(lang)("Drill") and "chess" in error  # the kind's key is quoted, not a title
    if lang == "zh-Hant":
        assert not english_words(title)
        simplified = [text for text in other if SIMPLIFIED_ONLY & set(text)]
        assert not simplified, simplified[:2]


def test_practice_takes_the_page_language_not_the_link(kernel_language: Any) -> None:
    kernel_language("zh-Hans")
    box = practice("05-following", query="lang=en&seed=7")
    player = box.children[1]
    assert isinstance(player, DrillPlayer) and player.lang == "zh-Hans" and player.drill is not None
    assert player.drill.seed == visit_seed(7, 0, "follow", "05-following") and "qd-link-note" not in box.children[0].value
    bad = practice("05-following", query="lang=xx")
    note = " ".join(_visible_text(bad.children[0].value))
    assert "lang=xx" in note and not english_words(note, allow={"lang", "xx", "en", "zh", "Hans", "Hant"}), note


def test_course_map_links_keep_the_page_language(kernel_language: Any) -> None:
    kernel_language("zh-Hant")
    assert 'href="05-following.ipynb?lang=zh-Hant"' in CourseMap(query="lang=zh-Hant").html
    plain = CourseMap(query="seed=3").html
    assert 'href="05-following.ipynb"' in plain and "?lang" not in plain


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_front_end_labels_are_translated(lang: str) -> None:
    tr = Translator(lang)
    for key, text in [*labels(tr).items(), *((k, tr(v)) for k, v in TABLE_LABELS.items())]:
        assert not english_words(text), (key, text)
    picker = CardPicker("♠AAK ♥3 BJ SJ", trump="♥", lang=lang)
    for card in picker.cards:
        assert not english_words(card["name"] + card["group"]), card


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_drill_player_in_chinese_has_no_english(kind: str, lang: str, clock: Clock) -> None:
    for seed in range(4):
        widget = DrillPlayer(kind, seed=seed, level=1 + seed % 3, lang=lang, clock=clock)
        english = generate(kind, seed, 1 + seed % 3)
        state = widget.state
        said = [state["title"], state["question"], *(c["label"] for c in state["choices"])]
        while widget.hint():
            pass
        said += widget.hints
        drill = widget.drill
        assert drill is not None
        if drill.answer is AnswerKind.CHOICE:
            answers = [c.key for c in drill.choices]
        elif drill.answer is AnswerKind.NUMBER:
            answers = [drill.number, "", "7.5"]
        else:
            answers = [[str(c) for c in parse_cards(english.solutions()[0][0])],
                       [str(c) for c in widget._order[:drill.pick or 1]]]
        for answer in answers:
            fb = widget.check(answer)
            said += [fb["message"], *fb["answers"], fb.get("error", "")]
        for html in (state.get("table_html", ""), state.get("shown_html", ""), state.get("hand_html", "")):
            said += _visible_text(html)
        for card in state.get("hand", []):
            said += [card["name"], card["group"], *_visible_text(card["face"])]
        said += [*widget.labels.values(), widget.progress_note]
        for text in said:
            assert not english_words(text), (kind, seed, text)


def _visible_text(html: str) -> list[str]:
    """The text a reader of ``html`` sees or hears (element text and aria-labels)."""
    import re

    labels = re.findall(r'aria-label="([^"]*)"', html)
    return labels + re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html, flags=re.S)).split()


def test_front_end_files_exist() -> None:
    from widgets._common import CSS, ESM

    assert ESM.count("export default") == 1
    assert ".qd-card" in CSS and ".qd-picker" in CSS
    assert "http://" not in ESM and "https://" not in CSS  # nothing fetched


# ------------------------------------------------------------------ picker and views

def test_card_picker() -> None:
    picker = CardPicker("♠AAK ♥3 BJ", trump="♥", pick=2)
    assert [c["text"] for c in picker.cards] == ["BJ", "♥3", "♠A", "♠A", "♠K"]
    picked: list[str] = []
    picker.on_submit(lambda cards: picked.append(str(cards)))
    send(picker, {"type": "submit", "selected": [2, 3]})
    assert picked == ["♠A ♠A"] and str(picker.value) == "♠A ♠A"
    send(picker, {"type": "submit", "selected": [99, "x", True]})  # junk positions are dropped
    assert picker.selected == [] and picked[-1] == ""
    send(picker, "junk")


def test_hand_groups_trumps_apart() -> None:
    page = Hand("♠3 ♥4 ♠A ♣2 BJ", trump="♥")._repr_html_()
    assert page.index("Trumps") < page.index("大王") < page.index('data-card="♠A"')
    assert page.index('data-card="♣2"') < page.index('data-card="♥4"')


def test_trick_table_names_the_winner() -> None:
    table = TrickTable([(3, "♠A"), (4, "♠3"), (0, "♥4")], trump="♥")
    page = table._repr_html_()
    assert page.count("<tr") == 5 and "Lead" in page and "Wins" in page
    assert table.outcome is not None and table.outcome.reason in page
    assert '<tr class="qd-winner" data-seat="0">' in page
    bad = TrickTable([(0, "♠A"), (1, "♠3 ♠4")], trump="♥")
    assert bad.problem and "Wins" not in bad._repr_html_()


def test_a_row_shows_cards_and_sentences_in_the_page_language(kernel_language: Any) -> None:
    hearts = Trump("♥")
    page = row(parse_cards("♥3 ♠A"), "✓", trump=hearts)
    assert isinstance(page, Html) and page._repr_html_() == page and page.startswith("<style>")
    assert page.count('class="qd-card ') == 2 and "3 of hearts, trump" in page and "ace of spades, trump" not in page
    assert '<span style="max-width:38em">✓</span>' in page
    marked = re.compile(r'class="qd-card[^"]* qd-trump')
    assert marked.search(row(parse_cards("BJ"), trump=Trump(None)))
    assert not marked.search(row(parse_cards("BJ")))  # no trump given: nothing marked (not no-trump)
    assert ipywidgets.HTML(value=page).value == page  # an ipywidgets.HTML value as it is
    with pytest.raises(TutorError) as refused:
        parse_cards("♠AAA")
    kernel_language("zh-Hant")
    said = row(refused.value, parse_cards("BJ"))  # an error says its reason, in the kernel's language
    assert Translator("zh-Hant")(refused.value.args[0]) in said and "大王" in said
    assert "红桃" in row("hearts", lang="zh-Hans") and "hearts" in row("hearts", lang="en")  # or in its own


def test_trick_view_is_the_trick_table_with_its_reason_and_points() -> None:
    view = trick_view(["♠5", "♠K", "♥4"], "♥", first_seat=3, points=True)
    table = TrickTable([(3, "♠5"), (4, "♠K"), (0, "♥4")], trump="♥", points=True)
    assert view == table._repr_html_() and isinstance(view, Html)
    assert table.outcome is not None and table.outcome.reason in view and "+15" in view
    assert '<tr class="qd-winner" data-seat="0">' in view
    assert "+15" not in trick_view(["♠5", "♠K", "♥4"], "♥")


def test_show_and_trick_display_their_views(capsys: pytest.CaptureFixture[str]) -> None:
    show(parse_cards("♠A"), "a pair")  # outside a notebook IPython prints what it would draw
    trick(["♠A", "♠3"], "♥")
    printed = capsys.readouterr().out
    assert 'data-card="♠A"' in printed and "a pair" in printed and "qd-trick" in printed


@pytest.mark.parametrize("path", lesson_notebooks(), ids=lambda path: path.stem)
def test_lessons_share_the_views_instead_of_copying_them(path: Any) -> None:
    """The lessons show their examples with ``widgets.views`` (imported from ``widgets``, the
    public face: tests/test_lesson_imports.py); none defines its own."""
    code = "\n".join("".join(cell["source"]) for cell in json.loads(path.read_text("utf-8"))["cells"]
                     if cell["cell_type"] == "code")
    copied = re.findall(r"^\s*def (row|show|trick|trick_view)\(", code, re.M)
    assert not copied, f"{path.name} defines {copied} again: import them from widgets"
    used = set(re.findall(r"(?<![\w.])(row|show|trick|trick_view)\(", code))
    if used:
        assert re.search(r"^from widgets import ", code, re.M), f"{path.name} uses {used} unimported"


def test_cards_show_themselves() -> None:
    cards = parse_cards("♠AAK55 BJ SJ")
    page = cards._repr_html_()
    assert "大王" in page and "小王" in page and page.count('class="qd-card ') == 7
    assert "<style>" in page and "prefers-color-scheme" in page and "data-jp-theme-light" in page
    assert "qd-four" in card_html(parse_cards("♦3")[0], four_colour=True)
    hearts = Trump("♥")
    assert "10 of hearts, trump" in cards_html(parse_cards("♥10"), trump=hearts)
    assert 'class="qd-points"' in cards_html(parse_cards("♠5")) and 'class="qd-points"' not in cards_html(parse_cards("♠4"))
    assert "qd-group" in hand_html(cards, hearts) and "qd-trick" in trick_html([])


def test_number_answer(clock: Clock) -> None:
    seed = next(s for s in range(50) if generate("score", s, 1).answer is AnswerKind.NUMBER)
    widget = DrillPlayer("score", seed=seed, level=1, clock=clock)
    assert widget.state["answer"] == "number"
    drill = widget.drill
    assert drill is not None
    right = next(n for n in range(-400, 400) if drill.check(str(n)).correct)
    send(widget, {"type": "check", "check_id": 1, "answer": "twelve", "selected": []})
    assert widget.feedback["error"]  # the number field sends text; tutor reads it
    send(widget, {"type": "check", "check_id": 2, "answer": str(right), "selected": []})
    assert widget.feedback["correct"] is True and widget.feedback["check_id"] == 2
