"""Friend drills (F1–F3, F6): "May you call this card?", "Pick a card you may call" and
"Who is revealed as the friend by this trick?".

The learner is the declarer of a real hand, dealt and buried by random legal
players (:func:`tutor.play.bots.random_action`), at the moment of calling: the screen
shows their 20 cards and the 8 they buried, which is all a call depends on. Every
answer is the game's own: :meth:`tutor.Game.verify` refuses a call with its rule
(F1: not held exactly once; F3: its twin is buried), :meth:`tutor.Game.nameable_cards`
lists the calls it accepts. A reveal is played on from the call by the same random
players to the first trick holding the called card, and the game says who it
revealed (F6: the declarer's own copy reveals nothing). Level 1 asks about cards held once, twice or not at all;
level 2 adds cards whose twin was buried (F3) and trumps; level 3 asks mostly about
the near misses: a buried twin, a card held twice. From level 2, half the reveals are
tricks where the declarer plays their own copy.

>>> import random
>>> from tutor.core.i18n import Translator
>>> drill = make(1, 2, random.Random(5), Translator("en"))
>>> drill.kind, drill.answer.value, len(drill.hand), len(drill.shown)
('friend', 'cards', 20, 8)
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

from tutor.play.bots import random_action
from tutor.rules.cards import PACK, PLAYERS, Card
from tutor.teach.drills.base import MAX_SHOWN, AnswerKind, Choice, Drill, Table
from tutor.teach.drills.common import SEEDS, Hand, redraw, sentence, yes_no, yes_no_key
from tutor.core.errors import IllegalActionError
from tutor.rules.friend import call_refusal
from tutor.rules.game import Call, FriendRevealed, Game, Phase, TrickWon
from tutor.core.i18n import Text, Translator

FORMS = ("may-call", "pick-call", "reveal")
_CATEGORIES = {1: ("once", "twice", "none"), 2: ("once", "buried", "twice", "trump"), 3: ("buried", "twice", "once")}


def _calling(rng: random.Random) -> Game:
    """A real hand at the declarer's call: dealt, declared and buried by random legal players."""
    game = Game(rng.randrange(SEEDS.stop))
    while game.phase in (Phase.DEALING, Phase.BURYING):
        game.apply(random_action(game, rng))
    return game


def _verdict(game: Game, seat: int, card: Card, tr: Translator) -> tuple[bool, str, str]:
    """Whether ``seat`` may call ``card`` now, the rule that decides it and why, as the game says."""
    try:
        game.verify(Call(seat, card))
    except IllegalActionError as refusal:
        return False, refusal.rule, sentence(refusal.reason, tr)
    if card in game.kitty:  # the table allows it (Ruleset.allow_buried_friend)
        return True, "F3", tr("You hold exactly one {card}, and this table lets you call it though its twin is "
                              "buried: nobody will be your friend (F1, F3).", card=card)
    return True, "F1", tr("You hold exactly one {card} and its twin is not buried: whoever holds it is your friend "
                          "(F1, F2).", card=card)


def _refused_by(game: Game, seat: int, rule: str) -> list[Card]:
    """The cards ``seat`` holds that a call refuses under ``rule`` (F1, F3: :func:`tutor.rules.friend.call_refusal`)."""
    hand = game.hand(seat)
    refusals = {card: call_refusal(hand, game.kitty, card, game.rules) for card in hand}
    return [card for card, refusal in refusals.items() if refusal is not None and refusal.rule == rule]


