"""Display-only views: a held hand, a trick table, and a row of cards and sentences.
They show themselves in a notebook (``_repr_html_``) without a kernel round trip;
who wins a trick is asked of :func:`tutor.explain_trick`.

The lessons show their examples with these: :func:`row` puts cards and sentences side
by side, :func:`trick_view` draws a trick with its winner and why; :func:`show` and
:func:`trick` display them at once. Each returns :class:`Html`, text that a notebook
draws and that is an ``ipywidgets.HTML`` value as it is. Sentences are said in the
kernel's language (the page's) unless a ``lang`` is given.

A lesson's examples that need more than one row are drawn here too, each asking the rules
module and drawing its answer, so a lesson cell holds data and a call: plays and their
verdicts (:func:`follows_view`), a ruff and its reason (:func:`ruff_view`), a throw against
the other hands (:func:`throw_view`), a lead cut into its parts (:func:`lead_view`,
:func:`components_view`), a declaration against the one on the table
(:func:`overturn_view`), a kitty flipped (:func:`flip_view`), a card called as the friend
(:func:`call_view`), who knows the friend (:func:`who_knows_view`), who showed out
(:func:`shown_out_view`), the points a seat has not seen (:func:`points_left_view`), a
scored hand (:func:`score_view`), the attackers' total of a finished hand, every addend said
(:func:`attackers_total_view`) and the calls the coach weighed (:func:`weighed_calls_view`).
A sentence whose template holds markup is :func:`markup`; a link to share, made whole by the
page it is shown on, :func:`link_view`.

>>> from tutor.core.i18n import Text
>>> from tutor.rules.notation import parse_cards
>>> page = row(parse_cards("♠A ♠A"), Text("a pair"), lang="zh-Hans")
>>> "对子" in page, page.count('class="qd-card ')
(True, 2)
>>> view = trick_view(["♠A", "♠3", "♥4"], "♥", first_seat=3, points=True)
>>> '<tr class="qd-winner" data-seat="0">' in view, "it ruffs" in view
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from html import escape
from itertools import count
from typing import Any, Final, cast

import IPython.display

from tutor.core.arguments import instance
from tutor.play import unseen_points
from tutor.rules import (PACK, Cards, Declaration, Game, KittyCaptured, SeatView, Verdict, check_declaration,
                         check_follow, check_ruff, check_throw, flip_trump, kitty_flip, points, score_hand, shape_of,
                         shown_out, side_name)
from tutor.rules.cards import PLAYERS, Card
from tutor.teach.display import CARD_CSS, cards_html, hand_html, scores_html, trick_html, verdicts_html
from tutor.teach.coaching import signed
from tutor.core.errors import TutorError
from tutor.core.i18n import Text, Translator, and_list, said
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump, TrumpLike, as_trump
from tutor.rules.trick import TrickOutcome, explain_trick
from widgets._common import translator

Part = Iterable[Card] | str | BaseException | Verdict
"""One item of a :func:`row`: cards (a :class:`~tutor.rules.cards.Cards` or any iterable of
cards), a sentence (a :class:`~tutor.core.i18n.Text` or a string, said in the row's
language; an :class:`Html` sentence, made by :func:`markup`, as its markup), an error (its
reason is said) or a :class:`~tutor.rules.verdict.Verdict` (its whole sentence is said, as
:meth:`~tutor.rules.verdict.Verdict.say` says it)."""

_display: Final = cast(Callable[..., None], IPython.display.display)
"""IPython's ``display`` (untyped upstream): shows an object as a cell's output."""

_ROW: Final = '<div style="display:flex;flex-wrap:wrap;align-items:center;gap:.4em 1.4em;margin:.35em 0">'


class Html(str):
    """HTML that shows itself: a notebook draws it (``_repr_html_``), and it is text
    wherever HTML text is wanted (an ``ipywidgets.HTML`` value, a page).

    >>> page = Html("<b>♠A</b>")
    >>> page._repr_html_(), page + "!"
    ('<b>♠A</b>', '<b>♠A</b>!')
    """

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """What a notebook's plain-text output says (the HTML itself is for the page)."""
        printer.text(f"<HTML: {len(self)} characters>")


