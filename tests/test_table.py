"""The table widget from the Python side: a whole hand played as the learner (the
hint's moves, sent as the front end sends them), refusals that lose nothing, the deal
stopping for the learner's declaration, records exported, imported, replayed and
tampered with. Every verdict is the rules engine's; these tests check the wiring."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("anywidget")

from tutor.core.errors import IllegalActionError, TutorError, shown
from tutor.rules.follow import check_follow
from tutor.rules.game import (
    Bury,
    Call,
    CloseDeal,
    Deal,
    Declare,
    DeclarerChosen,
    Game,
    Phase,
    Play,
    Solo,
)
from tutor.play.record import export_hand, import_hand
from tutor.play.coach import advise
from tutor.play.strategy import LEVELS, ComputerPlayer
from widgets.table import OFFERED_LEVELS, Table, check_level, seed_from_query


def send(widget: Any, content: object) -> None:
    """Deliver a message as the front end's ``model.send(content)`` does."""
    widget._handle_custom_msg(content, [])


def texts(widget: Table, positions: list[int]) -> list[str]:
    return [widget.hand[i]["text"] for i in positions]


def learner_policy(table: Table, declared: list[bool]) -> None:
    """One decision of the scripted learner: declare at the first offer, then pass;
    otherwise do what the hint says — through the front end's messages, as the page does:
    the hint picks the cards, the one action button the table shows sends them (the hint
    picking nothing while the friend is called is its "go solo")."""
    if table.waiting == "declare":
        if not declared:
            declared.append(True)
            send(table, {"type": "declare", "option": 0})
        else:
            send(table, {"type": "pass"})
        return
    send(table, {"type": "hint"})
    can = table.state["can"]
    if can["solo"] and not table.selected:
        assert "solo" in table.hint_text, table.hint_text
        send(table, {"type": "solo"})
        return
    assert table.selected, table.hint_text
    verbs = [verb for verb in ("play", "bury", "call") if can[verb]]
    assert len(verbs) == 1, can
    send(table, {"type": "act", "verb": verbs[0], "cards": texts(table, table.selected), "selected": table.selected})


def play_out(table: Table, declared: list[bool] | None = None, on_turn: Any = None) -> None:
    declared = [] if declared is None else declared
    for _ in range(500):
        waiting = table.run()
        if waiting == "done":
            return
        if on_turn is not None:
            on_turn(table)
        before = len(table.game.history), table.waiting, table.state["version"]
        learner_policy(table, declared)
        assert table.feedback.get("kind") != "refused", table.feedback
        assert (len(table.game.history), table.waiting, table.state["version"]) != before
    raise AssertionError("the hand did not finish")


def learner_declarer_seed() -> int:
    for seed in range(200):
        table = Table(seed, pause_ms=0, deal_ms=0)
        declared: list[bool] = []
        while table.run() == "declare":
            learner_policy(table, declared)
        if table.game.declarer == 0 and declared:
            return seed
    raise AssertionError("no seed makes the learner the declarer")


SEED = learner_declarer_seed()


@pytest.fixture()
def table() -> Iterator[Table]:
    widget = Table(SEED, pause_ms=0, deal_ms=0)
    yield widget
    widget.close()


def illegal_play(table: Table) -> list[str]:
    """A play of the right size the rules refuse (asked of tutor), else one card too many."""
    game = table.game
    hand = list(game.hand(0))
    assert game.trump is not None
    if game.trick:
        lead = game.trick[0][1]
        for i in range(len(hand) - len(lead) + 1):
            play = hand[i:i + len(lead)]
            if not check_follow(hand, lead, play, game.trump).legal:
                return [str(c) for c in play]
        return [str(c) for c in hand[:len(lead) + 1]]
    suits = {}
    for card in hand:
        suits.setdefault(game.trump.lane(card), card)
    if len(suits) > 1:
        return [str(c) for c in list(suits.values())[:2]]  # two effective suits in one lead (L1)
    return []