def _candidate(rng: random.Random, game: Game, seat: int, level: int) -> Card | None:
    """A card to ask about, of a category the level practises (None: this hand has none of it)."""
    held = Counter(game.hand(seat))
    trump = game.trump
    assert trump is not None
    pools = {
        "once": game.nameable_cards(),
        "twice": [c for c, k in held.items() if k == 2],
        "none": [c for c in PACK if not held[c]],
        "buried": _refused_by(game, seat, "F3"),
        "trump": [c for c in held if trump.is_trump(c)],
    }
    pool = pools[rng.choice(_CATEGORIES[level])]
    return rng.choice(sorted(set(pool))) if pool else None


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    if form == "reveal":
        return _reveal(seed, level, rng, tr)

    def build(rng: random.Random) -> tuple[Game, Card | None] | None:
        game = _calling(rng)
        if game.phase is not Phase.CALLING:
            return None  # every card paired: an automatic solo (F4), nothing to call
        assert game.declarer is not None
        if form == "pick-call":
            traps = _refused_by(game, game.declarer, "F3")
            if len(game.nameable_cards()) == len(set(game.hand(game.declarer))) or (level > 1 and not traps):
                return None  # nothing to get wrong: every card may be called, or (level 2, 3) no twin is buried
            return game, None
        card = _candidate(rng, game, game.declarer, level)
        return (game, card) if card is not None else None

    game, card = redraw(rng, build, Text("a declarer about to call a friend"))
    seat = game.declarer
    trump = game.trump
    assert seat is not None and trump is not None
    hand: Hand = trump.sorted(game.hand(seat))
    rule_hint = tr("F1: call a card of which you hold exactly one copy; F3: not one whose twin you buried.")
    common = partial(Drill, kind="friend", level=level, seed=seed, lang=tr.language, trump=trump,
                     rules=("F1", "F2", "F3"), hand=hand, seat=seat, shown=trump.sorted(game.kitty))
    look = tr("Find the cards you hold only once, then look for their twins among the cards you buried.")
    if card is not None:
        ok, rule, why = _verdict(game, seat, card, tr)
        return common(
            question=tr("You are the declarer and have buried the 8 cards shown. May you call {card} to find your "
                        "friend?", card=card),
            answer=AnswerKind.CHOICE, choices=yes_no(tr), correct=yes_no_key(ok), rule=rule, explain=why,
            hints=(look, rule_hint, tr("The answer: {answer}.", answer=tr("Yes") if ok else tr("No"))))
    calls = game.nameable_cards()

    def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
        return _verdict(game, seat, cards[0], tr)

    return common(
        question=tr("You are the declarer and have buried the 8 cards shown. Pick a card you may call to find your "
                    "friend."),
        answer=AnswerKind.CARDS, pick=1, rule="F1", judge=judge,
        solve=lambda: (tuple(tr.cards((c,)) for c in calls[:MAX_SHOWN]), len(calls)),
        hints=(look, rule_hint, tr("For example: {card}.", card=calls[0])))


def _revealing(rng: random.Random, level: int) -> tuple[Game, TrickWon, int | None] | None:
    """A called hand played on to the first trick holding the called card, and the seat
    that trick revealed as the friend (None: nobody), as the game tells it."""
    game = _calling(rng)
    if game.declarer is None or not game.nameable_cards():
        return None  # an automatic solo (F4): nothing is called
    declarer = game.declarer
    game.apply(Call(declarer, rng.choice(game.nameable_cards())))
    card, revealed = game.friend_card, None
    own = level >= 2 and rng.random() < 0.5  # the declarer's own copy comes first (F6)
    while game.phase is Phase.PLAYING:
        event = game.apply(random_action(game, rng))
        revealed = next((r.seat for r in event.results if isinstance(r, FriendRevealed)), revealed)
        won = next((r for r in event.results if isinstance(r, TrickWon)), None)
        if won is not None and any(card in cards for _, cards in won.plays):
            by_declarer = any(card in cards for seat, cards in won.plays if seat == declarer)
            return (game, won, revealed) if by_declarer or not own else None
    return None


def _reveal(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    game, won, revealed = redraw(rng, lambda rng: _revealing(rng, level), Text("a trick holding the called card"))
    declarer, card, trump = game.declarer, game.friend_card, game.trump
    assert declarer is not None and card is not None and trump is not None
    if revealed is None:
        why = tr("Only the declarer played {card} in this trick: their own copy reveals nothing (F6).", card=card)
    else:
        why = tr("Seat {seat} played the other {card}, so seat {seat} is revealed as the friend (F6).",
                 seat=revealed, card=card)
    choices = tuple(Choice(str(s), tr("Seat {seat}", seat=s)) for s in range(PLAYERS) if s != declarer)
    choices += (Choice("nobody", tr("Nobody yet")),)
    answer = tr("Seat {seat}", seat=revealed) if revealed is not None else tr("Nobody yet")
    played = dict(won.plays)

    def refute(key: str) -> tuple[str, str]:
        if key == "nobody":
            return "F6", tr("Someone other than the declarer played {card} in this trick, and that reveals the "
                            "friend (F6).", card=card)
        seat = int(key)
        if card in played.get(seat, ()):
            return "F6", tr("Seat {seat} played {card}, but this trick does not reveal seat {seat} as the friend "
                            "(F6).", seat=seat, card=card)
        return "F6", tr("Seat {seat} did not play {card} in this trick, so it reveals nothing about seat {seat} "
                        "(F6).", seat=seat, card=card)

    return Drill(refute=refute,
        kind="friend", level=level, seed=seed, lang=tr.language, trump=trump, rules=("F2", "F6"),
        question=tr("Seat {declarer} is the declarer and called {card}. Nobody has played {card} before this "
                    "trick. Who does this trick reveal as the friend?", declarer=declarer, card=card),
        table=Table(won.plays), answer=AnswerKind.CHOICE, choices=choices, rule="F6", explain=why,
        correct=frozenset({"nobody" if revealed is None else str(revealed)}),
        hints=(tr("Find {card} in the trick: who played it?", card=card),
               tr("F6: the friend is revealed by playing the called card; the declarer's own copy reveals nothing."),
               tr("The answer: {answer}.", answer=answer)))
