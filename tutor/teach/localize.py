"""A lesson page in the learner's language.

Each lesson is one notebook, written in English; its text in Chinese lives in the
lesson's catalogs (``tutor/locales/<language>/LC_MESSAGES/lesson-<slug>.po``, one entry
per markdown cell, keyed by the cell's id). When Voila opens a page, :func:`localize`
puts the text in the page's language, adds a language switch at the top, and starts the
kernel in that language (the drills, the verdicts and the game speak it). The code cells
are the same in every language, so every language shows the same examples and drills.

The language of a page: the link's ``?lang=`` (a teacher's shared link, or the
learner's switch), else the one this browser chose before (a cookie), else the
browser's own languages (``Accept-Language``), else English.

>>> choose_language("lang=zh-Hant&seed=4", None, "en")
'zh-Hant'
>>> choose_language("seed=4", "zh-Hans", "en"), choose_language("", None, "zh-TW,zh;q=0.8")
('zh-Hans', 'zh-Hant')
>>> choose_language("lang=fr", "nonsense", None)
'en'
>>> print(language_switch("zh-Hans", "seed=4&lang=zh-Hans"))
<nav class="qd-languages" aria-label="Language 语言 語言"><a href="?seed=4&amp;lang=en" hreflang="en" lang="en">English</a> · <strong aria-current="page" lang="zh-Hans">简体中文</strong> · <a href="?seed=4&amp;lang=zh-Hant" hreflang="zh-Hant" lang="zh-Hant">繁體中文</a></nav>
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from functools import cache
from html import escape
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode

from tutor.core.i18n import LANGUAGE_NAMES, LANGUAGES, N_, locale_dir, negotiate
from tutor.teach.emphasis import cjk_friendly

COOKIE: Final = "qd-lang"
"""The cookie that remembers a browser's language (set when a link or the switch chooses one)."""

LANGUAGE_CELL: Final = "qd-language"
SWITCH_CELL: Final = "qd-languages"
READING_CELL: Final = "qd-reading"
LIVE_TAG: Final = "qd-live"
"""The tag of a code cell that shows something (a drill, the table): where it will stand,
the page says it is getting ready until it has come alive."""
GETTING_READY: Final = N_("Getting this part ready…")


def link_language(query: str | None) -> str | None:
    """The language a link asks for (``?lang=``), if it names one of the course's."""
    for key, value in parse_qsl(query or "", keep_blank_values=True)[:20]:
        if key == "lang":
            return value if value in LANGUAGES else None
    return None


def choose_language(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page's language: the link's, else the remembered one, else the browser's."""
    asked = link_language(query)
    if asked:
        return asked
    if cookie in LANGUAGES:
        return str(cookie)
    return negotiate(accept_language)


def language_switch(language: str, query: str | None, page: Callable[[str], str] | None = None) -> str:
    """The links that open this page in each language (the other link parameters kept).
    ``page(language)`` is the address of this page in that language, where each language
    has its own page (the static site); by default the same page with ``?lang=``.

    >>> print(language_switch("en", None, page=lambda other: f"../{other}/05-following.html"))
    <nav class="qd-languages" aria-label="Language 语言 語言"><strong aria-current="page" lang="en">English</strong> · <a href="../zh-Hans/05-following.html?lang=zh-Hans" hreflang="zh-Hans" lang="zh-Hans">简体中文</a> · <a href="../zh-Hant/05-following.html?lang=zh-Hant" hreflang="zh-Hant" lang="zh-Hant">繁體中文</a></nav>
    """
    kept = [(key, value) for key, value in parse_qsl(query or "", keep_blank_values=True)[:20] if key != "lang"]
    items = []
    for other in LANGUAGES:
        name = escape(LANGUAGE_NAMES[other])
        if other == language:
            items.append(f'<strong aria-current="page" lang="{other}">{name}</strong>')
        else:
            href = escape((page(other) if page else "") + "?" + urlencode([*kept, ("lang", other)]))
            items.append(f'<a href="{href}" hreflang="{other}" lang="{other}">{name}</a>')
    return f'<nav class="qd-languages" aria-label="Language 语言 語言">{" · ".join(items)}</nav>'


@cache
def lesson_text(slug: str, language: str) -> Mapping[tuple[str, str], str]:
    """(cell id, English text) → the text in ``language``, for one lesson."""
    if language == "en":
        return {}
    from babel.messages.pofile import read_po

    path = locale_dir(language) / f"lesson-{slug}.po"
    if not path.exists():
        return {}
    with path.open("rb") as file:
        catalog = read_po(file)
    return {(str(m.context), str(m.id)): str(m.string) for m in catalog
            if m.id and m.string and m.context and not m.fuzzy}


def shows_something(source: str) -> bool:
    """Whether a code cell ends with an expression, whose value the page shows.

    >>> shows_something("from widgets import practice\\n\\npractice('05-following')")
    True
    >>> shows_something("hearts = Trump('♥')"), shows_something("def f(:")
    (False, False)
    """
    import ast

    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[-1], ast.Expr)


