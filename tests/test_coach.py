"""The searching computer players and the coach (advice, not rules): levels, the seat's
view only, think-time, advice at the table and the review after the hand."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tutor.teach import coaching
from tutor.rules.cards import PLAYERS
from tutor.play.coach import advise, review
from tutor.core.errors import TutorError
from tutor.rules.game import Declare, Game, Phase, Play
from tutor.core.i18n import Translator
from tutor.play.search import MAX_CANDIDATES, candidate_plays, search
from tutor.play.strategy import LEVELS, ComputerPlayer, next_action, play_computer_hand
from tutor.rules.trick import trick_winner


def _position(seed: int, tricks: int, plays: int = 0) -> Game:
    """A hand of level-1 players stopped after ``tricks`` tricks and ``plays`` plays of the next."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is not Phase.PLAYING:
        game.apply(next_action(game, bots))
    while game.phase is Phase.PLAYING and (len(game.tricks) < tricks or len(game.trick) < plays):
        game.apply(next_action(game, bots))
    return game


def test_the_levels():
    assert LEVELS == (1, 2, 3)
    for bad in (0, 4, "3", True, 2.0, None):
        with pytest.raises(TutorError, match="level"):
            ComputerPlayer(0, level=bad)  # type: ignore[arg-type]
    for bad in (0, -1, "x", True, 1e9, float("nan")):
        with pytest.raises(TutorError, match="think-time"):
            ComputerPlayer(0, level=3, think=bad)  # type: ignore[arg-type]


def test_a_searching_player_plays_whole_legal_hands():
    """Level 3 in one seat: every play it makes is one the game accepts (Game.apply refuses any other)."""
    for seed in (1, 2):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        bots[seed % PLAYERS] = ComputerPlayer(seed % PLAYERS, seed, level=3, think=0.05)
        while game.phase is not Phase.FINISHED:
            game.apply(next_action(game, bots))
        assert sum(game.results) == 0


def _hidden_swap(game: Game, seat: int) -> Game:
    """The same hand, replayed from a deck in which two seats other than ``seat`` hold
    different cards of one suit that neither has played (nor declared, nor called): the
    view of ``seat`` is the same, the hidden hands are not."""
    view = game.view(seat)
    trump = game.trump
    used = {c for a in game.history for c in getattr(a, "cards", ())} | {view.friend_card}
    others = [s for s in range(PLAYERS) if s != seat]
    for a in others:
        for b in others:
            if a >= b or game.declarer in (a, b) and view.kitty is None:
                continue
            for x in game.hand(a):
                for y in game.hand(b):
                    if x != y and trump.lane(x) == trump.lane(y) and x not in used and y not in used \
                            and x not in game.hand(b) and y not in game.hand(a):
                        deck = list(game.deck if game.deck is not None else game.first_deal)
                        i, j = deck.index(x), deck.index(y)
                        deck[i], deck[j] = deck[j], deck[i]
                        try:
                            other = Game.replay(game.seed, game.history, game.rules, deck=deck)
                        except TutorError:
                            continue
                        if other.view(seat) == view and Counter(other.hand(a)) != Counter(game.hand(a)):
                            return other
    pytest.skip("no hidden swap keeps this view")


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_a_searching_player_sees_only_its_seats_view(seed):
    """Two hands whose other seats hold different cards, but which look the same from
    this seat: the level-3 player plays the same. Were it to read another seat's cards,
    its averages (and so, over these positions, its choices) would differ."""
    game = _position(seed, 3, 1)
    seat = game.actor
    other = _hidden_swap(game, seat)
    first = ComputerPlayer(seat, seed, level=3, think=10)  # every layout, however busy the machine
    second = ComputerPlayer(seat, seed, level=3, think=10)
    assert first.act(game.view(seat)) == second.act(other.view(seat))
    assert first.last_search is not None and second.last_search is not None
    assert first.last_search.values == second.last_search.values


def test_the_candidates_are_legal_and_include_what_is_asked():
    for seed in range(6):
        game = _position(seed, seed % 5, seed % 4)
        if game.phase is not Phase.PLAYING:
            continue
        view = game.view(game.actor)
        base = ComputerPlayer(view.seat, seed).act(view)
        assert isinstance(base, Play)
        plays = candidate_plays(view, rng=random.Random(0), include=(base.cards,))
        assert any(Counter(play) == Counter(base.cards) for play in plays)
        assert len(plays) == len(set(plays))
        anyway = candidate_plays(view, rng=random.Random(0))
        assert plays[:len(anyway)] == anyway  # the included play, if new, comes after the others
        for play in anyway:  # including a play weighed anyway changes nothing, not even the order
            assert candidate_plays(view, rng=random.Random(0), include=(play,)) == anyway
        if view.trick:
            assert len(plays) <= MAX_CANDIDATES + 1
        for play in plays:
            assert game.can(Play(view.seat, play)), play


