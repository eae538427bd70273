"""The one translation layer for every user-visible text.

Messages are English templates with named ``{placeholders}``; a :class:`Translator`
looks each up in its language's catalog and falls back to English. Catalogs for
Simplified and Traditional Chinese are filled by the bilingual work (issue 6).

>>> tr = Translator("en")
>>> tr("Streak: {count}", count=3)
'Streak: 3'
>>> Translator("zh-Hans").language
'zh-Hans'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from tutor.errors import TutorError

LANGUAGES: Final = ("en", "zh-Hans", "zh-Hant")
"""The languages of the course: English, Simplified and Traditional Chinese."""

_CATALOGS: Final[dict[str, Mapping[str, str]]] = {language: {} for language in LANGUAGES}


@dataclass(frozen=True, slots=True)
class Translator:
    """Translates message templates into one language.

    Unknown languages are refused; a message missing from the catalog falls back
    to its English template.
    """

    language: str = "en"
    _catalog: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise TutorError(f"unknown language {self.language!r}; choose one of {', '.join(LANGUAGES)}")
        object.__setattr__(self, "_catalog", _CATALOGS[self.language])

    def __call__(self, message: str, /, **params: object) -> str:
        template = self._catalog.get(message, message)
        return template.format(**params) if params else template


ENGLISH: Final = Translator("en")
