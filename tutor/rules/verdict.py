"""Verdicts: every answer of the rules module as data.

>>> v = Verdict(False, "W1", "the lead has 2 cards, so you must play 2; you played 1")
>>> bool(v), v.rule, str(v)
(False, 'W1', 'Illegal (W1): the lead has 2 cards, so you must play 2; you played 1.')

The reason is a :class:`~tutor.core.i18n.Text` wherever the rules module makes one, so
:meth:`Verdict.say` gives the whole sentence in the learner's language:

>>> from tutor.rules.follow import check_follow
>>> from tutor.core.i18n import Translator
>>> check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠").say(Translator("en"))
'Illegal (W3): you hold the pair ♥7 ♥7; when a pair is led you must follow with a pair. A legal play: ♥7 ♥7.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Self

from tutor.rules.cards import Card
from tutor.rules.reasoned import Reasoned
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, Translator, current


_CITATION: Final = re.compile(r"\(([A-Z]\d(?:[–-][A-Z]\d)?(?:, [A-Z]\d(?:[–-][A-Z]\d)?)*)\)")
_RANGE: Final = re.compile(r"([A-Z])(\d)[–-]([A-Z])(\d)")


def cited_rules(reason: str) -> tuple[str, ...]:
    """The rule IDs an English reason cites, in its order: every ID of each citation in
    brackets (``(W2, R1)``), a range of one letter counting each rule in it (``(R1–R4)``).

    >>> cited_rules("you play all your ♦ (♦8 ♦6), which cannot win the trick (W2, R1)")
    ('W2', 'R1')
    >>> cited_rules("it ruffs: all trumps on a side-suit lead (R1–R3)"), cited_rules("♠7 follows a single")
    (('R1', 'R2', 'R3'), ())
    """
    cited: list[str] = []
    for group in _CITATION.findall(reason):
        for item in group.split(", "):
            span = _RANGE.fullmatch(item)
            if span and span[1] == span[3] and span[2] < span[4]:
                cited.extend(f"{span[1]}{n}" for n in range(int(span[2]), int(span[4]) + 1))
            else:
                cited.append(item)
    return tuple(dict.fromkeys(cited))


class Verdict(Reasoned):
    """Legal or not, the rule the verdict rests on, a reason naming the learner's own
    cards, and for an illegal play an example of a legal one.

    ``rule`` is the rule broken by an illegal play; for a legal one, the rule its reason
    cites (a follow of a pair from a hand holding a pair: W3; from one holding none: W2),
    ``None`` when nothing rests on a rule. When the reason cites rules, ``rule`` is one
    of them, so a badge showing ``rule`` agrees with the sentence beside it.

    ``headline`` says the verdict when "Legal"/"Illegal" would mislead (a legal follow
    that is not a ruff: "Not a ruff").

    Immutable, compared and hashed by its five fields like a frozen dataclass. The
    rules module may give the reason as a function that makes it (:meth:`lazy`): it is
    made the first time someone reads it, so checking many plays for legality alone
    costs no sentences.
    """

    __slots__ = ("legal", "rule", "example", "headline")
    __match_args__ = ("legal", "rule", "reason", "example", "headline")

    legal: bool
    rule: str | None
    example: tuple[Card, ...] | None
    headline: str | None

    def __init__(self, legal: bool, rule: str | None, reason: str, example: tuple[Card, ...] | None = None,
                 headline: str | None = None) -> None:
        _set = object.__setattr__
        _set(self, "legal", legal)
        _set(self, "rule", rule)
        _set(self, "example", example)
        _set(self, "headline", headline)
        self._reasoned(reason)

    @classmethod
    def lazy(cls, legal: bool, rule: str | None, make: Callable[[], str], example: tuple[Card, ...] | None = None,
             headline: str | None = None) -> Self:
        """A verdict whose reason ``make()`` makes when it is first read."""
        verdict = cls(legal, rule, "", example, headline)
        verdict._reasoned(None, make)
        return verdict

    def _fields(self) -> tuple[object, ...]:
        return (self.legal, self.rule, self.reason, self.example, self.headline)

    def __repr__(self) -> str:
        return (f"Verdict(legal={self.legal!r}, rule={self.rule!r}, reason={self.reason!r}, "
                f"example={self.example!r}, headline={self.headline!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Verdict, (self.legal, self.rule, self.reason, self.example, self.headline))

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        return str.__str__(self.sentence)

    @property
    def sentence(self) -> Text:
        """The whole verdict as a :class:`~tutor.core.i18n.Text`:
        ``'Illegal (W3): <reason>. A legal play: ♥7 ♥7.'``; the rule is named once, by the
        reason when it cites it (``'Legal: ♠7 follows a single in ♠ (W2).'``)."""
        reason, rule, headline = self.reason, self.rule, self.headline
        if rule is not None and rule in cited_rules(reason):
            rule = None
        if headline:
            said = (Text("{headline} ({rule}): {reason}.", headline=headline, rule=rule, reason=reason) if rule
                    else Text("{headline}: {reason}.", headline=headline, reason=reason))
        elif self.legal:
            said = (Text("Legal ({rule}): {reason}.", rule=rule, reason=reason) if rule
                    else Text("Legal: {reason}.", reason=reason))
        else:
            said = (Text("Illegal ({rule}): {reason}.", rule=rule, reason=reason) if rule
                    else Text("Illegal: {reason}.", reason=reason))
        if self.example:
            said = Text("{verdict} A legal play: {cards}.", verdict=said, cards=self.example)
        return said

    @property
    def reason_cited(self) -> str:
        """The reason naming its rule once: ``'<reason> (R1)'`` as a
        :class:`~tutor.core.i18n.Text` (said whole in any language), or the reason alone when
        it names its rule already or there is none.

        >>> illegal("W1", "you played 1 card").reason_cited
        'you played 1 card (W1)'
        >>> illegal("W3", "a pair must follow a pair (W3)").reason_cited
        'a pair must follow a pair (W3)'
        """
        reason, rule = self.reason, self.rule
        if rule is None or rule in cited_rules(reason):
            return reason
        return Text("{reason} ({rule})", reason=reason, rule=rule)

    def say(self, tr: Translator | None = None) -> str:
        """The whole verdict in ``tr``'s language (the kernel's language by default),
        the same sentence as ``str(verdict)`` in English.

        >>> from tutor.core.i18n import Translator
        >>> illegal("W1", "you played 1 card").say(Translator("en"))
        'Illegal (W1): you played 1 card.'
        """
        if tr is not None and not isinstance(tr, Translator):
            raise TutorError(Text("tr must be a Translator, not {value}", value=shown(tr)))
        return (tr or current())(self.sentence)


class RuffVerdict(Verdict):
    """The answer of :func:`~tutor.rules.ruff.check_ruff`: a :class:`Verdict` on the play as a
    follow, and ``ruff``, whether it is a ruff that can win the trick (R1–R4), ranking
    above the ruff already on the table when there is one (R5).

    ``legal`` keeps its meaning: true for every play the hand may make (W0–W5). A
    legal play that is not a winning ruff names the rule that makes it so (R1, R3, R5)
    in ``rule`` and says so in ``headline`` ("Not a ruff", "Does not beat the ruff"); a
    winning ruff names the rule that ranks it (R2, R4; R5 for an over-ruff).

    >>> v = RuffVerdict(True, "R1", "trumps were led", headline="Not a ruff", ruff=False)
    >>> v.legal, v.ruff, str(v)
    (True, False, 'Not a ruff (R1): trumps were led.')
    """

    __slots__ = ("ruff",)
    __match_args__ = ("legal", "rule", "reason", "example", "headline", "ruff")

    ruff: bool

    def __init__(self, legal: bool, rule: str | None, reason: str, example: tuple[Card, ...] | None = None,
                 headline: str | None = None, *, ruff: bool = False) -> None:
        super().__init__(legal, rule, reason, example, headline)
        object.__setattr__(self, "ruff", ruff)

    @classmethod
    def lazy_ruff(cls, ruff: bool, legal: bool, rule: str | None, make: Callable[[], str],
                  headline: str | None = None) -> RuffVerdict:
        """A ruff verdict whose reason ``make()`` makes when it is first read."""
        verdict = cls.lazy(legal, rule, make, headline=headline)
        object.__setattr__(verdict, "ruff", ruff)
        return verdict

    @classmethod
    def of(cls, verdict: Verdict) -> RuffVerdict:
        """An illegal follow's verdict, as a ruff verdict (not a ruff)."""
        return cls(verdict.legal, verdict.rule, verdict.reason, verdict.example, verdict.headline, ruff=False)

    @property
    def reason_cited(self) -> str:
        """As :attr:`Verdict.reason_cited`; a winning ruff's reason alone, which names the
        rules it meets.

        >>> from tutor.rules.ruff import check_ruff
        >>> check_ruff("♥Q ♥K ♣4", "♥A", "♥K", "♥").reason_cited.endswith("(R1)")
        True
        >>> check_ruff("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", "♥").reason_cited.count("(R1)")
        1
        """
        return self.reason if self.ruff else super().reason_cited

    def _fields(self) -> tuple[object, ...]:
        return (*super()._fields(), self.ruff)

    def __repr__(self) -> str:
        return (f"RuffVerdict(legal={self.legal!r}, rule={self.rule!r}, reason={self.reason!r}, "
                f"example={self.example!r}, headline={self.headline!r}, ruff={self.ruff!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ruff_verdict, (self.legal, self.rule, self.reason, self.example, self.headline, self.ruff))


def _ruff_verdict(legal: bool, rule: str | None, reason: str, example: tuple[Card, ...] | None,
                  headline: str | None, ruff: bool) -> RuffVerdict:
    """Unpickles a :class:`RuffVerdict` (its ``ruff`` is keyword-only)."""
    return RuffVerdict(legal, rule, reason, example, headline, ruff=ruff)


def legal(reason: str, rule: str | None = None) -> Verdict:
    """A legal verdict, resting on ``rule`` (one its reason cites) when there is one."""
    return Verdict(True, rule, reason)


def illegal(rule: str, reason: str, example: tuple[Card, ...] | None = None) -> Verdict:
    """An illegal verdict citing ``rule``."""
    return Verdict(False, rule, reason, example)
