"""Speed of the rules module: prints medians in µs (run: ./dev bench).

The positions, the same for every version of the code:

- ``check_follow``, :func:`~tutor.rules.follow.is_legal_follow` (where the code has it), the
  first legal follow and all of them, on 20-card hands against a single, a pair, a
  2-pair tractor and a 6-card throw (also with a void follower);
- ``trick_winner`` on 5-play tricks of singles, pairs, tractors and a throw, followed,
  ruffed and over-ruffed;
- ``check_throw`` (and :func:`~tutor.rules.throw.throw_stands`, where the code has it) of
  throws of 3–6 cards against the four other 20-card hands of a deal, ones that stand
  and ones that fail;
- a sweep of 1,500 distinct follow positions and tricks from random deals, so that no
  cache of an earlier answer helps (the cost of a position seen for the first time);
- beside the sweeps, a floor: reading the same positions' cards alone, as little as any
  function must do with cards it is given (each a card, no third copy, the play's size,
  the play in the hand), and nothing else. With ``--before`` the table ends with issue 30's
  goal (5× the code of REV) beside that floor: a goal below it cannot be met by a function
  that takes cards and refuses bad ones.

``--before REV`` times the same positions with the code of REV (a git worktree in a
temporary directory) in the same run, and prints both columns and the speed-up: each
version is measured by this very script in a subprocess, in turn, ``--rounds`` times,
and the lowest of each figure counts, so that other work on the machine weighs on both
alike.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from versions import ROOT, measured_in, tutor_module, worktree

TRUMP = "♥"
HAND = "♠A ♠K ♠K ♠Q ♠Q ♠J ♠9 ♠9 ♠5 ♥2 ♥A ♥A ♥7 ♣K ♣10 ♣4 ♦A ♦6 ♦6 SJ"
VOID = "♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♠6 ♠5 ♥2 ♥A ♥K ♥7 ♦K ♦10 ♦4 ♦A ♦6 SJ"
FOLLOWS = [  # name, hand, lead, a legal play
    ("single", HAND, "♠3", "♠5"),
    ("pair", HAND, "♠7 ♠7", "♠9 ♠9"),
    ("2-pair tractor", HAND, "♠8 ♠8 ♠7 ♠7", "♠K ♠K ♠Q ♠Q"),
    ("6-card throw", HAND, "♠A ♠10 ♠10 ♠8 ♠8 ♠4", "♠K ♠K ♠Q ♠Q ♠9 ♠9"),
    ("6-card throw, void follower", VOID, "♣A ♣Q ♣Q ♣8 ♣8 ♣3", "♦6 ♦4 ♠5 ♠J ♥7 SJ"),
]
TRICKS = [  # name, five plays, the lead first
    ("singles, followed", ["♠3", "♠K", "♠5", "♣4", "♠A"]),
    ("singles, over-ruffed", ["♠3", "♠K", "♥5", "♥9", "♠A"]),
    ("pairs, followed", ["♠3 ♠3", "♠K ♠Q", "♠5 ♠5", "♠A ♠A", "♣4 ♣4"]),
    ("pairs, over-ruffed", ["♠3 ♠3", "♠K ♠Q", "♥5 ♥5", "♥9 ♥9", "♣4 ♣4"]),
    ("tractors, followed", ["♠4 ♠4 ♠3 ♠3", "♠K ♠K ♠Q ♠Q", "♠7 ♠7 ♠6 ♠5", "♠10 ♠10 ♠9 ♠9", "♣4 ♣4 ♦5 ♦6"]),
    ("tractors, over-ruffed", ["♠4 ♠4 ♠3 ♠3", "♠K ♠K ♠Q ♠Q", "♥6 ♥6 ♥5 ♥5", "♥10 ♥10 ♥9 ♥9", "♣4 ♣4 ♦5 ♦6"]),
    ("3-card throw, ruffed", ["♠A ♠K ♠K", "♠3 ♠4 ♠5", "♥4 ♥3 ♥3", "♣4 ♣5 ♣6", "♦4 ♦5 ♦6"]),
]
OTHERS_A = [
    "♥J ♦4 ♣K BJ ♣K ♦6 ♠Q SJ ♥A ♥Q ♠4 ♦10 ♦10 ♥2 ♦J ♣4 ♣8 ♣J ♣9 ♣J",
    "♥8 ♠8 ♣7 ♣Q ♠7 ♠8 SJ ♣4 ♣10 ♣6 ♠9 ♥3 ♦3 ♣2 ♠6 ♥9 ♣10 ♥9 ♦9 ♥4",
    "♥10 ♥K ♠2 ♠K ♠2 ♦J ♠K ♠3 ♠9 ♦A ♥3 ♠6 ♦9 ♥7 ♣2 ♦3 ♠5 BJ ♣7 ♥8",
    "♠10 ♦5 ♠J ♣A ♦2 ♥7 ♥A ♥5 ♣8 ♣3 ♠A ♦4 ♣Q ♥6 ♠A ♣3 ♥J ♦8 ♠J ♣A",
]
OTHERS_B = [
    "♣9 ♣4 ♣10 ♦3 ♠A ♣3 ♥2 ♠8 ♦9 ♥A ♣Q ♠7 ♣A ♦2 ♠9 ♥5 ♠6 ♠A ♠J ♦8",
    "♠3 ♣K ♦J ♥6 ♣Q ♥8 ♠10 ♠Q ♥A ♠4 ♦Q ♥3 ♣8 ♥5 ♣2 ♣8 ♠K ♥10 SJ ♣3",
    "♠K ♦8 ♥8 ♦10 ♣J ♥7 ♥2 ♣5 ♦K SJ ♣6 ♦5 ♦4 ♠9 ♥9 ♥4 ♥J ♥3 ♦K ♥K",
    "♠3 ♦2 ♣9 ♥Q ♠4 ♥10 ♦4 ♠5 ♣J ♥7 ♥J ♥K ♦3 ♠8 ♣10 ♣5 ♠Q ♦7 ♣7 ♦5",
]
OTHERS_C = [
    "♦3 ♥J ♥2 ♣A ♣Q ♦5 ♦8 ♥5 ♠7 ♥10 ♣6 ♣5 ♠2 ♦J ♠7 ♣8 ♠2 ♥7 ♦2 ♦9",
    "♣2 ♥K ♣7 ♥A ♠K ♥K ♣8 ♠6 ♦Q ♠Q ♠9 ♦6 ♦9 ♦A ♦A ♦J ♣2 ♥7 ♣4 ♣4",
    "♣Q ♠5 ♣7 ♦7 ♥5 ♣10 SJ ♥Q ♠K BJ ♠A ♦K ♠10 ♣5 ♥J ♠3 ♥9 SJ ♣9 ♦4",
    "♦K ♣J ♣K ♣K ♥10 ♦Q ♦3 ♥6 ♦8 ♦6 ♥A ♣3 ♠4 ♥9 ♦5 ♠3 ♥Q ♣9 ♥2 ♠6",
]
OTHERS_D = [
    "♥3 ♥A ♠5 ♦J BJ ♣10 ♣5 ♠3 ♥J ♣A ♥5 ♥10 ♣6 ♦2 ♣9 ♣5 ♦10 ♣K ♠4 ♥3",
    "♦3 ♦9 ♦8 ♣Q ♥8 ♠10 ♥Q ♥J ♥7 ♠10 ♠2 ♦6 ♦9 ♠9 ♣J ♥5 ♥9 ♣K ♠A ♠A",
    "♣Q ♥8 ♣2 ♣8 ♠Q ♠8 ♥7 ♣3 ♥4 ♣J ♦6 ♠J ♠5 ♥6 ♦8 ♥4 ♦A ♠7 ♠2 ♠7",
    "♦J ♠4 SJ ♠Q ♥10 SJ ♣4 ♦7 ♣6 ♥K ♣2 ♦A ♠8 ♣8 ♠K ♣7 ♣4 ♦K ♦2 ♣10",
]
THROWS = [  # name, the throw, the other four hands of its deal
    ("3 cards, fails", "♦2 ♥10 ♥4", OTHERS_A),
    ("3 cards, stands", "BJ ♠2 ♠2", OTHERS_B),
    ("4 cards, fails", "♦K ♦Q ♦7 ♦5", OTHERS_A),
    ("4 cards, stands", "BJ BJ ♠2 ♠2", OTHERS_B),
    ("5 cards, fails", "♦K ♦K ♦Q ♦7 ♦7", OTHERS_A),
    ("5 cards, stands", "BJ ♥4 ♥4 ♥3 ♥3", OTHERS_C),
    ("6 cards, fails", "♦2 ♥K ♥Q ♥10 ♥6 ♥5", OTHERS_A),
    ("6 cards, stands", "♦Q ♦Q ♦5 ♦5 ♦4 ♦4", OTHERS_D),
]
FAST_PATHS = {"is_legal_follow": "check_follow", "throw_stands": "check_throw"}
"""Each fast path and the full function whose answer it gives."""
FLOORS = {"check_follow": "reading a follow's cards alone", "is_legal_follow": "reading a follow's cards alone",
          "trick_winner": "reading a trick's cards alone", "check_throw": "reading a throw's cards alone",
          "throw_stands": "reading a throw's cards alone"}
"""Each swept function and the floor beside it (:func:`_read_follow`, :func:`_read_trick`,
:func:`_read_throw`). The three readers are written out each in full, on purpose: a shared
helper would add a call per play and raise the floors."""
GOAL = 5.0
"""Issue 30's goal for each rules function: this many times faster than the code before it."""
SWEEP = 1500
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [suit + rank for suit in "♠♥♣♦" for rank in RANKS] * 2 + ["SJ", "SJ", "BJ", "BJ"]