def row(*parts: Part, trump: TrumpLike = None, lang: str | None = None, four_colour: bool = False) -> Html:
    """Cards and sentences side by side, wrapping on a narrow page, with the cards'
    style sheet: the way a lesson shows an example (``row(hand, lead, verdict.say())``).
    Cards are drawn in the order given, the trumps of ``trump`` marked (None: none
    marked, not no-trump).

    >>> page = row(parse_cards("♥3"), "✓", trump="♥")
    >>> "3 of hearts, trump" in page, "<span style=\\"max-width:38em\\">✓</span>" in page
    (True, True)
    """
    return Html(_style() + _row(parts, _trump(trump), translator(lang), four_colour))


def show(*parts: Part, trump: TrumpLike = None, lang: str | None = None, four_colour: bool = False) -> None:
    """Display :func:`row` of ``parts`` now (in a notebook cell: its output)."""
    _display(row(*parts, trump=trump, lang=lang, four_colour=four_colour))


def markup(text: Text, *, lang: str | None = None) -> Html:
    """A sentence whose template holds markup (``<b>``, ``<code>``), said in ``lang``'s
    language (the kernel's by default) with its parameters escaped: :class:`Html` that
    :func:`row` and :func:`show` put as it is.

    >>> markup(Text("The pack: <b>{count}</b> cards in {name}.", count=108, name="<all>"))
    'The pack: <b>108</b> cards in &lt;all&gt;.'
    >>> '<span style="max-width:38em">The pack: <b>108</b>' in row(markup(Text("The pack: <b>{count}</b>", count=108)))
    True
    """
    tr = translator(lang)
    text = instance(text, Text, "text")
    params = {name: escape(value) if isinstance(value := tr.value(param), str) else value
              for name, param in text.params.items()}
    return Html(tr.fill(tr.template(text), params))


def trick_view(plays: Sequence[CardsLike], trump: TrumpLike, *, first_seat: int = 0, points: bool = False,
               lang: str | None = None, four_colour: bool = False) -> Html:
    """The trick whose ``plays`` are given in playing order, the lead first from
    ``first_seat``: a :class:`TrickTable` with its winner and why (B1), and with
    ``points`` the points it takes.

    >>> view = trick_view(["♠5", "♠K", "♠10"], "♥", points=True)
    >>> '<tr class="qd-winner" data-seat="1">' in view, "+25" in view
    (True, True)
    """
    seated = [((first_seat + i) % PLAYERS, cards) for i, cards in enumerate(plays)]
    table = TrickTable(seated, trump, points=points, lang=lang, four_colour=four_colour)
    return Html(table._repr_html_())


def trick(plays: Sequence[CardsLike], trump: TrumpLike, *, first_seat: int = 0, points: bool = False,
          lang: str | None = None, four_colour: bool = False) -> None:
    """Display :func:`trick_view` of ``plays`` now (in a notebook cell: its output)."""
    _display(trick_view(plays, trump, first_seat=first_seat, points=points, lang=lang, four_colour=four_colour))


