"""Choose, then see the verdict: the "Try it" of a lesson.

A lesson ends its explanation with something to try: pick a play and see whether it may
follow, type cards and see how the rules read them, set a total and see the score.
:class:`Choose` is that widget, once for every lesson: a labelled control for each choice
and, below, what a *judge* says of the choices, drawn again whenever one changes. The
judge is any function of the choices (called with them by the names they are given) that
asks the rules and returns what to show (see :func:`answer_html`); the widget holds no
rule. A :class:`~tutor.core.errors.TutorError` the judge raises (cards that cannot be read,
a play refused) is shown as its reason, as the rules say it.

The controls are the core ipywidgets the course has always used (toggle buttons, a menu,
a text box, a number box, a tick box), so the widget works alike in JupyterLab, Voila and the
static site, and each is reached and used from the keyboard as those controls are: Tab to
it, then Space or Enter on a button, the arrow keys in a menu or the number box, Enter in
the text box. A ``label`` names a control on the page and to screen readers (ipywidgets'
``description``); the verdict is drawn in a status region. Options are offered by position,
so any value may be one (None, a card, a trump) and the page only ever sends a position.

Usage in a lesson cell::

    from tutor import check_follow, parse_cards
    from widgets import Buttons, Choose, row

    Choose(lambda play: row(parse_cards(play), check_follow(hand, lead, play, hearts), trump=hearts),
           play=Buttons(["♠K ♠K ♠Q ♠Q", "♠K ♠Q ♠J ♠5"], label=_("Your play")))

>>> from tutor import parse_cards, points
>>> box = Choose(lambda cards: (parse_cards(cards), f"{points(cards)} points"),
...              cards=Typed("♠A ♠10", label="Your cards"))
>>> "10 points" in box.verdict.value, box.controls["cards"].description
(True, 'Your cards')
>>> box.choose(cards="♠1")
>>> "♠1" in box.verdict.value and "10 points" not in box.verdict.value
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import ipywidgets as ipw

from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, Translator
from tutor.rules import Cards, Suit, Trump, Verdict
from tutor.rules.order import TrumpLike, as_trump
from widgets._common import translator
from widgets.views import Html, row


class _Nothing:
    """No option chosen (toggle buttons nobody has clicked yet)."""

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Final = _Nothing()
"""The value of :class:`Buttons` nobody has clicked yet: the verdict waits for a click."""

_LABELLED: Final = {"description_width": "initial"}
"""A control's label as wide as its words (ipywidgets cuts a long label short otherwise)."""


class _Options:
    """What :class:`Buttons` and :class:`Menu` share: the options, offered by position."""

    options: Sequence[Any]
    value: Any
    label: str

    def values(self) -> list[Any]:
        """The options' values, each once, in the order offered."""
        return [value for _, value in _distinct(self.options)]

    def labels(self, tr: Translator | None = None) -> list[tuple[str, int]]:
        """Each option's label (in ``tr``'s language) and position: what the page is sent."""
        return [(_said(label, tr), position) for position, (label, _) in enumerate(_distinct(self.options))]

    def position(self, value: Any) -> int:
        """Where ``value`` is among the options (refused when it is not one)."""
        values = self.values()
        if value not in values:
            raise TutorError(Text("{value} is not one of the options", value=shown(value)))
        return values.index(value)

    def read(self, control: Any) -> Any:
        """The value chosen on ``control`` (:data:`NOTHING` when none is)."""
        return NOTHING if control.value is None else self.values()[control.value]

    def write(self, control: Any, value: Any) -> None:
        """Choose ``value`` on ``control``, as a click would."""
        control.value = self.position(value)


@dataclass(frozen=True)
class Buttons(_Options):
    """One of a few short options, as a row of toggle buttons. ``options`` are values (each
    labelled with its text: ``"♠K ♠K"``, a card, a number) or ``(label, value)`` pairs (a
    :class:`~tutor.core.i18n.Text` label is said in the widget's language); an option given
    twice is offered once. Nothing is chosen at first unless ``value`` says which, and the
    verdict waits for a click.

    >>> Buttons(["♠K ♠K", ("×2", 2)], value=2).control()._options_labels
    ('♠K ♠K', '×2')
    """

    options: Sequence[Any]
    value: Any = NOTHING
    label: str = ""

    def control(self, tr: Translator | None = None) -> Any:
        """The ``ipywidgets.ToggleButtons`` of this choice (labels in ``tr``'s language)."""
        index = None if self.value is NOTHING else self.position(self.value)
        return ipw.ToggleButtons(options=self.labels(tr), index=index, **_label(self.label, tr))