def median_us(fn: Callable[[], object], *, budget: float = 0.1, rounds: int = 3) -> float:
    """Median wall time of one call in µs: the lowest of ``rounds`` medians of as many
    calls as fit in ``budget`` seconds (5 to 2,000), so that a burst of load elsewhere
    on the machine does not count as the code's cost."""
    start = time.perf_counter()
    for _ in range(20):
        fn()
    repeat = max(5, min(2000, int(budget / max((time.perf_counter() - start) / 20, 1e-7))))
    medians = []
    for _ in range(rounds):
        samples = []
        for _ in range(repeat):
            begin = time.perf_counter_ns()
            fn()
            samples.append(time.perf_counter_ns() - begin)
        medians.append(statistics.median(samples) / 1000)
    return min(medians)


def mean_us(fn: Callable[[Any], object], items: Sequence[Any], *, rounds: int = 3) -> float:
    """Mean wall time in µs of ``fn`` on each of ``items`` once, the best of ``rounds`` passes."""
    best = float("inf")
    for _ in range(rounds):
        begin = time.perf_counter_ns()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter_ns() - begin) / 1000 / len(items))
    return best


def _deals(seed: int) -> Iterator[list[list[str]]]:
    """Random deals of five 20-card hands, as notation, the same in every version."""
    rng = random.Random(seed)
    while True:
        deck = DECK[:]
        rng.shuffle(deck)
        yield [deck[i * 20:(i + 1) * 20] for i in range(5)]


