"""Drills: every stated answer re-derived independently through the public rules
API, for many seeds of every kind and level; bad answers never raise."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from tutor import (Declaration, can_overturn, check_follow, check_ruff, check_throw, is_tractor, kitty_flip,
                   kitty_multiplier, points, score_hand, trick_winner)
from tutor import Trump
from tutor.teach import drills
from tutor.teach.drills import KINDS, AnswerKind, Choice, Drill, DrillError, generate
from tutor.teach.drills import common as drills_common
from tutor.teach.drills.progress import Progress, ProgressError, utc
from tutor.core.i18n import Translator
from tutor.rules.notation import parse_cards

from leaks import english_words

SEEDS = range(0, 240)  # per kind and level: 720 drills per kind
RULE_KINDS = [kind for kind, info in KINDS.items() if not info.advice]
"""The kinds whose answers are the rules' (the coach's drills are re-searched in test_advice_drills)."""


def some(kind, seeds):
    """``seeds``, or a few of them for a drill of the coach's, which searches (about half a
    second a drill): the properties every drill keeps, asked of fewer of those."""
    return seeds if not KINDS[kind].advice else list(seeds)[:2]


def multiset_picks(hand, k):
    items = sorted(Counter(hand).items(), key=lambda kv: kv[0].index)
    out = []

    def walk(i, left, acc):
        if left == 0:
            out.append(acc)
            return
        if i == len(items):
            return
        card, count = items[i]
        for take in range(min(count, left), -1, -1):
            walk(i + 1, left - take, acc + (card,) * take)

    walk(0, k, ())
    return out


def card_picks(drill, rng, limit=400):
    """Picks of ``drill.pick`` cards from the hand: all when few, else a sample."""
    picks = multiset_picks(drill.hand, drill.pick)
    if len(picks) > limit:
        picks = rng.sample(picks, limit)
    return picks


def expected_choice(drill):
    """The correct choice keys, recomputed from the rules API."""
    kind, q = drill.kind, drill.question
    if kind == "tractor":
        return {"yes" if is_tractor(drill.shown, drill.trump) else "no"}
    if kind == "follow":
        lead = drill.table.plays[0][1]
        return {"yes" if check_follow(drill.hand, lead, drill.shown, drill.trump).legal else "no"}
    if kind == "ruff":
        plays = drill.table.plays
        lead = plays[0][1]
        beat = None
        if "winning with a ruff" in q:
            beat = plays[trick_winner([p for _, p in plays], drill.trump)][1]
        return {"yes" if check_ruff(drill.hand, lead, drill.shown, drill.trump, beat=beat).ruff else "no"}
    if kind == "throw":
        result = check_throw(drill.shown, [c for _, c in drill.others], drill.trump)
        if "Does it stand" in q:
            return {"yes" if result.ok else "no"}
        assert not result.ok
        return {c.key for c in drill.choices if c.label in {" ".join(map(str, o)) for o in result.options}}
    if kind == "trick":
        plays = drill.table.plays
        return {str(plays[trick_winner([p for _, p in plays], drill.trump)][0])}
    if kind == "count":  # W2: a follower with fewer cards of the led suit than were led has none left
        plays = drill.table.plays
        lead = plays[0][1]
        suit = drill.trump.lane(lead[0])
        short = {str(seat) for seat, cards in plays[1:] if sum(drill.trump.lane(c) == suit for c in cards) < len(lead)}
        return short or {"nobody"}
    if kind == "friend" and "reveal" in q:  # F6: the friend's copy reveals them, the declarer's own nothing
        declarer, card = re.search(r"Seat (\d) is the declarer and called (\S+)\.", q).groups()
        friend = [seat for seat, cards in drill.table.plays if parse_cards(card)[0] in cards and seat != int(declarer)]
        return {str(friend[0]) if friend else "nobody"}
    if kind == "friend":
        card, = parse_cards(re.search(r"May you call (\S+) to find", q).group(1))
        return {"yes" if may_call(drill, card) else "no"}
    if kind == "declare":
        if "kitty" in q and "which card" in q:
            card = kitty_flip(drill.shown)
            return {"redeal" if card is None else str(drill.shown.index(card))}
        if "Who becomes" in q:
            card = kitty_flip(drill.shown)
            return {"redeal" if card is None else str(next(s for s, h in drill.others if card in h))}
        (seat_, current), = drill.others
        counts = Counter(drill.hand)
        shows = [(c,) for c in counts] + [(c, c) for c in counts if counts[c] == 2]
        ok = any(can_overturn(Declaration(s, seat=drill.seat), Declaration(current, seat=seat_)) for s in shows)
        return {"yes" if ok else "no"}
    raise AssertionError(kind)


def may_call(drill, card):
    """F1, F3: the declarer may call a card held exactly once whose twin is not buried (``shown``)."""
    return Counter(drill.hand)[card] == 1 and card not in drill.shown


def expected_number(drill):
    q = drill.question
    if drill.kind == "points":
        return points(drill.shown)
    if drill.kind == "throw":
        return check_throw(drill.shown, [c for _, c in drill.others], drill.trump).penalty
    if drill.kind == "count":  # C3: the deck's 200 points less every point the learner has seen
        held = re.search(r"held (\d+) points", q)
        if held:
            played = int(held.group(1))
        elif "points won:" in q:
            played = sum(int(n) for n in re.findall(r"seat \d (\d+)", q))
        else:
            played = sum(int(n) for n in re.search(r"trick by trick: ([\d, ]+)\.", q).group(1).split(", "))
        return 200 - played - points(drill.hand) - points(drill.shown)
    if "multiplied" in q:
        return kitty_multiplier(drill.shown, drill.trump)
    if "attackers' total" in q:
        won = int(re.search(r"won (\d+) points", q).group(1))
        lead = drill.table.plays[0][1]
        if "won by the declarer's side" in q:
            return won
        return won + points(drill.shown) * kitty_multiplier(lead, drill.trump)
    total = int(re.search(r"finish with (-?\d+) points", q).group(1))
    decl = re.search(r"There were (\d+) declarations", q)
    solo = "solo" in q
    role = "declarer" if "the declarer score" in q else "friend" if "the friend" in q else "attacker"
    return score_hand(total, declarations=int(decl.group(1)) if decl else 1, solo=solo)[role]


def expected_cards_ok(drill, cards):
    kind = drill.kind
    if kind == "points":
        return Counter(cards) == Counter(c for c in drill.hand if c.points)
    if kind == "friend":
        return len(cards) == 1 and may_call(drill, cards[0])
    if kind == "tractor":
        counts = Counter(drill.hand)
        pairs = [c for c, k in counts.items() if k == 2]
        want = Counter({c: 2 for c in pairs if any(is_tractor((c, c, d, d), drill.trump) for d in pairs if d is not c)})
        return Counter(cards) == want
    if kind == "follow":
        return check_follow(drill.hand, drill.table.plays[0][1], cards, drill.trump).legal
    if kind == "ruff":
        plays = drill.table.plays
        beat = None
        if "winning with a ruff" in drill.question:
            beat = plays[trick_winner([p for _, p in plays], drill.trump)][1]
        return check_ruff(drill.hand, plays[0][1], cards, drill.trump, beat=beat).ruff
    if kind == "declare":
        (seat_, current), = drill.others
        return can_overturn(Declaration(cards, seat=drill.seat), Declaration(current, seat=seat_))
    raise AssertionError(kind)


def verify(drill, rng):
    assert drill.hints and len(drill.hints) == 3 and drill.question
    if drill.answer is AnswerKind.CHOICE:
        want = expected_choice(drill)
        assert want and len(want) < len(drill.choices), "a choice drill must not be degenerate"
        for choice in drill.choices:
            fb = drill.check(choice.key)
            assert fb.error is None and fb.correct == (choice.key in want), (choice, fb)
            assert fb.message and fb.rule and fb.answer_count == len(want)
    elif drill.answer is AnswerKind.NUMBER:
        want = expected_number(drill)
        for guess in (want, want + 5, want - 1, str(want)):
            fb = drill.check(guess)
            assert fb.error is None and fb.correct == (guess in (want, str(want))), (guess, fb)
    else:
        if drill.kind == "tractor":
            counts = Counter(drill.hand)
            pairs = [c for c, k in counts.items() if k == 2]
            picks = [tuple(c for c in combo for _ in range(2)) for r in range(1, min(len(pairs), 5) + 1)
                     for combo in combinations(pairs, r)]
        elif drill.kind == "points":
            scoring = tuple(c for c in drill.hand if c.points)
            blank = next(c for c in drill.hand if not c.points)
            picks = [scoring, scoring[1:], scoring + (blank,), (), (blank,), tuple(drill.hand)]
        elif drill.kind == "declare":
            counts = Counter(drill.hand)
            picks = [(c,) for c in counts] + [(c, c) for c in counts if counts[c] == 2] + [()]
            picks += [tuple(drill.hand[:2])]
        else:
            picks = card_picks(drill, rng)
        right = 0
        for pick in picks:
            fb = drill.check(pick)
            assert fb.error is None, (pick, fb)
            ok = expected_cards_ok(drill, pick)
            right += ok
            assert fb.correct == ok, (drill.question, pick, fb)
        first = drill.check(drill.solutions()[0][0])
        assert first.correct and first.answer_count >= 1
        if drill.kind not in ("tractor", "declare"):
            assert right < len(picks), "a cards drill must not be degenerate"


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("kind", RULE_KINDS)
def test_every_answer_is_recomputed(kind, level):
    rng = random.Random(f"{kind}{level}")
    for seed in SEEDS:
        drill = generate(kind, seed, level)
        assert drill.kind == kind and drill.level == level and drill.seed == seed
        verify(drill, rng)


@pytest.mark.parametrize("kind", list(KINDS))
def test_same_seed_same_drill(kind):
    for seed in some(kind, (0, 1, 2, 3, 17, 99, 2**31 - 1)):
        for level in (1, 2, 3):
            assert generate(kind, seed, level) == generate(kind, seed, level)
    seeds = some(kind, range(30)) if not KINDS[kind].advice else range(8)
    assert len({generate(kind, s, 2).question for s in seeds}) > len(seeds) // 3


JUNK = [None, 3.5, True, object(), {"a": 1}, "zzz", "♠A ♠A ♠A", ["♠A", 5], [None], "  ", ["♠AX"], b"\x00"]


@pytest.mark.parametrize("kind", list(KINDS))
def test_bad_answers_are_errors_not_exceptions(kind):
    for seed in some(kind, range(40)):
        drill = generate(kind, seed, 1 + seed % 3)
        for junk in JUNK:
            fb = drill.check(junk)
            if fb.error is None:  # only an empty pick may be a real (wrong) answer
                assert drill.answer is AnswerKind.CARDS and drill.pick is None or junk == "  "
                continue
            assert not fb.correct and fb.error
        if drill.answer is AnswerKind.CARDS:
            missing = next(c for c in generate("follow", 0).hand + drill.hand if c not in drill.hand) \
                if any(c not in drill.hand for c in generate("follow", 0).hand) else None
            if missing is not None:
                assert drill.check((missing,) * (drill.pick or 1)).error
            if drill.pick:
                assert drill.check(drill.hand[: drill.pick + 1]).error  # wrong count
                as_text = " ".join(map(str, drill.hand[: drill.pick]))
                as_list = [str(c) for c in drill.hand[: drill.pick]]
                a, b, c = drill.check(as_text), drill.check(as_list), drill.check(tuple(drill.hand[: drill.pick]))
                assert a.error is None and a == b == c
        if drill.answer is AnswerKind.NUMBER:
            assert drill.check("7.5").error and drill.check(float("nan")).error


@pytest.mark.parametrize("args", [("chess", 1, 1), ("follow", -1, 1), ("follow", 2**31, 1), ("follow", 1, 0),
                                  ("follow", 1, 4), ("follow", "1", 1), ("follow", 1, True), (None, 1, 1)])
def test_bad_arguments_raise_drill_error(args):
    with pytest.raises(DrillError):
        generate(*args)
    with pytest.raises(ValueError):
        generate(*args)


def test_bad_language():
    with pytest.raises(DrillError):
        generate("follow", 1, 1, lang="xx")
    assert generate("follow", 1, 1, lang="zh-Hans").lang == "zh-Hans"


# ---------------------------------------------------------------- the one contract

def _every_form(level=2):
    """A drill of every form of every kind (a seed picks the form)."""
    return [generate(kind, seed, level) for kind, info in KINDS.items() for seed in range(len(info.forms))]


def test_every_kind_makes_the_one_frozen_drill():
    for drill in _every_form():
        assert type(drill) is Drill and dataclasses.is_dataclass(drill), drill.kind
        again = generate(drill.kind, drill.seed, drill.level)
        assert again == drill and hash(again) == hash(drill) and again == dataclasses.replace(drill)
        with pytest.raises(dataclasses.FrozenInstanceError):
            drill.question = "?"
    assert not hasattr(drills_common, "Question")  # one contract, not two


def test_drills_are_equal_by_their_fields_not_their_judge():
    drill = next(d for d in _every_form(1) if d.answer is AnswerKind.CARDS)
    other = dataclasses.replace(drill, judge=lambda cards: (True, "W1", ""))
    assert other == drill and hash(other) == hash(drill)
    assert dataclasses.replace(drill, question=drill.question + "?") != drill
    assert dataclasses.replace(drill, lang="zh-Hans") != drill
    assert {f.name for f in dataclasses.fields(Drill) if not f.compare} == {"judge", "solve", "refute"}


def test_a_malformed_drill_is_refused_when_made():
    base = dict(kind="score", level=1, seed=0, question="?", trump=Trump("♥"), rules=("S1",), rule="S1", hints=())
    with pytest.raises(DrillError, match="judge"):
        Drill(answer=AnswerKind.CARDS, **base)
    with pytest.raises(DrillError, match="number"):
        Drill(answer=AnswerKind.NUMBER, **base)
    with pytest.raises(DrillError, match="choices"):
        Drill(answer=AnswerKind.CHOICE, choices=(Choice("yes", "Yes"),), correct=frozenset({"maybe"}), **base)
    assert Drill(answer=AnswerKind.NUMBER, number=4, **base).check(4).correct


def test_the_drills_are_typed_without_type_ignore():
    folder = Path(drills.__file__).parent
    ignored = [path.name for path in folder.glob("*.py") if "type: ignore" in path.read_text("utf-8")]
    assert not ignored


def test_registry():
    assert set(KINDS) == {"points", "tractor", "follow", "ruff", "throw", "trick", "declare", "friend", "score",
                          "count", "advice"}
    assert [kind for kind, info in KINDS.items() if info.advice] == ["advice"]
    for info in KINDS.values():
        assert info.title and (info.rules or info.advice) and info.levels == (1, 2, 3) and info.forms


# ---------------------------------------------------------------- languages

CHINESE = ("zh-Hans", "zh-Hant")


def right_and_wrong(drill, english):
    """A right and a wrong answer to ``drill`` (asked of the same drill in English, whose
    answers are notation text; the wrong one is asked of the drill itself)."""
    if drill.answer is AnswerKind.CHOICE:
        keys = [c.key for c in drill.choices]
        return next(k for k in keys if k in drill.correct), next(k for k in keys if k not in drill.correct)
    if drill.answer is AnswerKind.NUMBER:
        return drill.number, drill.number + 5
    right = tuple(parse_cards(english.solutions()[0][0]))
    size = drill.pick or 2
    for start in range(len(drill.hand) - size + 1):
        wrong = tuple(drill.hand[start:start + size])
        if not drill.check(wrong).correct:
            return right, wrong
    return right, ()


def said_texts(drill, english):
    """Every text a learner reads of ``drill``: title, question, choices, hints, and the
    feedback on a right and a wrong answer (with the answers listed)."""
    tr = Translator(drill.lang)
    texts = {"title": tr(KINDS[drill.kind].title), "question": drill.question}
    texts.update((f"hint {i}", h) for i, h in enumerate(drill.hints))
    texts.update((f"choice {c.key}", c.label) for c in drill.choices)
    right, wrong = right_and_wrong(drill, english)
    for name, answer in (("right", right), ("wrong", wrong)):
        fb = drill.check(answer)
        assert fb.error is None and fb.correct == (name == "right"), (name, answer, fb)
        texts[f"{name} feedback"] = fb.message
        texts.update((f"{name} answer {i}", a) for i, a in enumerate(fb.answers))
    return texts


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("kind", list(KINDS))
def test_chinese_drills_have_no_english(kind, lang):
    leaks = []
    for level in (1, 2, 3):
        for seed in some(kind, range(8)):  # every form of every kind
            drill = generate(kind, seed, level, lang=lang)
            english = generate(kind, seed, level)
            assert drill.question != english.question
            for where, text in said_texts(drill, english).items():
                if english_words(text):
                    leaks.append(f"{kind}/{seed}/{level} {where}: {english_words(text)} in {text!r}")
    assert not leaks, "\n".join(leaks[:20])


@pytest.mark.parametrize("lang", CHINESE)
def test_chinese_answer_errors_have_no_english(lang):
    """What a learner can get wrong in the page: nothing chosen, a number not whole, a
    card not held, too many cards, a card that cannot be read."""
    for kind in KINDS:
        for seed in range(4):
            drill = generate(kind, seed, 1, lang=lang)
            if drill.answer is AnswerKind.CHOICE:
                answers = [None, ""]
            elif drill.answer is AnswerKind.NUMBER:
                answers = ["", "7.5", "sieben"]
            else:
                other = next(c for c in parse_cards("♠A ♥A ♣A ♦A ♠3 ♥3") if c not in drill.hand)
                answers = [(other,), ["♠1"], (drill.hand[0],) * 3]
                if drill.pick:
                    answers.append(drill.hand[:drill.pick + 1])
            for answer in answers:
                error = drill.check(answer).error
                assert error and not english_words(error.replace("sieben", "")), (kind, seed, answer, error)


def test_drill_errors_are_translatable():
    with pytest.raises(DrillError) as caught:
        generate("chess", 1)
    assert Translator("zh-Hans")(caught.value.args[0]) != str(caught.value)


SIMPLIFIED_ONLY = set("这们说对张刚选时为会门级连庄独无单机")
"""Characters only Simplified Chinese writes: Traditional text never falls back to them."""


def everything_said(drill):
    """Every text of ``drill`` a learner can meet: question, choices, hints, the
    explanation, and the feedback (message, answers, error) on right, wrong and
    unreadable answers."""
    said = [drill.question, drill.explain, *drill.hints, *(c.label for c in drill.choices)]
    if drill.answer is AnswerKind.CHOICE:
        answers = [c.key for c in drill.choices] + ["maybe", None]
    elif drill.answer is AnswerKind.NUMBER:
        answers = [drill.number, drill.number + 5, "sieben", ""]
    else:
        size = drill.pick or 2
        answers = [drill.hand[:size], drill.hand[-size:], ["♠1"], (drill.hand[0],) * 3]
    for answer in answers:
        feedback = drill.check(answer)
        said += [feedback.message, *feedback.answers, feedback.error or ""]
    return said


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_drill_speaks_its_own_language_whatever_the_kernels(lang):
    """A drill made in ``lang`` says the same in a kernel set to another language."""
    from tutor.core.i18n import current, set_language

    before = current().language
    try:
        seen = {}
        for kernel in ("en", "zh-Hans"):
            set_language(kernel)
            seen[kernel] = [(kind, level, seed, everything_said(generate(kind, seed, level, lang=lang)))
                            for kind in KINDS for level in (1, 2, 3) for seed in some(kind, range(6))]
    finally:
        set_language(before)
    for mine, other in zip(seen["en"], seen["zh-Hans"], strict=True):
        assert mine == other
    if lang == "zh-Hant":
        simplified = {f"{kind}/{level}/{seed}: {text!r}" for kind, level, seed, texts in seen["zh-Hans"]
                      for text in texts if SIMPLIFIED_ONLY & set(text)}
        assert not simplified, "\n".join(sorted(simplified)[:20])


# ---------------------------------------------------------------- progress

NOW = utc(2025, 3, 1, 12)


def test_stars_and_streaks():
    p = Progress()
    for seed in range(15):
        p = p.record("follow", seed, 1, True, utc(2025, 3, 1, 12, seed))
    k = p.kind("follow")
    assert (k.attempts, k.correct, k.streak, k.stars) == (15, 15, 15, 3)
    p = p.record("follow", 99, 1, False, utc(2025, 3, 1, 13))
    assert p.kind("follow").streak == 0 and p.kind("follow").stars == 3


def test_retry_does_not_double_count():
    p = Progress().record("tractor", 5, 1, False, NOW)
    q = p.record("tractor", 5, 1, True, utc(2025, 3, 1, 12, 0, 20))  # retry right away
    assert q == p and q.record("tractor", 5, 1, False, NOW) == p


def test_mistake_comes_back():
    p = Progress().record("ruff", 42, 3, False, NOW)
    assert p.next_drill("ruff", NOW) != (42, 3)
    later = utc(2025, 3, 1, 12, 5)
    assert p.next_drill("ruff", later) == (42, 3)
    assert p.next_drill("follow", later) != (42, 3)
    p = p.record("ruff", 42, 3, True, later)
    assert p.kind("ruff").attempts == 2
    for _ in range(6):  # answered right each time it comes due, it leaves the list
        if not p.reviews:
            break
        due = p.reviews[0].due
        assert p.next_drill("ruff", due) == (42, 3)
        p = p.record("ruff", 42, 3, True, due)
    assert not p.reviews


def test_fresh_seeds_are_deterministic():
    p = Progress()
    assert p.next_drill("follow", NOW) == Progress().next_drill("follow", NOW)
    q = p.record("follow", p.next_drill("follow", NOW)[0], 1, True, NOW)
    assert q.next_drill("follow", NOW) != p.next_drill("follow", NOW)


def test_progress_round_trips():
    p = Progress()
    for i in range(12):
        p = p.record(["follow", "ruff", "trick"][i % 3], i, 1 + i % 3, i % 4 == 0, utc(2025, 3, 1, 12, i))
    text = p.to_json()
    assert Progress.from_json(text) == p
    assert Progress.from_json_lenient(text) == (p, None)


@pytest.mark.parametrize("text", ["", "not json", "[]", "null", '{"version": 99}', '{"version": 1, "kinds": []}',
                                  '{"version": 1, "kinds": {"follow": [1, 5, 0, 0]}}',
                                  '{"version": 1, "reviews": [{"kind": "follow"}]}', "{" * 5000])
def test_tampered_progress(text):
    with pytest.raises(ProgressError):
        Progress.from_json(text)
    progress, note = Progress.from_json_lenient(text)
    assert isinstance(progress, Progress) and note


def test_lenient_keeps_the_valid_parts():
    p = Progress().record("follow", 3, 1, False, NOW).record("ruff", 4, 2, True, utc(2025, 3, 1, 13))
    import json
    body = json.loads(p.to_json())
    body["kinds"]["trick"] = "garbage"
    body["reviews"].append({"kind": "x", "seed": -1, "level": 9, "card": {}})
    kept, note = Progress.from_json_lenient(json.dumps(body))
    assert kept.kind("follow") == p.kind("follow") and kept.reviews == p.reviews and note
    with pytest.raises(ProgressError):
        Progress.from_json(json.dumps(body))


def test_time_must_be_aware():
    from datetime import datetime
    with pytest.raises(ProgressError):
        Progress().record("follow", 1, 1, True, datetime(2025, 1, 1))


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_every_throw_question_says_the_trump(lang: str) -> None:
    """A throw is one suit, or all trumps: without the trump, "You lead the throw ♥2 ♥2 ♣Q ♣Q
    ♣J" reads as an illegal lead of two suits (L1). Every form says it (the cost too)."""
    from tutor.teach.drills.common import with_trump
    from tutor.core.i18n import Translator

    tr = Translator(lang)
    forms = set()
    for level in KINDS["throw"].levels:
        for seed in range(30):
            drill = generate("throw", seed, level, lang=lang)
            prefix = with_trump("", drill.trump, tr)
            assert drill.question.startswith(prefix), drill.question
            forms.add(drill.answer)
    assert forms == {AnswerKind.CHOICE, AnswerKind.NUMBER}


def test_a_points_out_count_is_asked_while_the_hand_is_on() -> None:
    """The points-out drill stops a hand some tricks in, never at its end (all hands are empty
    together, B3: the learner's hand would be empty and the answer just the kitty); about 2 %
    of them were set after the last trick, at every level."""
    for level in KINDS["count"].levels:
        for seed in range(1, 200, 2):  # the odd seeds ask the points out
            drill = generate("count", seed, level)
            assert drill.answer is AnswerKind.NUMBER and drill.hand, (level, seed)