def test_a_judgment_that_weighed_a_play_is_the_judgment_with_it_included():
    """The hint's judgment of a position is the review's judgment of any play it weighed
    (leads and follows, all through hands): the same candidates in the same order, so the
    same numbers and the same best, exact ties included. So the review and a hint with cards
    picked take the hint's judgment instead of weighing again (``judged=``)."""
    from tutor.play.coach import decision, judge

    checked = 0
    for seed in range(4):
        for tricks, plays in ((0, 0), (4, 2), (9, 1), (15, 3)):
            game = _position(seed, tricks, plays)
            if game.phase is not Phase.PLAYING:
                continue
            view = game.view(game.actor)
            plain = judge(view, seed=seed, layouts=3)
            for value in plain.values:
                again = judge(view, seed=seed, layouts=3, include=[value.play])
                assert again.values == plain.values, (seed, tricks, plays, value.play)
                made = decision(view, value.play, 0, seed=seed, layouts=3)
                reused = decision(view, value.play, 0, seed=seed, layouts=3, judged=plain)
                assert made is None or (made.found.values, made.cost, made.error) == \
                    (reused.found.values, reused.cost, reused.error)
                checked += 1
            if tricks == 4:  # the hint (its 40 layouts) with the cards of its last play picked
                full = judge(view, seed=seed)
                picked = full.values[-1].play
                taken, weighed = advise(view, seed=seed, chosen=picked, judged=full), advise(view, seed=seed, chosen=picked)
                assert (taken.found.values, taken.chosen, taken.action) == \
                    (weighed.found.values, weighed.chosen, weighed.action)  # (its seconds apart)
    assert checked > 60


def test_the_search_stops_at_its_think_time_and_compares_on_the_same_layouts():
    game = _position(4, 2, 2)
    view = game.view(game.actor)
    quick = search(view, rng=random.Random(0), layouts=50, think=1e-9)
    assert quick.layouts == 2
    found = search(view, rng=random.Random(0), layouts=12)
    assert found.layouts == 12 and all(len(v.results) == 12 for v in found.values)
    assert [v.expected for v in found.values] == sorted((v.expected for v in found.values), reverse=True)
    gain, error = found.edge(found.best, found.values[-1])
    assert gain == pytest.approx(found.best.expected - found.values[-1].expected) and error >= 0
    with pytest.raises(TutorError, match="layout"):
        search(view, rng=random.Random(0), layouts=0)
    with pytest.raises(TutorError, match="search"):
        search(_position(4, 0).view((game.actor + 1) % PLAYERS), rng=random.Random(0))


def test_the_trick_share_is_the_trick_the_play_belongs_to():
    """A play that wins the trick at once, as the last to play, takes it every time."""
    for seed in range(30):
        game = _position(seed, 2, PLAYERS - 1)
        if game.phase is not Phase.PLAYING or len(game.trick) != PLAYERS - 1:
            continue
        view = game.view(game.actor)
        found = search(view, rng=random.Random(0), layouts=3)
        lead_and_rest = [cards for _, cards in view.trick]
        for value in found.values:
            winner = trick_winner(lead_and_rest + [value.play], view.trump)
            if winner == PLAYERS - 1:
                assert value.trick_share == 1.0
        return
    pytest.fail("no position with four plays made")


def test_advice_names_the_best_plays_and_the_learners_choice_as_advice():
    game = _position(6, 3, 2)
    view = game.view(game.actor)
    mine = candidate_plays(view, rng=random.Random(1))[-1]
    given = advise(view, game.rules, chosen=mine, think=0.2)
    lines = coaching.advice(given)
    assert lines[0].startswith("Advice, not a rule")
    assert str(given.best.play[0]) in lines[1]
    assert given.chosen is not None and Counter(given.chosen.play) == Counter(mine)
    assert any(str(mine[0]) in line for line in lines)
    chinese = " ".join(Translator("zh-Hans")(line) for line in lines)
    assert "建议" in chinese and "Advice" not in chinese
    illegal = [c for c in view.hand if c not in mine][:len(mine)] if len(mine) == 1 else None
    if illegal is not None:
        assert advise(view, game.rules, chosen=illegal, think=0.1).chosen is None or \
            game.can(Play(view.seat, tuple(illegal)))


