"""Make the bank of prepared advice positions (:mod:`tutor.play.bank`): ``./dev bank``.

Position number ``n`` is drawn from its own seeded generator (the deal, how far into the
hand, the candidates, the layouts), so the bank is the same on any machine however many
processes make it: positions are analysed in order and kept until every level has its
share in both forms. Each kept position's options are weighed on
:data:`~tutor.play.bank.DEEP` layouts, after a first look on the strongest level's
layouts picks the positions worth it (one choice close to the best) and which candidate
plays to weigh.

    python -m tools.advice_bank [--per-level N] [--per-form N] [--processes K] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from itertools import count
from multiprocessing import Pool
from pathlib import Path

from tutor.play.search import calls_to_weigh, candidate_plays, edge, search, weigh_calls
from tutor.play.strategy import LEVEL_SETTINGS, ComputerPlayer, computer_hand, next_action
from tutor.rules.game import Game, Phase
from tutor.play.bank import (DEEP, FILE, FORMS, MARGIN, Bank, Entry, Option, actions_of, as_stored, distractors,
                                     to_json)
from tutor.teach.drills.common import SEEDS

FIRST_LOOK = max(level.layouts for level in LEVEL_SETTINGS.values())
"""Layouts of the first look at every candidate play."""
SHORTLIST = 6
"""Candidate plays weighed deeply: the first look's best and others spread over its ranking."""
PER_LEVEL = 500
"""Entries each level needs, both forms together."""
PER_FORM = 100
"""Entries each level needs in each form, at least."""
STEPS = 75
"""A play position is up to this many actions into the playing phase."""


def analyse(number: int) -> Entry | None:
    """The entry made from position number ``number``, or None if the position serves no
    level (or there is no choice to make)."""
    rng = random.Random(f"bank-{number}")
    form = FORMS[number % len(FORMS)]
    hand = rng.randrange(SEEDS.stop)
    if form == "call":
        return _call(number, hand)
    return _play(number, hand, rng.randrange(STEPS))


def position(hand: int, steps: int | None) -> Game | None:
    """The level-1 hand dealt from ``hand``, ``steps`` actions into its playing phase
    (``steps`` None: the declarer about to call); None if the hand is over by then."""
    if steps is None:
        game, _ = computer_hand(hand, Phase.CALLING)
        return game if game.phase is Phase.CALLING and game.declarer is not None else None
    game, bots = computer_hand(hand, Phase.PLAYING)
    for _ in range(steps):
        if game.phase is not Phase.PLAYING:
            return None
        game.apply(next_action(game, bots))
    return game if game.phase is Phase.PLAYING and game.actor is not None else None


def _play(number: int, hand: int, steps: int) -> Entry | None:
    game = position(hand, steps)
    if game is None or game.actor is None:
        return None
    view = game.view(game.actor)
    if view.forced_options:
        return None
    heuristic = ComputerPlayer(view.seat, hand).play(view).cards
    plays = candidate_plays(view, rng=random.Random(f"bank-candidates-{number}"), include=[heuristic])
    if len(plays) < 3:
        return None
    first = search(view, rng=random.Random(f"bank-first-{number}"), layouts=FIRST_LOOK, candidates=plays)
    rest = first.values[1:]
    gains = [first.edge(first.best, v)[0] for v in rest]
    if sum(1 for gain in gains if gain >= MARGIN[3] / 2) < 2 or not _may_be_fine(gains):
        return None  # nothing stands out at a first look, or nothing is close enough to ask
    picks = sorted({round(i * (len(rest) - 1) / max(SHORTLIST - 2, 1)) for i in range(SHORTLIST - 1)})
    shortlist = [first.best.play, *(rest[i].play for i in picks)]
    found = search(view, rng=random.Random(f"bank-deep-{number}"), layouts=DEEP, candidates=shortlist)
    options = tuple(Option(v.play, v.expected, *found.edge(found.best, v), v.trick_share, v.attackers_points)
                    for v in found.values)
    return _kept(Entry(number, "play", hand, actions_of(game), options))


