"""The translation catalogs kept in step with the code and the lessons (``./dev catalogs``).

Every message is found the ordinary gettext way (Babel's extractor): string literals
passed to ``Text``, ``tr``, ``_`` and ``N_`` in ``tutor/`` and ``widgets/`` and in the
lessons' code cells, the two templates of ``Text.plural`` (a ``msgid`` with its
``msgid_plural``, translated in as many forms as the language has: ``msgstr[0]`` only in
Chinese), and every markdown cell of every lesson (keyed by its cell id).
:func:`update` writes them into each language's ``.po`` files, keeping the translations
already made; a new Traditional Chinese entry starts as a draft converted from the
Simplified one with OpenCC, marked fuzzy until someone reviews it. :func:`problems`
lists what the tests refuse: a message without a translation, a fuzzy entry, a
placeholder that differs, a stale entry.

>>> catalog_of("tutor/teach/drills/follow.py"), catalog_of("tutor/rules/game.py"), catalog_of("tutor/rules/follow.py")
('drills', 'game', 'rules')
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as CatalogMessage
from babel.messages.extract import extract, extract_from_dir
from babel.messages.pofile import read_po, write_po

from tutor.core.i18n import CODE_CATALOGS, LANGUAGES, locale_dir, placeholders

ROOT: Final = Path(__file__).resolve().parent.parent
LESSONS: Final = ROOT / "lessons"
KEYWORDS: Final = {"Text": None, "tr": None, "_": None, "N_": None, "plural": (1, 2)}
TRANSLATED: Final = tuple(language for language in LANGUAGES if language != "en")
_GAME: Final = ("tutor/rules/game.py", "tutor/rules/actions.py", "tutor/rules/events.py", "tutor/rules/phase.py",
                "tutor/rules/view.py", "tutor/rules/refusal.py", "tutor/rules/friend.py", "tutor/rules/ruleset.py",
                "tutor/rules/bidding.py", "tutor/rules/scoring.py", "tutor/play/record.py", "tutor/play/strategy.py",
                "tutor/play/bots.py", "tutor/rules/history.py", "tutor/teach/course.py", "tutor/teach/narration.py",
                "tutor/teach/coaching.py", "tutor/teach/reasons.py", "tutor/teach/mistakes.py")


def catalog_of(path: str) -> str:
    """Which code catalog a source file's messages go to."""
    if path.startswith("lessons/"):
        return "lessons"
    if path in _GAME:
        return "game"
    if path.startswith(("tutor/teach/drills/", "tutor/teach/table_", "tutor/server/tables/seat", "widgets/")):
        return "drills"  # (the table's words came from its widget)
    return "rules"


MessageId = str | tuple[str, str]
"""A message's English: its template, or a plural message's ``(singular, plural)`` templates."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message to translate: its text, context (a lesson cell's id) and where it is."""

    id: MessageId
    context: str | None
    locations: tuple[tuple[str, int], ...]


def code_messages() -> dict[str, dict[MessageId, Message]]:
    """Catalog name → message id → message, for every message made by code."""
    found: dict[str, dict[MessageId, Message]] = {name: {} for name in CODE_CATALOGS}

    def add(path: str, line: int, found_text: object) -> None:
        text: MessageId
        if isinstance(found_text, tuple) and len(found_text) == 2 and all(isinstance(t, str) and t
                                                                          for t in found_text):
            text = (str(found_text[0]), str(found_text[1]))
        elif isinstance(found_text, str) and found_text:
            text = found_text
        else:
            return
        messages = found[catalog_of(path)]
        old = messages.get(text)
        locations = (old.locations if old else ()) + ((path, line),)
        messages[text] = Message(text, None, locations)

    for folder in ("tutor", "widgets"):
        for name, line, text, _comments, _context in extract_from_dir(ROOT / folder, keywords=KEYWORDS):
            add(f"{folder}/{name}", line, text)
    for notebook in lesson_notebooks():
        for cell in _cells(notebook):
            if cell["cell_type"] == "code":
                code = "".join(cell["source"]).encode()
                for line, found_text, _comments, _context in extract("python", io.BytesIO(code), keywords=KEYWORDS):
                    add(f"lessons/{notebook.name}", line, found_text)
    return found


def lesson_notebooks() -> list[Path]:
    """Every notebook of the course, the home page first."""
    return sorted(LESSONS.glob("*.ipynb"), key=lambda path: (path.stem != "index", path.stem))


