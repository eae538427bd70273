"""One seat of a table of classmates (widgets/seat.py): lesson 10's table as a seat of the
server's hand sees it — only its own seat's messages, no seed and no hand file before the
end, each seat named by its player."""

from __future__ import annotations

from tutor.play.strategy import ComputerPlayer, next_action
from tutor.rules.actions import Play
from tutor.rules.cards import PLAYERS
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from widgets.seat import SEAT_MESSAGES, TableSeat

NAMES = ("Ana", "", "Ben", "", "Cai")


def seats(seed: int = 11) -> tuple[Game, dict[int, TableSeat]]:
    game = Game(seed)
    return game, {s: TableSeat(game, seat=s, lang="en", players=NAMES, info={"code": "K7QX2M"})
                  for s in range(PLAYERS) if NAMES[s]}


def play_until(game: Game, views: dict[int, TableSeat], done: object) -> None:
    """Computer players act for every seat (the views witness each event) until ``done(game)``."""
    bots = {s: ComputerPlayer(s, game.seed) for s in range(PLAYERS)}
    while not done(game):  # type: ignore[operator]
        before = len(game.history)
        game.apply(next_action(game, bots))
        for view in views.values():
            view.witness(before)


def test_a_seat_sees_the_shared_hand_and_names_its_players() -> None:
    game, views = seats()
    ana = views[0]
    assert ana.game is game and ana.seat == 0
    names = [s["name"] for s in ana.state["seats"]]
    assert names == ["You (seat 0)", "Seat 1 (computer)", "Ben (Seat 2)", "Seat 3 (computer)", "Cai (Seat 4)"]
    assert ana.state["shared"]["code"] == "K7QX2M" and ana.state["shared"]["players"] == list(NAMES)
    assert ana.state["can"]["hint"] is False and ana.state["can"]["friend_odds"] is False


def test_no_seed_and_no_hand_file_before_the_hand_is_over() -> None:
    game, views = seats()
    play_until(game, views, lambda g: g.phase is Phase.PLAYING)
    for view in views.values():
        assert "seed" not in view.state  # from the seed anyone could deal every hand again
        view._handle_custom_msg({"type": "export", "request": 1}, [])
        assert view.download == {} and view.feedback["kind"] == "refused"
    play_until(game, views, lambda g: g.phase is Phase.FINISHED)
    for view in views.values():
        assert view.state["seed"] == game.seed
        assert [r["name"] for r in view.state["score"]["results"]] == [s["name"] for s in view.state["seats"]
                                                                        if s["seat"] in range(PLAYERS)]
        view._handle_custom_msg({"type": "export", "request": 2}, [])
        assert f"{game.seed}" in view.download["name"]


def test_only_the_seats_own_messages_are_taken() -> None:
    game, views = seats()
    ana = views[0]
    history = len(game.history)
    for kind in ("step", "hint", "friend_odds", "restart", "new", "import", "replay", "mistakes", "opponents",
                 "retry_answer"):
        assert kind not in SEAT_MESSAGES
        ana._handle_custom_msg({"type": kind, "version": ana.state["version"], "request": 5, "level": 3,
                                "text": "seed 1", "trick": 1}, [])
        assert len(game.history) == history and ana.handled == {} and ana.next_level == 1 and ana.game is game


def test_a_play_out_of_turn_is_refused_with_its_rule_and_changes_nothing() -> None:
    game, views = seats()
    play_until(game, views, lambda g: g.phase is Phase.PLAYING and g.actor not in views)
    seat, view = next((s, v) for s, v in views.items() if s != game.actor)
    history = len(game.history)
    card = str(game.hand(seat)[0])
    view._handle_custom_msg({"type": "act", "verb": "play", "cards": [card], "version": view.state["version"],
                             "request": 3}, [])
    assert len(game.history) == history
    assert view.feedback["kind"] == "refused" and view.feedback["rule"]
    assert not game.can(Play(seat, (game.hand(seat)[0],)))


def test_a_seat_follows_the_next_hand() -> None:
    game, views = seats()
    play_until(game, views, lambda g: g.phase is Phase.FINISHED)
    nxt = Game(12)
    for view in views.values():
        view.follow(nxt)
        assert view.game is nxt and view.state["phase"] == "dealing" and view.state["log"] == []


def test_a_learner_whose_page_is_in_another_language_is_told_everything_again_in_it() -> None:
    from tutor.server.tables.shared import Pace, SharedTable

    table = SharedTable("K7QX2M", seed=5, pace=Pace(0, 0, 0))
    ana = table.join("Ana", "en")
    table.opened(ana, 0.0)
    table.start(ana, 0.0)
    while table.game.phase is Phase.DEALING and table.step(0.0):
        pass
    english = ana.view.state
    table.speak(ana, "zh-Hans")
    chinese = ana.view.state
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
        if len(ana.view.hand) >= 3:
            break
    table.drain(ana)
    table.select(ana, [0, 2])  # a learner clicking faster than the round trip must not see older picks return
    assert ana.view.selected == [0, 2] and "selected" not in table.drain(ana)
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

    game, views = seats()
    play_until(game, views, lambda g: g.phase is Phase.FINISHED)
    ana = views[0]
    log = list(ana._log)
    assert any("Ben (Seat 2)" in line for line in log), log
    assert not [line for line in log if re.search(r"(?<!\()Seat [24]\b", line)], log
    assert any(re.search(r"(?<!\()Seat [13]\b", line) for line in log)  # the computer's seats, as before
    assert not any("Ana (Seat 0)" in line for line in log)  # the learner's own seat stays "Seat 0 (you)"
    assert any("Ana (Seat 0)" in line for line in views[2]._log) and \
        not any(re.search(r"(?<!\()Seat 0\b", line) for line in views[2]._log)
