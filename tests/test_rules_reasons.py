"""Every reason the rules give, over many random positions (follow, ruff, throw, trick):

- every list of cards it names is in the hand's holding order for the trump in force
  (trumps high to low, then ♠ ♥ ♣ ♦ each high to low: ``Trump.sorted``, the order the
  course draws a hand in), however the hand, the lead and the plays were given;
- a verdict on a play names its rule, and when its reason cites rules the verdict's rule
  is one of them, so a "Rule W5" badge never stands beside a W2 sentence; the whole
  sentence names the rule once;
- W3 (W4, W5) is cited only for a hand holding a pair of the led suit: a hand with no
  pair follows a pair under W2 (RULES.md: "a follower who holds a pair in S must play a pair").

The card lists are read back out of the English sentences, and the cited rules too,
by this file's own patterns (not the rules module's).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from tutor.core.i18n import Translator
from tutor.rules.bidding import check_declaration
from tutor.rules.cards import PACK, Card
from tutor.rules.combos import lead_problem, pair_runs
from tutor.rules.follow import check_follow, legal_follows
from tutor.rules.notation import parse_cards
from tutor.rules.order import TRUMP, Trump
from tutor.rules.ruff import check_ruff
from tutor.rules.throw import check_throw
from tutor.rules.trick import explain_trick, why_not
from tutor.rules.verdict import Verdict

EN = Translator("en")
TRUMPS = ("♠", "♥", "♣", "♦", None)
CARD = r"(?:[♠♥♣♦](?:10|[2-9JQKA])|BJ|SJ)"
CARD_LIST = re.compile(rf"{CARD}(?: {CARD})*")
"""Cards one space apart: one list, as a learner reads it."""
HELD = re.compile(rf"hold the (?:pairs?|tractors?) ({CARD}(?:(?: |, | and ){CARD})*)")
"""The pairs or tractors of a hand, listed with commas and "and": one list too."""
CITATION = re.compile(r"\(([A-Z]\d(?:–[A-Z]\d)?(?:, [A-Z]\d(?:–[A-Z]\d)?)*)\)")
RULE_ID = re.compile(r"\b[A-Z]\d\b")


# --------------------------------------------------------------------------- reading sentences back


def card_lists(sentence: str) -> list[tuple[Card, ...]]:
    """Every list of cards an English sentence names."""
    lists = [tuple(parse_cards(m.group())) for m in CARD_LIST.finditer(sentence)]
    lists += [tuple(parse_cards(m.group(1).replace(" and ", " "))) for m in HELD.finditer(sentence)]
    return lists


def cited(sentence: str) -> set[str]:
    """The rule IDs cited in brackets, a range counting each rule in it."""
    rules: set[str] = set()
    for group in CITATION.findall(sentence):
        for item in group.split(", "):
            first, _, last = item.partition("–")
            rules.update(f"{first[0]}{n}" for n in range(int(first[1]), int((last or first)[1]) + 1))
    return rules


def unordered(sentence: str, trump: Trump) -> list[str]:
    """The card lists of ``sentence`` not in holding order."""
    place = trump.places.__getitem__
    return [" ".join(map(str, cards)) for cards in card_lists(sentence)
            if [place(c) for c in cards] != sorted(place(c) for c in cards)]


def test_the_readers_find_every_list_and_citation() -> None:
    said = ("you hold the pairs ♥7 ♥7, ♥5 ♥5 and ♥3 ♥3; you played ♣3 ♣10 ♣4 (3 cards), "
            "which cannot win (W2, R1); it ruffs (R1–R3)")
    assert card_lists(said) == [parse_cards("♥7 ♥7"), parse_cards("♥5 ♥5"), parse_cards("♥3 ♥3"),
                                parse_cards("♣3 ♣10 ♣4"), parse_cards("♥7 ♥7 ♥5 ♥5 ♥3 ♥3")]
    assert unordered(said, Trump("♠")) == ["♣3 ♣10 ♣4"] and unordered("♥2 BJ ♦K ♦7", Trump("♦")) == ["♥2 BJ ♦K ♦7"]
    assert unordered("BJ ♥2 ♦K ♦7", Trump("♦")) == []
    assert cited(said) == {"W2", "R1", "R2", "R3"} and cited("you hold only 2 ♠ cards (♠K ♠4)") == set()


# --------------------------------------------------------------------------- random positions


def _draw(rng: random.Random, left: Counter[Card], pool: Sequence[Card], size: int, trump: Trump) -> list[Card]:
    """Up to ``size`` cards of ``pool`` still ``left``, rich in pairs and runs (neighbours
    in order, drawn with their twins half the time)."""
    pool = sorted(set(pool), key=lambda c: (trump.order(c), c.index))
    if not pool:
        return []
    start = rng.randrange(len(pool))
    window = pool[start:start + 8] or pool
    out: list[Card] = []
    while len(out) < size and any(left[c] for c in pool):
        card = rng.choice(window if rng.random() < 0.7 else pool)
        if not left[card]:
            continue
        twice = rng.random() < 0.5 and left[card] == 2 and len(out) + 2 <= size
        out += [card] * (2 if twice else 1)
        left[card] -= 2 if twice else 1
    return out


def _shuffled(rng: random.Random, cards: Sequence[Card]) -> tuple[Card, ...]:
    cards = list(cards)
    rng.shuffle(cards)
    return tuple(cards)


def follow_positions(count: int) -> Iterator[tuple[Trump, tuple[Card, ...], tuple[Card, ...], list[tuple[Card, ...]],
                                                  tuple[Card, ...] | None]]:
    """Random follow positions: a trump, a hand, a lead, plays of the hand (random ones,
    legal ones, all-trump ones) and, for a hand void in a side suit led, sometimes a
    ruff already on the table. Every card list is given out of order."""
    for seed in range(count):
        rng = random.Random(seed)
        trump = Trump(TRUMPS[seed % 5])
        left = Counter(PACK)
        lane = rng.choice(sorted({trump.lane(c) for c in PACK}))
        of_lane = [c for c in PACK if trump.lane(c) == lane]
        lead = _draw(rng, left, of_lane, rng.randint(1, 6), trump)
        size = rng.randint(max(4, len(lead)), 14)
        void = lane != TRUMP and rng.random() < 0.35
        hand = [] if void else _draw(rng, left, of_lane, rng.randint(0, min(size, 10)), trump)
        if void:
            hand += _draw(rng, left, [c for c in PACK if trump.is_trump(c)], rng.randint(len(lead), size), trump)
        hand += _draw(rng, left, [c for c in PACK if trump.lane(c) != lane], size - len(hand), trump)
        if len(hand) < len(lead):
            continue
        n = len(lead)
        beat = None
        if void and rng.random() < 0.5:
            other = _draw(rng, left, [c for c in PACK if trump.is_trump(c)], n, trump)
            beat = _shuffled(rng, other) if len(other) == n else None
        plays = [_shuffled(rng, rng.sample(hand, n)) for _ in range(3)]
        plays.append(_shuffled(rng, legal_follows(hand, lead, trump).random(rng)))
        trumps = [c for c in hand if trump.is_trump(c)]
        if len(trumps) >= n:
            plays.append(_shuffled(rng, rng.sample(trumps, n)))
        plays.append(_shuffled(rng, rng.sample(hand, rng.choice([k for k in (n - 1, n + 1) if 0 < k <= len(hand)]))))
        stranger = rng.choice([c for c in left if left[c]])  # a card the hand does not hold (W0)
        plays.append(_shuffled(rng, [stranger, *rng.sample(hand, n - 1)]))
        yield trump, _shuffled(rng, hand), _shuffled(rng, lead), plays, beat


def holds_a_pair(hand: Sequence[Card], lead: Sequence[Card], trump: Trump) -> bool:
    """Whether ``hand`` holds two copies of a card of the led effective suit."""
    led = trump.lane(lead[0])
    return any(k > 1 for k in Counter(c for c in hand if trump.lane(c) == led).values())


def check_verdict(verdict: Verdict, trump: Trump, hand: Sequence[Card], lead: Sequence[Card]) -> None:
    """Every property this file is about, for one verdict on a play."""
    reason, sentence = EN(verdict.reason), EN(verdict.sentence)
    assert not unordered(sentence, trump), (unordered(sentence, trump), sentence)
    assert verdict.rule is not None, sentence
    rules = cited(reason)
    assert not rules or verdict.rule in rules, (verdict.rule, sentence)
    assert RULE_ID.findall(sentence).count(verdict.rule) == 1, sentence
    if {"W3", "W4", "W5"} & (rules | {verdict.rule}):
        assert holds_a_pair(hand, lead, trump), sentence


def test_follow_and_ruff_reasons_list_cards_in_holding_order_and_cite_their_rule() -> None:
    seen: Counter[tuple[str, bool, str | None]] = Counter()
    for trump, hand, lead, plays, beat in follow_positions(900):
        for play in plays:
            follow = check_follow(hand, lead, play, trump)
            check_verdict(follow, trump, hand, lead)
            seen["follow", follow.legal, follow.rule] += 1
            for on_table in {None, beat}:
                ruff = check_ruff(hand, lead, play, trump, beat=on_table)
                check_verdict(ruff, trump, hand, lead)
                assert ruff.legal is follow.legal and (not ruff.legal or ruff.rule == follow.rule or ruff.headline
                                                       or ruff.ruff)
                seen["ruff", ruff.ruff, ruff.rule] += 1
    for key in [("follow", legal, rule) for legal in (True, False) for rule in ("W2", "W3", "W4", "W5")] + [
            ("follow", True, "R1"), ("follow", False, "W1"), ("follow", False, "W0"), ("ruff", True, "R2"),
            ("ruff", True, "R4"), ("ruff", True, "R5"), ("ruff", False, "R1"), ("ruff", False, "R3"),
            ("ruff", False, "R5")]:
        assert seen[key], (key, seen)  # every kind of verdict was tried


def test_throw_reasons_list_cards_in_holding_order() -> None:
    failed = 0
    for seed in range(1200):
        rng = random.Random(seed)
        trump = Trump(TRUMPS[seed % 5])
        left = Counter(PACK)
        lane = rng.choice(sorted({trump.lane(c) for c in PACK}))
        throw = _draw(rng, left, [c for c in PACK if trump.lane(c) == lane], rng.randint(2, 7), trump)
        rest = list(left.elements())
        rng.shuffle(rest)
        hands = [_shuffled(rng, rest[16 * i:16 * (i + 1)]) for i in range(4)]
        result = check_throw(_shuffled(rng, throw), hands, trump)
        said = EN(result.reason)
        assert not unordered(said, trump), said
        failed += not result.ok
    assert failed > 100


def test_trick_reasons_list_cards_in_holding_order() -> None:
    for seed in range(600):
        rng = random.Random(seed)
        trump = Trump(TRUMPS[seed % 5])
        pack = list(PACK)
        rng.shuffle(pack)
        hands = [pack[20 * i:20 * (i + 1)] for i in range(5)]
        leader = hands[0]
        lane = trump.lane(rng.choice(leader))
        suited = [c for c in leader if trump.lane(c) == lane]
        runs = pair_runs(suited, trump)
        if runs and rng.random() < 0.6:
            run = rng.choice(runs)
            lead = [c for c in run for _ in range(2)]
        else:
            lead = rng.sample(suited, min(len(suited), rng.choice((1, 1, 2, 3))))
            if len(lead) > 1 and len(set(lead)) == len(lead) and rng.random() < 0.5:
                lead = lead[:1]
        plays = [_shuffled(rng, lead)]
        for hand in hands[1:]:
            plays.append(_shuffled(rng, legal_follows(hand, lead, trump).random(rng)))
        outcome = explain_trick(plays, trump)
        for said in (EN(outcome.reason), EN(outcome.cause)):
            assert not unordered(said, trump), said
        for index in range(len(plays)):
            if index != outcome.winner:
                said = EN(why_not(plays, index, trump))
                assert not unordered(said, trump), said


def test_a_mixed_lead_is_named_in_holding_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        trump = Trump(rng.choice(TRUMPS))
        cards = rng.sample(PACK, rng.randint(2, 6))
        problem = lead_problem(cards, trump)
        if problem is not None:
            assert not unordered(EN(problem), trump), problem


# --------------------------------------------------------------------------- the cases the issue reported


@pytest.mark.parametrize("hand, lead, play, trump, rule, said", [
    pytest.param("♥7 ♥4 ♥3 ♠4", "♥9 ♥9", "♥3 ♥7", "♠", "W2", "Legal: ♥7 ♥3 follows a pair in ♥ (W2).",
                 id="W2-pair-led-no-pair-held"),
    pytest.param("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥7", "♠", "W3", "Legal: ♥7 ♥7 follows a pair in ♥ (W3).",
                 id="W3-pair-led-pair-held"),
    pytest.param("♠7 ♠8 ♥3 ♥4", "♠K ♠A ♠A", "♠7 ♥3 ♠8", "♥", "W2",
                 "Legal: you play all your ♠ (♠8 ♠7) and make up the rest with ♥3, which cannot win the trick "
                 "(W2, R1).", id="W2-short-follow-of-a-throw-not-W5"),
    pytest.param("♠K ♠Q ♠5 ♠3 ♣4", "♠A ♠A ♠K", "♠3 ♠Q ♠K", "♥", "W2",
                 "Legal: ♠K ♠Q ♠3 follows a throw in ♠ (W2).", id="W2-throw-followed-without-pairs-not-W5"),
    pytest.param("♣3 ♣10 ♣4 ♣8 ♣Q ♣9 ♠3", "♣A ♣A ♣K ♣K ♣7 ♣6", "♣3 ♣10 ♣4 ♣8 ♣Q ♠3", "♥", "W2",
                 "Illegal (W2): ♣ was led and you still hold 6 ♣ cards (♣Q ♣10 ♣9 ♣8 ♣4 ♣3), so every card "
                 "you play must be a ♣ card, not ♠3. A legal play: ♣Q ♣10 ♣9 ♣8 ♣4 ♣3.", id="W2-cards-in-order"),
    pytest.param("♥5 ♥5 ♥9 ♥9 ♥4 ♥4 ♥3", "♥A ♥A", "♥3 ♥9", "♠", "W3",
                 "Illegal (W3): you hold the pairs ♥9 ♥9, ♥5 ♥5 and ♥4 ♥4; when a pair is led you must follow "
                 "with a pair. A legal play: ♥5 ♥5.", id="W3-pairs-in-order"),
])
def test_follow_verdicts_cite_the_rule_they_rest_on(hand: str, lead: str, play: str, trump: str, rule: str,
                                                    said: str) -> None:
    verdict = check_follow(hand, lead, play, trump)
    assert (verdict.rule, EN(verdict.sentence)) == (rule, said)
    assert verdict.reason_cited == verdict.reason or not cited(verdict.reason)


@pytest.mark.parametrize("hand, lead, play, trump, beat, rule, said", [
    pytest.param("♥9 ♣3 ♣4", "♠5 ♠6", "♣3 ♥9", "♥", None, "R1",
                 "Not a ruff: a ruff is all trumps, and ♣3 is not a trump: this play is a discard and cannot win "
                 "(R1, W6).", id="R1-discard-not-W6-badge"),
    pytest.param("♥9 ♥8 ♣4", "♠5 ♠5", "♥8 ♥9", "♥", None, "R3",
                 "Not a ruff: the lead ♠5 ♠5 has 1 pair; your trumps ♥9 ♥8 do not hold it as separate "
                 "combinations, so this play is a discard (R3, W6).", id="R3-discard-not-W6-badge"),
    pytest.param("♥7 ♥7 ♥2 ♣4", "♠5 ♠5 ♠6", "♥7 ♥2 ♥7", "♥", None, "R4",
                 "Legal: you have no ♠ and ruff with ♥2 ♥7 ♥7, ranked by ♥7 (R4).", id="R4-winning-ruff"),
    pytest.param("BJ ♦7 ♣4", "♠5 ♠6", "♦7 BJ", "♦", "♦5 ♦8", "R5",
                 "Legal: you over-ruff: your trumps rank by BJ, above ♦8 (R5).", id="R5-over-ruff"),
])
def test_ruff_verdicts_cite_the_rule_they_rest_on(hand: str, lead: str, play: str, trump: str, beat: str | None,
                                                  rule: str, said: str) -> None:
    verdict = check_ruff(hand, lead, play, trump, beat=beat)
    assert (verdict.rule, EN(verdict.sentence)) == (rule, said)
    assert verdict.reason_cited == verdict.reason


def test_a_declaration_names_the_rule_its_reason_cites() -> None:
    declared, overturned = check_declaration("♠2", None), check_declaration("♥2 ♥2", "♠2")
    assert (declared.rule, overturned.rule) == ("D1", "D3")
    assert EN(declared.sentence) == "Legal: ♠2 declares ♠ trumps (D1)."
