"""The whole hand as a state machine (D1–S4): thousands of random complete hands
keep every invariant, replay exactly, and refuse illegal actions with a rule ID."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tutor import (PACK, Bury, Call, CloseDeal, Deal, Declare, Game, IllegalActionError, Phase, Play,
                   Ruleset, Solo, check_follow, play_random_hand, points)
from tutor.play.bots import random_action
from tutor.rules.combos import shape_of
from tutor.core.errors import InvalidPlayError
from tutor.rules.game import (Buried, Dealt, DeclarerChosen, FriendRevealed, HandScored, KittyCaptured, KittyTaken,
                        Played, Redealt, ThrowFailed, TrickWon)
from tutor.core.i18n import Translator, said

VARIANTS = [
    Ruleset(),
    Ruleset(throw_follow_duty="pairs", failed_throw_lead="lowest-card"),
    Ruleset(kitty_pairs_from="winning-play", penalty_to_declarers=False, declare_after_deal=False),
    Ruleset(allow_buried_friend=True, flip_declarations=2),
]


def _check_hand(game: Game) -> None:
    """Re-derive the hand from its events and check every invariant independently."""
    assert game.phase is Phase.FINISHED
    hands: list[Counter] = [Counter() for _ in range(5)]
    trump = game.trump
    trick: list[tuple[int, tuple]] = []
    played_cards: Counter = Counter()
    penalties = {"attacker": 0, "declarer side": 0}
    kitty = None
    seen_flip_or_declare = False
    for event in game.events:
        for result in event.results:
            if isinstance(result, Redealt):
                hands = [Counter() for _ in range(5)]
            elif isinstance(result, Dealt):
                hands[result.seat][result.card] += 1
            elif isinstance(result, DeclarerChosen):
                seen_flip_or_declare = True
            elif isinstance(result, KittyTaken):
                hands[result.seat].update(result.cards)
            elif isinstance(result, Buried):
                hands[result.seat].subtract(result.cards)
                kitty = result.cards
            elif isinstance(result, ThrowFailed):
                side = "attacker" if game.side_of(result.seat) == "attacker" else "declarer side"
                penalties[side] += result.penalty
                assert result.penalty == game.rules.penalty_per_card * len(result.attempted)
            elif isinstance(result, Played):
                hand = tuple(hands[result.seat].elements())
                if trick:
                    verdict = check_follow(hand, trick[0][1], result.cards, trump, rules=game.rules)
                    assert verdict.legal, verdict
                else:
                    shape_of(result.cards, trump)  # one effective suit (L1)
                    assert not (Counter(result.cards) - hands[result.seat])
                hands[result.seat].subtract(result.cards)
                assert min(hands[result.seat].values(), default=0) >= 0
                played_cards.update(result.cards)
                trick.append((result.seat, result.cards))
            elif isinstance(result, TrickWon):
                assert len(trick) == 5
                sizes = {sum(h.values()) for h in hands}
                assert len(sizes) == 1, "B3: every hand holds the same number of cards after a trick"
                trick = []
    assert seen_flip_or_declare and kitty is not None
    assert all(sum(h.values()) == 0 for h in hands), "hands empty together"
    assert played_cards + Counter(kitty) == Counter(PACK), "108 cards conserved"
    assert sum(game.won_points) + points(kitty) == 200, "200 points accounted for"
    attackers_won = sum(p for s, p in enumerate(game.won_points) if game.side_of(s) == "attacker")
    adjustment = -penalties["attacker"] + (penalties["declarer side"] if game.rules.penalty_to_declarers else 0)
    assert game.attackers_points() == attackers_won + game.kitty_capture + adjustment
    assert sum(game.results) == 0, "scores sum to zero"
    last = game.events[-1].results[-1]
    assert isinstance(last, HandScored) and last.attackers_points == game.attackers_points()


def test_thousands_of_random_hands_keep_every_invariant() -> None:
    throws_failed = captures = solos = reveals = 0
    for seed in range(2000):
        game = play_random_hand(seed, rules=VARIANTS[seed % len(VARIANTS)])
        _check_hand(game)
        results = [r for e in game.events for r in e.results]
        throws_failed += any(isinstance(r, ThrowFailed) for r in results)
        captures += any(isinstance(r, KittyCaptured) for r in results)
        reveals += any(isinstance(r, FriendRevealed) for r in results)
        solos += game.solo
    # the random hands reach every part of the machine
    assert throws_failed > 100 and captures > 100 and solos > 20 and reveals > 500


def test_F6_X1_X2_S4_over_random_hands() -> None:
    """F6: only the friend's own play of the named card reveals them; the points
    shown pool the friend's with the declarer's only after that. X1/X2: the kitty
    is captured only by an attacker winning the last trick, times 2^(1+pairs of the
    lead). S4: the declarer side's points never count for the attackers."""
    from tutor import kitty_multiplier
    from tutor.rules.cards import points as card_points

    checked_reveal = checked_capture = checked_no_capture = 0
    for seed in range(600):
        rng = random.Random(seed)
        game = Game(seed)
        revealed_at = None
        while game.phase is not Phase.FINISHED:
            action = random_action(game, rng)
            event = game.apply(action)
            for result in event.results:
                if isinstance(result, Played) and game.friend_card is not None and not game.solo:
                    holds_called = game.friend_card in result.cards
                    reveals = [r for r in event.results if isinstance(r, FriendRevealed)]
                    if holds_called and result.seat == game.declarer:
                        assert not reveals, "F6: the declarer's own copy reveals nothing"
                    if reveals:
                        assert reveals[0].seat == game.friend == result.seat and holds_called
                        revealed_at = event.number
            if revealed_at is None and game.friend is not None and game.phase is Phase.PLAYING:
                view = game.view((game.friend + 1) % 5)
                assert view.friend is None
                assert view.points_shown[game.friend] == game.won_points[game.friend]
        if revealed_at is not None and game.friend is not None and game.declarer is not None:
            view = game.view(game.friend)
            assert view.points_shown[game.declarer] == game.won_points[game.declarer] + game.won_points[game.friend]
            assert view.points_shown[game.friend] == 0
            checked_reveal += 1
        last = game.tricks[-1]
        captured = [r for e in game.events for r in e.results if isinstance(r, KittyCaptured)]
        if game.side_of(last.seat) == "attacker":
            lead = last.plays[0][1]
            assert captured and captured[0].multiplier == kitty_multiplier(lead, game.trump)
            assert captured[0].points == card_points(game.kitty) * captured[0].multiplier
            checked_capture += 1
        else:
            assert not captured and game.kitty_capture == 0
            checked_no_capture += 1
        declarer_side = sum(p for s, p in enumerate(game.won_points) if game.side_of(s) != "attacker")
        assert game.attackers_points() - game.kitty_capture - game.penalty_adjustment \
            == 200 - card_points(game.kitty) - declarer_side
    assert checked_reveal > 100 and checked_capture > 100 and checked_no_capture > 100