def test_a_whole_hand_as_the_learner_with_refusals_that_lose_nothing(table: Table) -> None:
    refused: dict[str, dict[str, Any]] = {}

    def on_turn(t: Table) -> None:
        phase = t.game.phase
        if t.waiting != "learner":
            return
        if phase is Phase.BURYING and "bury" not in refused:
            cards = texts(t, [0, 1, 2])
            refused["bury"] = attempt(t, "bury", cards)
        elif phase is Phase.CALLING and "call" not in refused:
            held = [c["text"] for c in t.hand]
            twice = next((c for c in held if held.count(c) == 2), None)
            if twice is not None:
                refused["call"] = attempt(t, "call", [twice])
        elif phase is Phase.PLAYING and "play" not in refused:
            cards = illegal_play(t)
            if cards:
                refused["play"] = attempt(t, "play", cards)

    def attempt(t: Table, verb: str, cards: list[str]) -> dict[str, Any]:
        positions = []
        for text in cards:
            positions.append(next(i for i, c in enumerate(t.hand) if c["text"] == text and i not in positions))
        before = (list(t.game.history), list(t.hand), dict(t.state))
        send(t, {"type": "act", "verb": verb, "cards": cards, "selected": positions})
        feedback = dict(t.feedback)
        assert feedback["kind"] == "refused" and feedback["rule"] and feedback["reason"], feedback
        assert (list(t.game.history), list(t.hand), dict(t.state)) == before  # nothing lost
        assert t.selected == sorted(positions)  # the picked cards stay picked
        return feedback

    play_out(table, on_turn=on_turn)
    game = table.game
    assert game.phase is Phase.FINISHED and game.declarer == 0
    assert refused["bury"]["rule"] == "K1" and "not 3" in refused["bury"]["reason"]
    play = refused["play"]
    assert play["rule"] in {"W1", "W2", "W3", "W4", "W5", "L1"}
    # The reason names the learner's own cards (or how many were played).
    assert any(c in play["reason"] for c in ("♠", "♥", "♣", "♦", "BJ", "SJ")) or "card" in play["reason"]
    if "call" in refused:
        assert refused["call"]["rule"] == "F1" and "both copies" in refused["call"]["reason"]

    state = table.state
    assert state["waiting"] == "done" and state["phase"] == "finished"
    score = state["score"]
    assert score["points"] == game.attackers_points() and "row" not in score
    assert game.score.row in score["explain"]  # the S1 row is read in the explanation
    assert any("(S1)" in line for line in score["lines"]) and any("(S3)" in line for line in score["lines"])
    assert [r["result"] for r in score["results"]] == list(game.results) and sum(game.results) == 0
    assert [s["result"] for s in state["seats"]] == list(game.results)
    assert len(state["review"]) == len(game.tricks) and all("qd-trick" in t["html"] for t in state["review"])
    assert table.waiting == "done" and not table.step()


def test_the_deal_stops_for_the_learners_declaration() -> None:
    table = Table(SEED, pause_ms=0, deal_ms=0)
    assert table.run() == "declare"
    state = table.state
    assert state["can"]["pass"] and state["options"]
    assert table.step() is False  # the deal waits for the learner
    option = state["options"][0]
    send(table, {"type": "declare", "option": 0})
    assert table.game.declarations[-1].seat == 0
    assert option["text"] in table.state["log"][-1]
    send(table, {"type": "declare", "option": 0})  # the same again: refused, not by the widget's guess
    assert table.feedback["kind"] == "refused" and table.feedback["rule"].startswith("D")


def test_the_learner_may_decline_every_offer() -> None:
    table = Table(SEED, pause_ms=0, deal_ms=0, stop_to_declare=False)
    assert table.run() != "declare"
    assert not any(d.seat == 0 for d in table.game.declarations)


def test_same_seed_same_game_and_the_learner_cannot_be_stepped_for(table: Table) -> None:
    other = Table(SEED, pause_ms=0, deal_ms=0)
    play_out(table)
    play_out(other)
    assert table.game.history == other.game.history and table.game.results == other.game.results
    fresh = Table(SEED, pause_ms=0, deal_ms=0, stop_to_declare=False)
    while fresh.run() != "learner":
        pass
    version = fresh.state["version"]
    send(fresh, {"type": "step", "version": version})  # the learner's turn: nothing moves
    assert fresh.state["version"] == version
    send(fresh, {"type": "step", "version": version - 1})  # stale
    assert fresh.state["version"] == version