def lesson_messages(notebook: Path) -> dict[MessageId, Message]:
    """Cell id → the English text of each markdown cell of a lesson."""
    return {cell["id"]: Message("".join(cell["source"]), cell["id"], ((f"lessons/{notebook.name}", 0),))
            for cell in _cells(notebook) if cell["cell_type"] == "markdown"}


def _cells(notebook: Path) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = json.loads(notebook.read_text("utf-8"))["cells"]
    return cells


def _catalogs(names: tuple[str, ...] = ()) -> Iterator[tuple[str, list[Message]]]:
    """Each catalog's file name and its messages in order (only ``names`` if given)."""
    for name, messages in code_messages().items():
        if not names or name in names:
            yield name, sorted(messages.values(), key=lambda m: singular(m.id))
    for notebook in lesson_notebooks():
        if not names or f"lesson-{notebook.stem}" in names:
            yield f"lesson-{notebook.stem}", list(lesson_messages(notebook).values())


def singular(id: MessageId) -> str:
    """A message's English template (a plural message's singular one)."""
    return id if isinstance(id, str) else id[0]


def read_catalog(path: Path) -> Catalog:
    """A ``.po`` file of ``locale_dir(language)`` (an empty catalog when it does not exist
    yet), read with its language's plural forms (the files carry no header)."""
    locale = path.parent.parent.name
    if not path.exists():
        return Catalog(locale=locale)
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def entry_for(catalog: Catalog, message: Message) -> CatalogMessage | None:
    """The catalog's entry for ``message``: one with the same English, plural or not
    (an entry that was singular before a message became plural is not its translation)."""
    entry = catalog.get(message.id, message.context)
    return entry if entry is not None and entry.id == message.id else None


def forms(entry: CatalogMessage) -> tuple[str, ...]:
    """An entry's translation: its one string, or each plural form."""
    string = entry.string
    if string is None:
        return ("",)
    return (string,) if isinstance(string, str) else tuple(str(s) for s in string)


def update(*names: str, draft_traditional: bool = True) -> list[Path]:
    """Write every language's catalogs (or those named: ``"rules"``,
    ``"lesson-05-following"``) from the messages found now. Translations already made
    are kept; stale entries are dropped. Returns the files written."""
    converter = None
    if draft_traditional:
        try:
            import opencc  # type: ignore[import-not-found, import-untyped, unused-ignore]
            converter = opencc.OpenCC("s2tw")
        except ImportError:  # the "catalogs" extra is not installed: no drafts
            converter = None
    written = []
    for name, messages in _catalogs(names):
        simplified = read_catalog(locale_dir("zh-Hans") / f"{name}.po")
        for language in TRANSLATED:
            path = locale_dir(language) / f"{name}.po"
            old = read_catalog(path)
            new = Catalog(locale=language.replace("-", "_"), project="qidong-tutor", fuzzy=False)
            for message in messages:
                kept = entry_for(old, message)
                string: str | tuple[str, ...] = ""
                flags: set[str] = set()
                if kept is not None and all(forms(kept)):
                    string = forms(kept)[0] if isinstance(message.id, str) else forms(kept)
                    flags = set(kept.flags)
                elif language == "zh-Hant" and converter is not None:
                    source = entry_for(simplified, message)
                    if source is not None and all(forms(source)) and not source.fuzzy:
                        drafts = tuple(converter.convert(form) for form in forms(source))
                        string, flags = (drafts[0] if isinstance(message.id, str) else drafts), {"fuzzy"}
                new.add(message.id, string, locations=message.locations if not message.context else (),
                        flags=flags, context=message.context)
            path.parent.mkdir(parents=True, exist_ok=True)
            buffer = io.BytesIO()
            write_po(buffer, new, width=0, include_lineno=False, omit_header=True)
            if not path.exists() or path.read_bytes() != buffer.getvalue():
                path.write_bytes(buffer.getvalue())
                written.append(path)
    return written


_RULE_ID = re.compile(r"(?<![A-Za-z0-9])[A-Z][0-9](?![0-9])")
_CARD = re.compile(r"[♠♥♣♦](?:10|[2-9JQKA])+|(?<![A-Za-z])[BS]J(?![A-Za-z])")
_CODE = re.compile(r"`[^`]+`")
_LINK = re.compile(r"\]\(([^)]+)\)|href=\"([^\"]+)\"")