def _call(number: int, hand: int) -> Entry | None:
    game = position(hand, None)
    if game is None or game.declarer is None:
        return None
    view = game.view(game.declarer)
    calls = calls_to_weigh(view)
    if len(calls) < 3:
        return None
    first = weigh_calls(view, calls, rng=random.Random(f"bank-first-{number}"), layouts=FIRST_LOOK)
    top = max(first, key=sum)
    if not _may_be_fine([edge(top, other)[0] for other in first if other is not top]):
        return None  # nothing is close enough to ask
    results = weigh_calls(view, calls, rng=random.Random(f"bank-deep-{number}"), layouts=DEEP)
    order = sorted(range(len(calls)), key=lambda i: -sum(results[i]))
    best = results[order[0]]
    options = tuple(Option(calls[i], sum(results[i]) / len(results[i]), *edge(best, results[i])) for i in order)
    return _kept(Entry(number, "call", hand, actions_of(game), options))


def _may_be_fine(gains: Sequence[float]) -> bool:
    """Whether a first look's gains of the best over the others hold one that may fall in the
    bands of levels 2 and 3 once weighed deeply (the clear choices of level 1 come with them:
    a position whose every other choice is far worse is not worth a deep look)."""
    return any(MARGIN[3] / 2 <= gain < 1.5 * MARGIN[1] for gain in gains)


def _kept(analysed: Entry) -> Entry | None:
    entry = as_stored(analysed)
    return entry if any(distractors(entry, level) is not None for level in MARGIN) else None


def build(per_level: int = PER_LEVEL, per_form: int = PER_FORM, processes: int | None = None,
          say: bool = True) -> tuple[Bank, int]:
    """The bank: positions analysed in order until every level has ``per_level`` entries,
    and ``per_form`` in each form; and how many positions were analysed. An entry is kept
    only while a level it serves is short of entries."""
    kept: dict[str, list[Entry]] = {form: [] for form in FORMS}
    seen: set[tuple[int, str]] = set()
    start = time.monotonic()
    analysed = 0

    def serving(level: int, form: str) -> int:
        return sum(1 for e in kept[form] if distractors(e, level) is not None)

    def short() -> list[tuple[int, str]]:
        """(level, form) still wanting entries of that form."""
        return [(level, form) for level in MARGIN for form in FORMS
                if serving(level, form) < per_form or sum(serving(level, f) for f in FORMS) < per_level]

    with Pool(processes or os.cpu_count() or 1) as pool:
        for entry in pool.imap(analyse, count(), chunksize=1):
            analysed += 1
            if entry is not None and (entry.hand, entry.actions) not in seen:
                wanted = short()
                if any(form == entry.form and distractors(entry, level) is not None for level, form in wanted):
                    seen.add((entry.hand, entry.actions))
                    kept[entry.form].append(entry)
            if say and analysed % 50 == 0:
                counts = {f"{form} {level}": serving(level, form) for level in MARGIN for form in FORMS}
                print(f"{analysed} analysed, {time.monotonic() - start:.0f} s: {counts}", file=sys.stderr)
            if not short():
                pool.terminate()
                break
    return Bank(DEEP, {form: tuple(kept[form]) for form in FORMS}), analysed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=PER_LEVEL)
    parser.add_argument("--per-form", type=int, default=PER_FORM)
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent.parent / "tutor/play" / FILE)
    args = parser.parse_args(argv)
    start = time.monotonic()
    bank, analysed = build(args.per_level, args.per_form, args.processes)
    text = to_json(bank)
    args.out.write_text(text, "utf-8")
    print(f"{analysed} positions analysed in {time.monotonic() - start:.0f} s; kept "
          f"{', '.join(f'{len(bank.by_form[f])} {f}s' for f in FORMS)}; {len(text.encode()) / 1e6:.2f} MB -> {args.out}")
    for level in MARGIN:
        shown = [(e, distractors(e, level)) for f in FORMS for e in bank.entries(level, f)]
        closest = [e.options[pair[0]].gain for e, pair in shown if pair is not None]
        print(f"level {level}: {len(shown)} entries, mean margin (the closer choice shown) "
              f"{sum(closest) / len(closest):.2f}")


if __name__ == "__main__":
    main()
