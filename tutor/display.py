"""Cards as HTML, so rules values show themselves in a notebook.

Drawing only, no rules and no widgets: every function takes what it shows (cards, the
trump that orders them, the winner of a trick) and returns an HTML string. Cards are
HTML and CSS sized in ``em`` (crisp at any size, nothing fetched), styled by
:data:`CARD_CSS`, which follows JupyterLab's light or dark theme and otherwise the
browser's ``prefers-color-scheme``. Suit colours are colour-blind safe (ink against
vermilion differ in lightness as well as hue, and every card shows its suit symbol);
``four_colour=True`` gives ♦ blue and ♣ green. Jokers read 大王 / 小王.

>>> from tutor.notation import parse_cards
>>> "♠" in cards_html(parse_cards("♠A"))
True
>>> "大王" in card_html(parse_cards("BJ")[0])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from html import escape

from tutor.arguments import flag, instance, seat, whole
from tutor.cards import BIG_JOKER, RANK_TEXT, Card, Cards
from tutor.errors import TutorError, shown
from tutor.i18n import Text, Translator, current
from tutor.notation import to_cards
from tutor.order import TRUMP, Trump, as_trump

_SUIT_CLASS = {"♠": "qd-s", "♥": "qd-h", "♣": "qd-c", "♦": "qd-d"}
_SUIT_WORD = {"♠": Text("spades"), "♥": Text("hearts"), "♣": Text("clubs"), "♦": Text("diamonds")}
_RANK_WORD: dict[int, str] = {**{r: str(r) for r in range(2, 11)},
                              11: Text("jack"), 12: Text("queen"), 13: Text("king"), 14: Text("ace")}
_BIG_JOKER = Text("big joker 大王")
_SMALL_JOKER = Text("small joker 小王")
_TEXT = "\ufe0e"  # text presentation: never draw ♥ ♦ as colour emoji

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
body[data-jp-theme-light="false"] .qd-card{--qd-face:#2b2f36;--qd-edge:#8b93a1;--qd-ink:#eef0f3;
 --qd-red:#ff9a6b;--qd-blue:#7dc0f5;--qd-green:#5fd3ae;--qd-trump:#f0b429}
body[data-jp-theme-light="false"] .qd-trick tr.qd-winner th,
body[data-jp-theme-light="false"] .qd-trick tr.qd-winner td{background:#1e3a2a}
@media (prefers-color-scheme:dark){
 body:not([data-jp-theme-light]) .qd-card{--qd-face:#2b2f36;--qd-edge:#8b93a1;--qd-ink:#eef0f3;
  --qd-red:#ff9a6b;--qd-blue:#7dc0f5;--qd-green:#5fd3ae;--qd-trump:#f0b429}
 body:not([data-jp-theme-light]) .qd-trick tr.qd-winner td,
 body:not([data-jp-theme-light]) .qd-trick tr.qd-winner th{background:#1e3a2a}}
.qd-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);
 white-space:nowrap;border:0}
@media (forced-colors:active){.qd-card{border:1px solid CanvasText}}
"""
"""The style sheet of every drawing here; the widgets include it too."""


def _style(include: bool = True) -> str:
    return f"<style>{CARD_CSS}</style>" if include else ""


def card_name(card: Card, tr: Translator | None = None, *, trump: Trump | None = None) -> str:
    """What a screen reader says for ``card``: ``'ace of spades'``, ``'big joker 大王'``;
    ``', trump'`` is added when ``trump`` makes it one (T2). Said in ``tr``'s language
    (the kernel's language by default).

    >>> from tutor.i18n import Translator
    >>> from tutor.notation import parse_cards
    >>> card_name(parse_cards("♥10")[0], trump=Trump("♥"))
    '10 of hearts, trump'
    >>> card_name(parse_cards("♠Q")[0], Translator("zh-Hans"))
    '黑桃Q'
    """
    card, trump = _card(card), _trump(trump)
    return _tr(tr)(_card_name(card, trump is not None and trump.is_trump(card)))


