"""A card's face as HTML, drawn from its notation: the bottom of the drawings.

The cards show themselves in a notebook with it (``Card._repr_html_``), and
:mod:`tutor.teach.display` draws hands and tricks from it, so it knows nothing of the cards
module, only notation text (``♥10``, ``BJ``) and what the caller says: the card's points
and whether it is a trump. Cards are HTML and CSS sized in ``em`` (crisp at any size,
nothing fetched), styled by :data:`CARD_CSS`, which follows JupyterLab's light or dark
theme and otherwise the browser's ``prefers-color-scheme``. Suit colours are colour-blind
safe (ink against vermilion differ in lightness as well as hue, and every card shows its
suit symbol); ``four_colour=True`` gives ♦ blue and ♣ green. Jokers read 大王 / 小王.

>>> 'aria-label="ace of spades"' in face("♠A", 0)
True
>>> "大王" in face("BJ", 0), 'class="qd-points"' in face("♥K", 10)
(True, True)

A question whose answer is the cards' points draws them without their badges
(:func:`without_points`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from html import escape
from typing import Final

from tutor.core.i18n import Text, Translator, current

CARD_CSS = """
.qd-cards{display:inline-flex;flex-wrap:wrap;gap:.25em;align-items:flex-end;vertical-align:middle}
.qd-card{--qd-face:#fff;--qd-edge:#7b818c;--qd-ink:#1b1b1b;--qd-red:#b83200;--qd-blue:#0060a8;
 --qd-green:#00705a;--qd-mark-bg:#f3cd4f;--qd-mark-ink:#2b2100;--qd-trump:#e69f00;
 position:relative;display:inline-flex;flex-direction:column;justify-content:center;align-items:center;
 box-sizing:border-box;width:2.5em;height:3.5em;padding:.1em;border:1px solid var(--qd-edge);
 border-radius:.3em;background:var(--qd-face);color:var(--qd-ink);line-height:1;text-align:center;
 font:600 1em/1 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","PingFang SC",
 "Microsoft YaHei",sans-serif;box-shadow:0 1px 2px rgba(0,0,0,.25);user-select:none;vertical-align:bottom}
.qd-card .qd-rank{font-size:1.05em;letter-spacing:-.04em}
.qd-card .qd-pip{font-size:1.25em;margin-top:.1em;font-family:"DejaVu Sans","Noto Sans Symbols2",
 "Segoe UI Symbol",sans-serif}
.qd-card.qd-h,.qd-card.qd-d,.qd-card.qd-big{color:var(--qd-red)}
.qd-four .qd-card.qd-d,.qd-card.qd-four.qd-d{color:var(--qd-blue)}
.qd-four .qd-card.qd-c,.qd-card.qd-four.qd-c{color:var(--qd-green)}
.qd-card.qd-joker .qd-rank{writing-mode:vertical-rl;white-space:nowrap;font-size:.95em;line-height:1;letter-spacing:0}
.qd-card.qd-joker .qd-pip{font-size:.8em}
.qd-card.qd-trump{border-top:.28em solid var(--qd-trump)}
.qd-card .qd-points{position:absolute;top:-.45em;right:-.45em;min-width:1.1em;padding:0 .2em;
 border-radius:.6em;background:var(--qd-mark-bg);color:var(--qd-mark-ink);font-size:.62em;line-height:1.35em;
 box-sizing:border-box}
