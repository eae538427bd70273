"""Every table kept as its journal (``tutor/server/tables/journal.py``, ``entries.py``) and
reopened from it (:meth:`SharedTable.reopen`, :meth:`Tables.resume`), in this process, on a
real SQLite file in a temporary folder; bad input of every kind: a corrupt or foreign row, a
journal the rules refuse, a database that is locked, full, or cannot be opened.

The tables are played by :func:`test_tables.drive` (the steps, and the present learners'
plays as a page's robot chooses them); the servers started again for real, killed mid-hand,
are ``tests/test_tables_restart.py``'s.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, insert, select, update

from test_tables import drive, run
from tutor.rules.actions import Play
from tutor.rules.phase import Phase
from tutor.server.tables.entries import Acted, Entry, Opened, token_hash
from tutor.server.tables.journal import EntryRow, Journal, TableRow, sqlite_url
from tutor.server.tables.shared import Pace, SharedTable
from tutor.server.tables.web import REOPENED, Tables, resume_from

NAMES = ("Ana", "Ben", "Cai")


@pytest.fixture()
def database(tmp_path: Path) -> Iterator[str]:
    yield sqlite_url(tmp_path / "tables.sqlite3")


def seat_view(table: SharedTable, seat: int) -> dict[str, Any]:
    """What seat ``seat``'s page draws of the hand (its state, the version and the last words aside)."""
    player = table.seat_of(seat)
    assert player is not None
    state = dict(player.view.traits["state"])
    for volatile in ("version", "feedback", "shared", "prompt", "hint_text"):
        state.pop(volatile, None)
    return {"state": state, "hand": player.view.traits["hand"]}


def seated(table: SharedTable, now: float = 0.0) -> None:
    for name in NAMES:
        table.opened(table.join(name, "en"), now)


def snapshot(table: SharedTable) -> tuple[Any, ...]:
    return (table.game.seed, table.game.history, table.hands, table.started, table.names(),
            [seat_view(table, p.seat) for p in table.players])


def test_a_table_reopened_from_any_point_of_its_journal_is_the_table_it_was() -> None:
    entries: list[Entry] = []
    table = SharedTable("JRNL01", level=1, seed=31415926, pace=Pace(0, 0, 0))
    table.keep = entries.append
    seated(table)
    rng, game = random.Random(3), table.game
    points = [(len(entries), snapshot(table))]
    table.start(table.players[0], 0.0)
    for plays in (0, 1, 37, 80):
        drive(table, 0.0, lambda p=plays: game.phase is Phase.FINISHED or
              (game.phase is Phase.PLAYING and sum(isinstance(a, Play) for a in game.history) >= p), rng)
        points.append((len(entries), snapshot(table)))
    drive(table, 0.0, lambda: game.phase is Phase.FINISHED, rng)
    points.append((len(entries), snapshot(table)))
    table.again(table.players[0], 0.0)
    second = table.game
    drive(table, 0.0, lambda: second.phase is Phase.PLAYING, rng)
    points.append((len(entries), snapshot(table)))
    assert table.hands == 2 and sum(isinstance(e, Acted) for e in entries) > 250

    for count, seen in points:
        again = SharedTable.reopen(table.opening, entries[:count], pace=Pace(0, 0, 0), now=5.0)
        assert snapshot(again) == seen
    reopened = SharedTable.reopen(table.opening, entries, pace=Pace(0, 0, 0), now=5.0, note=REOPENED)
    assert all(p.absent(5.0 + 60) and p.token == "" for p in reopened.players)  # until their pages come back
    assert reopened.players[1].view.traits["feedback"]["reason"].startswith("The server was started again")
    drive(reopened, 100.0, lambda: reopened.game.phase is Phase.FINISHED, rng)  # the computer plays it out
    assert reopened.game.results is not None