def test_outside_the_tricks_the_advice_is_the_computer_players():
    game = Game(7)
    given = advise(game.view(0))
    assert given.found is None
    assert coaching.advice(given) == (coaching.hint(ComputerPlayer(0, 0).act(game.view(0)), game.view(0)),)


def test_the_review_lists_each_choice_costliest_first():
    game = play_computer_hand(9)
    decisions = review(game, 2, layouts=6, think=0.05)
    assert decisions and [d.cost for d in decisions] == sorted((d.cost for d in decisions), reverse=True)
    for decision in decisions:
        assert len(decision.found.values) > 1  # a forced play is no decision
        action = game.history[decision.index]
        assert isinstance(action, Play) and action.seat == 2 and Counter(action.cards) == Counter(decision.played)
        assert decision.view == Game.replay(game.seed, game.history[:decision.index], game.rules).view(2)
        line = coaching.decision_line(decision)
        assert line.startswith(f"Trick {decision.trick}: you played")
    assert coaching.review_heading(decisions).startswith("The coach's review (advice, not rules)")


def test_a_player_at_level_1_is_unchanged_by_the_levels():
    one, plain = ComputerPlayer(2, 5, level=1), ComputerPlayer(2, 5)
    game = _position(5, 1, 2)
    assert one.act(game.view(2)) == plain.act(game.view(2)) and one.last_search is None


def test_the_table_gives_advice_and_reviews_the_hand_and_keeps_the_review_in_the_hand_file():
    from tutor.play.record import import_hand
    from widgets.table import Table

    table = Table(seed=12, pause_ms=0, deal_ms=0, stop_to_declare=False)
    assert table.run() == "learner"
    table.review_play()
    assert table.feedback["kind"] == "note" and "once the hand is over" in table.feedback["reason"]
    while table.game.phase is not Phase.FINISHED:
        if table.game.actor == table.seat and table.game.phase is Phase.PLAYING:
            text = table.hint()
            assert text.startswith("Advice, not a rule") and table.selected  # the advised cards are picked
        action = ComputerPlayer(table.seat, 1).act(table.game.view(table.seat))
        assert action is not None
        table.game.apply(action)
        table.run()
    assert "coach" not in table.state
    decisions = table.review_play()
    coach = table.state["coach"]
    assert coach["heading"].startswith("The coach's review") and len(coach["items"]) == len(decisions)
    assert all(item["hand_html"] and item["weighed"] for item in coach["items"])
    text = table.export()
    assert "# The coach's review" in text
    assert import_hand(text).events == table.game.events  # the review is a comment: the file still replays
    chinese = Table(seed=12, lang="zh-Hans", pause_ms=0, deal_ms=0, stop_to_declare=False)
    chinese.load(text)
    assert chinese.review_play() and "教练的复盘" in chinese.state["coach"]["heading"]


@pytest.mark.parametrize("seed", range(4))
def test_a_searching_declarer_calls_a_friend_the_rules_allow(seed):
    from tutor.play.search import weigh_calls

    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is not Phase.CALLING:
        game.apply(next_action(game, bots))
    view = game.view(game.declarer)
    action = ComputerPlayer(game.declarer, seed, level=3, think=10).act(view)
    assert action is not None and game.can(action)
    results = weigh_calls(view, [view.hand[0] if view.hand.count(view.hand[0]) == 1 else None, None],
                          rng=random.Random(0), layouts=3)
    assert [len(r) for r in results] == [3, 3]
    with pytest.raises(TutorError, match="declarer"):
        weigh_calls(game.view((game.declarer + 1) % PLAYERS), [None], rng=random.Random(0))


def test_the_advice_is_all_in_the_learners_language():
    """Every sentence of the advice, voids and friend included, reads in Chinese (no
    English word left inside a translated sentence)."""
    import re

    from tutor.play.simulation import shown_voids

    for seed in range(20):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.FINISHED:
            view = game.view(game.actor) if game.actor is not None else None
            if view is not None and game.phase is Phase.PLAYING and game.trick and shown_voids(view):
                lines = coaching.advice(advise(view, think=0.05))
                for lang in ("zh-Hans", "zh-Hant"):
                    said = " ".join(Translator(lang)(line) for line in lines)
                    assert not re.findall(r"[A-Za-z]{3,}", said), said
                return
            game.apply(next_action(game, bots))
    pytest.fail("no position with a shown void")