def problems(*names: str) -> list[str]:
    """What keeps the catalogs (or those named) from being complete and in step, one line each."""
    found: list[str] = []
    for name, messages in _catalogs(names):
        for language in TRANSLATED:
            path = locale_dir(language) / f"{name}.po"
            catalog = read_catalog(path)
            where = f"{language}/{name}.po"
            wanted = {(m.id, m.context) for m in messages}
            found.extend(f"{where}: stale entry {_short(old.id)} (run ./dev catalogs)"
                         for old in catalog if old.id and (old.id, old.context) not in wanted)
            for message in messages:
                entry = entry_for(catalog, message)
                if entry is None:
                    found.append(f"{where}: missing {_short(message.id)} (run ./dev catalogs, then translate)")
                elif not all(forms(entry)):
                    found.append(f"{where}: untranslated {_short(message.id)}")
                elif entry.fuzzy:
                    found.append(f"{where}: fuzzy (review, then remove the flag) {_short(message.id)}")
                else:
                    found.extend(f"{where}: {problem} in {_short(message.id)}"
                                 for problem in differences(message, forms(entry)))
    if not names:
        found.extend(_disagreements())
    return found


def _disagreements() -> list[str]:
    """Messages in more than one code catalog must be said the same way in each (the
    kernel reads them all into one table)."""
    found = []
    for language in TRANSLATED:
        said: dict[object, tuple[str, tuple[str, ...]]] = {}
        for name in CODE_CATALOGS:
            for entry in read_catalog(locale_dir(language) / f"{name}.po"):
                if not entry.id or not all(forms(entry)) or entry.fuzzy:
                    continue
                first = said.setdefault(entry.id, (name, forms(entry)))
                if first[1] != forms(entry):
                    found.append(f"{language}: {_short(entry.id)} is {first[1]!r} in {first[0]}.po "
                                 f"but {forms(entry)!r} in {name}.po")
    return found


def differences(message: Message, translated: tuple[str, ...]) -> list[str]:
    """How a translation departs from what it must keep: placeholders, and in lesson
    text the rule IDs, card examples, code and links.

    A plural message's last form is said for most numbers (in Chinese, for every
    number), so it keeps the plural template's placeholders; another form may leave
    some out (``a tractor`` for ``{count} tractors``) but adds none.

    >>> dealt = Message(("{count} card is dealt", "{count} cards are dealt"), None, ())
    >>> differences(dealt, ("发了{count}张牌",)), differences(dealt, ("发了牌",))
    ([], ["placeholders [] instead of ['count']"])
    >>> differences(Message("{card} wins", None, ()), ("{cards}赢",))
    ["placeholders ['cards'] instead of ['card']"]
    """
    if isinstance(message.id, tuple):
        one, other = message.id
        found = _differences(other, translated[-1], False)
        found.extend(f"form {i} adds placeholders {sorted(placeholders(form) - placeholders(one) - placeholders(other))}"
                     for i, form in enumerate(translated[:-1])
                     if placeholders(form) - placeholders(one) - placeholders(other))
        return found
    return _differences(message.id, translated[0], bool(message.context))


def _differences(english: str, translated: str, markdown: bool) -> list[str]:
    found = []
    if not markdown and placeholders(english) != placeholders(translated):
        found.append(f"placeholders {sorted(placeholders(translated))} instead of {sorted(placeholders(english))}")
    if markdown:
        for what, pattern in (("rule IDs", _RULE_ID), ("cards", _CARD), ("code", _CODE), ("links", _LINK)):
            want, got = sorted(pattern.findall(english)), sorted(pattern.findall(translated))
            if set(map(str, want)) != set(map(str, got)):
                found.append(f"{what} {sorted(set(map(str, got)))} instead of {sorted(set(map(str, want)))}")
    return found


def _short(id: object) -> str:
    text = id if isinstance(id, str) else str(id[0]) if isinstance(id, tuple | list) and id else str(id)
    line = text.replace("\n", " ")
    return repr(line[:70] + ("…" if len(line) > 70 else ""))


if __name__ == "__main__":
    import sys

    chosen = tuple(sys.argv[1:])
    for path in update(*chosen):
        print("wrote", path.relative_to(ROOT))
    remaining = problems(*chosen)
    print("\n".join(remaining))
    print(f"{len(remaining)} entries still to translate or review" if remaining else "catalogs complete")
