"""Display-only views: a held hand and a trick table. They show themselves in a
notebook (``_repr_html_``) without a kernel round trip; who wins a trick is asked of
:func:`tutor.explain_trick`."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tutor.cards import Cards
from tutor.display import hand_html, trick_html
from tutor.errors import TutorError
from tutor.i18n import said
from tutor.notation import CardsLike, parse_cards
from tutor.order import Trump, as_trump
from tutor.trick import TrickOutcome, explain_trick
from widgets._common import translator


class Hand:
    """A hand held the way players hold it: trumps apart, then each side suit, high to low.

    >>> hand = Hand("♠3 ♥4 ♠A ♣2 BJ", trump="♥")
    >>> str(hand.cards)
    'BJ ♣2 ♥4 ♠A ♠3'
    """

    def __init__(self, cards: CardsLike, trump: Trump | str | None = None, *, lang: str | None = None,
                 four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.cards: Cards = self.trump.sorted(parse_cards(cards))
        self.four_colour = four_colour
        self._tr = translator(lang)

    def _repr_html_(self) -> str:
        return hand_html(self.cards, self.trump, four_colour=self.four_colour, tr=self._tr)


class TrickTable:
    """The five seats of a trick: the lead, each play and — asked of the rules — the
    winner and why (B1). ``plays`` are ``(seat, cards)`` in playing order.

    >>> table = TrickTable([(3, "♠A"), (4, "♠3"), (0, "♥4")], trump="♥")
    >>> table.outcome.winner, table.outcome.reason
    (2, '♥4 wins: it ruffs: all trumps on a side-suit lead (R1–R4)')
    """

    def __init__(self, plays: Sequence[tuple[int, CardsLike]], trump: Trump | str | None = None, *,
                 show_winner: bool = True, lang: str | None = None, four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.plays = [(seat, parse_cards(cards)) for seat, cards in plays]
        self.show_winner = show_winner
        self.four_colour = four_colour
        self._tr = translator(lang)
        self.outcome: TrickOutcome | None = None
        self.problem: str | None = None
        if self.plays and show_winner:
            try:
                self.outcome = explain_trick([cards for _, cards in self.plays], self.trump)
            except TutorError as error:
                self.problem = said(error)

    def _repr_html_(self) -> str:
        winner = self.outcome.winner if self.outcome else None
        page = trick_html(self.plays, trump=self.trump, winner=winner, four_colour=self.four_colour, tr=self._tr)
        if self.outcome:
            page += f'<p class="qd-trick-reason">{escape(self._tr(self.outcome.reason))}</p>'
        elif self.problem:
            page += f'<p class="qd-trick-reason">{escape(self._tr(self.problem))}</p>'
        return page
