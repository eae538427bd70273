"""Every table kept as its journal in a database, so a server started again reopens every
open table where it was (:meth:`tutor.server.tables.web.Tables.resume`).

The database is SQLAlchemy's: SQLite by default (a file in the user's data folder,
:func:`default_url`; WAL mode), a school's PostgreSQL by a URL (``--database`` or
:data:`DATABASE_VARIABLE`). Its schema is versioned by Alembic
(``tutor/server/tables/migrations``) and brought up to date when a :class:`Journal` opens it.

Two tables: ``qd_tables`` (a row per table: code, level, seed, rules, ``open`` or
``refused`` with a note) and ``qd_journal`` (each table's :mod:`entries <tutor.server.tables.entries>`,
numbered in order). An entry is written when the table changes, before anything is sent to a
page (:meth:`Journal.write`). A database that refuses a write (locked, full, gone) does not
stop the tables: the entries wait in memory, the log says so once, and they are written, in
order, when it takes them again (:meth:`Journal.retry`).

>>> import tempfile, pathlib
>>> from tutor.rules.ruleset import DEFAULT_RULES
>>> from tutor.server.tables.entries import Opened, Started
>>> folder = tempfile.mkdtemp()
>>> journal = Journal(sqlite_url(pathlib.Path(folder) / "tables.sqlite3"))
>>> journal.open_table(Opened("K7QX2M", 1, 7, DEFAULT_RULES))
>>> journal.write("K7QX2M", Started())
>>> [(kept.opened.code, kept.entries) for kept in journal.kept()]
[('K7QX2M', (Started(),))]
>>> journal.forget("K7QX2M"); journal.kept()
[]
>>> journal.close()
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import BigInteger, DateTime, Integer, String, Text, create_engine, delete, event, insert, select, update
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tutor.server.tables.entries import (Entry, JournalError, Opened, check_opened, entry_row, read_entry,
                                         rules_text)

__all__ = ["DATABASE_VARIABLE", "Journal", "Kept", "database_url", "default_url", "sqlite_url"]

LOG: Final = logging.getLogger("tutor.tables")
DATABASE_VARIABLE: Final = "QD_TABLES_DATABASE"
"""An environment variable with the tables' database URL (``sqlite:///…`` or ``postgresql+psycopg://…``);
``{port}`` in it is the server's port."""
MIGRATIONS: Final = Path(__file__).with_name("migrations")
LOCK_WAIT: Final = 0.2
"""Seconds a write waits for SQLite's lock held by another process (then it is kept to write later)."""
CONNECT_WAIT: Final = 2
"""Seconds a connection to a PostgreSQL server may take (one that is gone is tried again later)."""
RETRY_EVERY: Final = 2.0
"""Seconds between tries to write what a database refused (longer while it goes on refusing, up to a minute)."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table: as it was opened, and whether it is open or was refused on replay (kept to inspect)."""

    __tablename__ = "qd_tables"
    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    level: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    rules: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(12), default="open")
    note: Mapped[str] = mapped_column(Text, default="")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EntryRow(Base):
    """One entry of a table's journal (:func:`tutor.server.tables.entries.entry_row`)."""

    __tablename__ = "qd_journal"
    code: Mapped[str] = mapped_column(String(12), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))
    text: Mapped[str] = mapped_column(Text)


@dataclass(frozen=True, slots=True)
class Kept:
    """An open table read back: as it was opened, and its entries in order."""

    opened: Opened
    entries: tuple[Entry, ...]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def default_url(port: int) -> str:
    """The database of the tables' server on ``port`` when none is named: an SQLite file in the
    user's data folder (``$XDG_DATA_HOME/qidong-tutor/``, on Linux ``~/.local/share/qidong-tutor/``;
    platformdirs' folder elsewhere), one per port so that two servers never share one."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("qidong-tutor", appauthor=False))
    return sqlite_url(folder / f"tables-{port}.sqlite3")


def database_url(given: str | None, port: int) -> str:
    """The URL given, else :data:`DATABASE_VARIABLE`'s, else :func:`default_url`."""
    named = given or os.environ.get(DATABASE_VARIABLE)
    return named.replace("{port}", str(port)) if named else default_url(port)


