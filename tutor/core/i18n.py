"""The one translation layer for every user-visible text.

A message is an English template with named ``{placeholders}``. Code that says
something to a learner makes a :class:`Text` (:mod:`tutor.core.text`, the bottom layer,
re-exported here): it reads as English wherever a string is expected, and it remembers
its template and parameters, so a :class:`Translator` can say it in any language of the
course, a plural message in the form its count needs. Catalogs are gettext ``.po`` files
under ``tutor/locales/`` (read with Babel; ``./dev catalogs`` keeps them in step with the
code and the lessons). This layer sits above the errors and below the cards: it knows
a card only as a :class:`~tutor.core.text.Notated` value.

>>> from tutor.rules.notation import parse_cards
>>> listed = and_list([parse_cards("BJ"), "♥7", "♠3"])
>>> listed
'BJ, ♥7 and ♠3'
>>> Translator("zh-Hans")(listed)
'大王、♥7 和 ♠3'
>>> Translator("zh-Hant")("Streak: {count}", count=2)
'連勝：2'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from gettext import c2py
from pathlib import Path
from typing import Final

from tutor.core.errors import TutorError, shown
from tutor.core.text import MAX_PARAM, Capitalized, N_, Notated, Text, capitalized, english, placeholders

__all__ = [
    "CODE_CATALOGS", "ENGLISH", "LANGUAGES", "LANGUAGE_NAMES", "LOCALES", "MAX_LIST", "MAX_PARAM", "Capitalized",
    "N_", "Text", "Translator", "and_list", "capitalized", "current", "locale_dir", "negotiate", "or_list",
    "placeholders", "said", "set_language",
]

LANGUAGES: Final = ("en", "zh-Hans", "zh-Hant")
"""The languages of the course: English, Simplified and Traditional Chinese."""

LANGUAGE_NAMES: Final = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}
"""Each language in its own words, for the language switch."""

LOCALES: Final = Path(__file__).resolve().parents[1] / "locales"
"""``LOCALES/<zh_Hans|zh_Hant>/LC_MESSAGES/<catalog>.po``: one folder per translated language."""

CODE_CATALOGS: Final = ("rules", "game", "drills", "lessons")
"""The catalogs of messages made by code (the lessons' markdown has catalogs of its own)."""

_JOKERS: Final = {"en": {}, "zh-Hans": {"BJ": "大王", "SJ": "小王"}, "zh-Hant": {"BJ": "大王", "SJ": "小王"}}


def locale_dir(language: str) -> Path:
    """The folder of a translated language's catalogs (``zh-Hans`` → ``zh_Hans``)."""
    return LOCALES / language.replace("-", "_") / "LC_MESSAGES"


def and_list(items: Sequence[object]) -> object:
    """Items joined as a learner reads a list: ``a, b and c`` (Chinese: ``a、b和c``).

    >>> and_list(["♠3", "♥4", "♣5"])
    '♠3, ♥4 and ♣5'
    >>> Translator("zh-Hans")(and_list(["♠3", "♥4", "♣5"]))
    '♠3、♥4 和 ♣5'
    """
    _list_of(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    head: object = items[0]
    for item in items[1:-1]:
        head = Text("{first}, {second}", first=head, second=item)
    return Text("{first} and {last}", first=head, last=items[-1])


def or_list(items: Sequence[object]) -> object:
    """Choices joined as a learner reads them: ``a or b or c`` (Chinese: ``a 或 b 或 c``).

    >>> or_list(["♠A", "♥K"]), or_list(["♠A"])
    ('♠A or ♥K', '♠A')
    """
    _list_of(items)
    if not items:
        return ""
    said: object = items[0]
    for item in items[1:]:
        said = Text("{first} or {second}", first=said, second=item)
    return said


def _list_of(items: object) -> None:
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence) or len(items) > MAX_LIST:
        raise TutorError(Text("expected a list of at most {most} items, not {value}", most=MAX_LIST, value=shown(items)))


MAX_LIST: Final = 200


def said(error: BaseException) -> str:
    """What an error says, as a :class:`Text` when it was made with one (every error of
    the tutor is), so a Translator can say it in the learner's language; else its text.

    >>> said(TutorError(Text("level {n}", n=4))).template, said(ValueError("bad"))
    ('level {n}', 'bad')
    """
    if not isinstance(error, BaseException):
        raise TutorError(Text("said() tells what an error says, not {value}", value=shown(error)))
    message = error.args[0] if len(error.args) == 1 else None
    return message if isinstance(message, Text) else str(error)


_SENTENCE_GAP: Final = {"en": " ", "zh-Hans": "", "zh-Hant": ""}
_SEMICOLON: Final = {"en": "; ", "zh-Hans": "；", "zh-Hant": "；"}


class Translator:
    """Says messages in one language of the course.

    Unknown languages are refused; a message missing from the catalog is said in English
    (the tests make sure none is missing). A plural message (:meth:`Text.plural`) is said
    in the form the language's plural rule picks for its count:

    >>> left = Text.plural("{count} card is still to be dealt", "{count} cards are still to be dealt", count=1)
    >>> Translator("en")(left), Translator("zh-Hans")(left)
    ('1 card is still to be dealt', '还有1张牌没发')
    """

    __slots__ = ("language", "_catalog")

    def __init__(self, language: str = "en") -> None:
        if not isinstance(language, str) or language not in LANGUAGES:
            raise TutorError(Text("unknown language {language}; choose one of {languages}",
                                  language=shown(language), languages=", ".join(LANGUAGES)))
        self.language: Final = language
        self._catalog: Final = _catalog(language)

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Translator) and other.language == self.language

    def __hash__(self) -> int:
        return hash(self.language)

    def __call__(self, message: str, /, **params: object) -> str:
        """``message`` in this language: a :class:`Text` (its own parameters), or a
        template with ``params``."""
        if not isinstance(message, str):
            raise TutorError(Text("a message is text, not {value}", value=shown(message)))
        if isinstance(message, Text) and not params:
            said = self.fill(self.template(message), message.params)
            if isinstance(message, Capitalized) and self.language == "en":
                said = said[:1].upper() + said[1:]
            return said
        return self.fill(self._catalog.messages.get(message, message), params)

    def template(self, message: Text) -> str:
        """The template ``message`` is said with in this language: its translation, the
        form for its count if it is a plural message (English when there is none).

        >>> dealt = Text.plural("{count} card is still to be dealt", "{count} cards are still to be dealt", count=4)
        >>> Translator("en").template(dealt), Translator("zh-Hant").template(dealt)
        ('{count} cards are still to be dealt', '還有{count}張牌沒發')
        """
        if message.plural_template is None:
            return self._catalog.messages.get(message.template, message.template)
        count = message.params["count"]
        assert isinstance(count, int), "Text.plural makes the count a whole number"
        forms = self._catalog.plurals.get((message.template, message.plural_template))
        if forms is None:
            return message.template if count == 1 else message.plural_template
        return forms[min(self._catalog.rule(count), len(forms) - 1)]

    def fill(self, template: str, params: Mapping[str, object]) -> str:
        """Fill a template already in this language with ``params`` said in this language.

        In Chinese, a card written in notation is set off from the characters around it
        by a space, wherever the template put it (``有 ♥2 ♥2 和 ♣A ♣A``); a lone suit
        sign, a rank or a number is not (``♥为主``, ``8张``).
        """
        if self.language == "en":
            return english(template, params)
        if not params:
            return template
        return _spaced(template.format_map({name: self.value(value) for name, value in params.items()}))

    def sentences(self, *parts: str) -> str:
        """Sentences one after the other: a space between them in English, none in
        Chinese (a Chinese sentence ends with its own full-width stop). Empty parts are left out.

        >>> Translator("en").sentences("Right.", "", "Well done."), Translator("zh-Hans").sentences("对。", "好。")
        ('Right. Well done.', '对。好。')
        """
        return _SENTENCE_GAP[self.language].join(part for part in parts if part)

    def semicolons(self, parts: Iterable[str]) -> str:
        """Items of a list that may hold commas, separated by semicolons (full-width in Chinese)."""
        return _SEMICOLON[self.language].join(parts)

    def value(self, value: object) -> object:
        """One parameter in this language (numbers stay numbers, for format specs; no
        cards say nothing)."""
        if isinstance(value, Text):
            return self(value)
        if isinstance(value, Notated):
            return self.cards((value,))
        if isinstance(value, tuple | list) and all(isinstance(c, Notated) for c in value):
            return self.cards(value)
        return value

    def cards(self, cards: Iterable[Notated]) -> str:
        """Cards in this language's writing: ``♥7 ♥7``; the jokers by their names.

        >>> from tutor.rules.notation import parse_cards
        >>> Translator("zh-Hans").cards(parse_cards("BJ ♥7 ♥7"))
        '大王 ♥7 ♥7'
        """
        text = " ".join(map(str, cards))
        for notation, name in _JOKERS[self.language].items():
            text = text.replace(notation, name)
        return text