def test_tables_are_written_as_they_play_and_a_new_server_reopens_them(database: str) -> None:
    async def scenario() -> None:
        journal = Journal(database)
        tables = Tables(pace=Pace(0, 0, 0), journal=journal)
        opened = [tables.open(1) for _ in range(3)]
        tokens = {}
        for number, table in enumerate(opened):
            seated(table)
            tokens[table.code] = [p.token for p in table.players]
            table.start(table.players[0], 0.0)
            game = table.game
            drive(table, 0.0, lambda g=game, n=number: g.phase is Phase.PLAYING and len(g.tricks) >= 2 * n,
                  random.Random(number))
        empty = tables.open(1)  # opened, nobody seated yet
        seen = {t.code: snapshot(t) for t in [*opened, empty]}
        journal.close()
        for code in list(tables.tables):
            tables.tables.pop(code)  # the server's memory gone (no close: that would forget them)

        raw = b"".join(path.read_bytes() for path in Path(database.removeprefix("sqlite:///")).parent.iterdir())
        assert all(token.encode() not in raw for codes in tokens.values() for token in codes)
        assert all(token_hash(token).encode() in raw for codes in tokens.values() for token in codes)

        later = Tables(pace=Pace(0, 0, 0), journal=None)
        assert later.resume(Journal(database)) == 4
        assert {code: snapshot(t) for code, t in later.tables.items()} == seen
        for code, codes in tokens.items():
            table = later.tables[code]
            assert [table.claim(token) for token in codes] == table.players
            assert table.claim(codes[0][::-1]) is None
            assert table.players[0].token == codes[0]  # sent back to the page as it rejoins
        table = later.tables[opened[0].code]
        game = table.game
        table.opened(table.players[0], later.clock())
        drive(table, later.clock() + 100.0, lambda: game.phase is Phase.FINISHED, random.Random(9))  # plays on, written
        assert later.journal is not None
        later.journal.close()
        last = Tables(pace=Pace(0, 0, 0))
        last.resume(Journal(database))
        assert last.tables[table.code].game.history == game.history and game.results is not None
        assert last.journal is not None
        last.close(table.code)  # closed: its rows go with it
        assert last.journal.status(table.code) is None and len(last.tables) == 3
        last.journal.close()

    run(scenario())


def test_an_idle_table_swept_takes_its_rows_with_it(database: str) -> None:
    async def scenario() -> None:
        clock = [1000.0]
        tables = Tables(pace=Pace(0, 0, 0), clock=lambda: clock[0], close_after=300.0, journal=Journal(database))
        idle, busy = tables.open(1), tables.open(1)
        seated(busy, 1000.0)
        clock[0] = 1300.0
        tables.sweep()
        assert tables.journal is not None and tables.journal.status(idle.code) is None
        assert tables.journal.status(busy.code) == ("open", "")
        with tables.journal.engine.connect() as connection:
            assert set(connection.scalars(select(EntryRow.code))) == {busy.code}
        tables.journal.close()

    run(scenario())


def played_journal(database: str, code: str = "GOODT1") -> tuple[Journal, SharedTable]:
    """A table of three played into its tricks, written to ``database``."""
    journal = Journal(database)
    table = SharedTable(code, level=1, seed=2718281, pace=Pace(0, 0, 0))
    journal.open_table(table.opening)
    table.keep = lambda entry: journal.write(code, entry)
    seated(table)
    table.start(table.players[0], 0.0)
    game = table.game
    drive(table, 0.0, lambda: game.phase is Phase.PLAYING and len(game.tricks) >= 3, random.Random(1))
    return journal, table