def test_hint_picks_the_coachs_choice_without_playing_it(table: Table) -> None:
    while table.run() == "declare":
        send(table, {"type": "pass"})
    history = table.game.history
    action = advise(table.game.view(0), seed=SEED).action  # the coach's twin: the same advice
    assert action is not None
    send(table, {"type": "hint"})
    assert table.hint_text and table.game.history == history
    if isinstance(action, (Bury, Play)):
        assert sorted(texts(table, table.selected)) == sorted(str(c) for c in action.cards)


def test_export_import_replay_reproduces_the_hand(table: Table) -> None:
    play_out(table)
    send(table, {"type": "export", "actions": True})
    text = table.download["text"]
    assert text == export_hand(table.game, opponents=1) and table.download["name"].endswith(".txt")
    assert import_hand(text).events == table.game.events

    again = Table(pause_ms=0, deal_ms=0, record=text)
    assert again.load_error == ""
    assert again.game.events == table.game.events and again.game.results == table.game.results
    assert again.state["score"] == table.state["score"] and again.state["review"] == table.state["review"]

    again.restart()  # play the same deal again, the same way: the same hand
    assert again.game.phase is Phase.DEALING and again.state["waiting"] in ("deal", "declare")
    play_out(again)
    assert again.game.history == table.game.history

    deal_only = Table(pause_ms=0, deal_ms=0)
    send(deal_only, {"type": "import", "text": table.export(actions=False)})
    assert deal_only.game.seed == SEED and deal_only.game.phase is Phase.DEALING
    play_out(deal_only)
    assert deal_only.game.history == table.game.history


@pytest.mark.parametrize("tamper", ["play-card", "header", "seed", "garbage", "not-text", "huge"])
def test_a_tampered_import_shows_an_error_and_keeps_the_hand(table: Table, tamper: str) -> None:
    play_out(table)
    text = export_hand(table.game)
    lines = text.splitlines()
    if tamper == "play-card":
        at = next(i for i, line in enumerate(lines) if line.startswith("play "))
        seat, cards = lines[at].split(" ", 2)[1:]
        other = "BJ" if "BJ" not in cards else "SJ"
        lines[at] = f"play {seat} {other}"
        bad: object = "\n".join(lines)
    elif tamper == "header":
        bad = "\n".join(["# something else"] + lines[1:])
    elif tamper == "seed":
        bad = text.replace(f"seed: {SEED}", "seed: x")
    elif tamper == "garbage":
        bad = "\x00\x01 not a hand"
    elif tamper == "not-text":
        bad = 42
    else:
        bad = text * 200
    history = table.game.history
    send(table, {"type": "import", "text": bad})
    assert table.load_error.startswith("This hand file could not be read")
    if tamper == "play-card":
        assert "line" in table.load_error and "refused" in table.load_error
    assert table.game.history == history and table.state["waiting"] == "done"


def test_malformed_messages_change_nothing(table: Table) -> None:
    table.run()
    state = dict(table.state)
    for junk in (None, [], "x", {"type": "act"}, {"type": "act", "verb": "play", "cards": "♠A"},
                 {"type": "act", "verb": "play", "cards": ["x" * 50]}, {"type": "declare", "option": "0"},
                 {"type": "declare", "option": True}, {"type": "step"}, {"type": "nope"},
                 {"type": "act", "verb": "play", "cards": ["♠A"] * 100}):
        send(table, junk)
    assert table.state == state


def test_seeds_from_links_are_validated() -> None:
    assert seed_from_query("seed=17") == 17 and seed_from_query("a=1&seed=0042") == 42
    for bad in ("seed=-1", "seed=1e3", "seed=abc", "seed=" + "9" * 12, "", None):
        assert seed_from_query(bad) is None
    with pytest.raises(TutorError):
        Table(seed=-5)
    assert Table(seed=None, pause_ms=0).game.seed >= 0


def test_learner_actions_mirror_game_refusals(table: Table) -> None:
    """The widget adds no rule of its own: what it refuses, the game refuses."""
    while table.run() == "declare":
        send(table, {"type": "pass"})
    game = Game(SEED)
    for action in table.game.history:
        game.apply(action)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(Declare(0, ()))
    record = table.declare("")
    assert record["rule"] == refused.value.rule