_BEFORE_CARD = re.compile(r"([\u3400-\u9fff])(?=[♠♥♣♦](?:10|[2-9JQKA]))")
_AFTER_CARD = re.compile(r"([♠♥♣♦](?:10|[2-9JQKA]))(?=[\u3400-\u9fff])")


def _spaced(text: str) -> str:
    return _AFTER_CARD.sub(r"\1 ", _BEFORE_CARD.sub(r"\1 ", text))


@dataclass(frozen=True, slots=True)
class _Catalog:
    """Every code message of one language."""

    messages: Mapping[str, str]
    """English template → translated template."""
    plurals: Mapping[tuple[str, str], tuple[str, ...]]
    """(singular, plural) English templates → the language's forms, in gettext's order."""
    rule: Callable[[int], int]
    """A count → the index of its form (gettext's ``Plural-Forms`` expression for the language)."""


@cache
def _catalog(language: str) -> _Catalog:
    if language == "en":
        return _Catalog({}, {}, _english_rule)
    from babel.messages.plurals import get_plural
    from babel.messages.pofile import read_po

    locale = language.replace("-", "_")
    messages: dict[str, str] = {}
    plurals: dict[tuple[str, str], tuple[str, ...]] = {}
    for name in CODE_CATALOGS:
        path = locale_dir(language) / f"{name}.po"
        if path.exists():
            with path.open("rb") as file:
                catalog = read_po(file, locale=locale)
            for m in catalog:
                if not m.id or m.fuzzy:
                    continue
                if isinstance(m.id, str) and isinstance(m.string, str) and m.string:
                    messages[m.id] = m.string
                elif isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string):
                    plurals[(str(m.id[0]), str(m.id[1]))] = tuple(map(str, m.string))
    return _Catalog(messages, plurals, c2py(get_plural(locale).plural_expr))