class Journal:
    """The tables' journal in the database at ``url`` (its schema migrated to the newest on opening)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        if self.sqlite and parsed.database:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.where = parsed.render_as_string(hide_password=True)
        self.engine: Engine = create_engine(url, pool_pre_ping=not self.sqlite,
                                            connect_args={"timeout": LOCK_WAIT} if self.sqlite else
                                            {"connect_timeout": CONNECT_WAIT} if parsed.drivername.endswith("psycopg")
                                            else {})
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._migrate()
        self.pending: list[tuple[str, Any]] = []
        """What is still to be written, in order: ``(what, values)``."""
        self.failing_since: float | None = None
        self._numbers: dict[str, int] = {}
        self._connection: Connection | None = None  # held between writes: a write is then one transaction only
        self._insert_entry = insert(Base.metadata.tables[EntryRow.__tablename__])
        self._insert_table = insert(Base.metadata.tables[TableRow.__tablename__])
        with self.engine.connect() as connection:
            self.codes: set[str] = set(connection.scalars(select(TableRow.code)))
            """Every table code in the database (a new table's code is none of them)."""
            for code, last in connection.execute(select(EntryRow.code, EntryRow.number)
                                                 .order_by(EntryRow.code, EntryRow.number)):
                self._numbers[code] = max(self._numbers.get(code, 0), last + 1)

    def _migrate(self) -> None:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        self.release()
        self.engine.dispose()

    def release(self) -> None:
        """Let go of the connection held for writing (after a failure: the next write opens another)."""
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except SQLAlchemyError:  # a connection already broken: nothing more to let go of
                pass

    # ------------------------------------------------------------ writing
    def open_table(self, opened: Opened) -> None:
        """A new table (its row), written now."""
        self.codes.add(opened.code)
        self._numbers[opened.code] = 0
        self._put("open", {"code": opened.code, "level": opened.level, "seed": opened.seed,
                           "rules": rules_text(opened.rules), "status": "open", "note": "",
                           "opened_at": datetime.now(timezone.utc)})

    def write(self, code: str, *entries: Entry) -> None:
        """The next entries of table ``code``'s journal, written now (before anyone is told)."""
        for entry in entries:
            kind, text = entry_row(entry)
            number = self._numbers.get(code, 0)
            self._numbers[code] = number + 1
            self._put("entry", {"code": code, "number": number, "kind": kind, "text": text})

    def forget(self, code: str) -> None:
        """Table ``code`` is closed: its rows go."""
        self.codes.discard(code)
        self._numbers.pop(code, None)
        self._put("forget", code)

    def refuse(self, code: str, note: str) -> None:
        """Table ``code`` could not be reopened: kept as it is, marked ``refused`` with ``note``, to inspect."""
        self._put("refuse", (code, note[:2000]))

    @property
    def behind(self) -> int:
        """How many writes wait for the database."""
        return len(self.pending)

    def _put(self, what: str, values: Any) -> None:
        self.pending.append((what, values))
        if self.failing_since is None:
            self.retry()

    def retry(self) -> bool:
        """Write everything that waits, in order, in one transaction; False (it waits on) if the database refused."""
        if not self.pending:
            return True
        batch = list(self.pending)
        try:
            if self._connection is None:
                self._connection = self.engine.connect()
            connection = self._connection
            with connection.begin():
                for what, values in batch:
                    if what == "entry":
                        connection.execute(self._insert_entry, values)
                    elif what == "open":
                        connection.execute(self._insert_table, values)
                    elif what == "forget":
                        connection.execute(delete(EntryRow).where(EntryRow.code == values))
                        connection.execute(delete(TableRow).where(TableRow.code == values))
                    else:
                        connection.execute(update(TableRow).where(TableRow.code == values[0])
                                           .values(status="refused", note=values[1]))
        except SQLAlchemyError as error:
            self.release()
            if self.failing_since is None:
                self.failing_since = time.monotonic()
                LOG.warning("the tables' database %s refused a write (%s): the tables play on in memory, and what "
                            "they do is written when it can be", self.where, _first_line(error))
            return False
        del self.pending[:len(batch)]
        if self.failing_since is not None:
            LOG.warning("the tables' database %s takes writes again: %d written after %.0f s", self.where,
                        len(batch), time.monotonic() - self.failing_since)
            self.failing_since = None
        return True

    # ------------------------------------------------------------ reading
    def kept(self) -> list[Kept]:
        """Every open table with its journal. A table whose rows cannot be read is marked refused
        (:meth:`refuse`), said in the log, and left out; the others are read."""
        out, refused = [], []
        with self.engine.connect() as connection:
            rows = connection.execute(select(TableRow.code, TableRow.level, TableRow.seed, TableRow.rules)
                                      .where(TableRow.status == "open").order_by(TableRow.code)).all()
            for code, level, seed, rules in rows:
                try:
                    opened = check_opened(code, level, seed, rules)
                    entries = tuple(self._entries(connection, code))
                except JournalError as error:
                    LOG.warning("table %s cannot be reopened, kept in the database to inspect: %s", code, error)
                    refused.append((code, str(error)))
                    continue
                out.append(Kept(opened, entries))
        for code, note in refused:
            self.refuse(code, note)
        return out

    def _entries(self, connection: Any, code: str) -> Iterator[Entry]:
        expected = 0
        for number, kind, text in connection.execute(select(EntryRow.number, EntryRow.kind, EntryRow.text)
                                                     .where(EntryRow.code == code).order_by(EntryRow.number)):
            if number != expected:
                raise JournalError(f"entry {expected} of the journal is missing")
            expected += 1
            yield read_entry(kind, text)

    def status(self, code: str) -> tuple[str, str] | None:
        """Table ``code``'s status and note in the database (``None``: no such table)."""
        with self.engine.connect() as connection:
            row = connection.execute(select(TableRow.status, TableRow.note).where(TableRow.code == code)).first()
        return None if row is None else (row[0], row[1])


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer; a write is one append) and ``synchronous=NORMAL``:
    a commit survives the process killed (it is in the operating system's hands), not a power cut."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error)
    return text.splitlines()[0][:200] if text else type(error).__name__