@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_the_history_replays_the_hand_exactly(seed: int) -> None:
    game = play_random_hand(seed)
    again = Game.replay(seed, game.history)
    assert again.events == game.events
    assert play_random_hand(seed).events == game.events, "same seed, same hand"


def test_a_tricks_reason_is_made_when_read_and_is_explain_tricks(monkeypatch: pytest.MonkeyPatch) -> None:
    """B1: the game settles each trick without a sentence (the plays were verified) and says
    why only when asked; what it says, the winner and the points are :func:`explain_trick`'s."""
    import pickle

    import tutor.rules.game as game_module
    from tutor.rules.trick import explain_trick

    made: list[object] = []
    monkeypatch.setattr(game_module, "explain_trick", lambda *args: made.append(args) or explain_trick(*args))
    games = [play_random_hand(seed) for seed in range(6)]
    assert not made, "a hand nobody reads makes no trick sentences"
    for game in games:
        assert game.trump is not None
        for won in game.tricks:
            outcome = explain_trick([cards for _, cards in won.plays], game.trump)
            assert (won.seat, won.points) == (won.plays[outcome.winner][0], outcome.points)
            assert won.reason == outcome.reason
            assert won == TrickWon(won.seat, won.points, won.plays, outcome.reason)
            assert pickle.loads(pickle.dumps(won)) == won and hash(won) == hash(pickle.loads(pickle.dumps(won)))
    assert len(made) == sum(len(game.tricks) for game in games), "each reason made once, when first read"
    with pytest.raises(AttributeError):
        games[0].tricks[0].seat = 3  # type: ignore[misc]


def _game_at(phase: Phase, seed: int = 5) -> Game:
    game = Game(seed)
    rng = random.Random(seed)
    while game.phase is not phase:
        game.apply(random_action(game, rng))
    return game


def _refused(game: Game, action: object, rule: str) -> IllegalActionError:
    before = game.events
    with pytest.raises(IllegalActionError) as caught:
        game.apply(action)  # type: ignore[arg-type]
    assert caught.value.rule == rule, caught.value
    assert game.events == before, "a refused action changes nothing"
    return caught.value


def test_D1_only_cards_held_can_declare_and_only_while_dealing() -> None:
    game = Game(3)
    for _ in range(10):
        game.deal()
    seat = next(s for s in range(5) if not any(c.rank == 2 for c in game.hand(s)))
    twos = [c for c in PACK if c.rank == 2 and c not in game.hand(seat)]
    _refused(game, Declare(seat, (twos[0],)), "D1")
    three = next(c for c in game.hand(seat))
    if three.rank != 2 and three.suit is not None:
        _refused(game, Declare(seat, (three,)), "D1")
    _refused(game, CloseDeal(), "D1")