def test_a_corrupt_or_foreign_row_leaves_its_table_closed_and_kept_and_the_others_reopen(
        database: str, caplog: pytest.LogCaptureFixture) -> None:
    journal, good = played_journal(database)
    rows = [{"code": "LEVEL9", "level": 9}, {"code": "RULESX", "rules": "{\"penalty_per_card\": 7}"},
            {"code": "NOTJSN", "rules": "<xml/>"}, {"code": "seed-1", "seed": -1}]
    with journal.engine.begin() as connection:
        for row in rows:
            connection.execute(insert(TableRow), [{"level": 1, "seed": 5, "rules": "{}", "status": "open", "note": "",
                                                   "opened_at": TableRow.opened_at.type.python_type.now(), **row}])
        connection.execute(insert(TableRow), [{"code": "BADKND", "level": 1, "seed": 5, "rules": "{}", "status": "open",
                                               "note": "", "opened_at": TableRow.opened_at.type.python_type.now()}])
        connection.execute(insert(EntryRow), [{"code": "BADKND", "number": 0, "kind": "drop table", "text": "x"}])
        connection.execute(insert(TableRow), [{"code": "HOLE01", "level": 1, "seed": 5, "rules": "{}", "status": "open",
                                               "note": "", "opened_at": TableRow.opened_at.type.python_type.now()}])
        connection.execute(insert(EntryRow), [{"code": "HOLE01", "number": 1, "kind": "start", "text": ""}])
    journal.close()

    async def scenario() -> None:
        tables = Tables(pace=Pace(0, 0, 0))
        with caplog.at_level(logging.WARNING, "tutor.tables"):
            assert tables.resume(Journal(database)) == 1
        assert set(tables.tables) == {good.code} and snapshot(tables.tables[good.code]) == snapshot(good)
        assert tables.journal is not None
        bad = ["LEVEL9", "RULESX", "NOTJSN", "seed-1", "BADKND", "HOLE01"]
        for code in bad:
            status = tables.journal.status(code)
            assert status is not None and status[0] == "refused" and status[1], (code, status)
            assert any(code in r.getMessage() and "kept in the database to inspect" in r.getMessage()
                       for r in caplog.records), code
        assert "entry 'drop table' 'x' cannot be read" in str(tables.journal.status("BADKND"))
        assert "entry 0 of the journal is missing" in str(tables.journal.status("HOLE01"))
        assert "penalty_per_card" in str(tables.journal.status("RULESX"))
        assert all(r.levelno < logging.ERROR for r in caplog.records)
        again = Tables(pace=Pace(0, 0, 0))  # refused once, they stay out (kept to inspect)
        assert again.resume(Journal(database)) == 1
        fresh = tables.open(1)
        assert fresh.code not in bad

    run(scenario())


def test_a_journal_the_rules_refuse_closes_its_table_with_a_note_and_keeps_it(
        database: str, caplog: pytest.LogCaptureFixture) -> None:
    journal, table = played_journal(database)
    with journal.engine.begin() as connection:  # a play moved: the seat to play is not the one that played
        number = connection.scalar(select(EntryRow.number).where(EntryRow.kind == "act", EntryRow.text.like("play %"))
                                   .order_by(EntryRow.number))
        assert number is not None
        text = connection.scalar(select(EntryRow.text).where(EntryRow.number == number))
        assert text is not None
        seat = int(text.split()[1])
        connection.execute(update(EntryRow).where(EntryRow.number == number)
                           .values(text=f"play {(seat + 1) % 5} {' '.join(text.split()[2:])}"))
        rows = connection.scalar(select(func.count()).select_from(EntryRow))
    journal.close()

    async def scenario() -> None:
        tables = Tables(pace=Pace(0, 0, 0))
        with caplog.at_level(logging.WARNING, "tutor.tables"):
            assert tables.resume(Journal(database)) == 0
        assert tables.journal is not None
        status = tables.journal.status(table.code)
        assert status is not None and status[0] == "refused"
        assert f"entry {number} (Acted(action=Play(seat={(seat + 1) % 5}" in status[1] and "refused" in status[1]
        assert any("cannot be reopened" in r.getMessage() for r in caplog.records)
        with tables.journal.engine.connect() as connection:  # nothing deleted: kept to inspect
            assert connection.scalar(select(func.count()).select_from(EntryRow)) == rows

    run(scenario())