def _english_rule(count: int) -> int:
    return 0 if count == 1 else 1


ENGLISH: Final = Translator("en")

_current = ENGLISH


def set_language(language: str) -> None:
    """Choose the language of this kernel (a Voila page is in one language): the
    lessons' widgets and displays speak it."""
    global _current
    _current = Translator(language)


def current() -> Translator:
    """The translator of this kernel's language (English unless :func:`set_language`)."""
    return _current


def _(message: str, /, **params: object) -> str:
    """``message`` in this kernel's language (for the lessons' own code)."""
    return _current(message, **params)


_RANGE = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def negotiate(accept_language: str | None) -> str:
    """The course language that best fits a browser's ``Accept-Language`` header.

    >>> negotiate("zh-TW,zh;q=0.9,en;q=0.8"), negotiate("zh-CN"), negotiate("fr, en-GB;q=0.5")
    ('zh-Hant', 'zh-Hans', 'en')
    >>> negotiate("de"), negotiate(None), negotiate("zh-HK"), negotiate("zh"), negotiate("zh-Hans-HK")
    ('en', 'en', 'zh-Hant', 'zh-Hans', 'zh-Hans')
    """
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "")[:500].split(",")[:30]):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            quality = float(match.group(2) or 1)
        except ValueError:
            continue
        language = _course_language(match.group(1))
        if language and quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else "en"


def _course_language(tag: str) -> str | None:
    parts = tag.lower().split("-")
    if parts[0] == "en":
        return "en"
    if parts[0] != "zh":
        return None
    if "hans" in parts:
        return "zh-Hans"
    if "hant" in parts or any(region in parts for region in ("tw", "hk", "mo")):
        return "zh-Hant"
    return "zh-Hans"
