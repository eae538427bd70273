"""Display-only views: a held hand, a trick table, and a row of cards and sentences.
They show themselves in a notebook (``_repr_html_``) without a kernel round trip;
who wins a trick is asked of :func:`tutor.explain_trick`.

The lessons show their examples with these: :func:`row` puts cards and sentences side
by side, :func:`trick_view` draws a trick with its winner and why; :func:`show` and
:func:`trick` display them at once. Each returns :class:`Html`, text that a notebook
draws and that is an ``ipywidgets.HTML`` value as it is. Sentences are said in the
kernel's language (the page's) unless a ``lang`` is given.

>>> from tutor.core.i18n import Text
>>> from tutor.rules.notation import parse_cards
>>> page = row(parse_cards("♠A ♠A"), Text("a pair"), lang="zh-Hans")
>>> "对子" in page, page.count('class="qd-card ')
(True, 2)
>>> view = trick_view(["♠A", "♠3", "♥4"], "♥", first_seat=3, points=True)
>>> '<tr class="qd-winner" data-seat="0">' in view, "it ruffs" in view
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import Any, Final, cast

import IPython.display

from tutor.rules.cards import PLAYERS, Card, Cards
from tutor.teach.display import CARD_CSS, cards_html, hand_html, trick_html
from tutor.core.errors import TutorError
from tutor.core.i18n import Text, Translator, said
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump, TrumpLike, as_trump
from tutor.rules.trick import TrickOutcome, explain_trick
from widgets._common import translator

Part = Iterable[Card] | str | BaseException
"""One item of a :func:`row`: cards (a :class:`~tutor.rules.cards.Cards` or any iterable of
cards), a sentence (a :class:`~tutor.core.i18n.Text` or a string, said in the row's
language), or an error (its reason is said)."""

_display: Final = cast(Callable[..., None], IPython.display.display)
"""IPython's ``display`` (untyped upstream): shows an object as a cell's output."""

_ROW: Final = '<div style="display:flex;flex-wrap:wrap;align-items:center;gap:.4em 1.4em;margin:.35em 0">'


class Html(str):
    """HTML that shows itself: a notebook draws it (``_repr_html_``), and it is text
    wherever HTML text is wanted (an ``ipywidgets.HTML`` value, a page).

    >>> page = Html("<b>♠A</b>")
    >>> page._repr_html_(), page + "!"
    ('<b>♠A</b>', '<b>♠A</b>!')
    """

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """What a notebook's plain-text output says (the HTML itself is for the page)."""
        printer.text(f"<HTML: {len(self)} characters>")


def row(*parts: Part, trump: TrumpLike = None, lang: str | None = None, four_colour: bool = False) -> Html:
    """Cards and sentences side by side, wrapping on a narrow page, with the cards'
    style sheet: the way a lesson shows an example (``row(hand, lead, verdict.say())``).
    Cards are drawn in the order given, the trumps of ``trump`` marked (None: none
    marked, not no-trump).

    >>> page = row(parse_cards("♥3"), "✓", trump="♥")
    >>> "3 of hearts, trump" in page, "<span style=\\"max-width:38em\\">✓</span>" in page
    (True, True)
    """
    return Html(_style() + _row(parts, _trump(trump), translator(lang), four_colour))


def show(*parts: Part, trump: TrumpLike = None, lang: str | None = None, four_colour: bool = False) -> None:
    """Display :func:`row` of ``parts`` now (in a notebook cell: its output)."""
    _display(row(*parts, trump=trump, lang=lang, four_colour=four_colour))


def trick_view(plays: Sequence[CardsLike], trump: TrumpLike, *, first_seat: int = 0, points: bool = False,
               lang: str | None = None, four_colour: bool = False) -> Html:
    """The trick whose ``plays`` are given in playing order, the lead first from
    ``first_seat``: a :class:`TrickTable` with its winner and why (B1), and with
    ``points`` the points it takes.

    >>> view = trick_view(["♠5", "♠K", "♠10"], "♥", points=True)
    >>> '<tr class="qd-winner" data-seat="1">' in view, "+25" in view
    (True, True)
    """
    seated = [((first_seat + i) % PLAYERS, cards) for i, cards in enumerate(plays)]
    table = TrickTable(seated, trump, points=points, lang=lang, four_colour=four_colour)
    return Html(table._repr_html_())


def trick(plays: Sequence[CardsLike], trump: TrumpLike, *, first_seat: int = 0, points: bool = False,
          lang: str | None = None, four_colour: bool = False) -> None:
    """Display :func:`trick_view` of ``plays`` now (in a notebook cell: its output)."""
    _display(trick_view(plays, trump, first_seat=first_seat, points=points, lang=lang, four_colour=four_colour))


class Hand:
    """A hand held the way players hold it: trumps apart, then each side suit, high to low.

    >>> hand = Hand("♠3 ♥4 ♠A ♣2 BJ", trump="♥")
    >>> str(hand.cards)
    'BJ ♣2 ♥4 ♠A ♠3'
    """

    def __init__(self, cards: CardsLike, trump: TrumpLike = None, *, lang: str | None = None,
                 four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.cards: Cards = self.trump.sorted(parse_cards(cards))
        self.four_colour = four_colour
        self._tr = translator(lang)

    def _repr_html_(self) -> str:
        return hand_html(self.cards, self.trump, four_colour=self.four_colour, tr=self._tr)


class TrickTable:
    """The five seats of a trick: the lead, each play and — asked of the rules — the
    winner and why (B1), and with ``points`` the points the trick takes. ``plays`` are
    ``(seat, cards)`` in playing order.

    >>> table = TrickTable([(3, "♠A"), (4, "♠3"), (0, "♥4")], trump="♥")
    >>> table.outcome.winner, table.outcome.reason
    (2, '♥4 wins: it ruffs: all trumps on a side-suit lead (R1–R4)')
    """

    def __init__(self, plays: Sequence[tuple[int, CardsLike]], trump: TrumpLike = None, *,
                 show_winner: bool = True, points: bool = False, lang: str | None = None,
                 four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.plays = [(seat, parse_cards(cards)) for seat, cards in plays]
        self.show_winner = show_winner
        self.points = points
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
        table = trick_html(self.plays, trump=self.trump, winner=winner, four_colour=self.four_colour, tr=self._tr,
                           style=False)
        parts: list[Part] = []
        if self.outcome:
            parts = [self.outcome.reason, *([Text("+{points} points", points=self.outcome.points)] if self.points else [])]
        elif self.problem:
            parts = [self.problem]
        said_row = _row(parts, self.trump, self._tr, self.four_colour) if parts else ""
        return table + _style() + said_row


def _style() -> str:
    return f"<style>{CARD_CSS}</style>"


def _row(parts: Iterable[Part], trump: Trump | None, tr: Translator, four_colour: bool) -> str:
    items = []
    for part in parts:
        if isinstance(part, BaseException):  # a refused input or action: its reason
            part = said(part)
        if isinstance(part, str):  # a sentence, said in the row's language
            items.append(f'<span style="max-width:38em">{escape(tr(part))}</span>')
        else:
            items.append(cards_html(part, trump=trump, four_colour=four_colour, tr=tr, style=False))
    return _ROW + "".join(items) + "</div>"


def _trump(trump: TrumpLike) -> Trump | None:
    return None if trump is None else as_trump(trump)


__all__ = ["Hand", "Html", "Part", "TrickTable", "row", "show", "trick", "trick_view"]