@dataclass(frozen=True)
class Menu(_Options):
    """One of many options, as a drop-down menu (options as for :class:`Buttons`); the
    first is chosen unless ``value`` says which.

    >>> Menu.trumps("♠").control().label
    '♠ trumps'
    """

    options: Sequence[Any]
    value: Any = NOTHING
    label: str = ""

    @classmethod
    def trumps(cls, value: TrumpLike = "♥", *, label: str = "") -> Menu:
        """The five trumps (T2), each by its name (``♥ trumps``, ``no-trump``), ``value`` chosen."""
        trumps = [Trump(suit) for suit in (*Suit, None)]
        return cls([(str(trump), trump) for trump in trumps], as_trump(value), label)

    def control(self, tr: Translator | None = None) -> Any:
        """The ``ipywidgets.Dropdown`` of this choice (labels in ``tr``'s language)."""
        index = 0 if self.value is NOTHING else self.position(self.value)
        return ipw.Dropdown(options=self.labels(tr), index=index, **_label(self.label, tr))


class _Plain:
    """What :class:`Typed`, :class:`Number` and :class:`Tick` share: the control holds the value."""

    def read(self, control: Any) -> Any:
        """The value on ``control``."""
        return control.value

    def write(self, control: Any, value: Any) -> None:
        """Put ``value`` on ``control``, as the learner would."""
        control.value = value


@dataclass(frozen=True)
class Typed(_Plain):
    """Text the learner types (``value`` at first), judged when they press Enter or leave
    the box. ``width``: the box's, label included (a CSS length).

    >>> Typed("♠AAK55").control().continuous_update
    False
    """

    value: str = ""
    label: str = ""
    width: str = "30em"

    def control(self, tr: Translator | None = None) -> Any:
        """The ``ipywidgets.Text`` of this choice."""
        return ipw.Text(value=self.value, continuous_update=False, layout=ipw.Layout(width=self.width),
                        **_label(self.label, tr))


@dataclass(frozen=True)
class Number(_Plain):
    """A whole number from ``low`` to ``high`` in steps of ``step``, in a number box (``value``
    at first): typed, or stepped with the arrow keys or the box's arrows, and judged as it
    changes. A box, not ipywidgets' slider, whose handle no label names to a screen reader
    (WCAG 4.1.2; axe's ``aria-input-field-name``).

    >>> Number(75, -30, 300, 5).control().max
    300
    """

    value: int
    low: int
    high: int
    step: int = 1
    label: str = ""

    def control(self, tr: Translator | None = None) -> Any:
        """The ``ipywidgets.BoundedIntText`` of this choice."""
        return ipw.BoundedIntText(value=self.value, min=self.low, max=self.high, step=self.step,
                                  continuous_update=True, **_label(self.label, tr))


@dataclass(frozen=True)
class Tick(_Plain):
    """Yes or no, as a tick box named ``label`` (unticked unless ``value``).

    >>> Tick("独打").control().description
    '独打'
    """

    label: str
    value: bool = False

    def control(self, tr: Translator | None = None) -> Any:
        """The ``ipywidgets.Checkbox`` of this choice."""
        return ipw.Checkbox(value=self.value, **_label(self.label, tr))


Choice = Buttons | Menu | Typed | Number | Tick
"""One choice of a :class:`Choose`: what the learner chooses, and the control they choose it with."""


