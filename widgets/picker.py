"""A card picker: a hand held the way players hold it, cards picked by click, tap or
keyboard (arrows move, Space toggles, Enter submits), announced to screen readers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import traitlets as t

from tutor.rules.cards import Cards
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump, as_trump
from tutor.teach.display import hand_payload
from widgets._common import CSS, ESM, PageWidget, labels, positions_ok, translator


class CardPicker(PageWidget):
    """Pick cards from a hand.

    ``selected`` holds positions in the held order; :attr:`value` the picked cards.
    :meth:`on_submit` registers a callback for Enter, called with the picked cards.
    The page sets ``selected`` and sends ``submit`` (``selected``: positions, of which
    those not in the hand are dropped; a list longer than the hand is ignored).

    >>> picker = CardPicker("♠AAK ♥3 BJ", trump="♥")
    >>> picker.selected = [0, 2]
    >>> str(picker.value)
    'BJ ♠A'
    """

    _esm = ESM
    _css = CSS
    _page_sets = frozenset({"selected"})
    _view = t.Unicode("picker").tag(sync=True)
    cards = t.List(t.Dict()).tag(sync=True)
    selected = t.List(t.Int()).tag(sync=True)
    pick = t.Int(None, allow_none=True).tag(sync=True)
    disabled = t.Bool(False).tag(sync=True)
    four_colour = t.Bool(False).tag(sync=True)
    labels = t.Dict().tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)

    def __init__(self, hand: CardsLike, trump: Trump | str | None = None, *, pick: int | None = None,
                 lang: str | None = None, four_colour: bool = False, **kwargs: Any) -> None:
        self._tr = translator(lang)
        self._trump = as_trump(trump)
        self._order, payload = hand_payload(parse_cards(hand), self._trump, self._tr)
        self._submit: list[Callable[[Cards], object]] = []
        super().__init__(cards=payload, pick=pick, four_colour=four_colour, labels=labels(self._tr),
                         lang=self._tr.language, **kwargs)
        self.on_msg(self._on_message)

    @property
    def hand(self) -> Cards:
        """The hand in held order."""
        return Cards(self._order)

    @property
    def value(self) -> Cards:
        """The picked cards, in held order."""
        return Cards(self._order[i] for i in sorted(self._valid(self.selected)))

    def _valid(self, positions: Iterable[object]) -> set[int]:
        return {i for i in positions if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(self._order)}

    def _page_value(self, name: str, value: object) -> bool:
        return name == "selected" and positions_ok(value, len(self._order))

    def on_submit(self, callback: Callable[[Cards], object]) -> None:
        """Call ``callback(cards)`` when the learner presses Enter."""
        self._submit.append(callback)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict) or content.get("type") != "submit":
            return
        raw = content.get("selected")
        if isinstance(raw, list) and len(raw) <= len(self._order):
            self.selected = sorted(self._valid(raw))
        for callback in self._submit:
            callback(self.value)
