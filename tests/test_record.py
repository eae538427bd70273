"""Hand records: export → import → replay reproduces the hand exactly; a broken or
tampered record is a clear error naming its line."""

from __future__ import annotations

import pytest

from tutor import Game, Ruleset, play_random_hand
from tutor.play.record import HEADER, HandFileError, export_hand, import_hand, read_hand
from tutor.play.strategy import play_computer_hand


@pytest.mark.parametrize("seed", range(40))
def test_export_import_replays_exactly(seed: int) -> None:
    rules = Ruleset(throw_follow_duty="pairs") if seed % 3 == 0 else Ruleset()
    game = play_computer_hand(seed, rules=rules) if seed % 2 else play_random_hand(seed, rules=rules)
    text = export_hand(game)
    again = import_hand(text)
    assert again.events == game.events and again.results == game.results
    assert export_hand(again) == text


def test_a_shared_deal_replays_the_same_cards_with_other_actions() -> None:
    game = play_computer_hand(8)
    deal_only = export_hand(game, actions=False)
    fresh = import_hand(deal_only)
    assert not fresh.events
    for _ in range(100):
        fresh.deal()
    original = Game(8)
    for _ in range(100):
        original.deal()
    assert [fresh.hand(s) for s in range(5)] == [original.hand(s) for s in range(5)]


def test_a_half_played_hand_resumes_where_it_stopped() -> None:
    game = play_computer_hand(2)
    partial = Game.replay(2, game.history[:150])
    resumed = import_hand(export_hand(partial))
    assert resumed.events == partial.events and resumed.phase is partial.phase


def _good() -> str:
    return export_hand(play_computer_hand(4))


@pytest.mark.parametrize("mangle, message", [
    (lambda t: t.replace(HEADER, "# something else"), "line 1"),
    (lambda t: t.replace("seed: 4", "seed: four"), "seed must be a whole number"),
    (lambda t: t.replace("deck: ", "deck: ♠X "), "cannot read '♠X'"),
    (lambda t: t.replace("deck: ", "deck: ♠A "), "copies"),
    (lambda t: t.replace("\nclose\n", "\ndeal 1\nclose\n", 1), "refused"),
    (lambda t: t.replace("close", "shuffle", 1), "expected deal, declare"),
    (lambda t: t.replace("seed: 4", "seed: 4\nrule nonsense: 1"), "unknown rule option"),
    (lambda t: t.replace("seed: 4", "seed: 4\nrule penalty_per_card: lots"), "whole number"),
    (lambda t: "\n".join(l if not l.startswith("play") else "play 7 ♠A" for l in t.splitlines()), "seat is 0–4"),
    (lambda t: t + "play 0 ♠A\n", "refused"),
    (lambda t: t + "x\n" * 3000, "at most"),
    (lambda t: t.replace("seed: 4\n", ""), "no seed"),
    (lambda t: t.replace("seed: 4", "seed: 4\nopponents: 7"), "the opponents' level is one of 1, 2, 3, not '7'"),
    (lambda t: t.replace("seed: 4", "seed: 4\nopponents: ３"), "the opponents' level is one of"),
    (lambda t: t.replace("seed: 4", "seed: 4\nopponents: 2" + "2" * 5000), "the opponents' level is one of"),
])
def test_tampered_records_are_clear_errors(mangle, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(HandFileError) as caught:
        import_hand(mangle(_good()))
    assert message in str(caught.value)


def test_moving_a_card_between_plays_is_caught() -> None:
    lines = _good().splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("play"))
    verb, seat, *cards = lines[index].split()
    lines[index] = f"play {seat} ♠A ♠A ♠A" if cards[0] != "♠A" else f"play {seat} ♥3 ♥3 ♥3"
    with pytest.raises(HandFileError, match=f"line {index + 1}"):
        import_hand("\n".join(lines))


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_record_names_the_opponents_level(level: int) -> None:
    game = play_computer_hand(4)
    text = export_hand(game, opponents=level)
    assert f"\nopponents: {level}\n" in text
    record = read_hand(text)
    assert record.opponents == level and record.game.events == game.events
    assert read_hand(export_hand(game)).opponents is None


def test_not_text_is_refused() -> None:
    with pytest.raises(HandFileError):
        import_hand(b"bytes")  # type: ignore[arg-type]