def reading_style(language: str) -> str:
    """The page's first cell: its text is shown at once, not after every cell has run
    (Voila and Voici hide it behind a spinner until then), and where a drill or the table
    will stand, a note that it is getting ready stays until it has come alive — in Voici a
    cell tagged :data:`LIVE_TAG` that has no output yet; in Voila the place the course's
    template keeps for it until its cell ran (``qd-waiting``), then an output the page's
    script has not drawn yet. A link in the text is underlined, not told apart by its colour
    alone (WCAG 1.4.1; JupyterLab's style sheet takes the underline away).

    >>> "准备" in reading_style("zh-Hans")
    True
    """
    from tutor.core.i18n import Translator

    note = json.dumps(Translator(language)(GETTING_READY), ensure_ascii=False)
    waiting = (f".jp-CodeCell.celltag_{LIVE_TAG}.jp-mod-noOutputs.jp-mod-noInput::before,.qd-waiting::before,"
               '.jp-OutputArea-child:has(> script[type="application/vnd.voila.cell-output+json"])::before')
    return ("<style>\n"
            "#rendered_cells{display:block!important}\n#loading{display:none!important}\n"
            "body .jp-MarkdownOutput a:any-link{text-decoration:underline}\n"
            f".jp-CodeCell.celltag_{LIVE_TAG}.jp-mod-noOutputs.jp-mod-noInput{{display:block!important}}\n"
            f"{waiting}{{content:{note};display:block;padding:1.2em 1em;margin:.5em 0;border:1px dashed "
            "var(--jp-border-color1,#bbb);border-radius:.4em;color:var(--jp-ui-font-color2,#666);"
            "font:italic 1em system-ui,sans-serif;animation:qd-getting-ready 1.6s ease-in-out infinite alternate}\n"
            "@keyframes qd-getting-ready{from{opacity:.55}to{opacity:1}}\n"
            "@media (prefers-reduced-motion:reduce){.jp-OutputArea-child::before,.jp-CodeCell::before{animation:none}}\n"
            "</style>")


def localize(notebook: Any, slug: str, language: str, query: str | None = None,
             switch: Callable[[str], str] | None = None) -> Any:
    """A copy of a lesson notebook (``nbformat`` node) in ``language``: its markdown
    translated (a cell whose English changed since it was translated stays English; its bold
    and italic written so that every renderer shows them, see :mod:`~tutor.teach.emphasis`),
    the language switch first (its links made by ``switch``, see :func:`language_switch`),
    a first code cell choosing the kernel's language, before them the page's
    :func:`reading_style`, and each code cell that shows something tagged :data:`LIVE_TAG`."""
    import nbformat

    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    page = copy.deepcopy(notebook)
    text = lesson_text(slug, language)
    for cell in page.cells:
        if cell.cell_type == "markdown" and (key := (cell.get("id", ""), cell.source)) in text:
            cell.source = cjk_friendly(text[key])
        elif cell.cell_type == "code" and shows_something(cell.source):
            tags = cell.setdefault("metadata", {}).setdefault("tags", [])
            if LIVE_TAG not in tags:
                tags.append(LIVE_TAG)
    reading = nbformat.from_dict({  # type: ignore[no-untyped-call]
        "cell_type": "markdown", "id": READING_CELL, "metadata": {}, "source": reading_style(language)})
    start = nbformat.from_dict({  # type: ignore[no-untyped-call]
        "cell_type": "code", "id": LANGUAGE_CELL, "metadata": {}, "outputs": [], "execution_count": None,
        "source": f"from tutor.core.i18n import set_language\nset_language({language!r})"})
    links = nbformat.from_dict({  # type: ignore[no-untyped-call]
        "cell_type": "markdown", "id": SWITCH_CELL, "metadata": {}, "source": language_switch(language, query, switch)})
    page.cells[:0] = [reading, start, links]
    page.metadata["language"] = language
    return page
