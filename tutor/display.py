"""Cards as HTML, so rules values show themselves in a notebook.

>>> from tutor.notation import parse_cards
>>> "♠" in cards_html(parse_cards("♠A"))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from tutor.cards import BIG_JOKER, Card

_COLOURS = {"♠": "#1a1a1a", "♥": "#c8102e", "♣": "#1a1a1a", "♦": "#c8102e"}


def card_html(card: Card) -> str:
    """One card as an inline HTML chip with its suit colour; jokers as 大王 / 小王."""
    if card.suit is None:
        label, colour = ("大王", "#c8102e") if card.rank == BIG_JOKER else ("小王", "#1a1a1a")
    else:
        label, colour = str(card), _COLOURS[card.suit.value]
    return (f'<span class="qd-card" title="{escape(str(card))}" style="display:inline-block;min-width:2.2em;'
            f'padding:.25em .35em;margin:.1em;border:1px solid #888;border-radius:.3em;background:#fff;'
            f'color:{colour};font:600 1.1em system-ui,sans-serif;text-align:center">{escape(label)}</span>')


def cards_html(cards: Iterable[Card]) -> str:
    """Cards side by side."""
    return '<span class="qd-cards">' + "".join(card_html(c) for c in cards) + "</span>"