def _sweep() -> tuple[list[list[str]], list[list[str]]]:
    """:data:`SWEEP` distinct follow positions (hand, lead, a legal follow) and as many
    5-play tricks, from random deals: each a lead of 1, 2 or 4 cards of one effective
    suit from the leader's hand, followed by legal plays of the other hands; as notation,
    made once by this checkout's code, so that every version measured reads the very same
    positions (a version's own random follows would give it other ones)."""
    from tutor import legal_follows, parse_cards
    shape_of, Trump = tutor_module("rules.combos").shape_of, tutor_module("rules.order").Trump

    trump = Trump(TRUMP)
    follows: list[tuple[Any, Any, Any]] = []
    tricks: list[list[Any]] = []
    rng = random.Random(7)
    for hands in _deals(13):
        if len(tricks) >= SWEEP:
            break
        cards = [parse_cards(" ".join(hand)) for hand in hands]
        leader = cards[0]
        lane = trump.lane(rng.choice(leader))
        suit = [c for c in leader if trump.lane(c) == lane]
        size = rng.choice([n for n in (1, 2, 2, 4) if n <= len(suit)])
        lead = tuple(rng.sample(suit, size))
        try:
            shape_of(lead, trump)
        except ValueError:
            continue
        trick: list[Any] = [lead]
        for hand in cards[1:]:
            play = legal_follows(hand, lead, trump).random(rng)
            follows.append((hand, lead, play))
            trick.append(play)
        tricks.append(trick)

    def text(cards: Any) -> str:
        return " ".join(map(str, cards))

    return ([[text(part) for part in follow] for follow in follows[:SWEEP]],
            [[text(play) for play in trick] for trick in tricks[:SWEEP]])


