"""Bold and italic in Chinese markdown, shown as the translator meant them.

CommonMark decides whether ``**`` opens or closes emphasis by the characters beside it
(its *flanking* rules): a closing ``**`` after punctuation must be followed by a space or
more punctuation. English puts a space there; Chinese does not, so in
``**小测验（W3）：**就刚读过的规则答一题。`` the second ``**`` (after ``：``, before ``就``)
closes nothing and the learner sees the asterisks. Every markdown renderer the course uses
(mistune in Voila and nbconvert, marked in JupyterLab and Voici) follows these rules.

:func:`cjk_friendly` reads each paragraph's emphasis as the *CJK-friendly amendment* to
CommonMark does (`tats-u/markdown-cjk-friendly
<https://github.com/tats-u/markdown-cjk-friendly/blob/main/specification.md>`_: punctuation
that is itself CJK does not stop a run from flanking). Where that reading touches CJK text, or
differs from CommonMark's, the paragraph's emphasis is written out as ``<strong>``/``<em>``
and its other ``*`` and ``_`` escaped, so every renderer shows the same thing. Code spans,
fenced and indented code, math, HTML and link destinations are left as they are; the text of
a link is read like any other. A paragraph without CJK beside its emphasis is not changed.

>>> print(cjk_friendly("**小测验（W3）：**就刚读过的规则答一题。"))
<strong>小测验（W3）：</strong>就刚读过的规则答一题。
>>> print(cjk_friendly("Press **Check**, then `**kwargs`."))
Press **Check**, then `**kwargs`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

_TAGS = ("em", "strong")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

# Blocks (one line at a time)
_FENCE = re.compile(r"(?:(`{3,})[^`]*|(~{3,}).*)$")
_BREAK = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*$")
_ITEM = re.compile(r"([-+*]|\d{1,9}[.)])(?=[ \t]|$)")
_HEADING = re.compile(r"#{1,6}(?:[ \t]+|$)")
_BLANK = re.compile(r"^[ \t]*$")
_HTML_BLOCKS = (  # how an HTML block starts, and the line that ends it
    (re.compile(r"<(?:pre|script|style|textarea)(?:[\s>]|$)", re.I),
     re.compile(r"</(?:pre|script|style|textarea)>", re.I)),
    (re.compile(r"<!--"), re.compile(r"-->")),
    (re.compile(r"<\?"), re.compile(r"\?>")),
    (re.compile(r"<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"<!\[CDATA\["), re.compile(r"]]>")),
    (re.compile(r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
                r"dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|"
                r"html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|"
                r"section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s/>]|/>|$)", re.I), _BLANK),
)
_HTML_BLOCK_ALONE = re.compile(  # a whole tag alone on its line: an HTML block, but one that interrupts no paragraph
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$")
_TABLE_DELIMITERS = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")

# Inlines
_MATH = re.compile(r"\$\$.+?\$\$|\$(?!\$).+?(?<![$\\])\$|\\\\\(.*?\\\\\)|\\\\\[.*?\\\\\]"
                   r"|\\begin\{([a-z]*\*?)\}.*?\\end\{\1\}", re.S)
_DESTINATION = re.compile(  # of a link, after its text: ``(destination "title")``
    r"\([ \t]*\n?[ \t]*(?:<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)"
    r"(?:[ \t]*\n?[ \t]*(?:\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*\n?[ \t]*\)", re.S)
_INLINE_HTML = re.compile(
    r"<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*"  # an autolink
    r"|[^\s<>@\\]+@[A-Za-z0-9.-]+"  # an email autolink
    r"|[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)*\s*/?"
    r"|/[A-Za-z][A-Za-z0-9-]*\s*"
    r"|!--.*?--)>", re.S)


def cjk_friendly(markdown: str) -> str:
    """``markdown`` with the emphasis of each paragraph that CommonMark would misread in
    Chinese (or Japanese, Korean) written as HTML; other paragraphs are returned unchanged.

    >>> print(cjk_friendly("在牌桌上（第10课），**该怎么出？**会给出建议。"))
    在牌桌上（第10课），<strong>该怎么出？</strong>会给出建议。
    >>> print(cjk_friendly("**外层*内层：*外层**。`x*y*` 与 snake_case"))
    <strong>外层<em>内层：</em>外层</strong>。`x*y*` 与 snake\\_case
    >>> print(cjk_friendly("见[**第3课：**拖拉机](04-tractors.ipynb#**)。\\n\\n*Plain* English."))
    见[<strong>第3课：</strong>拖拉机](04-tractors.ipynb#**)。
    <BLANKLINE>
    *Plain* English.
    """
    edits: dict[int, str] = {}
    for block in _blocks(markdown):
        edits.update(_spelled_out(markdown, block))
    if not edits:
        return markdown
    return "".join(edits.get(i, c) for i, c in enumerate(markdown))


# Blocks: where inline markdown is, in the cell's source

def _blocks(source: str) -> Iterator[list[tuple[int, int]]]:
    """The inline content of each paragraph, heading, list item and table cell of ``source``:
    for each, the ``(start, end)`` of its lines' text (quote and list markers left out)."""
    lines: list[tuple[int, int]] = []  # the paragraph so far
    depth = 0  # its quote depth
    item = 0  # the column where the text of the list item we are in starts (0: in no list)
    fence: tuple[str, int] | None = None  # in fenced code: its fence, and how far the closing one may be indented
    html: re.Pattern[str] | None = None  # in an HTML block: the line that ends it
    offset = 0
    for line in source.splitlines(keepends=True):
        start, end = offset, offset + len(line.rstrip("\r\n"))
        offset += len(line)
        text = source[start:end]
        if fence is not None:
            closing = len(text) - len(text.lstrip(" \t>"))
            if closing <= fence[1] and text[closing:].rstrip(" \t").lstrip(fence[0][0]) == "" \
                    and text.startswith(fence[0], closing):
                fence = None
            continue
        if html is not None:
            if html.search(text):
                html = None
            continue
        if not text.strip():
            yield from _cells_of(source, lines)
            lines = []
            continue
        indent = len(text) - len(text.lstrip(" \t"))
        if not lines and indent < item:
            item = 0  # out of the list
        if indent >= item + 4:
            if lines:
                lines.append((start + indent, end))  # the paragraph goes on
            continue  # else an indented code block
        at, quotes, new_item, code = _containers(text, continuing=bool(lines) and not item, depth=depth)
        indented = at - (len(text[:at].rstrip(" \t")) if new_item is not None or quotes else min(item, at)) > 3
        outside = new_item is None and not quotes and indent < item  # less indented than its list item's text
        if lines and new_item is None and quotes <= depth and not outside and _SETEXT.match(text, at):
            yield from _cells_of(source, lines)  # the paragraph was a heading, underlined
            lines = []
            continue
        if lines and (new_item is not None or quotes > depth or code):
            yield from _cells_of(source, lines)  # a list item or a quote ends a paragraph
            lines = []
        item = item if new_item is None else new_item
        if code:
            continue
        if not indented and (fence_match := _FENCE.match(text, at)):
            fence = (fence_match.group(1) or fence_match.group(2), (0 if outside else item or at - indent) + 3)
        elif not indented and _BREAK.match(text, at):
            pass  # a thematic break
        elif not indented and (html := _html_block(text, at, interrupting=bool(lines))):
            html = None if html.search(text, at) else html
        elif not indented and (heading := _HEADING.match(text, at)):
            yield from _cells_of(source, lines)
            yield [(start + heading.end(), end)]
            lines = []
            item = 0 if outside else item
            continue
        else:
            if not lines:
                depth = quotes
            if at < end - start:
                lines.append((start + at, end))
            continue
        yield from _cells_of(source, lines)  # a block of its own ends the paragraph
        lines = []
        item = 0 if outside else item
    yield from _cells_of(source, lines)


def _containers(text: str, continuing: bool, depth: int) -> tuple[int, int, int | None, bool]:
    """Where a line's text starts after its quote and list item markers, how many quote markers
    it has, the column where the text of the list item it starts begins (``None``: it starts
    none), and whether its text is indented code. A line ``continuing`` a paragraph outside a
    list, in ``depth`` quotes, starts a list only with a bullet or ``1.`` followed by text."""
    at, quotes, item, after = 0, 0, None, ""
    while True:
        spaces = len(text[at:]) - len(text[at:].lstrip(" \t"))
        if spaces >= 5 and at + spaces < len(text) and (
                after == "item" or after == ">" and not (continuing and quotes <= depth)):
            return at + spaces, quotes, at + 1 if after == "item" else item, True
        if after == "item":
            item = at + (spaces if at + spaces < len(text) else 1)
        at += spaces
        if text.startswith(">", at):
            at, quotes, after = at + 1, quotes + 1, ">"
            continue
        marker = _ITEM.match(text, at)
        if (marker is None or _BREAK.match(text, at)
                or (continuing and quotes == depth
                    and (not text[marker.end():].strip() or marker.group(1) not in ("-", "+", "*", "1.", "1)")))):
            return at, quotes, item, False
        at, after, continuing = marker.end(), "item", False


def _html_block(text: str, at: int, interrupting: bool) -> re.Pattern[str] | None:
    """If an HTML block starts at ``at``, the line that ends it."""
    for start, end in _HTML_BLOCKS:
        if start.match(text, at):
            return end
    return _BLANK if not interrupting and _HTML_BLOCK_ALONE.match(text, at) else None


def _cells_of(source: str, lines: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
    """A paragraph's lines as one block, or a table's cells one block each."""
    if len(lines) >= 2 and "|" in source[slice(*lines[0])] and _TABLE_DELIMITERS.match(source[slice(*lines[1])]):
        for number, (start, end) in enumerate(lines):
            if number == 1:
                continue
            cell = start
            for separator in _CELL_SEPARATOR.finditer(source, start, end):
                yield [(cell, separator.start())]
                cell = separator.end()
            yield [(cell, end)]
    elif lines:
        yield lines


# Inlines: the delimiter runs of a block, and how each reading pairs them

@dataclass(frozen=True)
class _Match:
    opener: int
    closer: int
    size: int
    touches_cjk: bool


def _spelled_out(source: str, block: list[tuple[int, int]]) -> dict[int, str]:
    """The edits (position in ``source`` → new text) that write a block's emphasis as HTML,
    if the CJK-friendly reading touches CJK text or differs from CommonMark's; else none."""
    where = [i for start, end in block for i in (*range(start, end), -1)][:-1]
    text = "".join(source[i] if i >= 0 else "\n" for i in where)
    levels: list[list[tuple[int, int]]] = []
    _scan(text, 0, len(text), levels)
    if not any(levels):
        return {}
    friendly = [m for runs in levels for m in _pairs(text, runs, cjk=True)]
    common = [m for runs in levels for m in _pairs(text, runs, cjk=False)]
    key = [(m.opener, m.closer, m.size) for m in friendly]
    if key == [(m.opener, m.closer, m.size) for m in common] and not any(m.touches_cjk for m in friendly):
        return {}
    edits = {where[i]: "\\" + text[i] for runs in levels for start, length in runs
             for i in range(start, start + length)}
    for match in friendly:
        tag = _TAGS[match.size - 1]
        for i in range(match.size):
            edits[where[match.opener + i]] = edits[where[match.closer + i]] = ""
        edits[where[match.opener]], edits[where[match.closer]] = f"<{tag}>", f"</{tag}>"
    return edits


def _scan(text: str, start: int, end: int, levels: list[list[tuple[int, int]]]) -> None:
    """Append to ``levels`` the delimiter runs (``(start, length)`` of each ``*``/``_`` run) of
    ``text[start:end]``, then those of each link's text in it (emphasis never crosses a link's
    brackets); code spans, math, HTML and link destinations have none."""
    runs: list[tuple[int, int]] = []
    levels.append(runs)
    i = start
    while i < end:
        char = text[i]
        if char in "$\\" and (math := _MATH.match(text, i, end)):
            i = math.end()
        elif char == "\\":
            i += 2 if i + 1 < end and text[i + 1] in _ASCII_PUNCTUATION else 1
        elif char == "`":
            i = _code_span_end(text, i, end)
        elif char == "<" and (html := _INLINE_HTML.match(text, i, end)):
            i = html.end()
        elif char == "[" and (link := _link(text, i, end, image := text.startswith("!", i - 1))):
            if not image:  # an image's text is its alt text: no emphasis shown
                _scan(text, i + 1, link[0], levels)
            i = link[1]
        elif char in "*_":
            run = i
            while i < end and text[i] == char:
                i += 1
            runs.append((run, i - run))
        else:
            i += 1


def _code_span_end(text: str, start: int, end: int) -> int:
    """Where the code span opening at ``start`` ends, or just after its backticks if it is none."""
    opening = start
    while opening < end and text[opening] == "`":
        opening += 1
    size, i = opening - start, opening
    while (found := text.find("`" * size, i, end)) >= 0:
        after = found + size
        while after < end and text[after] == "`":
            after += 1
        if after - found == size:
            return after
        i = after
    return opening


def _link(text: str, start: int, end: int, image: bool = False) -> tuple[int, int] | None:
    """``(where its text ends, where it ends)`` of the inline link ``[text](destination)`` (or
    ``image``) at ``start``, or ``None``."""
    depth, i = 0, start
    while i < end:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "`":
            i = _code_span_end(text, i, end)
            continue
        if char == "<" and (html := _INLINE_HTML.match(text, i, end)):
            i = html.end()
            continue
        if char == "[":
            if depth and not image and not text.startswith("!", i - 1) and _link(text, i, end):
                return None  # a link holds no link: the inner one is the link
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                break
        i += 1
    destination = _DESTINATION.match(text, i + 1, end)
    return (i, destination.end()) if destination and i < end else None


def _pairs(text: str, runs: list[tuple[int, int]], *, cjk: bool) -> list[_Match]:
    """How CommonMark (``cjk=False``) or its CJK-friendly amendment pairs the delimiter runs
    of one level of a block: its *process emphasis* algorithm. Each match names the first
    character it takes of its opening and of its closing run."""
    found: list[_Match] = []
    left = [run[1] for run in runs]  # characters not yet used, of each run
    closed = [0] * len(runs)  # used by closing emphasis, from the run's start (a run closes first, then opens)
    opened = [0] * len(runs)  # used by opening emphasis, from the run's end
    flags = [_can_open_close(text, start, length, cjk) for start, length in runs]
    active = list(range(len(runs)))
    position = 0
    while position < len(active):
        closer = active[position]
        if not flags[closer][1] or not left[closer]:
            position += 1
            continue
        opener_at = _opener(text, runs, flags, left, active, position)
        if opener_at is None:
            if not flags[closer][0]:
                del active[position]
            else:
                position += 1
            continue
        opener = active[opener_at]
        size = 2 if left[opener] >= 2 and left[closer] >= 2 else 1
        opened[opener] += size
        start, end = runs[opener][0] + runs[opener][1] - opened[opener], runs[closer][0] + closed[closer]
        closed[closer] += size
        left[opener] -= size
        left[closer] -= size
        touches = any(_is_cjk(_beside(text, *runs[r], side)) for r in (opener, closer) for side in (-1, 1))
        found.append(_Match(start, end, size, touches))
        del active[opener_at + 1:position]
        position = opener_at + 1
        if not left[opener]:
            del active[opener_at]
            position -= 1
        if not left[closer]:
            del active[position]
    return sorted(found, key=lambda m: (m.opener, m.closer))


def _opener(text: str, runs: list[tuple[int, int]], flags: list[tuple[bool, bool]], left: list[int],
            active: list[int], position: int) -> int | None:
    """Where in ``active`` the nearest run before ``position`` is that can open what it closes."""
    closer = active[position]
    char, closer_size = text[runs[closer][0]], runs[closer][1]
    for at in range(position - 1, -1, -1):
        opener = active[at]
        if text[runs[opener][0]] != char or not flags[opener][0] or not left[opener]:
            continue
        opener_size = runs[opener][1]
        if ((flags[opener][1] or flags[closer][0]) and (opener_size + closer_size) % 3 == 0
                and not (opener_size % 3 == 0 and closer_size % 3 == 0)):
            continue
        return at
    return None


def _can_open_close(text: str, start: int, length: int, cjk: bool) -> tuple[bool, bool]:
    before, after = _beside(text, start, length, -1), _beside(text, start, length, 1)
    left = _flanking(before, after, cjk)
    right = _flanking(after, before, cjk)
    if text[start] == "*":
        return left, right
    return left and (not right or _is_punctuation(before)), right and (not left or _is_punctuation(after))


def _flanking(behind: str, ahead: str, cjk: bool) -> bool:
    """Whether a run is left-flanking, given the characters before (``behind``) and after
    (``ahead``) it; or right-flanking, given them the other way round. In the CJK-friendly
    amendment, CJK punctuation counts as a letter here, and a CJK character behind as punctuation."""
    if _is_space(ahead):
        return False
    if not cjk:
        return not _is_punctuation(ahead) or _is_space(behind) or _is_punctuation(behind)
    if not (_is_punctuation(ahead) and not _is_cjk(ahead)):
        return True
    return _is_space(behind) or _is_punctuation(behind) or _is_cjk(behind)


def _beside(text: str, start: int, length: int, side: int) -> str:
    """The character just before (``side=-1``) or after a run; a space at the block's edges."""
    i = start - 1 if side < 0 else start + length
    return text[i] if 0 <= i < len(text) else " "


def _is_space(char: str) -> bool:
    return char in "\t\n\f\r" or unicodedata.category(char) == "Zs"


def _is_punctuation(char: str) -> bool:
    return char in _ASCII_PUNCTUATION or unicodedata.category(char)[0] in "PS"


def _is_cjk(char: str) -> bool:
    """A wide character (East Asian Width W, F or H): CJK letters and their punctuation."""
    return unicodedata.east_asian_width(char) in ("W", "F", "H")
