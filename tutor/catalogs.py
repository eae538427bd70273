"""The translation catalogs kept in step with the code and the lessons (``./dev catalogs``).

Every message is found the ordinary gettext way (Babel's extractor): string literals
passed to ``Text``, ``tr``, ``_`` and ``N_`` in ``tutor/`` and ``widgets/`` and in the
lessons' code cells, and every markdown cell of every lesson (keyed by its cell id).
:func:`update` writes them into each language's ``.po`` files, keeping the translations
already made; a new Traditional Chinese entry starts as a draft converted from the
Simplified one with OpenCC, marked fuzzy until someone reviews it. :func:`problems`
lists what the tests refuse: a message without a translation, a fuzzy entry, a
placeholder that differs, a stale entry.

>>> catalog_of("tutor/drills/follow.py"), catalog_of("tutor/game.py"), catalog_of("tutor/follow.py")
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
from babel.messages.extract import extract, extract_from_dir
from babel.messages.pofile import read_po, write_po

from tutor.i18n import CODE_CATALOGS, LANGUAGES, locale_dir, placeholders

ROOT: Final = Path(__file__).resolve().parent.parent
LESSONS: Final = ROOT / "lessons"
KEYWORDS: Final = {"Text": None, "tr": None, "_": None, "N_": None}
TRANSLATED: Final = tuple(language for language in LANGUAGES if language != "en")
_GAME: Final = ("tutor/game.py", "tutor/record.py", "tutor/course.py", "tutor/strategy.py", "tutor/bots.py",
                "tutor/rules.py", "tutor/bidding.py", "tutor/scoring.py")


def catalog_of(path: str) -> str:
    """Which code catalog a source file's messages go to."""
    if path.startswith("lessons/"):
        return "lessons"
    if path in _GAME:
        return "game"
    if path.startswith(("tutor/drills/", "widgets/")):
        return "drills"
    return "rules"


@dataclass(frozen=True, slots=True)
class Message:
    """One message to translate: its text, context (a lesson cell's id) and where it is."""

    id: str
    context: str | None
    locations: tuple[tuple[str, int], ...]


def code_messages() -> dict[str, dict[str, Message]]:
    """Catalog name → message id → message, for every message made by code."""
    found: dict[str, dict[str, Message]] = {name: {} for name in CODE_CATALOGS}

    def add(path: str, line: int, text: object) -> None:
        if not isinstance(text, str) or not text:
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


def lesson_messages(notebook: Path) -> dict[str, Message]:
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
            yield name, sorted(messages.values(), key=lambda m: m.id)
    for notebook in lesson_notebooks():
        if not names or f"lesson-{notebook.stem}" in names:
            yield f"lesson-{notebook.stem}", list(lesson_messages(notebook).values())


def read_catalog(path: Path) -> Catalog:
    """A ``.po`` file (an empty catalog when it does not exist yet)."""
    if not path.exists():
        return Catalog()
    with path.open("rb") as file:
        return read_po(file)


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
                kept = old.get(message.id, message.context)
                string, flags = (kept.string, set(kept.flags)) if kept and kept.string else ("", set())
                if not string and language == "zh-Hant" and converter is not None:
                    source = simplified.get(message.id, message.context)
                    if source and source.string and not source.fuzzy:
                        string, flags = converter.convert(str(source.string)), {"fuzzy"}
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
            found.extend(f"{where}: stale entry {_short(str(old.id))} (run ./dev catalogs)"
                         for old in catalog if old.id and (old.id, old.context) not in wanted)
            for message in messages:
                entry = catalog.get(message.id, message.context)
                if entry is None:
                    found.append(f"{where}: missing {_short(message.id)} (run ./dev catalogs, then translate)")
                elif not entry.string:
                    found.append(f"{where}: untranslated {_short(message.id)}")
                elif entry.fuzzy:
                    found.append(f"{where}: fuzzy (review, then remove the flag) {_short(message.id)}")
                else:
                    found.extend(f"{where}: {problem} in {_short(message.id)}"
                                 for problem in _differences(message.id, str(entry.string), bool(message.context)))
    if not names:
        found.extend(_disagreements())
    return found


def _disagreements() -> list[str]:
    """Messages in more than one code catalog must be said the same way in each (the
    kernel reads them all into one table)."""
    found = []
    for language in TRANSLATED:
        said: dict[str, tuple[str, str]] = {}
        for name in CODE_CATALOGS:
            for entry in read_catalog(locale_dir(language) / f"{name}.po"):
                if not entry.id or not entry.string or entry.fuzzy:
                    continue
                first = said.setdefault(str(entry.id), (name, str(entry.string)))
                if first[1] != entry.string:
                    found.append(f"{language}: {_short(str(entry.id))} is {first[1]!r} in {first[0]}.po "
                                 f"but {entry.string!r} in {name}.po")
    return found


def _differences(english: str, translated: str, markdown: bool) -> list[str]:
    """How a translation departs from what it must keep: placeholders, and in lesson
    text the rule IDs, card examples, code and links."""
    found = []
    if not markdown and placeholders(english) != placeholders(translated):
        found.append(f"placeholders {sorted(placeholders(translated))} instead of {sorted(placeholders(english))}")
    if markdown:
        for what, pattern in (("rule IDs", _RULE_ID), ("cards", _CARD), ("code", _CODE), ("links", _LINK)):
            want, got = sorted(pattern.findall(english)), sorted(pattern.findall(translated))
            if set(map(str, want)) != set(map(str, got)):
                found.append(f"{what} {sorted(set(map(str, got)))} instead of {sorted(set(map(str, want)))}")
    return found


def _short(text: str) -> str:
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