def plays_on_while(database: str, trouble: Callable[[Journal], Callable[[], None]],
                   caplog: pytest.LogCaptureFixture, code: str = "GOODT1") -> None:
    """A table plays on while the database refuses writes (``trouble`` starts it, and returns
    what ends it); afterwards everything is written, in order: a new server reopens the table as it is."""
    journal, table = played_journal(database, code)
    before = len(table.game.history)
    end = trouble(journal)
    game = table.game
    with caplog.at_level(logging.WARNING, "tutor.tables"):
        drive(table, 0.0, lambda: game.phase is Phase.PLAYING and len(game.tricks) >= 12, random.Random(2))
        assert len(game.history) > before + 20 and journal.behind > 0 and journal.failing_since is not None
        refusals = [r for r in caplog.records if "refused a write" in r.getMessage()]
        assert len(refusals) == 1, "said once, not at every action"
        assert not journal.retry()
        end()
        assert journal.retry() and journal.behind == 0
        assert any("takes writes again" in r.getMessage() for r in caplog.records)
    journal.close()
    later = Journal(database)
    [kept] = [k for k in later.kept() if k.opened.code == code]
    later.close()
    assert snapshot(SharedTable.reopen(kept.opened, kept.entries, pace=Pace(0, 0, 0))) == snapshot(table)


def test_a_locked_database_is_written_again_once_free(database: str, caplog: pytest.LogCaptureFixture) -> None:
    def lock(journal: Journal) -> Callable[[], None]:
        other = sqlite3.connect(database.removeprefix("sqlite:///"))
        other.execute("BEGIN EXCLUSIVE")
        return other.close

    plays_on_while(database, lock, caplog)


def test_a_full_database_is_written_again_once_there_is_room(database: str, caplog: pytest.LogCaptureFixture) -> None:
    def fill(journal: Journal) -> Callable[[], None]:
        def no_room(connection: Any, _record: Any) -> None:  # the file may not grow past its size now
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count = {pages}")

        event.listen(journal.engine, "connect", no_room)
        journal.release()
        journal.engine.dispose()

        def room() -> None:
            event.remove(journal.engine, "connect", no_room)
            journal.release()
            journal.engine.dispose()

        return room

    plays_on_while(database, fill, caplog)


def test_a_database_that_cannot_be_opened_leaves_the_tables_in_memory(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "file").write_text("not a folder")

    async def scenario() -> None:
        tables = Tables(pace=Pace(0, 0, 0))
        with caplog.at_level(logging.WARNING, "tutor.tables"):
            resume_from(tables, sqlite_url(tmp_path / "file" / "tables.sqlite3"))
        assert tables.journal is None
        assert any("kept in memory only" in r.getMessage() for r in caplog.records)
        table = tables.open(1)
        seated(table)
        table.start(table.players[0], 0.0)
        game = table.game
        drive(table, 0.0, lambda: game.phase is Phase.PLAYING, random.Random(4))

    run(scenario())


def test_a_newer_schema_than_this_server_knows_is_refused_clearly(database: str,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    Journal(database).close()
    connection = sqlite3.connect(database.removeprefix("sqlite:///"))
    connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.commit()
    connection.close()

    async def scenario() -> None:
        tables = Tables(pace=Pace(0, 0, 0))
        with caplog.at_level(logging.WARNING, "tutor.tables"):
            resume_from(tables, database)
        assert tables.journal is None
        [record] = [r for r in caplog.records if "cannot be opened" in r.getMessage()]
        assert "9999" in record.getMessage()

    run(scenario())


def test_each_change_is_written_before_the_table_returns_to_tell_anyone(database: str) -> None:
    journal = Journal(database)
    table = SharedTable("BEFORE", level=1, seed=99, pace=Pace(0, 0, 0))
    journal.open_table(table.opening)
    table.keep = lambda entry: journal.write(table.code, entry)

    def written() -> int:
        with journal.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(EntryRow)) or 0)

    seated(table)
    assert written() == len(NAMES)
    table.start(table.players[0], 0.0)
    while table.step(0.0) and len(table.game.history) < 40:  # the server sends what changed after step() returns
        assert written() == len(NAMES) + 1 + len(table.game.history)
    journal.close()