def _burying(seed: int) -> Game:
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is not Phase.BURYING:
        game.apply(next_action(game, bots))
    return game


def test_a_searching_declarer_buries_by_search():
    """Above level 1 the declarer weighs its bury against others (each suit it could
    empty, a bury with no points), played out with the call each leads to: its bury is
    always one the game accepts, and on some deals it is not level 1's."""
    from tutor.play.search import weigh_buries

    changed = 0
    for seed in range(12):
        game = _burying(seed)
        view = game.view(game.declarer)
        searched = ComputerPlayer(game.declarer, seed, level=3, think=10).act(view)
        plain = ComputerPlayer(game.declarer, seed).act(view)
        assert searched is not None and game.can(searched)
        changed += Counter(searched.cards) != Counter(plain.cards)
    assert changed >= 1
    with pytest.raises(TutorError, match="8 of the declarer's cards"):
        weigh_buries(view, [(view.hand[:7], None)], rng=random.Random(0))
    with pytest.raises(TutorError, match="before burying"):
        weigh_buries(game.view((game.declarer + 1) % PLAYERS), [(view.hand[:8], None)], rng=random.Random(0))


@pytest.mark.parametrize("seed", [2, 5])
def test_a_searching_declarer_buries_from_its_own_cards_only(seed):
    """The same 28 cards, other seats' hands swapped: the same bury and the same call."""
    game = _burying(seed)
    seat = game.declarer
    other = _hidden_swap(game, seat)
    first = ComputerPlayer(seat, seed, level=3, think=10)
    second = ComputerPlayer(seat, seed, level=3, think=10)
    assert first.act(game.view(seat)) == second.act(other.view(seat))


_ADVICE_SCRIPT = """
import json, sys
junk = [object() for _ in range(int(sys.argv[1]))]  # another memory layout: sets of cards iterate otherwise
from tutor.play.coach import advise
from tutor.rules.game import Game, Phase
from tutor.play.strategy import ComputerPlayer, next_action
out = []
for seed in (5, 6):
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(5)}
    while game.phase is not Phase.FINISHED:
        if game.phase is Phase.PLAYING and game.actor == 0 and game.trick:
            found = advise(game.view(0)).found
            out.append([[str(v.play), round(v.expected, 6)] for v in found.values])
        game.apply(next_action(game, bots))
print(json.dumps(out))
"""


def test_the_advice_is_the_same_in_any_process():
    """A hint's advice is a function of the position: two processes (their cards at other
    addresses, so any set of cards iterates in another order) advise the same plays with
    the same numbers — a shared deal plays out the same on the page as in the tests."""
    import json
    import subprocess
    import sys

    runs = [subprocess.run([sys.executable, "-c", _ADVICE_SCRIPT, str(n)], capture_output=True, text=True,
                           check=True, timeout=600).stdout for n in (0, 12345)]
    assert json.loads(runs[0]) and json.loads(runs[0]) == json.loads(runs[1])


def _declaring_positions(seeds):
    """(game, seat) while level-1 players deal and declare, wherever ``seat`` may declare
    with a share of trumps near level 1's bar."""
    for seed in seeds:
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is Phase.DEALING:
            for seat in range(PLAYERS):
                if any(strength >= need - 0.1 for strength, need, _ in bots[seat].declarations(game.view(seat))):
                    yield game, seat
            game.apply(next_action(game, bots))


def test_every_level_declares_as_level_1():
    """Declaring by search gained nothing measurable (benchmarks/declaring.py), so every
    level declares by level 1's rule of thumb: the strongest declaration open to it that
    reaches the bar."""
    for game, seat in _declaring_positions(range(3)):
        view = game.view(seat)
        ready = [(strength, shown) for strength, need, shown in ComputerPlayer(seat).declarations(view)
                 if strength >= need]
        expected = max(ready, key=lambda option: option[0], default=None)
        for level in LEVELS:
            declared = ComputerPlayer(seat, game.seed, level=level).declaration(view)
            assert declared == (Declare(seat, expected[1]) if expected else None)
            assert declared is None or game.can(declared)


