"""One seat of a table of classmates (``tutor/server/tables/seat.py``): the server's table
session as a seat's page sees it — only its own seat's messages, no seed and no hand file
before the end, each seat named by its player."""

from __future__ import annotations

from tutor.core.i18n import Text
from tutor.rules.actions import Play
from tutor.rules.cards import PLAYERS
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.server.tables.seat import SEAT_MESSAGES, SeatPage
from tutor.teach.table_session import TableSession
from tutor.teach.table_view import NAMED, SEAT, named

NAMES = ("Ana", "", "Ben", "", "Cai")


def seats(seed: int = 11) -> tuple[TableSession, dict[int, SeatPage]]:
    session = TableSession(Game(seed), learners={s for s in range(PLAYERS) if NAMES[s]})
    return session, {s: SeatPage(session, s, "en", players=NAMES, info={"code": "K7QX2M"})
                     for s in range(PLAYERS) if NAMES[s]}


def play_until(session: TableSession, views: dict[int, SeatPage], done: object) -> None:
    """Computer players act for every seat (each page drawn after each event) until ``done(game)``."""
    for desk in session.desks.values():
        desk.stop_to_declare = False
    while not done(session.game):  # type: ignore[operator]
        assert session.step(for_seats=frozenset(range(PLAYERS)))
        for view in views.values():
            view.draw()


def log(view: SeatPage) -> list[str]:
    """The seat's whole log, as its page says it."""
    classmates = {s: Text(NAMED, name=name, seat=Text(SEAT, seat=s)) for s, name in enumerate(NAMES)
                  if s != view.seat and name}
    return [view.tr(named(line, classmates)) for line in view.session.desk(view.seat).log]


def test_a_seat_sees_the_shared_hand_and_names_its_players() -> None:
    session, views = seats()
    game = session.game
    ana = views[0]
    assert ana.session.game is game and ana.seat == 0
    names = [s["name"] for s in ana.traits["state"]["seats"]]
    assert names == ["You (seat 0)", "Seat 1 (computer)", "Ben (Seat 2)", "Seat 3 (computer)", "Cai (Seat 4)"]
    assert ana.traits["state"]["shared"]["code"] == "K7QX2M" and ana.traits["state"]["shared"]["players"] == list(NAMES)
    assert ana.traits["state"]["can"]["hint"] is False and ana.traits["state"]["can"]["friend_odds"] is False


def test_no_seed_and_no_hand_file_before_the_hand_is_over() -> None:
    session, views = seats()
    game = session.game
    play_until(session, views, lambda g: g.phase is Phase.PLAYING)
    for view in views.values():
        assert "seed" not in view.traits["state"]  # from the seed anyone could deal every hand again
        view.message({"type": "export", "request": 1})
        assert view.traits["download"] == {} and view.traits["feedback"]["kind"] == "refused"
    play_until(session, views, lambda g: g.phase is Phase.FINISHED)
    for view in views.values():
        assert view.traits["state"]["seed"] == game.seed
        assert [r["name"] for r in view.traits["state"]["score"]["results"]] == [s["name"] for s in view.traits["state"]["seats"]
                                                                        if s["seat"] in range(PLAYERS)]
        view.message({"type": "export", "request": 2})
        assert f"{game.seed}" in view.traits["download"]["name"]


def test_only_the_seats_own_messages_are_taken() -> None:
    session, views = seats()
    game = session.game
    ana = views[0]
    history = len(game.history)
    for kind in ("step", "hint", "friend_odds", "restart", "new", "import", "replay", "mistakes", "opponents",
                 "retry_answer"):
        assert kind not in SEAT_MESSAGES
        ana.message({"type": kind, "version": ana.traits["state"]["version"], "request": 5, "level": 3,
                                "text": "seed 1", "trick": 1})
        assert len(game.history) == history and ana.traits["handled"] == {} and session.next_level == 1 and session.game is game


def test_a_play_out_of_turn_is_refused_with_its_rule_and_changes_nothing() -> None:
    session, views = seats()
    game = session.game
    play_until(session, views, lambda g: g.phase is Phase.PLAYING and g.actor not in views)
    seat, view = next((s, v) for s, v in views.items() if s != game.actor)
    history = len(game.history)
    card = str(game.hand(seat)[0])
    view.message({"type": "act", "verb": "play", "cards": [card], "version": view.traits["state"]["version"],
                             "request": 3})
    assert len(game.history) == history
    assert view.traits["feedback"]["kind"] == "refused" and view.traits["feedback"]["rule"]
    assert not game.can(Play(seat, (game.hand(seat)[0],)))