def _read_follow(card_type: Any, hand: Sequence[Any], lead: Sequence[Any], play: Sequence[Any]) -> None:
    """The least any follow check does with the cards it is given: each is a card, the
    hand holds no third copy (C1), the play is as long as the lead and comes out of the hand."""
    counts = [0] * 54
    for card in hand:
        if type(card) is not card_type:
            raise TypeError(card)
        counts[card.index] += 1
        if counts[card.index] > 2:
            raise ValueError(card)
    for card in lead:
        if type(card) is not card_type:
            raise TypeError(card)
    if len(play) != len(lead):
        raise ValueError(play)
    for card in play:
        if type(card) is not card_type:
            raise TypeError(card)
        counts[card.index] -= 1
        if counts[card.index] < 0:
            raise ValueError(card)


def _read_trick(card_type: Any, plays: Sequence[Sequence[Any]]) -> None:
    """The least any trick's judge does with the plays it is given: each card is a card,
    no third copy (C1), every play as long as the lead (W1, B3)."""
    counts, size = [0] * 54, len(plays[0])
    for play in plays:
        if len(play) != size:
            raise ValueError(play)
        for card in play:
            if type(card) is not card_type:
                raise TypeError(card)
            counts[card.index] += 1
            if counts[card.index] > 2:
                raise ValueError(card)


def _read_throw(card_type: Any, throw: Sequence[Any], others: Sequence[Sequence[Any]]) -> None:
    """The least any throw's judge does with the cards it is given: each is a card, and no
    third copy among the throw and the other hands (C1)."""
    counts = [0] * 54
    for cards in (throw, *others):
        for card in cards:
            if type(card) is not card_type:
                raise TypeError(card)
            counts[card.index] += 1
            if counts[card.index] > 2:
                raise ValueError(card)