def test_D3_no_self_overturn_and_D5_declarations_count() -> None:
    for seed in range(200):
        game = Game(seed)
        while not game.all_dealt:
            game.deal()
        holders = [(s, opts) for s in range(5) for opts in [game.declaration_options(s)] if opts]
        single = [(s, o) for s, opts in holders for o in opts if len(o) == 1]
        if not single:
            continue
        seat, cards = single[0]
        game.declare(seat, cards)
        pair = [o for o in game.declaration_options(seat) if len(o) == 2]
        if cards[0] in [o[0] for o in pair]:
            continue
        assert all(len(o) == 2 for o in game.declaration_options(seat)) or True
        # the same seat may not overturn itself, even with a pair (D3)
        own_pairs = [c for c, k in Counter(game.hand(seat)).items() if k == 2 and (c.rank == 2 or c.suit is None)]
        for card in own_pairs:
            _refused(game, Declare(seat, (card, card)), "D3")
        # another seat overturns with a pair, counted (D5)
        others = [(s, o) for s in range(5) if s != seat for o in game.declaration_options(s) if len(o) == 2]
        if others:
            game.declare(*others[0])
            event = game.close_deal()
            chosen = event.results[0]
            assert isinstance(chosen, DeclarerChosen)
            assert chosen.seat == others[0][0] and chosen.declarations == 2
            return
    pytest.fail("no seed gave a single declaration and an overturn")


def test_D6_flip_decides_or_redeals_when_nobody_declares() -> None:
    flips = redeals = 0
    for seed in range(300):
        game = Game(seed)
        while not game.all_dealt:
            game.deal()
        kitty = game.kitty
        event = game.close_deal()
        first = event.results[0]
        if isinstance(first, Redealt):
            assert sorted(first.kitty) == sorted(kitty)
            assert game.phase is Phase.DEALING and game.deal_number == 1
            redeals += 1
            continue
        assert isinstance(first, DeclarerChosen) and first.flipped is not None
        flipped = first.flipped
        assert Counter(kitty)[flipped] == 1
        assert flipped in game.hand(first.seat)  # the holder of the twin declares (D6)
        assert first.declarations == 1  # D5 reading
        assert first.trump.suit is flipped.suit
        flips += 1
    assert flips > 250


def test_K1_bury_rules() -> None:
    game = _game_at(Phase.BURYING)
    declarer = game.declarer
    assert declarer is not None and len(game.hand(declarer)) == 28
    other = (declarer + 1) % 5
    _refused(game, Bury(other, game.hand(other)[:8]), "K1")
    _refused(game, Bury(declarer, game.hand(declarer)[:7]), "K1")
    not_held = next(c for c in PACK if c not in game.hand(declarer))
    _refused(game, Bury(declarer, game.hand(declarer)[:7] + (not_held,)), "K1")
    _refused(game, Play(declarer, game.hand(declarer)[:1]), "K1")
    game.bury(declarer, game.hand(declarer)[:8])
    assert len(game.hand(declarer)) == 20


def test_F1_F3_F5_calling() -> None:
    for seed in range(100):
        game = _game_at(Phase.BURYING, seed)
        declarer = game.declarer
        assert declarer is not None
        hand = game.hand(declarer)
        counts = Counter(hand)
        singles = [c for c, k in counts.items() if k == 1]
        # bury one card whose twin the declarer also holds... we want a held single whose twin is buried
        pairs = [c for c, k in counts.items() if k == 2]
        if not pairs or len(singles) < 8:
            continue
        buried = [pairs[0]] + [c for c in singles if c is not pairs[0]][:7]
        game.bury(declarer, buried)
        assert game.phase is Phase.CALLING
        _refused(game, Call(declarer, pairs[0]), "F3")  # its twin is buried
        both = next((c for c, k in Counter(game.hand(declarer)).items() if k == 2), None)
        if both is not None:
            _refused(game, Call(declarer, both), "F1")
        none_held = next(c for c in PACK if c not in game.hand(declarer))
        _refused(game, Call(declarer, none_held), "F1")
        _refused(game, Call((declarer + 1) % 5, game.nameable_cards()[0]), "F1")
        _refused(game, Solo((declarer + 2) % 5), "F5")
        card = game.nameable_cards()[0]
        game.call(declarer, card)
        assert game.friend is not None and card in game.hand(game.friend)
        assert game.view(game.friend).friend == game.friend
        assert all(game.view(s).friend is None for s in range(5) if s != game.friend)
        return
    pytest.fail("no seed reached the position")