def test_declarations_are_weighed_from_the_seats_view_only():
    """Two deals that look the same from the seat (other seats hold other hidden cards):
    the same weighed results."""
    from tutor.rules.game import Deal, Declare
    from tutor.play.search import weigh_declarations

    game, seat = next(_declaring_positions([7]))
    dealt = sum(len(game.hand(s)) for s in range(PLAYERS))
    deck = list(game.first_deal)
    hidden = [i for i in range(len(deck)) if i % PLAYERS != seat or i >= dealt]
    i, j = next((i, j) for i in hidden for j in hidden if deck[i] != deck[j] and deck[i].rank != 2 != deck[j].rank
                and deck[i].suit is not None and deck[j].suit is not None)
    deck[i], deck[j] = deck[j], deck[i]
    other = Game(0, deck=deck)
    for _ in range(dealt):
        other.apply(Deal())
    for declared in game.declarations:
        other.apply(Declare(declared.seat, declared.cards))
    assert other.view(seat) == game.view(seat) and other.first_deal != game.first_deal
    option = game.declaration_options(seat)[0]
    table = {s: ComputerPlayer(s) for s in range(PLAYERS)}
    results = [weigh_declarations(g.view(seat), [option, None], lambda g: next_action(g, table),
                                  rng=random.Random(1), layouts=6) for g in (game, other)]
    assert results[0] == results[1]
    with pytest.raises(TutorError, match="while the cards are dealt"):
        weigh_declarations(_position(1, 0).view(0), [None], lambda g: next_action(g, table), rng=random.Random(0))
    for bad_view in ("view", None, 3):
        with pytest.raises(TutorError, match="while the cards are dealt"):
            weigh_declarations(bad_view, [None], lambda g: next_action(g, table), rng=random.Random(0))  # type: ignore[arg-type]
    view = game.view(seat)
    for bad in (0, -1, True, 2.5, "3"):
        with pytest.raises(TutorError, match="at least one layout"):
            weigh_declarations(view, [None], lambda g: next_action(g, table), rng=random.Random(0), layouts=bad)  # type: ignore[arg-type]
    with pytest.raises(TutorError, match="at least one"):
        weigh_declarations(view, [], lambda g: next_action(g, table), rng=random.Random(0))
    with pytest.raises(TutorError):  # not a declaration the seat may make (D1–D3): the game's own refusal
        weigh_declarations(view, [view.hand[:3]], lambda g: next_action(g, table), rng=random.Random(0), layouts=1)


# ------------------------------------------------------------------ trying a mistake again (issue 27, item 4)


def _reviewed(seed: int, layouts: int = 8):
    """A level-1 hand reviewed from seat 0 on ``layouts`` layouts."""
    from tutor.play.coach import review

    game = play_computer_hand(seed)
    return game, review(game, 0, seed=seed, layouts=layouts)


def test_costly_is_the_reviews_one_criterion():
    from tutor.play.coach import costly

    assert costly(0.25, 0.0) and costly(0.61, 0.3) and costly(0.6, 0.3)
    assert not costly(0.24, 0.0) and not costly(0.59, 0.3) and not costly(0.0, 0.0)


def test_a_play_the_coach_advised_is_accepted_and_the_costly_one_refused():
    from tutor.play.coach import judge, retry

    for seed in range(12):
        game, decisions = _reviewed(seed)
        mistakes = [d for d in decisions if d.costly]
        if mistakes:
            break
    else:
        raise AssertionError("no level-1 hand in 12 has a costly play")
    for decision in decisions:
        best = retry(decision.view, decision.found.best.play, game.rules, seed=seed, found=decision.found)
        assert best.accepted and best.cost == 0.0 and best.best == decision.found.best
        again = retry(decision.view, decision.played, game.rules, seed=seed, found=decision.found)
        assert again.accepted is not decision.costly  # the same criterion as the review's, on the same numbers
        assert (again.cost, again.error) == (decision.cost, decision.error)
    mistake = mistakes[0]
    assert not retry(mistake.view, mistake.played, game.rules, seed=seed, found=mistake.found).accepted
    # Without the review's judgment kept, the coach judges the position again (40 layouts), and
    # the numbers are the judgment's: the same as the hint's for that position.
    fresh = retry(mistake.view, mistake.played, game.rules, seed=seed)
    judged = judge(mistake.view, game.rules, seed=seed, include=[mistake.played])
    assert fresh.found.best == judged.best and fresh.value == judged.value_of(mistake.played)