def _failing_throw(table: Table) -> list[str] | None:
    """At the learner's lead: a throw the rules reject (asked of a copy of the game)."""
    game = table.game
    assert game.trump is not None
    lanes: dict[int, list[Any]] = {}
    for card in game.hand(0):
        lanes.setdefault(game.trump.lane(card), []).append(card)
    for cards in lanes.values():
        distinct = list(dict.fromkeys(cards))
        if len(distinct) < 2:
            continue
        throw = (distinct[0], distinct[-1])
        copy = Game.replay(game.seed, game.history, game.rules, game.deck)
        try:
            event = copy.apply(Play(0, throw))
        except IllegalActionError:
            continue
        if any(type(r).__name__ == "ThrowFailed" for r in event.results):
            return [str(c) for c in throw]
    return None


def test_a_failed_throw_is_taken_back_shown_and_penalised() -> None:
    for seed in range(60):
        table = Table(seed, pause_ms=0, deal_ms=0, stop_to_declare=False)
        for _ in range(40):
            if table.run() == "done":
                break
            if table.game.phase is Phase.PLAYING and not table.game.trick:
                throw = _failing_throw(table)
                if throw is not None:
                    side = table.game.side_of(0)
                    send(table, {"type": "act", "verb": "play", "cards": throw, "selected": []})
                    assert table.feedback["kind"] == "throw" and table.feedback["rule"] == "L4"
                    reason = table.feedback["reason"]
                    assert "(L5)" in reason and "taken back" in reason and reason.startswith("Your throw of ")
                    assert reason.count("instead") == 1  # said once (#43 item 10)
                    assert table.game.penalty_adjustment == (-10 if side == "attacker" else 10)
                    if table.game.forced_options:  # the learner chooses the forced lead (L4)
                        assert table.state["forced"] and "throw failed" in table.state["prompt"]
                        assert table.waiting == "learner"
                        send(table, {"type": "act", "verb": "play", "cards": table.state["forced"][0].split(),
                                     "selected": []})
                    mine = table.game.trick[0] if table.game.trick else table.game.tricks[-1].plays[0]
                    assert mine[0] == 0 and len(mine[1]) == 1  # the forced single was led
                    play_out(table)
                    notes = [n for t in table.state["review"] for n in t["notes"]]
                    assert any("Your throw of" in n and " fails: " in n for n in notes)
                    assert any("(L5)" in line for line in table.state["score"]["lines"])
                    return
            learner_policy(table, [True])
    pytest.fail("no failing throw found for the learner")


def test_the_kitty_flip_is_narrated() -> None:
    """Nobody declares (a record of such a deal): the kitty is turned over (D6)."""
    game = Game(SEED)
    while not game.all_dealt:
        game.apply(Deal())
    game.apply(CloseDeal())
    chosen = next(r for r in game.events[-1].results if isinstance(r, DeclarerChosen))
    assert chosen.flipped is not None
    table = Table(pause_ms=0, deal_ms=0, record=export_hand(game))
    assert table.load_error == "" and table.game.declarer == chosen.seat
    assert any("kitty is turned over" in line and str(chosen.flipped) in line for line in table.state["log"])
    play_out(table)
    assert table.state["score"]["results"]


# ------------------------------------------------------------------ languages