.qd-group{display:inline-flex;flex-direction:column;margin:0 .6em .3em 0;vertical-align:top}
.qd-group-label{font:600 .85em system-ui,sans-serif;color:var(--jp-ui-font-color2,#555);margin-bottom:.2em}
.qd-hand{display:inline-flex;flex-wrap:wrap;align-items:flex-start}
.qd-trick{border-collapse:collapse;font:.95em system-ui,sans-serif;color:var(--jp-content-font-color1,inherit)}
.qd-trick td,.qd-trick th{padding:.3em .6em;text-align:left;vertical-align:middle;
 border-bottom:1px solid var(--jp-border-color2,#ddd)}
.qd-trick th{font-weight:600;white-space:nowrap}
.qd-trick .qd-wait{color:var(--jp-ui-font-color2,#777)}
.qd-badge{display:inline-block;margin-left:.4em;padding:0 .4em;border-radius:.6em;font-size:.8em;
 border:1px solid currentColor}
.qd-trick tr.qd-winner th,.qd-trick tr.qd-winner td{background:var(--jp-success-color3,#e6f4ea)}
.qd-verdicts th,.qd-verdicts td{padding:.25em .6em;text-align:left;vertical-align:middle}
.qd-verdicts .qd-legal{color:#2e7d32;font-weight:600}
.qd-verdicts .qd-illegal{color:#c62828;font-weight:600}
.qd-scores th,.qd-scores td{padding:.15em .6em;text-align:center}
.qd-wide{overflow-x:auto;max-width:100%}
body[data-jp-theme-light="false"] .qd-card{--qd-face:#2b2f36;--qd-edge:#8b93a1;--qd-ink:#eef0f3;
 --qd-red:#ff9a6b;--qd-blue:#7dc0f5;--qd-green:#5fd3ae;--qd-trump:#f0b429}
body[data-jp-theme-light="false"] .qd-trick tr.qd-winner th,
body[data-jp-theme-light="false"] .qd-trick tr.qd-winner td{background:#1e3a2a}
body[data-jp-theme-light="false"] .qd-verdicts .qd-legal{color:#81c995}
body[data-jp-theme-light="false"] .qd-verdicts .qd-illegal{color:#ff8a80}
@media (prefers-color-scheme:dark){
 body:not([data-jp-theme-light]) .qd-card{--qd-face:#2b2f36;--qd-edge:#8b93a1;--qd-ink:#eef0f3;
  --qd-red:#ff9a6b;--qd-blue:#7dc0f5;--qd-green:#5fd3ae;--qd-trump:#f0b429}
 body:not([data-jp-theme-light]) .qd-trick tr.qd-winner td,
 body:not([data-jp-theme-light]) .qd-trick tr.qd-winner th{background:#1e3a2a}
 body:not([data-jp-theme-light]) .qd-verdicts .qd-legal{color:#81c995}
 body:not([data-jp-theme-light]) .qd-verdicts .qd-illegal{color:#ff8a80}}
.qd-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);
 white-space:nowrap;border:0}
@media (forced-colors:active){.qd-card{border:1px solid CanvasText}}
"""
"""The style sheet of every drawing of cards, and of the tables drawn with them (a trick,
plays and their verdicts, the score table); the widgets include it too."""

_SUIT_CLASS = {"♠": "qd-s", "♥": "qd-h", "♣": "qd-c", "♦": "qd-d"}
_SUIT_WORD = {"♠": Text("spades"), "♥": Text("hearts"), "♣": Text("clubs"), "♦": Text("diamonds")}
_RANK_WORD: dict[str, str] = {"J": Text("jack"), "Q": Text("queen"), "K": Text("king"), "A": Text("ace")}
_JOKER = {"BJ": (Text("big joker 大王"), "大王", "qd-big"), "SJ": (Text("small joker 小王"), "小王", "qd-small")}
_TEXT = "\ufe0e"  # text presentation: never draw ♥ ♦ as colour emoji
_POINTS_MARK: Final = '<span class="qd-points" aria-hidden="true">{points}</span>'
"""The badge with a card's points, as :func:`face` draws it (and :func:`without_points` finds it)."""
_POINTS_MARKS: Final = re.compile(re.escape(_POINTS_MARK).replace(re.escape("{points}"), "[0-9]+"))


def style_sheet(include: bool = True) -> str:
    """The style sheet as a ``<style>`` element (nothing when not ``include``)."""
    return f"<style>{CARD_CSS}</style>" if include else ""


@cache
def face_name(notation: str, trump: bool = False) -> Text:
    """What a screen reader says for the card written ``notation``: ``ace of spades``,
    ``big joker 大王``; ``, trump`` is added for a trump.

    >>> face_name("♥10", trump=True), face_name("SJ")
    ('10 of hearts, trump', 'small joker 小王')
    """
    name: Text
    if notation in _JOKER:
        name = _JOKER[notation][0]
    else:
        rank = notation[1:]
        name = Text("{rank} of {suit}", rank=_RANK_WORD.get(rank, rank), suit=_SUIT_WORD[notation[0]])
    return Text("{card}, trump", card=name) if trump else name


def _rank_pip(notation: str) -> tuple[str, str]:
    """What a face shows of ``notation``: its rank (大王 / 小王 for a joker) and its pip."""
    if notation in _JOKER:
        return _JOKER[notation][1], "★"
    return notation[1:], notation[0] + _TEXT


def face_text(notation: str, points: int) -> str:
    """The text a face shows, read off the screen: rank, suit sign, points mark.

    >>> face_text("♥A", 0) == "A♥\ufe0e", face_text("♣5", 5) == "5♣\ufe0e5", face_text("BJ", 0)
    (True, True, '大王★')
    """
    rank, pip = _rank_pip(notation)
    return f"{rank}{pip}{points or ''}"


def face_label(notation: str, points: int, *, trump: bool = False, tr: Translator | None = None) -> str:
    """A control's name for the card written ``notation``: what its face shows, then its name in
    words, so that the name contains the visible text (WCAG 2.5.3: a learner who speaks to the
    page says what they see).

    >>> face_label("♥A", 0, trump=True) == "A♥\ufe0e — ace of hearts, trump"
    True
    """
    return f"{face_text(notation, points)} — {(tr or current())(face_name(notation, trump))}"


def face(notation: str, points: int, *, trump: bool = False, four_colour: bool = False,
         tr: Translator | None = None, label: bool = True) -> str:
    """The markup of the card written ``notation`` (one of the 54), without the style sheet.

    With ``label`` the card is an image for screen readers (``role="img"`` and its
    name, in ``tr``'s language: the kernel's by default); without, it is decoration
    inside a control that names it. ``points`` above zero are marked on the card.
    """
    classes = ["qd-card"]
    rank, pip = _rank_pip(notation)
    classes += ["qd-joker", _JOKER[notation][2]] if notation in _JOKER else [_SUIT_CLASS[notation[0]]]
    if trump:
        classes.append("qd-trump")
    if four_colour:
        classes.append("qd-four")
    aria = (f' role="img" aria-label="{escape((tr or current())(face_name(notation, trump)))}"' if label
            else ' aria-hidden="true"')
    mark = _POINTS_MARK.format(points=points) if points else ""
    return (f'<span class="{" ".join(classes)}" data-card="{escape(notation)}" title="{escape(notation)}"{aria}>'
            f'<span class="qd-rank" aria-hidden="true">{rank}</span>'
            f'<span class="qd-pip" aria-hidden="true">{pip}</span>{mark}</span>')


def without_points(markup: str) -> str:
    """``markup`` — card faces drawn by :func:`face`, alone or inside a hand, a row or a
    trick — with every card's points badge left out: the cards of a question whose answer
    is their points (C3) must not carry it. Nothing else changes.

    >>> without_points(row([face("♥K", 10), face("♠3", 0)])) == row([face("♥K", 0), face("♠3", 0)])
    True
    """
    return _POINTS_MARKS.sub("", markup)


def row(faces: Iterable[str]) -> str:
    """Card faces side by side (an empty row for none).

    >>> row([face("♠3", 0), face("♠4", 0)]).count('class="qd-card ')
    2
    """
    return f'<span class="qd-cards">{"".join(faces)}</span>'