def test_a_play_within_the_margin_is_accepted():
    """A play the coach only slightly prefers another to (not costly) counts as found."""
    from tutor.play.coach import retry

    for seed in range(20):
        game, decisions = _reviewed(seed)
        near = [d for d in decisions if not d.costly and d.found.value_of(d.played) != d.found.best]
        if near:
            break
    else:
        raise AssertionError("no reviewed play within the margin in 20 hands")
    decision = near[0]
    tried = retry(decision.view, decision.played, game.rules, seed=seed, found=decision.found)
    assert tried.accepted and tried.cost == decision.cost and tried.value != tried.best


def test_an_illegal_retry_gets_the_rules_refusal():
    from tutor.core.errors import IllegalActionError
    from tutor.play.coach import retry

    game, decisions = _reviewed(4, layouts=2)
    view = decisions[0].view
    from tutor.rules.cards import PACK

    outside = next(card for card in PACK if card not in view.hand)
    with pytest.raises(IllegalActionError) as refused:
        retry(view, (outside,), game.rules, seed=4)
    assert refused.value.rule == "W0"
    with pytest.raises(TutorError):
        retry(view, ("♠A",), game.rules, seed=4)  # type: ignore[arg-type]
    with pytest.raises(TutorError):
        retry(game.view(0), view.hand[:1], game.rules, seed=4)  # the hand is over: nobody is to play


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_the_friend_not_known_yet_is_whoever_holds_the_other_copy(lang: str) -> None:
    """F6: the friend is revealed by playing the *other* copy of the called card; the
    declarer's own copy reveals nothing — the coach's words say so, not "whoever plays it first"."""
    game = next(g for g in (_position(seed, 0) for seed in range(20)) if not g.solo)
    tr = Translator(lang)
    for seat in range(PLAYERS):
        view = game.view(seat)
        if view.friend is not None:
            continue  # the friend knows (F2)
        said = [tr(line) for line in coaching.situation(view)]
        card = str(view.friend_card)
        line = next(text for text in said if "F6" in text)
        other = {"en": f"the other {card}", "zh-Hans": f"另一张 {card}", "zh-Hant": f"另一張 {card}"}[lang]
        own = {"en": f"the declarer's own {card} shows nothing", "zh-Hans": f"庄家自己的 {card} 不算",
               "zh-Hant": f"莊家自己的 {card} 不算"}[lang]
        assert other in line and own in line and "first" not in line, line


def test_the_calling_hint_is_the_coachs_search_and_the_call_drills_numbers() -> None:
    """#42: one speaker for the call. The table's hint for the declarer about to call weighs the
    calls by the coach's own search (each call played out over the same layouts), picks the
    best call for the learner, and at a position of lesson 11's call drills says the drill's
    very numbers."""
    from tutor.play.coach import weigh_calls
    from tutor.play.strategy import computer_hand
    from tutor.teach.coaching import calls_said, signed
    from tutor.teach.drills import generate
    from tutor.teach.drills.advice import position
    from tutor.teach.table_session import TableSession

    game, _ = computer_hand(4, Phase.CALLING)
    session = TableSession(game, learners={game.declarer})
    outcome = session.hint(game.declarer)
    calls, layouts = weigh_calls(game.view(game.declarer), seed=game.seed)
    said = [str(line) for line in session.desk(game.declarer).hint or ()]
    assert said[0].startswith("Advice, not a rule") and f"{layouts} times" in said[0]
    assert said[1] == f"Best: {'Go solo' if calls[0].choice is None else f'Call {calls[0].choice}'} — expected " \
                      f"{signed(calls[0].expected)}."
    assert len(said) == len(calls) + 1 and "computer would" not in " ".join(said)
    assert outcome.picks == (None if calls[0].choice is None else (calls[0].choice,))  # picked for the learner
    seed, level = 1, 1  # FORMS[1]: a call drill
    found = position(seed, level, random.Random(f"advice/{level}/{seed}"))  # as generate draws it
    drill = generate("advice", seed, level)
    advice = advise(found.view, seed=found.entry.hand)
    assert advice.calls == found.entry.options  # the bank's judgment, the drill's own
    hint = " ".join(str(line) for line in calls_said(advice))
    for option in found.options:  # each call the drill shows, with the drill's number, in the hint
        named = "Go solo" if option.choice is None else f"Call {option.choice}"
        assert f"{named}: expected {signed(option.expected)}." in drill.explain
        assert f"{named} — expected {signed(option.expected)}" in hint