class Choose(ipw.VBox):  # type: ignore[misc]  # ipywidgets has no type hints
    """Choose, then see the verdict: a labelled control for each of ``choices`` (named as
    ``judge`` names its parameters) and, below them, ``judge(**choices)`` drawn by
    :func:`answer_html` — again whenever a choice changes. While a :class:`Buttons`
    choice has nothing chosen, nothing is drawn. ``lang``: the language of option labels
    made by the rules (:meth:`Menu.trumps`) and of the sentences drawn; by default the
    kernel's. (``lang`` is the widget's own keyword: no choice may be called so.)

    >>> from tutor import check_follow
    >>> box = Choose(lambda play: check_follow("♠K ♠K ♠5", "♠8 ♠8", play, "♥"),
    ...              play=Buttons(["♠K ♠K", "♠K ♠5"], label="Your play"))
    >>> box.verdict.value, box.value
    ('', {'play': NOTHING})
    >>> box.choose(play="♠K ♠5")
    >>> "Illegal (W3)" in box.verdict.value, box.value
    (True, {'play': '♠K ♠5'})
    """

    def __init__(self, judge: Callable[..., object], /, *, lang: str | None = None, **choices: Choice) -> None:
        for name, choice in choices.items():
            if not isinstance(choice, Buttons | Menu | Typed | Number | Tick):
                raise TutorError(Text("the choice {name} must be Buttons, Menu, Typed, Number or Tick, not {value}",
                                      name=name, value=shown(choice)))
        self._tr = translator(lang)
        self.judge = judge
        self.choices: dict[str, Choice] = dict(choices)
        """What the learner chooses, by name."""
        self.controls: dict[str, Any] = {name: choice.control(self._tr) for name, choice in choices.items()}
        """Each choice's control (an ipywidget), by name."""
        self.verdict = ipw.HTML()
        """Where the judge's answer is drawn."""
        self.verdict.add_class("qd-verdict")
        super().__init__([*self.controls.values(), self.verdict])
        self.add_class("qd-choose")
        for control in self.controls.values():
            control.observe(self._judge, names="value")
        self._judge()

    @property
    def value(self) -> dict[str, Any]:
        """Each choice's value now, by name (:data:`NOTHING` for buttons not yet clicked)."""
        return {name: choice.read(self.controls[name]) for name, choice in self.choices.items()}

    @property
    def chosen(self) -> bool:
        """Whether every choice has a value (toggle buttons wait for a click)."""
        return all(value is not NOTHING for value in self.value.values())

    def choose(self, **values: Any) -> None:
        """Choose these values, as the learner would (the verdict is drawn again)."""
        for name, value in values.items():
            if name not in self.choices:
                raise TutorError(Text("there is no choice {name}", name=shown(name)))
            self.choices[name].write(self.controls[name], value)

    def _judge(self, _change: object = None) -> None:
        values = self.value
        if any(value is NOTHING for value in values.values()):
            self.verdict.value = ""
            return
        try:
            answer = self.judge(**values)
        except TutorError as error:  # refused by the rules: its reason is the answer
            answer = error
        drawn = answer_html(answer, lang=self._tr.language)
        self.verdict.value = f'<div role="status">{drawn}</div>' if drawn else ""


def answer_html(answer: object, *, lang: str | None = None) -> Html:
    """What a judge's answer looks like: :class:`~widgets.views.Html` as it is; a sentence,
    a :class:`~tutor.rules.verdict.Verdict`, an error or cards in a :func:`~widgets.views.row`;
    a tuple or list of those side by side in one row; anything that draws itself
    (``_repr_html_``: a :class:`~widgets.views.Hand`, a :class:`~widgets.views.TrickTable`)
    as it draws itself; None as nothing.

    >>> from tutor import parse_cards
    >>> answer_html(None), answer_html(Html("<b>!</b>"))
    ('', '<b>!</b>')
    >>> answer_html((parse_cards("♠A ♠A"), "a pair")).count('class="qd-card ')
    2
    """
    if answer is None:
        return Html("")
    if isinstance(answer, Html):
        return answer
    if isinstance(answer, str | BaseException | Verdict | Cards):  # Cards first: cards are a tuple too
        return row(answer, lang=lang)
    if isinstance(answer, tuple | list):
        return row(*answer, lang=lang)
    draw = getattr(answer, "_repr_html_", None)
    if callable(draw):
        return Html(draw())
    return row(answer, lang=lang)  # type: ignore[arg-type]  # any other iterable of cards


def _label(label: str, tr: Translator | None) -> dict[str, Any]:
    """The keywords that name a control (none without a label)."""
    return {"description": _said(label, tr), "style": dict(_LABELLED)} if label else {}


def _said(label: object, tr: Translator | None) -> str:
    """An option's or a control's label: a :class:`~tutor.core.i18n.Text` in ``tr``'s
    language, other text as it is, anything else as its text (a card: ``♠A``)."""
    if isinstance(label, Text):
        return (tr or translator(None))(label)
    return label if isinstance(label, str) else str(label)


def _distinct(options: Sequence[Any]) -> list[tuple[object, Any]]:
    """``(label, value)`` for each option (a value is its own label unless given as a
    ``(label, value)`` pair with a text label), each value once: the first kept."""
    if isinstance(options, str | bytes) or not isinstance(options, Sequence):
        raise TutorError(Text("options must be a list, not {value}", value=shown(options)))
    pairs: list[tuple[object, Any]] = []
    for option in options:
        labelled = isinstance(option, tuple) and len(option) == 2 and isinstance(option[0], str)
        label, value = option if labelled else (option, option)
        if all(value != seen for _, seen in pairs):
            pairs.append((label, value))
    return pairs


__all__ = ["NOTHING", "Buttons", "Choice", "Choose", "Menu", "Number", "Tick", "Typed", "answer_html"]