def _deck_for(seat_cards: list, kitty: list) -> tuple:
    """A deck whose deal gives ``seat_cards`` to seat 0 and ``kitty`` to the kitty."""
    rest = list((Counter(PACK) - Counter(seat_cards) - Counter(kitty)).elements())
    deck = []
    mine = iter(seat_cards)
    others = iter(rest)
    for i in range(100):
        deck.append(next(mine) if i % 5 == 0 else next(others))
    return tuple(deck + list(kitty))


def test_F4_every_card_paired_is_an_automatic_solo() -> None:
    from tutor import parse_cards
    pairs = parse_cards("♠2♠2 ♠AA ♠KK ♥QQ ♥JJ ♣99 ♣88 ♦77 ♦66 ♦33")
    kitty = parse_cards("♣3 ♣4 ♣5 ♣6 ♣7 ♦8 ♦9 ♦10")
    game = Game(0, deck=_deck_for(list(pairs), list(kitty)))
    while not game.all_dealt:
        game.deal()
    game.declare(0, "♠2 ♠2")
    game.close_deal()
    event = game.bury(0, kitty)
    assert game.solo and game.phase is Phase.PLAYING and game.to_play == 0
    assert event.results[-1].automatic  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        Game(0, deck=_deck_for(list(pairs), list(kitty))[:-1])


def test_C4_turn_order_and_W_rules_refused_in_play() -> None:
    game = _game_at(Phase.PLAYING, 12)
    leader = game.to_play
    assert leader == game.declarer
    wrong = (leader + 1) % 5
    _refused(game, Play(wrong, game.hand(wrong)[:1]), "C4")
    hand = game.hand(leader)
    game.play(leader, hand[-1:])
    follower = game.to_play
    assert follower == (leader + 1) % 5
    _refused(game, Play(follower, game.hand(follower)[:2]), "W1")
    lead_lane = game.trump.lane(hand[-1])
    same = [c for c in game.hand(follower) if game.trump.lane(c) == lead_lane]
    other = [c for c in game.hand(follower) if game.trump.lane(c) != lead_lane]
    if same and other:
        _refused(game, Play(follower, (other[0],)), "W2")


def test_L1_mixed_lead_refused_and_views_hide_hands() -> None:
    game = _game_at(Phase.PLAYING, 21)
    leader = game.to_play
    assert leader is not None and game.trump is not None
    hand = game.hand(leader)
    lanes = {game.trump.lane(c): c for c in hand}
    assert len(lanes) > 1
    a, b = list(lanes.values())[:2]
    error = _refused(game, Play(leader, (a, b)), "L1")
    # One sentence, said once: the reason names no rule (the refusal does), and it
    # is the translatable reason the rules module gives for such a lead.
    assert str(error).endswith("(L1)") and "(L1)" not in error.reason and "mixes" in error.reason
    with pytest.raises(InvalidPlayError) as caught:
        shape_of((a, b), game.trump)
    assert said(caught.value) == str(error) and caught.value.args[0].params["reason"] == error.reason
    chinese = Translator("zh-Hant")(said(error))
    assert "混了" in chinese and chinese.endswith("（L1）") and chinese.count("L1") == 1
    view = game.view((leader + 1) % 5)
    assert view.hand == game.hand((leader + 1) % 5)
    assert view.hand_sizes == (20,) * 5
    assert view.kitty is None and game.view(game.declarer).kitty is not None  # type: ignore[arg-type]
    assert "hand" not in {f for f in ("hands",) if hasattr(view, f)}


def test_L4_failed_throw_with_several_options_waits_for_the_choice() -> None:
    for seed in range(3000):
        game = play_random_hand(seed)
        for event in game.events:
            failed = [r for r in event.results if isinstance(r, ThrowFailed) and len(r.options) > 1]
            if failed:
                replay = Game.replay(seed, game.history[: event.number + 1])
                assert replay.forced_options == failed[0].options
                seat = failed[0].seat
                wrong = next(c for c in replay.hand(seat) if (c,) not in replay.forced_options)
                _refused(replay, Play(seat, (wrong,)), "L4")
                replay.play(seat, failed[0].options[-1])
                return
    pytest.skip("no multi-option failed throw in 3000 random hands")


def test_bad_actions_are_clear_errors() -> None:
    game = Game(1)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Play(7, ()))
    assert caught.value.rule in ("K1", "C4")
    with pytest.raises(ValueError):
        game.declare(0, "♠2♠2♠2")
    with pytest.raises(ValueError):
        game.apply("deal")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        game.view(5)
    assert not game.events


def test_deal_is_one_card_at_a_time() -> None:
    game = Game(0)
    for i in range(100):
        event = game.deal()
        dealt = event.results[0]
        assert isinstance(dealt, Dealt) and dealt.seat == i % 5
    _refused(game, Deal(), "C2")
    assert [len(game.hand(s)) for s in range(5)] == [20] * 5