def measure(sweep: tuple[list[list[str]], list[list[str]]]) -> dict[str, float | None]:
    """Every figure of the code on ``sys.path``, in µs (``None`` where it has no such
    function); ``sweep``: the new positions and tricks (:func:`_sweep`)."""
    from tutor import check_follow, check_throw, legal_follows, parse_cards, trick_winner

    is_legal = getattr(tutor_module("rules.follow"), "is_legal_follow", None)
    stands = getattr(tutor_module("rules.throw"), "throw_stands", None)
    figures: dict[str, float | None] = {}
    for name, hand_text, lead_text, play_text in FOLLOWS:
        # the rules' cost, not the parser's
        hand, lead, play = parse_cards(hand_text), parse_cards(lead_text), parse_cards(play_text)
        assert check_follow(hand, lead, play, TRUMP).legal, name
        figures[f"check_follow: {name}"] = median_us(lambda: check_follow(hand, lead, play, TRUMP))
        figures[f"is_legal_follow: {name}"] = (None if is_legal is None else
                                               median_us(lambda: is_legal(hand, lead, play, TRUMP)))
        figures[f"first legal follow: {name}"] = median_us(lambda: next(iter(legal_follows(hand, lead, TRUMP))))
        figures[f"all legal follows: {name}"] = median_us(lambda: list(legal_follows(hand, lead, TRUMP)))
    for name, trick_text in TRICKS:
        plays = [parse_cards(p) for p in trick_text]
        figures[f"trick_winner: {name}"] = median_us(lambda: trick_winner(plays, TRUMP))
    for name, throw_text, others_text in THROWS:
        throw, others = parse_cards(throw_text), [parse_cards(h) for h in others_text]
        figures[f"check_throw: {name}"] = median_us(lambda: check_throw(throw, others, TRUMP))
        figures[f"throw_stands: {name}"] = (None if stands is None else
                                            median_us(lambda: stands(throw, others, TRUMP)))
    card_type = tutor_module("rules.cards").Card
    throws = [(parse_cards(throw_text), [parse_cards(h) for h in others_text]) for _, throw_text, others_text in THROWS]
    for name in ("check_throw", "throw_stands"):
        known = [figures[f"{name}: {throw}"] for throw, _, _ in THROWS]
        figures[f"{name}: the {len(THROWS)} throws' mean"] = None if None in known else statistics.mean(known)  # type: ignore[type-var]
    figures[f"{FLOORS['check_throw']}: the {len(THROWS)} throws' mean"] = mean_us(
        lambda t: _read_throw(card_type, *t), throws)
    follows = [tuple(parse_cards(part) for part in follow) for follow in sweep[0]]
    tricks = [[parse_cards(play) for play in trick] for trick in sweep[1]]
    figures[f"check_follow: {SWEEP:,} new positions"] = mean_us(lambda p: check_follow(*p, TRUMP), follows)
    figures[f"is_legal_follow: {SWEEP:,} new positions"] = (None if is_legal is None else
                                                          mean_us(lambda p: is_legal(*p, TRUMP), follows))
    figures[f"first legal follow: {SWEEP:,} new positions"] = mean_us(
        lambda p: next(iter(legal_follows(p[0], p[1], TRUMP))), follows)
    figures[f"trick_winner: {SWEEP:,} new tricks"] = mean_us(lambda t: trick_winner(t, TRUMP), tricks)
    figures[f"{FLOORS['check_follow']}: {SWEEP:,} new positions"] = mean_us(
        lambda p: _read_follow(card_type, *p), follows)
    figures[f"{FLOORS['trick_winner']}: {SWEEP:,} new tricks"] = mean_us(lambda t: _read_trick(card_type, t), tricks)
    fresh = iter(range(10**9))
    figures["parse_cards of a new 20-card text"] = median_us(lambda: parse_cards(HAND + " " * next(fresh)))
    return figures


def _measure_in(tree: Path, sweep: Path) -> dict[str, float | None]:
    """Every figure of the code in ``tree``, measured by this very script in a subprocess, on
    the new positions in the file ``sweep``."""
    figures: dict[str, float | None] = measured_in(tree, __file__, "--expect", str(tree), "--sweep", str(sweep))
    return figures


def _lowest(runs: list[dict[str, float | None]]) -> dict[str, float | None]:
    """Each figure's lowest value over ``runs`` (the one least disturbed by other work)."""
    return {label: min((v for run in runs if (v := run.get(label)) is not None), default=None) for label in runs[0]}


