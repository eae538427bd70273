"""Cards as HTML, so rules values show themselves in a notebook.

Drawing only, no rules and no widgets: every function takes what it shows (cards, the
trump that orders them, the winner of a trick, the verdicts and scores the rules gave) and
returns an HTML string. Each card is drawn by :mod:`tutor.core.faces` (its style sheet
:data:`CARD_CSS` is here too); this module adds what the rules know: which cards are
trumps, a hand in its groups, a trick (:func:`trick_html`, :func:`won_trick_html`), plays
and their verdicts (:func:`verdicts_html`) and the lines of the score table
(:func:`scores_html`).

>>> from tutor.rules.notation import parse_cards
>>> "♠" in cards_html(parse_cards("♠A"))
True
>>> "大王" in card_html(parse_cards("BJ")[0])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from html import escape
from typing import Any, Protocol

from tutor.core.arguments import flag, instance, seat, whole
from tutor.rules.cards import Card, Cards
from tutor.core.errors import TutorError, shown
from tutor.core.faces import CARD_CSS, face, face_label, face_name, row, style_sheet, without_points
from tutor.core.i18n import Text, Translator, current
from tutor.rules.notation import to_cards
from tutor.rules.order import TRUMP, EffectiveSuit, Trump, as_trump
from tutor.rules.scoring import HandScore, side_name
from tutor.rules.verdict import Verdict

__all__ = ["CARD_CSS", "WonTrick", "card_face", "card_html", "card_label", "card_name", "cards_html", "hand_groups", "hand_html",
           "hand_payload",
           "lane_label", "scores_html", "trick_html", "verdicts_html", "won_trick_html"]


def card_name(card: Card, tr: Translator | None = None, *, trump: Trump | None = None) -> str:
    """What a screen reader says for ``card``: ``'ace of spades'``, ``'big joker 大王'``;
    ``', trump'`` is added when ``trump`` makes it one (T2). Said in ``tr``'s language
    (the kernel's language by default).

    >>> from tutor.core.i18n import Translator
    >>> from tutor.rules.notation import parse_cards
    >>> card_name(parse_cards("♥10")[0], trump=Trump("♥"))
    '10 of hearts, trump'
    >>> card_name(parse_cards("♠Q")[0], Translator("zh-Hans"))
    '黑桃Q'
    """
    card, trump = _card(card), _trump(trump)
    return _tr(tr)(face_name(str(card), trump is not None and trump.is_trump(card)))


def card_label(card: Card, tr: Translator | None = None, *, trump: Trump | None = None, points: bool = True) -> str:
    """A control's name for ``card``: what its face shows (its points mark only if
    ``points``), then :func:`card_name` (WCAG 2.5.3: the name contains the visible text).

    >>> from tutor.rules.notation import parse_cards
    >>> card_label(parse_cards("♥A")[0], trump=Trump("♥")).replace("\ufe0e", "")
    'A♥ — ace of hearts, trump'
    >>> card_label(parse_cards("♣5")[0], points=False).replace("\ufe0e", "")
    '5♣ — 5 of clubs'
    """
    card, trump = _card(card), _trump(trump)
    return face_label(str(card), card.points if points else 0, trump=trump is not None and trump.is_trump(card),
                      tr=_tr(tr))


def card_face(card: Card, *, trump: Trump | None = None, four_colour: bool = False,
              tr: Translator | None = None, label: bool = True) -> str:
    """The markup of one card without the style sheet (see :func:`card_html`).

    With ``label`` the card is an image for screen readers (``role="img"`` and its
    name, in ``tr``'s language: the kernel's by default); without, it is decoration
    inside a control that names it.
    """
    card, trump, tr = _card(card), _trump(trump), _tr(tr)
    return face(str(card), card.points, trump=trump is not None and trump.is_trump(card),
                four_colour=flag(four_colour, "four_colour"), tr=tr, label=flag(label, "label"))


def card_html(card: Card, *, trump: Trump | None = None, four_colour: bool = False,
              tr: Translator | None = None) -> str:
    """One card as HTML, with its style sheet; jokers as 大王 / 小王."""
    return style_sheet() + card_face(card, trump=trump, four_colour=four_colour, tr=tr)


def _row(cards: Iterable[Card], trump: Trump | None, four_colour: bool, tr: Translator) -> str:
    faces = [card_face(c, trump=trump, four_colour=four_colour, tr=tr) for c in cards]
    return row(faces) if faces else ""


def cards_html(cards: Iterable[Card], *, trump: Trump | None = None, four_colour: bool = False,
               tr: Translator | None = None, style: bool = True, label: str | None = None) -> str:
    """Cards side by side, in the order given. ``style=False`` leaves out the style
    sheet (for a page that has :data:`CARD_CSS` already). Screen readers hear the
    cards in ``tr``'s language (the kernel's by default). ``label`` says what the cards
    are (``"The kitty"``, already in the page's language): it stands above them, as a
    hand's groups are labelled, and names the group for screen readers.

    >>> from tutor.rules.notation import parse_cards
    >>> page = cards_html(parse_cards("♦5 ♠J"), label="The kitty", style=False)
    >>> page.startswith('<span class="qd-group qd-labelled" role="group" aria-label="The kitty">'), page.count("qd-card ")
    (True, 2)
    """
    cards, trump, tr = to_cards(cards), _trump(trump), _tr(tr)
    faces = row(card_face(c, trump=trump, four_colour=four_colour, tr=tr) for c in cards)
    if label is not None:
        said = escape(instance(label, str, "label"))
        faces = (f'<span class="qd-group qd-labelled" role="group" aria-label="{said}">'
                 f'<span class="qd-group-label" aria-hidden="true">{said}</span>{faces}</span>')
    return style_sheet(flag(style, "style")) + faces


def hand_payload(cards: Iterable[Card], trump: Trump, tr: Translator, *,
                 points: bool = True) -> tuple[list[Card], list[dict[str, Any]]]:
    """``cards`` in holding order (trumps first, each effective suit high to low, as
    :meth:`Trump.sorted` says) and what a page's card picker needs to draw each one: its
    face (with its points mark if ``points``), its name, its control's label (the face's
    text, then the name: :func:`card_label`) and its group's label.

    >>> from tutor.core.i18n import Translator
    >>> from tutor.rules.notation import parse_cards
    >>> order, payload = hand_payload(parse_cards("♠3 ♥5"), Trump("♥"), Translator("en"))
    >>> [str(c) for c in order], payload[0]["name"], payload[0]["label"].replace("\ufe0e", "")
    (['♥5', '♠3'], '5 of hearts, trump', '5♥5 — 5 of hearts, trump')
    """
    order: list[Card] = []
    payload: list[dict[str, Any]] = []
    for lane, group in hand_groups(cards, trump):
        label = lane_label(lane, tr)
        for card in group:
            order.append(card)
            name, spoken, face = _drawn(card, as_trump(trump), tr.language, points)
            payload.append({"text": str(card), "name": name, "group": label, "label": spoken, "face": face})
    return order, payload


@cache
def _drawn(card: Card, trump: Trump, language: str, points: bool) -> tuple[str, str, str]:
    """A held card's name, its control's label and its face (54 cards × 5 trumps × the
    languages): at a table every seat's hand is drawn again after each action."""
    tr = Translator(language)
    face = card_face(card, trump=trump, tr=tr, label=False)
    return (card_name(card, tr, trump=trump), card_label(card, tr, trump=trump, points=points),
            face if points else without_points(face))