def _said(table: Table) -> list[str]:
    """Every text the table shows now (not the cards' own faces)."""
    state = table.state
    said = [state[k] for k in ("phase_text", "prompt", "trump_text", "declaration_text", "friend_text", "trick_text")]
    said += [seat["name"] for seat in state["seats"]] + [role for seat in state["seats"] for role in seat["roles"]]
    said += [option["label"] for option in state["options"]] + list(state["log"])
    said += [table.hint_text, table.feedback.get("reason", ""), table.load_error]
    opponents = state["opponents"]
    said += [opponents["text"], opponents["note"]] + [t for c in opponents["choices"] for t in (c["label"], c["explain"])]
    score = state.get("score")
    if score:
        said += [*score["lines"], score["explain"], score["verdict"]]
        said += [r["name"] for r in score["results"]] + [r["side"] for r in score["results"]]
        said += [t["text"] for t in state["review"]] + [n for t in state["review"] for n in t["notes"]]
    return said


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_a_whole_hand_in_chinese_has_no_english(lang: str) -> None:
    from leaks import english_words

    table = Table(SEED, lang=lang, pause_ms=0, deal_ms=0)
    send(table, {"type": "opponents", "level": 3})  # from the next hand: the table says so, in Chinese
    said: list[str] = list(table.labels.values())
    refusals: list[str] = []

    def on_turn(t: Table) -> None:
        said.extend(_said(t))
        if t.waiting == "learner" and t.game.phase is Phase.PLAYING and not refusals:
            cards = illegal_play(t)
            if cards:
                positions: list[int] = []
                for text in cards:
                    positions.append(next(i for i, c in enumerate(t.hand) if c["text"] == text and i not in positions))
                send(t, {"type": "act", "verb": "play", "cards": cards, "selected": positions})
                refusals.append(t.feedback["reason"])
                said.extend(_said(t))

    play_out(table, on_turn=on_turn)
    said += _said(table) + refusals + [table.tr(line) for line in table.session.desk(0).log]
    send(table, {"type": "import", "text": "not a hand file"})
    assert table.load_error and "hand record" in table.load_error  # the file's own first line, quoted
    said += [table.load_error.replace("hand record", "")]
    said.append(table.declare("♠3 ♥4")["reason"])
    assert refusals and table.state["score"]
    leaks = sorted({f"{english_words(text)} in {text!r}" for text in said if english_words(text)})
    assert not leaks, "\n".join(leaks[:30])


SIMPLIFIED_ONLY = set("这们说对张刚选时为会门级连庄独无单机")
"""Characters only Simplified Chinese writes: Traditional text never falls back to them."""


def _shown(table: Table) -> str:
    """Everything the front end is given now (the refusal's running id left out)."""
    import json

    feedback = {k: v for k, v in table.feedback.items() if k != "id"}
    return json.dumps([table.state, table.hand, feedback, table.hint_text, table.load_error, table.labels],
                      ensure_ascii=False, sort_keys=True)


def _whole_hand(lang: str) -> list[str]:
    """What the table shows at every turn of a whole hand in ``lang``, with a refused
    play, a hint, a refused declaration and an unreadable hand file."""
    table = Table(SEED, lang=lang, pause_ms=0, deal_ms=0)
    shown = [_shown(table)]

    def on_turn(t: Table) -> None:
        shown.append(_shown(t))
        if t.waiting == "learner" and t.game.phase is Phase.PLAYING and len(shown) % 5 == 0:
            cards = illegal_play(t)
            if cards:
                positions: list[int] = []
                for text in cards:
                    positions.append(next(i for i, c in enumerate(t.hand) if c["text"] == text and i not in positions))
                send(t, {"type": "act", "verb": "play", "cards": cards, "selected": positions})
                shown.append(_shown(t))

    play_out(table, on_turn=on_turn)
    shown.append(_shown(table))
    shown.append(table.declare("♠3 ♥4")["reason"])
    send(table, {"type": "import", "text": "not a hand file"})
    shown.append(_shown(table))
    table.close()
    return shown


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_table_speaks_its_own_language_whatever_the_kernels(lang: str) -> None:
    """A table made in ``lang`` shows the same whole hand in a kernel set to another language."""
    from tutor.core.i18n import current, set_language

    before = current().language
    try:
        set_language("en")
        mine = _whole_hand(lang)
        set_language("zh-Hans")
        other = _whole_hand(lang)
    finally:
        set_language(before)
    assert len(mine) == len(other) > 20
    for here, there in zip(mine, other, strict=True):
        assert here == there
    if lang == "zh-Hant":
        simplified = sorted({c for text in other for c in text if c in SIMPLIFIED_ONLY})
        assert not simplified, [text for text in other if SIMPLIFIED_ONLY & set(text)][:3]


# ------------------------------------------------------------------ the widget decides nothing