def _compare(rev: str, rounds: int) -> tuple[dict[str, float | None], dict[str, float | None]]:
    """The figures of ``rev`` (a worktree in a temporary directory) and of this checkout,
    measured in turn ``rounds`` times each, so that load elsewhere on the machine weighs
    on both alike; the lowest of each figure."""
    before: list[dict[str, float | None]] = []
    after: list[dict[str, float | None]] = []
    with worktree(rev) as tree:
        sweep = tree.parent / "sweep.json"
        sweep.write_text(json.dumps(_sweep(), ensure_ascii=False), "utf-8")
        for _ in range(rounds):
            before.append(_measure_in(tree, sweep))
            after.append(_measure_in(ROOT, sweep))
    return _lowest(before), _lowest(after)


def _cell(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="also measure the code of this git revision")
    parser.add_argument("--rounds", type=int, default=3, help="with --before: how many times each version is "
                        "measured, in turn (the lowest figure counts; default 3)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--expect", help=argparse.SUPPRESS)  # the checkout the measured tutor must come from
    parser.add_argument("--sweep", type=Path, help=argparse.SUPPRESS)  # the new positions, made by the caller
    args = parser.parse_args()
    if args.json:
        import tutor

        if args.expect and not Path(tutor.__file__).resolve().is_relative_to(Path(args.expect).resolve()):
            raise SystemExit(f"measuring {tutor.__file__}, not the code in {args.expect}")
        sweep = json.loads(args.sweep.read_text("utf-8")) if args.sweep else _sweep()
        print(json.dumps(measure(sweep)))
        return 0
    before, after = _compare(args.before, max(1, args.rounds)) if args.before else (None, measure(_sweep()))
    print(f"Python {sys.version.split()[0]}; µs per call: medians, the best of 3 rounds; "
          f"sweeps: the mean over {SWEEP:,} positions, the best of 3"
          + (f"; the lowest of {max(1, args.rounds)} runs of each version, in turn" if before else ""))
    width = max(len(label) for label in after)
    if before is None:
        print(f"{'figure':{width}} {'now':>10}")
        for label, now in after.items():
            print(f"{label:{width}} {_cell(now):>10}")
        return 0
    print(f"{'figure':{width}} {'before':>10} {'after':>10} {'speed-up':>9}")
    for label, now in after.items():
        old, mark = before.get(label), ""
        fast = label.split(":")[0]
        if old is None and fast in FAST_PATHS:  # a fast path against the full function before it
            old, mark = before.get(label.replace(f"{fast}:", f"{FAST_PATHS[fast]}:")), "*"
        ratio = f"{old / now:.1f}×{mark}" if old is not None and now else ""
        print(f"{label:{width}} {_cell(old if not mark else None):>10} {_cell(now):>10} {ratio:>9}")
    if any(label.split(":")[0] in FAST_PATHS and before.get(label) is None for label in after):
        print("* against the full function before: is_legal_follow is check_follow's answer without its verdict, "
              "throw_stands check_throw's ok")
    _print_goals(before, after)
    return 0


def _print_goals(before: dict[str, float | None], after: dict[str, float | None]) -> None:
    """Issue 30's goal for each swept function (:data:`GOAL` times faster than before) beside
    the floor of reading the same positions' cards alone, measured now."""
    print(f"\nIssue 30's goal ({GOAL:g}× faster than before) beside the floor, on the same positions:")
    for label, old in before.items():
        name = label.split(":")[0]
        if name not in FLOORS or ("new" not in label and "mean" not in label) or old is None:
            continue
        floor = after.get(label.replace(f"{name}:", f"{FLOORS[name]}:"))
        if floor is None:
            continue
        goal = old / GOAL
        print(f"  {name}: goal {goal:.1f} µs, now {_cell(after.get(label))} µs; reading the cards alone {floor:.1f} µs"
              f" ({'the goal is below it' if goal < floor else f'{goal - floor:.1f} µs left for the rule itself'})")


if __name__ == "__main__":
    raise SystemExit(main())
