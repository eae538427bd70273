"""What one seat sees of a :class:`~tutor.teach.table_session.TableSession`: a pure function of
the session, the seat, its language and the players' names (:func:`seat_view`), as the page
draws it (JSON: seats, trick, prompts, the hand, score, reviews …). Nothing another seat holds
is in it: the seat's hand, its own log and words, the others' counts and what lies on the table.

Players' names (a table of classmates) name each other seat in every sentence: the
sentences are kept as :class:`~tutor.core.i18n.Text` with each seat a placeholder, and
:func:`named` puts the names in before they are said (no context variable).

>>> from tutor.rules.game import Game
>>> from tutor.teach.table_session import TableSession
>>> session = TableSession(Game(5), learners=frozenset({0, 2}))
>>> view = seat_view(session, 2, "en", ("Ana", "", "Ben", "", ""))
>>> [s["name"] for s in view["seats"]][:3], view["waiting"]
(['Ana (Seat 0)', 'Seat 1 (computer)', 'You (seat 2)'], 'deal')
>>> seat_view(session, 0, "en")["seats"][0]["name"]
'You (seat 0)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, Final

from tutor.core.i18n import N_, Text, Translator, capitalized
from tutor.play import coach
from tutor.play.strategy import LEVELS
from tutor.rules.cards import KITTY_SIZE, PLAYERS, Card, format_cards
from tutor.rules.game import HandScored, KittyCaptured, Phase, SeatView, Solo
from tutor.rules.order import Trump
from tutor.rules.scoring import side_name
from tutor.teach import coaching, narration
from tutor.teach.display import cards_html, hand_payload, trick_html
from tutor.teach.table_session import Said, TableSession, Waiting

__all__ = ["COMPUTER", "TABLE_LABELS", "LEVEL_EXPLAINED", "LEVEL_NAMES", "LOG_SHOWN", "NAMED", "OFFERED_LEVELS", "feedback_view",
           "hint_view", "named", "seat_view"]

LOG_SHOWN: Final = 8
"""*What happened* shows the last this many lines of the seat's log, each numbered by its
place in the whole log (``log_start`` is the number of the first shown)."""
SEAT: Final = "Seat {seat}"
"""How a seat is named in a sentence or above its cards (:func:`tutor.teach.narration.who`)."""
NAMED: Final = N_("{name} ({seat})")
"""A seat a classmate plays, in every sentence: "Ana (Seat 2)"."""
COMPUTER: Final = N_("{seat} (computer)")
"""A seat the computer plays at a table of classmates, above its cards."""

LEVEL_NAMES: Final = {
    1: N_("rules of thumb"),
    2: N_("think a little"),
    3: N_("think hard"),
}
"""Each level of the computer players (:data:`tutor.play.strategy.LEVELS`) in a few words."""
LEVEL_EXPLAINED: Final = {
    1: N_("They play at once, by simple rules of thumb. The best place to start."),
    2: N_("Before each card they imagine a few ways the hidden cards could lie and try their choices "
          "out. Harder to beat."),
    3: N_("They imagine many more ways the hidden cards could lie before each card, and take a moment "
          "to think. The strongest."),
}
"""What each level means, for a newcomer."""
OFFERED_LEVELS: Final = tuple(level for level in LEVELS if level in LEVEL_NAMES and level in LEVEL_EXPLAINED)
"""The levels the learner may choose (every one of :data:`tutor.play.strategy.LEVELS`)."""


TABLE_LABELS: Final = {
    "hand": N_("Your hand"),
    "selected": N_("{card}: selected."),
    "deselected": N_("{card}: not selected."),
    "picked": N_("{count} picked."),
    "picked_of": N_("{count} of {pick} picked."),
    "play": N_("Play"),
    "bury": Text.plural("Bury this card", "Bury these {count}", count=KITTY_SIZE),
    "call": N_("Call this card"),
    "solo": N_("Go solo"),
    "pass": N_("Don't declare"),
    "declare": N_("Declare {cards}"),
    "hint": N_("What would you play?"),
    "busy_hint": N_("The coach is thinking…"),
    "busy_review": N_("The coach is going through your hand…"),
    "stuck": N_("This is taking longer than it should. Try again, or reload the page: your progress is kept."),
    "pause": N_("Pause"),
    "resume": N_("Resume"),
    "speed": N_("Computer players"),
    "deal_speed": N_("Dealing"),
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
    "stop_to_declare": N_("Stop the deal when I can declare"),
    "points": N_("{points} points"),
    "you": N_("You"),
    "seat": N_("Seat {seat}"),
    "export": N_("Download this hand"),
    "export_deal": N_("Download the deal only"),
    "import": N_("Open a hand file…"),
    "share": N_("Link to this deal:"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "restart": N_("Play this deal again"),
    "new": N_("New deal"),
    "refused": N_("Refused"),
    "rule": N_("Rule {rule}"),
    "review": N_("Trick by trick"),
    "coach_review": N_("Review my play (the coach)"),
    "coach_hand": N_("Your hand then"),
    "coach_trick": N_("The trick then"),
    "coach_weighed": N_("Plays the coach weighed"),
    "log": N_("What happened"),
    "score": N_("The score"),
    "kitty": N_("The kitty"),
    "paused": N_("Paused."),
    "ms": N_("{ms} ms"),
    "opponents": N_("Opponents"),
    "opponents_when": N_("A new choice applies from the next hand dealt; the hand in progress stays as it began."),
    "learn": N_("Learn from your mistakes"),
    "retry_answer": N_("Show the answer"),
    "retry_skip": N_("Skip"),
    "retry_next": N_("Next mistake"),
    "retry_end": N_("See how you did"),
    "retry_leave": N_("Back to the review"),
    "retry_stop": N_("Stop reviewing"),
    "replay_from": N_("Play again from this trick"),
    "friend_odds": N_("Who is the friend?"),
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""


def named(text: Text, names: Mapping[int, Text]) -> Text:
    """``text`` with each seat of ``names`` named so wherever the sentence names it.

    >>> said = narration.trick_won(3, narration.TrickWon(2, 10, (), "the lead wins (B1)"), me=0)
    >>> named(said, {2: Text(NAMED, name="Ana", seat=Text(SEAT, seat=2))})
    'Trick 3: Ana (Seat 2) wins 10 points. The lead wins (B1).'
    """
    if not names:
        return text
    return _renamed(text, names)


def _renamed(value: Text, names: Mapping[int, Text]) -> Text:
    if value.template == SEAT and value.plural_template is None:
        seat = value.params.get("seat")
        if type(seat) is int and seat in names:
            return names[seat]
    params = {key: _renamed(v, names) if isinstance(v, Text) else v for key, v in value.params.items()}
    if all(params[key] is value.params[key] for key in params):
        return value
    if value.plural_template is not None:
        count = params.pop("count")
        assert type(count) is int
        made = Text.plural(value.template, value.plural_template, count=count, **params)
    else:
        made = Text(value.template, **params)
    return made.capitalized() if type(value) is not Text else made


def seat_view(session: TableSession, seat: int, language: str, players: Sequence[str] = ()) -> dict[str, Any]:
    """What ``seat`` sees, said in ``language``. ``players``: each seat's player's name at a
    table of classmates (``""``: the computer's seat); none at lesson 10's table."""
    tr = Translator(language)
    classmates = _classmates(seat, players)

    def say(text: str) -> str:
        return tr(named(text, classmates)) if isinstance(text, Text) else text

    game, desk = session.game, session.desk(seat)
    view = game.view(seat)
    trump = view.trump if view.trump is not None else Trump(None)
    _, hand = hand_payload(view.hand, trump, tr)
    waiting = session.waiting(seat)
    finished = view.phase is Phase.FINISHED
    revealed = game.friend_revealed
    last = session.last_trick
    shared = bool(players)

    def heading(s: int) -> str:
        return _heading(s, seat, language, tuple(players[:PLAYERS]))

    shown_trick = view.trick if view.trick else (last.plays if last else ())
    played = dict(shown_trick)
    winner = last.seat if last and not view.trick else None
    seats = []
    for s in range(PLAYERS):
        roles = narration.roles(s, view, revealed=revealed, side=game.side_of(s) if finished else None)
        cards = played.get(s)
        entry: dict[str, Any] = {
            "seat": s, "name": heading(s), "you": s == seat,
            "count": view.hand_sizes[s], "count_text": tr(narration.cards_held(view.hand_sizes[s])),
            "points": view.points_shown[s], "roles": [say(r) for r in roles],
            "played": _cards_html(tuple(cards), trump, language) if cards else "",
            "played_text": format_cards(cards) if cards else "",
            "turn": view.actor == s, "winner": winner == s,
            "result": game.results[s] if finished and game.results else None,
        }
        if shared:
            entry["player"] = players[s] if s < len(players) else ""
        seats.append(entry)

    options = game.declaration_options(seat)
    mine = view.actor == seat
    retrying = session.retrying
    can = {
        "declare": bool(options), "pass": waiting is Waiting.DECLARE,
        "bury": mine and view.phase is Phase.BURYING, "call": mine and view.phase is Phase.CALLING,
        "solo": game.can(Solo(seat)), "play": mine and view.phase is Phase.PLAYING,
        "hint": (mine or view.phase is Phase.DEALING) and retrying is None and waiting is not Waiting.STORE,
        "friend_odds": view.phase is Phase.PLAYING and view.friend_card is not None and not view.solo
        and view.friend is None,
    }
    if retrying is not None and retrying.status.value != "trying":
        can["play"] = False
    delay = "deal" if waiting is Waiting.DEAL else (
        "trick" if waiting is Waiting.BOT and not view.trick and last is not None else "card")
    trick = narration.trick(view, last)
    log = desk.log
    state: dict[str, Any] = {
        "seed": game.seed, "seat": seat, "phase": view.phase.value,
        "phase_text": tr(narration.phase(view)), "waiting": waiting.value, "delay": delay,
        "prompt": say(narration.turn(view, stopped=waiting is Waiting.DECLARE)) if waiting is not Waiting.STORE else
        tr("Finding the positions from your own hands to review…"),
        "trump_text": tr(narration.trump_line(view)), "declaration_text": say(narration.declaration(view)),
        "declarer": view.declarer, "friend_card": str(view.friend_card) if view.friend_card else "",
        "friend_card_html": cards_html([view.friend_card], trump=trump, tr=tr, style=False)
        if view.friend_card else "",
        "friend_text": say(narration.friend(view, revealed=revealed)), "seats": seats,
        "trick_text": say(trick) if trick is not None else "",
        "options": [{"index": i, "text": format_cards(o), "label": tr(narration.declare_option(o, view))}
                    for i, o in enumerate(options)],
        "can": can, "pick": KITTY_SIZE if can["bury"] else 1 if can["call"] else None,
        "kitty_html": cards_html(view.kitty, trump=trump, tr=tr, style=False) if view.kitty else "",
        "log": [_logged(line, tr, classmates) for line in log[-LOG_SHOWN:]],
        "log_start": max(1, len(log) - LOG_SHOWN + 1),
        "plays": session.plays, "deal_number": game.deal_number,
        "forced": [format_cards(o) for o in view.forced_options],
        "opponents": _opponents(session.level, session.next_level, language),
        "hand": hand,
        "feedback": feedback_view(session, seat, language, players),
        "hint_text": hint_view(session, seat, language, players),
        "review_weighed": session.review_ready(seat),
    }
    if finished:
        state["score"] = _score(session, view, heading, say, tr)
        state["review"] = _review(view, desk.throws, say, tr)
        if desk.coach is not None:
            state["coach"] = _coach(desk.coach, desk.summary, tr)
    if retrying is not None:
        state["mistakes"] = _mistakes(session, tr)
    return state


def feedback_view(session: TableSession, seat: int, language: str, players: Sequence[str] = ()) -> dict[str, Any]:
    """The words ``seat`` was last given (a refusal with its rule, a note …), as :func:`seat_view`
    has them: for a page to show a refusal that changed nothing else. ``{}`` when none."""
    feedback = session.desk(seat).feedback
    if feedback is None:
        return {}
    reason = capitalized(feedback.reason) if feedback.kind is Said.REFUSED else feedback.reason
    said = Translator(language)(named(reason, _classmates(seat, players))) if isinstance(reason, Text) else reason
    return {"kind": feedback.kind.value, "rule": feedback.rule, "id": feedback.serial, "reason": said}


def hint_view(session: TableSession, seat: int, language: str, players: Sequence[str] = ()) -> str:
    """The coach's last words to ``seat`` (a hint, who the friend may be), as :func:`seat_view` has them."""
    hint = session.desk(seat).hint
    tr, classmates = Translator(language), _classmates(seat, players)
    return " ".join(tr(named(line, classmates)) for line in hint) if hint else ""


_LOGGED: dict[tuple[int, str, int], tuple[str, Mapping[int, Text], str]] = {}
"""Log lines already said, by the line, the language and the names (the same objects, kept
here while their ids are keys): each seat's log is drawn again after every action."""
MAX_LOGGED: Final = 50_000


def _logged(line: str, tr: Translator, classmates: Mapping[int, Text]) -> str:
    """A line of a desk's log as :func:`seat_view` says it."""
    if not isinstance(line, Text):
        return line
    key = (id(line), tr.language, id(classmates))
    found = _LOGGED.get(key)
    if found is not None and found[0] is line and found[1] is classmates:
        return found[2]
    said = tr(named(line, classmates))
    if len(_LOGGED) >= MAX_LOGGED:
        _LOGGED.clear()
    _LOGGED[key] = (line, classmates, said)
    return said


def _classmates(seat: int, players: Sequence[str]) -> Mapping[int, Text]:
    """The other seats a classmate plays, as every sentence names them ("Ana (Seat 2)")."""
    return _named_seats(seat, tuple(players[:PLAYERS]))


@lru_cache(maxsize=4096)
def _named_seats(seat: int, players: tuple[str, ...]) -> Mapping[int, Text]:
    return MappingProxyType({s: Text(NAMED, name=name, seat=Text(SEAT, seat=s)) for s, name in enumerate(players)
                             if s != seat and name})


@lru_cache(maxsize=4096)  # (classmates' names come and go with the tables)
def _heading(s: int, seat: int, language: str, players: tuple[str, ...]) -> str:
    """Seat ``s`` as ``seat``'s page names it: "You", "Seat 2"; at a table of classmates (their
    names: ``players``), "Ana (Seat 2)" or "Seat 3 (computer)"."""
    tr = Translator(language)
    said = tr(narration.seat_name(s, seat))
    if not players or s == seat:
        return said
    classmates = _named_seats(seat, players)
    return tr(classmates[s]) if s in classmates else tr(COMPUTER, seat=said)


@lru_cache(maxsize=4096)
def _cards_html(cards: tuple[Card, ...], trump: Trump, language: str) -> str:
    """Cards played to the trick, as every seat's page draws them after each action."""
    return cards_html(cards, trump=trump, tr=Translator(language), style=False)


@cache
def _opponents(level: int, chosen: int, language: str) -> dict[str, Any]:
    """The computer players' level: this hand's, the one chosen for the next, the choices
    (shared by the views that show them: never changed)."""
    tr = Translator(language)
    state: dict[str, Any] = {
        "level": level, "next": chosen,
        "choices": [{"level": n, "label": tr("Level {level}: {name}", level=n, name=tr(LEVEL_NAMES[n])),
                     "explain": tr(LEVEL_EXPLAINED[n])} for n in OFFERED_LEVELS],
        "text": tr("Opponents: level {level} ({name})", level=level, name=tr(LEVEL_NAMES[level])),
        "note": "",
    }
    if chosen != level:
        state["note"] = tr("Level {level} ({name}) from the next hand; this hand goes on at level {current}.",
                           level=chosen, name=tr(LEVEL_NAMES[chosen]), current=level)
    return state


def _score(session: TableSession, view: SeatView, heading: Any, say: Any, tr: Translator) -> dict[str, Any]:
    game, me = session.game, view.seat
    last = game.last_event.results if game.last_event is not None else ()
    scored = next(r for r in last if isinstance(r, HandScored))
    capture = next((r for r in last if isinstance(r, KittyCaptured)), None)
    results = [{"seat": s, "name": heading(s), "side": tr(side_name(game.side_of(s))),
                "result": scored.results[s]} for s in range(PLAYERS)]
    return {"points": scored.score.points, "explain": tr(capitalized(scored.score.explanation)),
            "lines": [say(line) for line in narration.score_lines(scored, view, game.kitty, capture)],
            "results": results, "verdict": tr(narration.verdict(scored, me)),
            "kitty_html": cards_html(game.kitty, tr=tr, style=False)}


def _review(view: SeatView, throws: Mapping[int, Sequence[Text]], say: Any, tr: Translator) -> list[dict[str, Any]]:
    out = []
    for n, (won, line) in enumerate(zip(view.tricks, narration.review(view), strict=True), 1):
        index = next(i for i, (s, _) in enumerate(won.plays) if s == won.seat)
        out.append({"n": n, "html": trick_html(won.plays, trump=view.trump, winner=index, tr=tr, style=False),
                    "text": say(line), "notes": [say(note) for note in throws.get(n - 1, [])]})
    return out


def _coach(decisions: Sequence[coach.Decision], summary: Text | None, tr: Translator) -> dict[str, Any]:
    items = []
    for decision in decisions:
        view, trump = decision.view, decision.view.trump
        items.append({
            "text": tr(coaching.decision_line(decision)), "costly": decision.costly, "trick": decision.trick,
            "trick_html": trick_html(list(view.trick), trump=trump, tr=tr, style=False) if view.trick else "",
            "hand_html": cards_html(view.hand, trump=trump, tr=tr, style=False),
            "weighed": [tr(coaching.weighed_play(value, trump)) for value in decision.found.values[:coach.SHOWN]],
        })
    return {"heading": tr(coaching.review_heading(decisions)), "items": items,
            "costly": sum(1 for d in decisions if d.costly), "summary": tr(summary) if summary is not None else ""}


def _mistakes(session: TableSession, tr: Translator) -> dict[str, Any]:
    lesson, review = session.retrying, session.due
    assert lesson is not None
    decision = lesson.decision
    if review is not None:
        number, count = review.at + 1, len(review.positions)
        text = tr("Your positions to review (advice, not rules): position {number} of {count}, from a hand "
                  "you played. In trick {trick} you played {cards}; the coach found a better play. Pick your "
                  "cards and press Play to try again.", number=number, count=count, trick=decision.trick,
                  cards=decision.played)
    else:
        number, count = lesson.at + 1, len(lesson.decisions)
        text = tr("Learn from your mistakes (advice, not rules): mistake {number} of {count}. In trick "
                  "{trick} you played {cards}; the coach found a better play. Pick your cards and press "
                  "Play to try again.", number=number, count=count, trick=decision.trick, cards=decision.played)
    return {"number": number, "count": count, "trick": decision.trick, "status": lesson.status.value,
            "last": number == count, "text": text, "said": [tr(line) for line in lesson.said],
            "review": review is not None}