def lane_label(lane: int, tr: Translator | None = None) -> str:
    """The heading of one group of a held hand: ``'Trumps'`` or the suit symbol (in
    ``tr``'s language, the kernel's by default)."""
    if whole(lane, "lane", low=0, high=TRUMP) != TRUMP:
        return Trump.suit_name(lane)
    tr = _tr(tr)
    return tr("Trumps")


def hand_groups(cards: Iterable[Card], trump: Trump) -> list[tuple[EffectiveSuit, list[Card]]]:
    """``cards`` in holding order (:meth:`Trump.sorted`), cut into runs of one
    effective suit: ``[(lane, cards), …]``, trumps first.

    >>> from tutor.rules.notation import parse_cards
    >>> [(lane.name, len(cs)) for lane, cs in hand_groups(parse_cards("♠3 ♥4 ♠A ♣2 BJ"), Trump("♥"))]
    [('TRUMP', 3), ('SPADES', 2)]
    """
    groups: list[tuple[EffectiveSuit, list[Card]]] = []
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
    return f'{style_sheet(flag(style, "style"))}<span class="qd-hand">{"".join(parts)}</span>'


def trick_html(plays: Sequence[tuple[int, Sequence[Card]]], *, trump: Trump | None = None,
               winner: int | None = None, seats: int = 5, four_colour: bool = False,
               tr: Translator | None = None, style: bool = True, finished: bool = False) -> str:
    """A trick as a table of the five seats in playing order from the lead (C4): who
    led, what each seat played (in holding order, when ``trump`` is given), and — when
    ``winner`` (an index into ``plays``) is given — who wins. Seats yet to play show a
    dash. The caller decides the winner.

    A ``finished`` trick is over: only ``plays`` are shown (the lead of a last trick,
    when the other plays do not matter), no seat as still to play, and its caption,
    "The trick", is shown above it.

    >>> from tutor.rules.notation import parse_cards
    >>> page = trick_html([(3, parse_cards("♠A")), (4, parse_cards("♠3"))], winner=0)
    >>> page.count("<tr"), "Lead" in page, "Wins" in page
    (5, True, True)
    >>> done = trick_html([(0, parse_cards("♣9 ♣9"))], finished=True)
    >>> done.count("<tr"), "not played yet" in done, '<caption class="qd-trick-caption"' in done
    (1, False, True)
    """
    tr, trump, plays = _tr(tr), _trump(trump), _plays(plays)
    whole(seats, "seats", low=1, high=10)
    finished = flag(finished, "finished")
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
            cell = _row(cards if trump is None else trump.sorted(cards), trump, four_colour, tr) or "&nbsp;"
            rows.append(f'<tr class="{"qd-winner" if won else ""}" data-seat="{seat}"><th scope="row">{name}{badges}</th>'
                        f'<td>{cell}</td></tr>')
        elif not finished:
            rows.append(f'<tr data-seat="{seat}"><th scope="row">{name}</th>'
                        f'<td class="qd-wait">—<span class="qd-sr">{waiting}</span></td></tr>')
    caption = escape(tr("The trick"))
    shown = 'class="qd-trick-caption" style="text-align:left;font-weight:600"' if finished else 'class="qd-sr"'
    return (f'{style_sheet(flag(style, "style"))}<table class="qd-trick"><caption {shown}>{caption}</caption>'
            f'<tbody>{"".join(rows)}</tbody></table>')


