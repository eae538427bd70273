"""Speed of the rules module: prints medians (run: ./dev bench).

Figures asked for by the rules-module issue, measured on one core:
check_follow and the first legal follow on 20-card hands against a single,
a pair, a 2-pair tractor and a 6-card throw (also with a void follower), and a
complete random hand from deal to score.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from tutor import check_follow, legal_follows, parse_cards, play_random_hand

HAND = parse_cards("♠A ♠K ♠K ♠Q ♠Q ♠J ♠9 ♠9 ♠5 ♥2 ♥A ♥A ♥7 ♣K ♣10 ♣4 ♦A ♦6 ♦6 SJ")
VOID = parse_cards("♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♠6 ♠5 ♥2 ♥A ♥K ♥7 ♦K ♦10 ♦4 ♦A ♦6 SJ")
TRUMP = "♥"
POSITIONS = [
    ("single", HAND, "♠3", "♠5"),
    ("pair", HAND, "♠7 ♠7", "♠9 ♠9"),
    ("2-pair tractor", HAND, "♠8 ♠8 ♠7 ♠7", "♠K ♠K ♠Q ♠Q"),
    ("6-card throw", HAND, "♠A ♠10 ♠10 ♠8 ♠8 ♠4", "♠K ♠K ♠Q ♠Q ♠9 ♠9"),
    ("6-card throw, void follower", VOID, "♣A ♣Q ♣Q ♣8 ♣8 ♣3", "♦6 ♦4 ♠5 ♠J ♥7 SJ"),
]


def median_us(fn: Callable[[], object], *, repeat: int = 2000, rounds: int = 5) -> float:
    """Median wall time of one call in microseconds: the lowest of ``rounds``
    medians of ``repeat`` calls each, so a burst of load elsewhere on the machine
    does not count as the code's cost."""
    for _ in range(50):
        fn()
    medians = []
    for _ in range(rounds):
        samples = []
        for _ in range(repeat):
            start = time.perf_counter_ns()
            fn()
            samples.append(time.perf_counter_ns() - start)
        medians.append(statistics.median(samples) / 1000)
    return min(medians)


def main() -> int:
    print(f"Python {sys.version.split()[0]}; medians of 2000 calls, best of 5 rounds (µs); targets: check_follow ≤ 30, first ≤ 50")
    print(f"{'position':32} {'check_follow':>13} {'first legal':>12} {'legal plays':>12}")
    for name, hand, lead_text, play_text in POSITIONS:
        lead, play = parse_cards(lead_text), parse_cards(play_text)  # the rules' cost, not the parser's
        assert check_follow(hand, lead, play, TRUMP).legal, name
        check = median_us(lambda: check_follow(hand, lead, play, TRUMP))
        first = median_us(lambda: next(iter(legal_follows(hand, lead, TRUMP))))
        count = legal_follows(hand, lead, TRUMP).count()
        print(f"{name:32} {check:13.1f} {first:12.1f} {count:12,d}")
    text = "♠A ♠K ♠K ♠Q ♠Q ♠J ♠9 ♠9 ♠5 ♥2 ♥A ♥A ♥7 ♣K ♣10 ♣4 ♦A ♦6 ♦6 SJ"
    fresh = iter(range(10**9))
    parse = median_us(lambda: parse_cards(text + " " * next(fresh)))
    print(f"parse_cards of a new 20-card text (not yet cached): {parse:.1f} µs")
    hands = []
    for seed in range(300):
        start = time.perf_counter_ns()
        play_random_hand(seed)
        hands.append((time.perf_counter_ns() - start) / 1e6)
    print(f"complete random hand, deal to score: median {statistics.median(hands):.2f} ms, "
          f"p95 {sorted(hands)[int(0.95 * len(hands))]:.2f} ms over {len(hands)} hands (target ≤ 10 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
