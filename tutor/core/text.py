"""Messages for a learner: English templates that remember how they were made.

The bottom layer of the tutor: it imports nothing of the project, so every module —
the cards, the errors, the rules — can make a :class:`Text`. A message is an English
template with named ``{placeholders}``; it reads as English wherever a string is
expected, and it keeps its template and parameters, so a
:class:`~tutor.core.i18n.Translator` (one layer up) can say it in any language of the course.
A sentence whose English changes with a number has two templates
(:meth:`Text.plural`), and each language says it in as many forms as it has.

>>> Text("{card} is not in your hand", card="♠A")
'♠A is not in your hand'
>>> left = Text.plural("{count} card is still to be dealt", "{count} cards are still to be dealt", count=3)
>>> left, left.template, left.plural_template, left.params["count"]
('3 cards are still to be dealt', '{count} card is still to be dealt', '{count} cards are still to be dealt', 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from types import MappingProxyType
from typing import Any, Final


def N_(message: str) -> str:  # noqa: N802 — gettext's name for "mark for translation"
    """Mark a template for translation where it is defined but translated later
    (a table of labels): returns it unchanged, and ``./dev catalogs`` finds it.

    >>> N_("Streak: {count}")
    'Streak: {count}'
    """
    return message


def placeholders(template: str) -> frozenset[str]:
    """The named placeholders of a template.

    >>> sorted(placeholders("{cards}: {reason}."))
    ['cards', 'reason']
    """
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


class Notated:
    """Base of the values a message writes in card notation: every :class:`~tutor.rules.cards.Card`.

    A parameter that is one, or a tuple or list of them, is written as its notation
    (``♥7 ♥7``; no cards write nothing), and each language may name the jokers its own
    way (大王 for BJ in Chinese). It lives here, not with the cards, so that messages
    need nothing above them (the cards make messages of their own).
    """

    __slots__ = ()


MAX_PARAM: Final = 200
"""A plain-text parameter longer than this (a huge input quoted back) is cut to its start,
so no message runs to thousands of characters."""


class Text(str):
    """A message for a learner: English where a string is expected, translatable
    anywhere (its ``template`` and ``params`` are kept).

    Parameters may be plain values, other :class:`Text` (translated too), cards, or
    sequences of cards (written in the language's card names: 大王 for BJ in Chinese).

    >>> t = Text("{a} and {b}", a=Text("hearts"), b="♠")
    >>> t, t.template, t.params["a"].template, t.plural_template
    ('hearts and ♠', '{a} and {b}', 'hearts', None)
    """

    template: str
    """The English template, and the message's key in the catalogs (gettext's ``msgid``)."""
    params: Mapping[str, object]
    """The values of the placeholders (read-only)."""
    plural_template: str | None
    """The English template for any number but one (gettext's ``msgid_plural``), for a
    message made by :meth:`plural`; ``params["count"]`` chooses the form."""

    def __new__(cls, template: str, /, **params: object) -> Text:
        return cls._made(template, None, params)

    @classmethod
    def plural(cls, singular: str, plural: str, /, *, count: int, **params: object) -> Text:
        """A message whose English changes with ``count``: ``singular`` for one,
        ``plural`` for any other number (gettext's ``ngettext``). ``count`` is a parameter
        too (``{count}``); each language says the message in its own forms (Chinese has
        one for every number).

        >>> [Text.plural("a tractor", "{count} tractors", count=n) for n in (1, 2, 0)]
        ['a tractor', '2 tractors', '0 tractors']
        """
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"the count of a plural message is a whole number, not {count!r}")
        return cls._made(singular, plural, {"count": count, **params})

    @classmethod
    def _made(cls, template: str, plural: str | None, params: dict[str, object]) -> Text:
        if any(type(value) is str and len(value) > MAX_PARAM for value in params.values()):
            params = {key: _cut(value) for key, value in params.items()}
        chosen = template if plural is None or params["count"] == 1 else plural
        self = super().__new__(cls, english(chosen, params))
        self.__dict__.update(template=template, params=MappingProxyType(params), plural_template=plural)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Text cannot be changed")

    def __reduce__(self) -> tuple[Any, ...]:
        return _remade, (self.template, self.plural_template, dict(self.params))

    def capitalized(self) -> Text:
        """The same message starting a sentence (English capitalises; Chinese has no case).

        >>> Text("you played {n} cards", n=2).capitalized()
        'You played 2 cards'
        """
        return Capitalized(self)


class Capitalized(Text):
    """A message at the start of a sentence: the same message, its first letter upper-case
    in English (a translator capitalises it in languages with case).

    >>> Capitalized(Text("trumps")), Capitalized(Text("trumps")).template
    ('Trumps', 'trumps')
    """

    def __new__(cls, inner: Text) -> Capitalized:
        english_text = str.__str__(inner)
        self = str.__new__(cls, english_text[:1].upper() + english_text[1:])
        self.__dict__.update(template=inner.template, params=inner.params, plural_template=inner.plural_template)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return Capitalized, (_remade(self.template, self.plural_template, dict(self.params)),)


def _remade(template: str, plural: str | None, params: dict[str, object]) -> Text:
    return Text._made(template, plural, params)


def _cut(value: object) -> object:
    if type(value) is str and len(value) > MAX_PARAM:
        return value[:80] + "…"
    return value


def capitalized(message: str) -> str:
    """A message at the start of a sentence (see :meth:`Text.capitalized`); a plain
    string is capitalised as it is.

    >>> capitalized(Text("{n} cards", n=2)), capitalized("hearts")
    ('2 cards', 'Hearts')
    """
    return message.capitalized() if isinstance(message, Text) else message[:1].upper() + message[1:]


def english(template: str, params: Mapping[str, object]) -> str:
    """A template filled with ``params`` in English: messages as they read, cards in
    notation. Without parameters the template is said as it is (braces and all).

    >>> english("{first} and {last}", {"first": Text("hearts"), "last": ()})
    'hearts and '
    """
    if not params:
        return template
    return template.format_map({name: _english_value(value) for name, value in params.items()})


def _english_value(value: object) -> object:
    if isinstance(value, Notated):
        return str(value)
    if isinstance(value, tuple | list) and all(isinstance(item, Notated) for item in value):
        return " ".join(map(str, value))
    return value