class Hand:
    """A hand held the way players hold it: trumps apart, then each side suit, high to low.

    >>> hand = Hand("♠3 ♥4 ♠A ♣2 BJ", trump="♥")
    >>> str(hand.cards)
    'BJ ♣2 ♥4 ♠A ♠3'
    """

    def __init__(self, cards: CardsLike, trump: TrumpLike = None, *, lang: str | None = None,
                 four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.cards: Cards = self.trump.sorted(parse_cards(cards))
        self.four_colour = four_colour
        self._tr = translator(lang)

    def _repr_html_(self) -> str:
        return hand_html(self.cards, self.trump, four_colour=self.four_colour, tr=self._tr)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """What a notebook's plain-text output says (the drawing is for the page)."""
        printer.text(f"<Hand: {self.cards}>")


class TrickTable:
    """The five seats of a trick: the lead, each play and — asked of the rules — the
    winner and why (B1), and with ``points`` the points the trick takes. ``plays`` are
    ``(seat, cards)`` in playing order.

    >>> table = TrickTable([(3, "♠A"), (4, "♠3"), (0, "♥4")], trump="♥")
    >>> table.outcome.winner, table.outcome.reason
    (2, '♥4 wins: it ruffs: all trumps on a side-suit lead (R1–R4)')
    """

    def __init__(self, plays: Sequence[tuple[int, CardsLike]], trump: TrumpLike = None, *,
                 show_winner: bool = True, points: bool = False, lang: str | None = None,
                 four_colour: bool = False) -> None:
        self.trump = as_trump(trump)
        self.plays = [(seat, parse_cards(cards)) for seat, cards in plays]
        self.show_winner = show_winner
        self.points = points
        self.four_colour = four_colour
        self._tr = translator(lang)
        self.outcome: TrickOutcome | None = None
        self.problem: str | None = None
        if self.plays and show_winner:
            try:
                self.outcome = explain_trick([cards for _, cards in self.plays], self.trump)
            except TutorError as error:
                self.problem = said(error)

    def _repr_html_(self) -> str:
        winner = self.outcome.winner if self.outcome else None
        table = trick_html(self.plays, trump=self.trump, winner=winner, four_colour=self.four_colour, tr=self._tr,
                           style=False)
        parts: list[Part] = []
        if self.outcome:
            parts = [self.outcome.reason, *([Text("+{points} points", points=self.outcome.points)] if self.points else [])]
        elif self.problem:
            parts = [self.problem]
        said_row = _row(parts, self.trump, self._tr, self.four_colour) if parts else ""
        return table + _style() + said_row

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """What a notebook's plain-text output says (the drawing is for the page)."""
        printer.text(f"<TrickTable: {len(self.plays)} plays>")


def ruff_view(hand: CardsLike, lead: CardsLike, play: CardsLike, trump: TrumpLike, *, beat: CardsLike | None = None,
              lang: str | None = None) -> Html:
    """A trump play on a side-suit lead, as the rules judge it (R1–R5): the hand, the lead,
    the play and the ruff it must beat (with ``beat``) in a row, and below the reason,
    naming its rule once (:attr:`~tutor.rules.verdict.Verdict.reason_cited`).

    >>> view = ruff_view("♥Q ♥K ♣4", "♥A", "♥K", "♥")
    >>> view.count('class="qd-card '), "(R1)" in view
    (5, True)
    """
    verdict = check_ruff(hand, lead, play, trump, beat=beat)
    shown = [parse_cards(cards) for cards in (hand, lead, play, beat) if cards is not None]
    return Html(row(*shown, trump=trump, lang=lang) + row(verdict.reason_cited, trump=trump, lang=lang))


def follows_view(hand: CardsLike, lead: CardsLike, plays: Sequence[CardsLike], trump: TrumpLike, *,
                 lang: str | None = None) -> Html:
    """Plays from ``hand`` on ``lead``, each with the rules' verdict (W0–W5,
    :func:`tutor.rules.follow.check_follow`), as a table
    (:func:`tutor.teach.display.verdicts_html`).

    >>> view = follows_view("♠A ♠A ♠K ♠5 ♠3", "♠9 ♠9", ["♠K ♠5", "♠A ♠A"], "♥")
    >>> view.count("<tr>"), "illegal (W3)" in view
    (3, True)
    """
    trump = as_trump(trump)
    judged = [(parse_cards(play), check_follow(hand, lead, play, trump)) for play in plays]
    return Html(verdicts_html(judged, trump=trump, tr=translator(lang)))


def throw_view(throw: CardsLike, others: Sequence[CardsLike], trump: TrumpLike, *, lang: str | None = None) -> Html:
    """A throw against the other players' hands, as the rules judge it (L3–L5): the throw,
    the other hands, and whether it stands — if not, the leads the thrower may be made to
    play instead.

    >>> view = throw_view("♠A ♠Q ♠Q", ["♠K ♠K ♠3", "♠9 ♥4", "♣3", "♦4"], "♥")
    >>> view.count("<div"), "(L4)" in view
    (3, True)
    """
    result = check_throw(throw, others, trump)
    return Html(row(parse_cards(throw), trump=trump, lang=lang)
                + row(*[parse_cards(hand) for hand in others], trump=trump, lang=lang)
                + row(result.reason, *[Cards(option) for option in result.options], trump=trump, lang=lang))


def lead_view(cards: CardsLike, trump: TrumpLike, *, lang: str | None = None) -> Html:
    """A lead and what it is made of (L1–L2): its cards, then its parts (``the pair ♠A ♠A ·
    the single ♠K``) — or why these cards cannot be led together.

    >>> "the pair ♠A ♠A  ·  the single ♠K" in lead_view("♠A ♠A ♠K", "♥")
    True
    >>> "mixes" in lead_view("♠A ♥3", "♥")
    True
    """
    cards, trump = parse_cards(cards), as_trump(trump)
    try:
        parts = shape_of(cards, trump).components
    except TutorError as error:
        return row(cards, error, trump=trump, lang=lang)
    tr = translator(lang)
    return row(cards, "  ·  ".join(tr(part.describe()) for part in parts), trump=trump, lang=lang)


def components_view(cards: CardsLike, trump: TrumpLike, *, lang: str | None = None) -> Html:
    """``cards`` cut into the singles, pairs and tractors the rules see in them (M1–M3): a row
    for each part, its cards and its name. Cards that cannot be read or led together raise
    :class:`~tutor.core.errors.TutorError` (:class:`widgets.choose.Choose` shows its reason).

    >>> components_view("♠Q ♠Q ♠J ♠J ♠5", "♥").count("<div")
    2
    """
    trump = as_trump(trump)
    parts = shape_of(parse_cards(cards), trump).components
    return Html("".join(row(Cards(part.cards), part.describe(), trump=trump, lang=lang) for part in parts))


def overturn_view(table: CardsLike | None, showing: CardsLike, seat: int, *, table_seat: int = 0,
                  lang: str | None = None) -> Html:
    """Whether ``seat`` showing ``showing`` may declare over ``table``, the declaration
    ``table_seat`` made (None: nothing declared yet), as the rules judge it (D1–D3): the two
    showings and the verdict.

    >>> "(D3)" in overturn_view("♥2", "♥2 ♥2", 0)
    True
    """
    current = None if table is None else Declaration(table, seat=table_seat)
    verdict = check_declaration(Declaration(showing, seat=seat), current)
    return row(parse_cards(table or ""), "→", parse_cards(showing), verdict, lang=lang)


def flip_view(kitty: CardsLike, *, lang: str | None = None) -> Html:
    """A kitty flipped because nobody declared (D6): its cards, the card that decides and
    the trump it makes — or, when no card decides, that the deal is void.

    >>> "♥ trumps" in flip_view("♦K ♥2 ♠3 ♠3 ♦K ♥9 ♣10 SJ")
    True
    >>> "the deal is void (D6)" in flip_view("♠3 ♠3 ♥9 ♥9 ♦K ♦K SJ SJ")
    True
    """
    cards = parse_cards(kitty)
    flipped = kitty_flip(cards)
    if flipped is None:
        return row(cards, Text("no card decides: the deal is void (D6)"), lang=lang)
    return row(cards, Cards([flipped]), str(flip_trump(flipped)), lang=lang)


def call_view(game: Game, seat: int, card: Card | CardsLike, *, lang: str | None = None) -> Html:
    """The card ``seat`` would name to call a friend in ``game`` (F1–F2), and the rules'
    answer: why it is refused, or the seat of the friend it makes (which, in a real game,
    nobody else would know yet). Tried on a copy of ``game``, which is left as it was."""
    trial = game.copy()
    called = Cards([card]) if isinstance(card, Card) else parse_cards(card)
    try:
        trial.call(seat, card)
    except TutorError as error:
        return row(called, error, trump=trial.trump, lang=lang)
    return row(called, Text("Accepted: the friend is seat {seat}.", seat=trial.friend), trump=trial.trump, lang=lang)


def who_knows_view(game: Game, *, lang: str | None = None) -> Html:
    """What each seat knows of the friend's seat (F2, F6), one sentence a seat: as its own
    view of ``game`` says (:meth:`~tutor.rules.game.Game.view`)."""
    sentences: list[Part] = []
    for seat in range(PLAYERS):
        friend = game.view(seat).friend
        if friend is None:
            sentences.append(Text("Seat {seat} does not know who the friend is.", seat=seat))
        elif friend == seat:
            sentences.append(Text("Seat {seat} is the friend, and knows it.", seat=seat))
        else:
            sentences.append(Text("Seat {seat} knows the friend: seat {friend}.", seat=seat, friend=friend))
    return Html("".join(row(sentence, lang=lang) for sentence in sentences))


def points_left_view(view: SeatView, *, lang: str | None = None) -> Html:
    """Counting points from one seat's view (C3): the points of each trick so far, the
    seat's hand and its points, and the points it has not seen yet — the pack's, less
    those played and its own (:func:`tutor.play.unseen_points`).

    >>> from tutor.play import computer_hand
    >>> game, _ = computer_hand(4, tricks=6)
    >>> "200 − " in points_left_view(game.view(1)), points_left_view(game.view(1)).count("<div")
    (True, 3)
    """
    played = sum(trick.points for trick in view.tricks)
    mine = points(view.hand)
    each = ", ".join(str(trick.points) for trick in view.tricks)
    left = Text("Not yet seen by you (the other four hands and the kitty): {total} − {played} − {mine} = {left} "
                "points.", total=points(PACK), played=played, mine=mine, left=unseen_points(view))
    return Html(row(Text("The tricks so far held, trick by trick: {each} points.", each=each), lang=lang)
                + row(Cards(view.hand), Text("your hand: {points} points", points=mine), trump=view.trump, lang=lang)
                + row(left, lang=lang))


def shown_out_view(plays: Sequence[tuple[int, CardsLike]], trump: TrumpLike, *, lang: str | None = None) -> Html:
    """Who showed out in a trick (W2, :func:`tutor.rules.follow.shown_out`): a sentence for
    each seat that did not follow the suit led, which it has none of left.

    >>> shown_out_view([(3, "♣A"), (4, "♦K"), (0, "♣4")], "♠")
    '...Seat 4 did not follow ♣: it has no ♣ left (W2)...'
    """
    trump = as_trump(trump)
    seated = [(seat, parse_cards(cards)) for seat, cards in plays]
    if not seated:
        return Html("")
    suit = Trump.suit_name(trump.lane(seated[0][1][0]))
    return Html("".join(row(Text("Seat {seat} did not follow {suit}: it has no {suit} left (W2).", seat=seat,
                                 suit=suit), lang=lang) for seat in shown_out(seated, trump)))


SHARE_CSS: Final = """
.qd-share{display:flex;flex-wrap:wrap;align-items:center;gap:.35em .6em;margin:.5em 0;max-width:60em}
.qd-share-label{flex:1 0 100%;font-weight:600}
.qd-share-field{flex:1 1 24em;min-width:0;box-sizing:border-box;font:.9em/1.35 ui-monospace,"SFMono-Regular",Menlo,
 Consolas,monospace;padding:.35em .5em;border:1px solid var(--jp-border-color1,#b8bcc4);border-radius:.4em;
 background:var(--jp-layout-color1,#fff);color:var(--jp-content-font-color1,#1b1b1b);resize:none;
 overflow-wrap:anywhere;word-break:break-all;white-space:pre-wrap}
.qd-share-field:focus-visible,.qd-share-copy:focus-visible{outline:3px solid var(--jp-brand-color1,#1565c0);
 outline-offset:2px}
.qd-share-copy{font:inherit;padding:.3em .9em;border-radius:.4em;cursor:pointer;border:1px solid
 var(--jp-brand-color1,#1565c0);background:var(--jp-brand-color1,#1565c0);color:#fff}
.qd-share-status{color:var(--jp-content-font-color2,#555)}
"""
"""The style of a link to share (:func:`link_view`)."""

_SHARE_JS: Final = """(function (box) {
  if (!box || box.dataset.ready) return;
  var field = box.querySelector("[data-qd=share-field]"), copy = box.querySelector("[data-qd=share-copy]");
  var status = box.querySelector("[data-qd=share-status]"), open = box.querySelector("[data-qd=share-open]");
  var url = new URL(box.dataset.href, window.location.href).href;
  field.value = url;
  open.href = url;
  var fit = function () { field.style.height = "auto"; field.style.height = field.scrollHeight + 2 + "px"; };
  fit();
  if (window.ResizeObserver) new ResizeObserver(fit).observe(field);
  var said = function (done) { status.textContent = done ? box.dataset.copied : box.dataset.failed; };
  var byHand = function () {
    field.focus();
    field.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  };
  copy.addEventListener("click", function () {
    status.textContent = "";
    field.select();
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(url).then(function () { said(true); }, function () { said(byHand()); });
    } else {
      said(byHand());
    }
  });
  copy.hidden = false;
  box.dataset.ready = "true";
})(document.currentScript && document.currentScript.previousElementSibling);"""
"""Completes a :func:`link_view` where the page runs it: the field holds the link whole, from
the page's own address (the kernel does not know the host), and Copy copies it (the
clipboard, or the browser's copy command where there is none)."""

_share_ids = count(1)


def link_view(href: str, *, lang: str | None = None) -> Html:
    """A link to share: a label, the link in a read-only field that wraps it anywhere, a Copy
    button that says "Copied." (or, where the browser copies nothing, to copy it by hand)
    and a link that opens it in a new tab. ``href`` is relative (``positions.ipynb?…``): the
    kernel does not know the host the page was served from, so the page completes it, with
    a small script, into the page's own origin and path (the served course's
    ``http://host/voila/render/positions.ipynb?…``, the static site's ``…/positions.html?…``).
    Displayed as an output (:func:`IPython.display.display`, or in an ``ipywidgets.Output``),
    where a page runs the scripts of its outputs; where none runs (an ``ipywidgets.HTML``
    value), the field keeps the relative link and Copy stays hidden.

    >>> view = link_view("positions.ipynb?position=kind%3A+trick")
    >>> 'data-href="positions.ipynb?position=kind%3A+trick"' in view, "The link to share:" in view
    (True, True)
    >>> 'readonly' in view, '<button type="button" class="qd-share-copy"' in view, "<script>" in view
    (True, True, True)
    """
    tr = translator(lang)
    field = f"qd-share-{next(_share_ids)}"
    where = escape(href)
    label, copy, copied = escape(tr("The link to share:")), escape(tr("Copy")), escape(tr("Copied."))
    failed, open_it = escape(tr("Select the link and copy it yourself.")), escape(tr("Open the link"))
    return Html(f'<style>{SHARE_CSS}</style>'
                f'<div class="qd-share qd-position-link" data-qd="share-link" data-href="{where}"'
                f' data-copied="{copied}" data-failed="{failed}">'
                f'<label class="qd-share-label" for="{field}">{label}</label>'
                f'<textarea id="{field}" class="qd-share-field" data-qd="share-field" readonly rows="2"'
                f' spellcheck="false" autocomplete="off">{where}</textarea>'
                f'<button type="button" class="qd-share-copy" data-qd="share-copy" hidden>{copy}</button>'
                f'<a data-qd="share-open" href="{where}" target="_blank" rel="noopener">{open_it}</a>'
                f'<span class="qd-share-status" data-qd="share-status" role="status" aria-live="polite"></span></div>'
                f"<script>{_SHARE_JS}</script>")


def attackers_total_view(game: Game, *, lang: str | None = None) -> Html:
    """The attackers' total A of a finished hand (S4), every addend said: each seat, its side
    and the points it won in tricks; then the sum — the attackers' tricks, the kitty capture
    (X2) and the failed throws' penalties (L5), each named — and that the points of the
    declarer's side do not count. Every number is the game's (A is
    :meth:`~tutor.rules.game.Game.attackers_points`).

    >>> from tutor import play_random_hand
    >>> view = attackers_total_view(play_random_hand(158))
    >>> "15 + 45 + 55 + 80 = 195" in view, "80 from the kitty capture: 20 points × 4 (X2)" in view
    (True, True)
    """
    tr = translator(lang)
    seats = [(seat, game.side_of(seat), game.won_points[seat]) for seat in range(PLAYERS)]
    won: list[Part] = [Text("Seat {seat}: {side}, {points} points won", seat=seat, side=side_name(side),
                            points=points) for seat, side, points in seats]
    attackers = [(seat, points) for seat, side, points in seats if side == "attacker"]
    tricks = " + ".join(str(points) for _, points in attackers) or "0"
    addends = [tricks]
    if game.kitty_capture:
        addends.append(str(game.kitty_capture))
    if game.penalty_adjustment:
        addends.append(f"({game.penalty_adjustment:+d})")
    lines: list[Part] = [
        Text("The attackers' total A = {sum} = {total} points:", sum=" + ".join(addends),
             total=game.attackers_points()),
        Text("{points}: the points the attackers won in tricks (seats {seats})", points=tricks,
             seats=and_list([seat for seat, _ in attackers]))]
    if game.kitty_capture:
        capture = game.first_record(KittyCaptured).capture
        lines.append(Text("{points} from the kitty capture: {kitty} points × {multiplier} (X2)",
                          points=game.kitty_capture, kitty=capture.kitty_points, multiplier=capture.multiplier))
    if game.penalty_adjustment:
        lines.append(Text("{points} for failed throws (L5)", points=format(game.penalty_adjustment, "+d")))
    theirs = sum(points for _, side, points in seats if side != "attacker")
    lines.append(Text("the {points} points the declarer's side won do not count (S4)", points=theirs))
    return Html(_style() + _row(won, None, tr, False) + "".join(_row([line], None, tr, False) for line in lines))


def score_view(total: int, *, declarations: int = 1, solo: bool = False, lang: str | None = None) -> Html:
    """A hand scored (S1–S3) with the attackers' ``total``: how, in a sentence, and its line
    of the score table (:func:`tutor.teach.display.scores_html`).

    >>> view = score_view(75, declarations=2)
    >>> "(S3)" in view, "+4" in view
    (True, True)
    """
    result = score_hand(total, declarations=declarations, solo=solo)
    return Html(row(result.explanation, lang=lang) + scores_html([result], tr=translator(lang)))


def weighed_calls_view(calls: Sequence[Card | None], results: Sequence[Sequence[float]], *,
                       lang: str | None = None) -> Html:
    """Each call weighed (a card to call, or None to go solo) and its results over the deals
    tried (:func:`tutor.play.weigh_calls`): one sentence a call, its average result.

    >>> print(weighed_calls_view([None], [[2, -1]]).count("go solo: expected +0.5 over 2 deals"))
    1
    """
    sentences = []
    for call, mine in zip(calls, results, strict=True):
        choice = Text("go solo") if call is None else Text("call {card}", card=call)
        sentences.append(Text("{choice}: expected {value} over {count} deals", choice=choice,
                              value=signed(sum(mine) / len(mine)), count=len(mine)))
    return Html("".join(row(sentence, lang=lang) for sentence in sentences))


def _style() -> str:
    return f"<style>{CARD_CSS}</style>"


def _row(parts: Iterable[Part], trump: Trump | None, tr: Translator, four_colour: bool) -> str:
    items = []
    for part in parts:
        if isinstance(part, BaseException):  # a refused input or action: its reason
            part = said(part)
        if isinstance(part, Verdict):  # a rules answer: its whole sentence
            part = part.sentence
        if isinstance(part, Html):  # a sentence already in markup (:func:`markup`)
            items.append(f'<span style="max-width:38em">{part}</span>')
        elif isinstance(part, str):  # a sentence, said in the row's language
            items.append(f'<span style="max-width:38em">{escape(tr(part))}</span>')
        else:
            items.append(cards_html(part, trump=trump, four_colour=four_colour, tr=tr, style=False))
    return _ROW + "".join(items) + "</div>"


def _trump(trump: TrumpLike) -> Trump | None:
    return None if trump is None else as_trump(trump)


__all__ = ["SHARE_CSS", "Hand", "Html", "Part", "TrickTable", "attackers_total_view", "call_view", "components_view",
           "flip_view", "follows_view", "lead_view", "link_view", "markup", "overturn_view", "points_left_view", "row",
           "ruff_view", "score_view", "show", "shown_out_view", "throw_view", "trick", "trick_view",
           "weighed_calls_view", "who_knows_view"]