WIDGET_SENTENCES = {
    "that declaration is no longer open to you", "those cards could not be read",
    "those picked cards could not be read", "that is not open to you now", "Something went wrong: {problem}",
    "Opened a hand file (seed {seed}).", "This hand file could not be read: {problem}",
    "This hand file could not be read: it is too large, or not a text file.",
    "This hand file could not be read: it is far too long.",
    "This hand file could not be read: it is not a hand file of this course.",
    # the computer players' level (the table's setting, not the game): its choices, explained
    "rules of thumb", "think a little", "think hard", "Level {level}: {name}", "Opponents: level {level} ({name})",
    "Level {level} ({name}) from the next hand; this hand goes on at level {current}.",
    "They play at once, by simple rules of thumb. The best place to start.",
    "Before each card they imagine a few ways the hidden cards could lie and try their choices out. Harder to beat.",
    "They imagine many more ways the hidden cards could lie before each card, and take a moment to think. "
    "The strongest.",
    "the opponents' level is one of {levels}, not {value}",
    # learn from your mistakes, the deal again from a trick, who is the friend (advice, not rules: issue 27)
    "The coach found no costly play to try again: none of your plays cost more than its margin of error.",
    "Advice, not a rule: well found. {cards} is the coach's choice too.",
    "Advice, not a rule: well found. {cards} is within the coach's margin of its best play, {best} (about {cost} "
    "less, within ±{error}).",
    "Advice, not a rule: {cards} still costs about {cost} points of the score table against the coach's best (more "
    "than its margin of error, ±{error}). Try another play, or show the answer.",
    "Advice, not a rule: the coach's answer is {cards} — expected {value} against {mine} for {played}, the play you "
    "made: {why}.",
    "there is no trick {trick} in this hand to play again from", "there is no such trick in this hand to play again "
    "from", "Playing the deal again from trick {n}.",
    ("Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of {count} position; "
     "the answer was shown in {shown}, and {skipped} skipped.",
     "Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of {count} positions; "
     "the answer was shown in {shown}, and {skipped} skipped."),
    "Learn from your mistakes (advice, not rules): mistake {number} of {count}. In trick {trick} you played {cards}; "
    "the coach found a better play. Pick your cards and press Play to try again.",
    "Advice, not a rule: in every one of the {count} deals of the hidden cards the coach tries, {who} holds {card}: "
    "the friend (F2).",
    ("Advice, not a rule: the friend is most likely {who} (about {share}%), from the {deals} deals of the hidden cards "
     "the coach tries (F2).",
     "Advice, not a rule: the friend is {who}, equally likely (about {share}% each), from the {deals} deals of the "
     "hidden cards the coach tries (F2)."),
    "{who} about {share}%", "Each seat's chance of holding the other {card}: {chances}.",
    # the learner's own positions come back (issue 27, item 5): the browser's store and the review of it
    "the table reviews {reviews}, not {review}",
    "Some positions kept in this browser to review could not be read and were left out: {problem}",
    "No positions from your own hands are due for review now. Play a new hand instead: your costly plays come back "
    "here when they are due.",
    "A kept position could not be replayed and is no longer kept: {problem}",
    ("Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} position; "
     "the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt.",
     "Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} positions; "
     "the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt."),
    "Your positions to review (advice, not rules): position {number} of {count}, from a hand you played. In trick "
    "{trick} you played {cards}; the coach found a better play. Pick your cards and press Play to try again.",
    "Finding the positions from your own hands to review…",
}
"""What the widget itself may say: its labels and what it makes of the page's input and
of a hand file; every sentence about the game is tutor.teach.narration's."""


def test_the_table_says_nothing_about_the_game_itself() -> None:
    import io
    from pathlib import Path

    from babel.messages.extract import extract

    from tools.catalogs import KEYWORDS
    from widgets.table import TABLE_LABELS

    source = (Path(__file__).resolve().parent.parent / "widgets" / "table.py").read_bytes()
    said = {text for _line, text, _c, _x in extract("python", io.BytesIO(source), keywords=KEYWORDS)}
    labels = {(label.template, label.plural_template) if getattr(label, "plural_template", None) else label
              for label in TABLE_LABELS.values()}
    assert said - labels <= WIDGET_SENTENCES, sorted(map(str, said - labels - WIDGET_SENTENCES))


def test_dead_code_is_gone() -> None:
    import widgets.table

    assert not hasattr(widgets.table, "DEAL_SPEEDS") and not hasattr(widgets.table, "BOT_SPEEDS")
    assert not hasattr(Table, "hint_action")