@cache
def _card_name(card: Card, trump: bool) -> Text:
    name: Text
    if card.suit is None:
        name = _BIG_JOKER if card.rank == BIG_JOKER else _SMALL_JOKER
    else:
        name = Text("{rank} of {suit}", rank=_RANK_WORD[card.rank], suit=_SUIT_WORD[card.suit.value])
    return Text("{card}, trump", card=name) if trump else name


def card_face(card: Card, *, trump: Trump | None = None, four_colour: bool = False,
              tr: Translator | None = None, label: bool = True) -> str:
    """The markup of one card without the style sheet (see :func:`card_html`).

    With ``label`` the card is an image for screen readers (``role="img"`` and its
    name, in ``tr``'s language: the kernel's by default); without, it is decoration
    inside a control that names it.
    """
    card, trump, tr = _card(card), _trump(trump), _tr(tr)
    flag(four_colour, "four_colour")
    flag(label, "label")
    classes = ["qd-card"]
    if card.suit is None:
        big = card.rank == BIG_JOKER
        classes += ["qd-joker", "qd-big" if big else "qd-small"]
        rank, pip = ("大王" if big else "小王"), "★"
    else:
        classes.append(_SUIT_CLASS[card.suit.value])
        rank, pip = RANK_TEXT[card.rank], card.suit.value + _TEXT
    if trump is not None and trump.is_trump(card):
        classes.append("qd-trump")
    if four_colour:
        classes.append("qd-four")
    aria = (f' role="img" aria-label="{escape(card_name(card, tr, trump=trump))}"' if label
            else ' aria-hidden="true"')
    mark = f'<span class="qd-points" aria-hidden="true">{card.points}</span>' if card.points else ""
    return (f'<span class="{" ".join(classes)}" data-card="{escape(str(card))}" title="{escape(str(card))}"{aria}>'
            f'<span class="qd-rank" aria-hidden="true">{rank}</span>'
            f'<span class="qd-pip" aria-hidden="true">{pip}</span>{mark}</span>')


def card_html(card: Card, *, trump: Trump | None = None, four_colour: bool = False,
              tr: Translator | None = None) -> str:
    """One card as HTML, with its style sheet; jokers as 大王 / 小王."""
    return _style() + card_face(card, trump=trump, four_colour=four_colour, tr=tr)


def _row(cards: Iterable[Card], trump: Trump | None, four_colour: bool, tr: Translator) -> str:
    faces = "".join(card_face(c, trump=trump, four_colour=four_colour, tr=tr) for c in cards)
    return f'<span class="qd-cards">{faces}</span>' if faces else ""


def cards_html(cards: Iterable[Card], *, trump: Trump | None = None, four_colour: bool = False,
               tr: Translator | None = None, style: bool = True) -> str:
    """Cards side by side, in the order given. ``style=False`` leaves out the style
    sheet (for a page that has :data:`CARD_CSS` already). Screen readers hear the
    cards in ``tr``'s language (the kernel's by default)."""
    cards, trump, tr = to_cards(cards), _trump(trump), _tr(tr)
    faces = "".join(card_face(c, trump=trump, four_colour=four_colour, tr=tr) for c in cards)
    return f'{_style(flag(style, "style"))}<span class="qd-cards">{faces}</span>'


def lane_label(lane: int, tr: Translator | None = None) -> str:
    """The heading of one group of a held hand: ``'Trumps'`` or the suit symbol (in
    ``tr``'s language, the kernel's by default)."""
    if whole(lane, "lane", low=0, high=TRUMP) != TRUMP:
        return Trump.suit_name(lane)
    tr = _tr(tr)
    return tr("Trumps")


def hand_groups(cards: Iterable[Card], trump: Trump) -> list[tuple[int, list[Card]]]:
    """``cards`` in holding order (:meth:`Trump.sorted`), cut into runs of one
    effective suit: ``[(lane, cards), …]``, trumps first.

    >>> from tutor.notation import parse_cards
    >>> [(lane, len(cs)) for lane, cs in hand_groups(parse_cards("♠3 ♥4 ♠A ♣2 BJ"), Trump("♥"))]
    [(4, 3), (0, 2)]
    """
    groups: list[tuple[int, list[Card]]] = []
    trump = as_trump(trump)
    for card in trump.sorted(to_cards(cards)):
        lane = trump.lane(card)
        if groups and groups[-1][0] == lane:
            groups[-1][1].append(card)
        else:
            groups.append((lane, [card]))
    return groups


