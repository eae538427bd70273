"""Every lesson's text, in every language, shows no markdown markup (issue 28).

Each markdown cell of each lesson is put into the language as the page does
(:func:`tutor.teach.localize.localize`) and rendered by the renderer Voila and nbconvert use
(nbconvert's ``markdown2html``, mistune). What the learner reads — the HTML without its tags,
code and code blocks left out — must show no ``**``, ``__``, ``*…*``, backtick or ``[…](…)``:
markup that the renderer did not understand. In Chinese the usual cause is CommonMark's
flanking rules (``**小测验（W3）：**就…``), which :mod:`tutor.teach.emphasis` works around.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import nbformat
import pytest
from nbconvert.filters.markdown import markdown2html

from tools.catalogs import lesson_notebooks
from tutor.core.i18n import LANGUAGES
from tutor.teach.emphasis import cjk_friendly
from tutor.teach.localize import lesson_text, localize

NOTEBOOKS = lesson_notebooks()
CHINESE = [language for language in LANGUAGES if language != "en"]
_UNSEEN = re.compile(r"<(code|pre|style|script)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)  # typeset by MathJax
_MARKUP = re.compile(r"\*\*|__|`|\[[^\]\n]*\]\([^)\n]*\)|\*[^\s*][^*\n]*\*")


def visible(markdown: str) -> str:
    """The text a learner reads of a markdown cell, code and math left out."""
    return unescape(_MATH.sub(" ", _TAG.sub("", _UNSEEN.sub(" ", markdown2html(markdown)))))


def leaked(markdown: str) -> str | None:
    """The markup the rendered ``markdown`` shows, with the text around it; ``None`` if none."""
    text = visible(markdown)
    found = list(_MARKUP.finditer(text))
    if not found:
        return None
    start, end = found[0].start(), found[0].end()
    around = text[max(0, start - 30):end + 30].replace("\n", " ")
    return f"{', '.join(sorted({m.group() for m in found}))} in …{around}…"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_no_lesson_shows_markdown_markup(path: Path, language: str) -> None:
    page = localize(nbformat.read(path, as_version=4), path.stem, language)  # type: ignore[no-untyped-call]
    found = [f"{path.stem} [{language}] cell {cell.get('id')!r} shows {shown}"
             for cell in page.cells if cell.cell_type == "markdown" and (shown := leaked(cell.source))]
    assert not found, f"{len(found)} cells show markdown as text:\n" + "\n".join(found)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_english_pages_keep_their_markdown_byte_for_byte(path: Path) -> None:
    english = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    page = localize(english, path.stem, "en")
    assert [c.source for c in page.cells[3:]] == [c.source for c in english.cells]


@pytest.mark.parametrize("language", CHINESE)
def test_a_translation_that_rendered_well_renders_the_same(language: str) -> None:
    """The rewrite changes what a page shows only where the markup leaked."""
    changed = []
    for path in NOTEBOOKS:
        for text in lesson_text(path.stem, language).values():
            if not leaked(text) and markdown2html(cjk_friendly(text)) != markdown2html(text):
                changed.append(f"{path.stem}: {text[:80]!r}")
    assert not changed, "\n".join(changed)


CASES = {  # id: (markdown, what the pages get)
    "closing-after-CJK-punctuation": ("**小测验（W3）：**就刚读过的规则答一题。",
                                      "<strong>小测验（W3）：</strong>就刚读过的规则答一题。"),
    "lesson-11": ("（第10课），**该怎么出？**会给出建议，**让教练复盘**会评估。",
                  "（第10课），<strong>该怎么出？</strong>会给出建议，<strong>让教练复盘</strong>会评估。"),
    "italic-in-brackets": ("共**108张**，*（C1、C2）*",
                           "共<strong>108张</strong>，<em>（C1、C2）</em>"),
    "code-span-kept": ("见 `**代码：**` 与 **粗体：**好",
                       "见 `**代码：**` 与 <strong>粗体：</strong>好"),
    "double-backtick-code-span-kept": ("``a ` **b：**c`` **粗体：**好",
                                       "``a ` **b：**c`` <strong>粗体：</strong>好"),
    "bold-in-link-text, destination-kept": ("[**链接：**文](a_b**c.ipynb)后**粗：**好",
                                            "[<strong>链接：</strong>文](a_b**c.ipynb)后<strong>粗：</strong>好"),
    "link-in-bold": ("**[第10课](10-play.ipynb)：**好",
                     "<strong>[第10课](10-play.ipynb)：</strong>好"),
    "nested": ("**外层*内层：*外层**。",
               "<strong>外层<em>内层：</em>外层</strong>。"),
    "bold-italic-run": ("***粗斜：***中文",
                        "<em><strong>粗斜：</strong></em>中文"),
    "underscores": ("：__下划线__。snake_case",
                    "：<strong>下划线</strong>。snake\\_case"),
    "fenced-code-kept": ("```\n**代码：**好\n```\n\n**粗：**好",
                         "```\n**代码：**好\n```\n\n<strong>粗：</strong>好"),
    "indented-code-kept": ("    **代码：**好\n\n**粗：**好",
                           "    **代码：**好\n\n<strong>粗：</strong>好"),
    "math-kept": ("$a*b*c$ **数学：**好",
                  "$a*b*c$ <strong>数学：</strong>好"),
    "escapes-kept": ("5 \\* 3、\\_ **粗：**好",
                     "5 \\* 3、\\_ <strong>粗：</strong>好"),
    "list-items": ("- **甲：**好\n  继续**乙：**好\n- **丙：**好",
                   "- <strong>甲：</strong>好\n  继续<strong>乙：</strong>好\n- <strong>丙：</strong>好"),
    "heading-and-quote": ("# **标题：**好\n\n> **引用：**好",
                          "# <strong>标题：</strong>好\n\n> <strong>引用：</strong>好"),
    "table-cell": ("| 项 | 内容 |\n|---|---|\n| `kind` | **粗：**好 |",
                   "| 项 | 内容 |\n|---|---|\n| `kind` | <strong>粗：</strong>好 |"),
}


@pytest.mark.parametrize(("markdown", "expected"), CASES.values(), ids=CASES.keys())
def test_cjk_emphasis_is_written_as_html(markdown: str, expected: str) -> None:
    assert cjk_friendly(markdown) == expected
    assert not leaked(expected)


def test_an_unpaired_delimiter_stays_text() -> None:
    assert cjk_friendly("**甲：**乙 **丙") == "<strong>甲：</strong>乙 \\*\\*丙"
    assert visible(cjk_friendly("**甲：**乙 **丙")).strip() == "甲：乙 **丙"
    assert cjk_friendly("**甲乙 丙") == "**甲乙 丙"  # nothing paired: nothing to write out


@pytest.mark.parametrize("markdown", [
    "Press **Check**, then *see* the verdict; `a*b`, `**kwargs` and snake_case_name.",
    "**Quick check (W3):** answer one question on the rule you just read.",
    "A [**link**](https://example.org/a_b*c*) and __strong__ and _em_ and ***both***.",
    "**Unpaired, and a * b * c.",
    "```\n***\n```",
    "1. **One**\n2. *Two* | a | b |\n\n# The **end**",
    "",
])
def test_english_is_unchanged(markdown: str) -> None:
    assert cjk_friendly(markdown) == markdown