def test_the_table_shows_the_games_turn_and_what_it_allows() -> None:
    """At every state of a whole hand, whose turn it is and which buttons the page shows
    are the game's answers (Game.actor, Game.can), and the log is the narration's."""
    from tutor.teach import narration
    from tutor.rules.cards import KITTY_SIZE

    table = Table(SEED, pause_ms=0, deal_ms=0)
    declared: list[bool] = []
    checked = set()
    for _ in range(2000):
        game, state = table.game, table.state
        actor = game.actor
        assert [seat["turn"] for seat in state["seats"]] == [actor == s for s in range(5)]
        if actor is not None:
            assert state["waiting"] == ("learner" if actor == 0 else "bot")
        else:  # a chance step: the next card (or the deal stopped for the learner), or the end
            assert state["waiting"] in (("done",) if game.phase is Phase.FINISHED else ("deal", "declare"))
        assert state["can"]["solo"] == game.can(Solo(0))
        mine = actor == 0
        assert [state["can"][verb] for verb in ("bury", "call", "play")] == [
            mine and game.phase is phase for phase in (Phase.BURYING, Phase.CALLING, Phase.PLAYING)]
        assert state["pick"] == (KITTY_SIZE if mine and game.phase is Phase.BURYING else 1 if mine and
                                 game.phase is Phase.CALLING else None)
        assert state["prompt"] == narration.turn(game.view(0), stopped=state["waiting"] == "declare")
        checked.add((game.phase, state["waiting"]))
        if state["waiting"] == "done":
            break
        if not table.step():
            learner_policy(table, declared)
    assert (Phase.BURYING, "learner") in checked and (Phase.PLAYING, "bot") in checked
    assert (Phase.FINISHED, "done") in checked
    said = [narration.happened(r, table.game.view(0)) for e in table.game.events for r in e.results]
    assert table.state["log"] == [str(s) for s in said if s is not None][-8:]


# ------------------------------------------------------------------ the computer players' level


def levels(table: Table) -> set[int]:
    return {bot.level for bot in table.bots.values()}


def test_the_opponents_level_applies_from_the_next_hand_only() -> None:
    assert OFFERED_LEVELS == LEVELS  # every level the computer players have is offered
    table = Table(SEED, pause_ms=0, deal_ms=0, stop_to_declare=False)
    assert levels(table) == {1} and table.state["opponents"]["text"] == "Opponents: level 1 (rules of thumb)"
    assert [c["level"] for c in table.state["opponents"]["choices"]] == list(LEVELS)
    assert all(c["explain"] for c in table.state["opponents"]["choices"])
    assert table.run() == "learner"
    bots, history = dict(table.bots), tuple(table.game.history)

    send(table, {"type": "opponents", "level": 3})  # as the page sends it
    assert table.next_level == 3 and table.level == 1
    assert table.bots == bots and levels(table) == {1} and table.game.history == history  # this hand: unchanged
    shown = table.state["opponents"]
    assert shown["level"] == 1 and shown["next"] == 3 and shown["text"] == "Opponents: level 1 (rules of thumb)"
    assert shown["note"] == "Level 3 (think hard) from the next hand; this hand goes on at level 1."
    assert table.feedback == {}

    send(table, {"type": "new"})
    assert levels(table) == {3} and table.level == 3 and set(table.bots) == {1, 2, 3, 4}
    assert table.state["opponents"]["text"] == "Opponents: level 3 (think hard)"
    assert table.state["opponents"]["note"] == ""
    assert table.run() == "learner" and table.game.history  # level 3 players play (their first moves)

    table.choose_level(2)
    send(table, {"type": "restart"})  # the same deal again is a next hand too
    assert levels(table) == {2} and table.state["opponents"]["text"] == "Opponents: level 2 (think a little)"
    record = table.export(actions=False)
    assert "\nopponents: 2\n" in record
    table.choose_level(1)
    send(table, {"type": "import", "text": record})  # a hand file goes on at the level it names
    assert table.load_error == "" and levels(table) == {2} and table.level == 2 and table.next_level == 1
    assert table.state["opponents"]["note"] == "Level 1 (rules of thumb) from the next hand; this hand goes on at level 2."
    send(table, {"type": "import", "text": record.replace("opponents: 2\n", "")})  # one that names none: as chosen
    assert table.load_error == "" and levels(table) == {1}

    assert levels(Table(SEED, pause_ms=0, deal_ms=0, level=2)) == {2}
    assert levels(Table(SEED, pause_ms=0, deal_ms=0, level=3, record=record)) == {2}
    assert levels(Table(SEED, pause_ms=0, deal_ms=0, level=3, record=record.replace("opponents: 2\n", ""))) == {3}