def hand_html(cards: Iterable[Card], trump: Trump, *, four_colour: bool = False,
              tr: Translator | None = None, style: bool = True) -> str:
    """A hand the way players hold it: trumps apart, then each side suit, high to low
    (labels in ``tr``'s language, the kernel's by default)."""
    tr, trump = _tr(tr), as_trump(trump)
    parts = []
    for lane, group in hand_groups(cards, trump):
        label = escape(lane_label(lane, tr))
        parts.append(f'<span class="qd-group" role="group" aria-label="{label}">'
                     f'<span class="qd-group-label" aria-hidden="true">{label}</span>'
                     f'{_row(group, trump, four_colour, tr)}</span>')
    return f'{_style(flag(style, "style"))}<span class="qd-hand">{"".join(parts)}</span>'


def trick_html(plays: Sequence[tuple[int, Sequence[Card]]], *, trump: Trump | None = None,
               winner: int | None = None, seats: int = 5, four_colour: bool = False,
               tr: Translator | None = None, style: bool = True) -> str:
    """A trick as a table of the five seats in playing order from the lead (C4): who
    led, what each seat played, and — when ``winner`` (an index into ``plays``) is
    given — who wins. Seats yet to play show a dash. The caller decides the winner.

    >>> from tutor.notation import parse_cards
    >>> page = trick_html([(3, parse_cards("♠A")), (4, parse_cards("♠3"))], winner=0)
    >>> page.count("<tr"), "Lead" in page, "Wins" in page
    (5, True, True)
    """
    tr, trump, plays = _tr(tr), _trump(trump), _plays(plays)
    whole(seats, "seats", low=1, high=10)
    if winner is not None:
        whole(winner, "winner", low=0)
    lead_badge, wins_badge, waiting = escape(tr("Lead")), escape(tr("Wins")), escape(tr("not played yet"))
    rows = []
    played = {seat: (i, cards) for i, (seat, cards) in enumerate(plays)}
    lead = plays[0][0] if plays else 0
    for step in range(seats):
        seat = (lead + step) % seats
        name = escape(tr("Seat {seat}", seat=seat))
        if seat in played:
            index, cards = played[seat]
            badges = ""
            if index == 0:
                badges += f'<span class="qd-badge">{lead_badge}</span>'
            won = winner is not None and index == winner
            if won:
                badges += f'<span class="qd-badge">{wins_badge}</span>'
            cell = _row(cards, trump, four_colour, tr) or "&nbsp;"
            rows.append(f'<tr class="{"qd-winner" if won else ""}" data-seat="{seat}"><th scope="row">{name}{badges}</th>'
                        f'<td>{cell}</td></tr>')
        else:
            rows.append(f'<tr data-seat="{seat}"><th scope="row">{name}</th>'
                        f'<td class="qd-wait">—<span class="qd-sr">{waiting}</span></td></tr>')
    caption = escape(tr("The trick"))
    return (f'{_style(flag(style, "style"))}<table class="qd-trick"><caption class="qd-sr">{caption}</caption>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _card(card: object) -> Card:
    return instance(card, Card, "card")


def _trump(trump: object) -> Trump | None:
    return None if trump is None else as_trump(trump)  # type: ignore[arg-type]


def _tr(tr: object) -> Translator:
    return current() if tr is None else instance(tr, Translator, "tr")


def _plays(plays: object) -> list[tuple[int, Cards]]:
    """A trick's plays: ``(seat, cards)`` pairs."""
    if isinstance(plays, (str, bytes)) or not isinstance(plays, Sequence):
        raise TutorError(Text("plays must be a list of (seat, cards) pairs, not {value}", value=shown(plays)))
    if len(plays) > 10:
        raise TutorError(Text("a trick has at most 5 plays, not {count}", count=len(plays)))
    out = []
    for play in plays:
        if not isinstance(play, Sequence) or isinstance(play, (str, bytes)) or len(play) != 2:
            raise TutorError(Text("plays must be a list of (seat, cards) pairs, not {value}", value=shown(plays)))
        out.append((seat(play[0]), to_cards(play[1])))
    return out