class WonTrick(Protocol):
    """A trick the game has recorded (:class:`tutor.rules.game.TrickWon`): its plays, each
    ``(seat, cards)`` in playing order, and the seat that won it."""

    @property
    def plays(self) -> Sequence[tuple[int, Sequence[Card]]]: ...

    @property
    def seat(self) -> int: ...


def won_trick_html(trick: WonTrick, *, trump: Trump | None = None, four_colour: bool = False,
                   tr: Translator | None = None, style: bool = True) -> str:
    """A trick as the game recorded it (:func:`trick_html`), the seat that won it marked.

    >>> from tutor import play_random_hand
    >>> last = play_random_hand(3).tricks[-1]
    >>> f'<tr class="qd-winner" data-seat="{last.seat}">' in won_trick_html(last)
    True
    """
    plays = _plays(trick.plays)
    winner = [played for played, _ in plays].index(seat(trick.seat))
    return trick_html(plays, trump=trump, winner=winner, four_colour=four_colour, tr=tr, style=style)


def verdicts_html(plays: Iterable[tuple[Iterable[Card], Verdict]], *, trump: Trump | None = None,
                  four_colour: bool = False, tr: Translator | None = None, style: bool = True) -> str:
    """Plays and the rules' verdicts on them, as a table: the cards played, ``legal`` or
    ``illegal (W3)`` (the rule broken), and why. The words say it, the colour only repeats it.

    >>> from tutor import check_follow, parse_cards
    >>> play = parse_cards("♠K ♠3")
    >>> page = verdicts_html([(play, check_follow("♠K ♠5 ♠3 ♠A ♠A", "♠9 ♠9", play, "♥"))])
    >>> "illegal (W3)" in page, page.count('<th scope="col">')
    (True, 3)
    """
    tr, trump = _tr(tr), _trump(trump)
    head = "".join(f'<th scope="col">{escape(tr(title))}</th>'
                   for title in (Text("you play"), Text("verdict"), Text("why")))
    rows = []
    for cards, verdict in plays:
        verdict = instance(verdict, Verdict, "verdict")
        word = Text("legal") if verdict.legal else Text("illegal ({rule})", rule=verdict.rule)
        rows.append(f'<tr><td>{_row(to_cards(cards), trump, four_colour, tr)}</td>'
                    f'<td class="{"qd-legal" if verdict.legal else "qd-illegal"}">{escape(tr(word))}</td>'
                    f'<td>{escape(tr(verdict.reason))}</td></tr>')
    return (f'{style_sheet(flag(style, "style"))}<table class="qd-verdicts"><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def scores_html(results: Iterable[HandScore], *, tr: Translator | None = None, style: bool = True) -> str:
    """Hands scored (:func:`tutor.score_hand`) as lines of the score table (S1–S3): the
    attackers' total A, the row of the table it falls in, and what the declarer, the friend
    and each attacker score (a solo has no friend: a dash).

    >>> from tutor import score_hand
    >>> page = scores_html([score_hand(75), score_hand(120, solo=True)])
    >>> page.count("<tr>"), "<td>+2</td>" in page, "<td>—</td>" in page
    (3, True, True)
    """
    tr = _tr(tr)
    titles = (Text("attackers' total A"), Text("row of the table"), side_name("declarer"), side_name("friend"),
              Text("each attacker"))
    lines = ["<tr>" + "".join(f'<th scope="col">{escape(tr(title))}</th>' for title in titles) + "</tr>"]
    for result in results:
        result = instance(result, HandScore, "result")
        cells = (str(result.points), tr(result.row),
                 *("—" if side == "friend" and result.solo else f"{result[side]:+d}" for side in result))
        lines.append("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>")
    # (a phone scrolls a wide table in its own box, which the keyboard can reach: WCAG 2.1.1)
    return (f'{style_sheet(flag(style, "style"))}<div class="qd-wide" tabindex="0">'
            f'<table class="qd-scores">{"".join(lines)}</table></div>')


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