def test_same_level_same_seed_same_computer_players() -> None:
    first, second = (Table(SEED, pause_ms=0, deal_ms=0, level=2, stop_to_declare=False) for _ in range(2))
    assert first.run() == second.run() == "learner"
    assert first.game.history == second.game.history
    assert all(bot.level == 2 and bot.seat == seat for seat, bot in first.bots.items())


@pytest.mark.parametrize("bad", [0, 4, -1, 10**100, 10**5000, True, False, 3.0, "3", "x" * 10**6, None, [3],
                                 {"level": 3}, float("nan")],
                         ids=lambda bad: shown(bad)[:12])
def test_a_level_that_is_none_is_refused(bad: object) -> None:
    with pytest.raises(TutorError, match="the opponents' level is one of 1, 2, 3, not "):
        Table(SEED, pause_ms=0, deal_ms=0, level=bad)  # type: ignore[arg-type]
    with pytest.raises(TutorError):
        check_level(bad)
    table = Table(SEED, pause_ms=0, deal_ms=0, level=2)
    state = dict(table.state)
    with pytest.raises(TutorError):
        table.choose_level(bad)  # type: ignore[arg-type]
    assert table.next_level == 2 and table.state == state
    assert str(pytest.raises(TutorError, check_level, 7).value) == "the opponents' level is one of 1, 2, 3, not 7"


def test_tampered_level_messages_change_nothing() -> None:
    table = Table(SEED, pause_ms=0, deal_ms=0, stop_to_declare=False)
    table.run()
    send(table, {"type": "opponents", "level": 2})
    assert table.next_level == 2  # the page's own message is taken
    state, bots, feedback = dict(table.state), dict(table.bots), dict(table.feedback)
    for junk in ({"type": "opponents"}, {"type": "opponents", "level": None}, {"type": "opponents", "level": "3"},
                 {"type": "opponents", "level": 3.0}, {"type": "opponents", "level": True},
                 {"type": "opponents", "level": 0}, {"type": "opponents", "level": 4},
                 {"type": "opponents", "level": -1}, {"type": "opponents", "level": 10**400},
                 {"type": "opponents", "level": [3]}, {"type": "opponents", "level": {"level": 3}},
                 {"type": "opponents", "value": 3}, {"type": "level", "level": 3},
                 {"type": "opponents", "level": float("nan")}, {"type": "opponents", "level": "x" * 100_000},
                 {"type": "opponents", "level": 2}):  # the level already chosen: nothing to do
        send(table, junk)
        assert table.next_level == 2 and table.level == 1, junk
        assert table.state == state and table.bots == bots and table.feedback == feedback, junk
    send(table, {"type": "new"})
    assert levels(table) == {2}


def test_the_page_is_sent_the_one_list_of_the_actions_that_change_the_game() -> None:
    """Python's list (:data:`widgets.requests.GAME_ACTIONS`) is the page's: lesson 10's table and a
    seat at a table of classmates send it, and the front end keeps none of its own."""
    import re

    from tutor.server.tables.seat import SeatPage
    from tutor.teach.table_session import TableSession
    from widgets._common import STATIC
    from widgets.requests import GAME_ACTIONS

    assert Table(SEED, pause_ms=0, deal_ms=0).game_actions == sorted(GAME_ACTIONS)
    page = SeatPage(TableSession(Game(SEED), learners={0}), 0, "en")
    assert page.traits["game_actions"] == sorted(GAME_ACTIONS) and "game_actions" in page.dirty
    script = (STATIC / "table.js").read_text("utf-8")
    assert 'new Set(model.get("game_actions")' in script
    assert not re.search(r"\[\s*\"act\",\s*\"declare\"", script)  # no list of its own