def test_a_seat_follows_the_next_hand() -> None:
    session, views = seats()
    play_until(session, views, lambda g: g.phase is Phase.FINISHED)
    nxt = Game(12)
    session.start(nxt)
    for view in views.values():
        view.draw()
        assert view.session.game is nxt and view.traits["state"]["phase"] == "dealing"
        assert view.traits["state"]["log"] == []


def test_a_learner_whose_page_is_in_another_language_is_told_everything_again_in_it() -> None:
    from tutor.server.tables.shared import Pace, SharedTable

    table = SharedTable("K7QX2M", seed=5, pace=Pace(0, 0, 0))
    ana = table.join("Ana", "en")
    table.opened(ana, 0.0)
    table.start(ana, 0.0)
    while table.game.phase is Phase.DEALING and table.step(0.0):
        pass
    english = ana.view.traits["state"]
    table.speak(ana, "zh-Hans")
    chinese = ana.view.traits["state"]
    assert ana.lang == "zh-Hans" and chinese["phase"] == english["phase"] and len(chinese["log"]) == len(english["log"])
    assert chinese["log"] != english["log"] and any("\u4e00" <= ch <= "\u9fff" for ch in chinese["prompt"])
    assert table.drain(ana)["lang"] == "zh-Hans"  # the page is sent everything again


def test_picked_cards_are_not_sent_back_to_the_page_that_picked_them() -> None:
    from tutor.server.tables.shared import Pace, SharedTable

    table = SharedTable("K7QX2M", seed=5, pace=Pace(0, 0, 0))
    ana = table.join("Ana", "en")
    table.opened(ana, 0.0)
    table.start(ana, 0.0)
    while table.step(0.0):  # deal until Ana holds cards to pick
        if len(ana.view.traits["hand"]) >= 3:
            break
    table.drain(ana)
    table.select(ana, [0, 2])  # a learner clicking faster than the round trip must not see older picks return
    assert ana.view.traits["selected"] == [0, 2] and "selected" not in table.drain(ana)
    table.select(ana, [0, 0, 99])  # refused: the page is told what the server holds
    assert table.drain(ana) == {"selected": [0, 2]}


def test_the_deal_stops_for_a_learners_declaration_at_most_a_while() -> None:
    from tutor.server.tables.shared import DECLARE_WAIT, Pace, SharedTable

    for seed in range(50):  # a deal that stops for Ana (she can declare while it is dealt)
        table = SharedTable("K7QX2M", seed=seed, pace=Pace(0, 0, 0))
        ana = table.join("Ana", "en")
        table.opened(ana, 0.0)
        table.start(ana, 0.0)
        while table.step(0.0):
            pass
        if ana.view.waiting == "declare":
            break
    assert ana.view.waiting == "declare" and table.game.phase is Phase.DEALING
    dealt = len(table.game.history)
    assert table.due(1.0) == DECLARE_WAIT - 1.0 and not table.step(1.0) and len(table.game.history) == dealt
    assert table.due(DECLARE_WAIT) == 0.0 and ana.view.waiting != "declare"  # her stop is passed: the deal goes on
    assert table.step(DECLARE_WAIT) and len(table.game.history) > dealt


def test_the_narration_names_each_classmate() -> None:
    """Every sentence of a seat's log names a classmate by name ("Ben (Seat 2) wins …"); a
    computer's seat and the learner's own are said as lesson 10 says them."""
    import re

    session, views = seats()
    game = session.game
    play_until(session, views, lambda g: g.phase is Phase.FINISHED)
    ana = views[0]
    said = log(ana)
    assert any("Ben (Seat 2)" in line for line in said), said
    assert not [line for line in said if re.search(r"(?<!\()Seat [24]\b", line)], said
    assert any(re.search(r"(?<!\()Seat [13]\b", line) for line in said)  # the computer's seats, as before
    assert not any("Ana (Seat 0)" in line for line in said)  # the learner's own seat stays "Seat 0 (you)"
    assert any("Ana (Seat 0)" in line for line in log(views[2])) and \
        not any(re.search(r"(?<!\()Seat 0\b", line) for line in log(views[2]))
    shown = views[2].traits["state"]["log"]
    assert shown == log(views[2])[-len(shown):]  # the page's lines are these
