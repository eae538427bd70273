"""The tables' journal in a real PostgreSQL (``tutor/server/tables/journal.py``), beside SQLite:
a throw-away cluster this test makes in a temporary folder (Debian's ``postgresql`` package:
``initdb``, ``pg_ctl``; CI installs it, ``.ci/run``), reached on its own Unix socket. Tables
are written and reopened by a new journal as they were; the server gone mid-play (stopped),
the table plays on in memory and everything is written once it is back.
"""

from __future__ import annotations

import glob
import logging
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from test_tables_journal import played_journal, plays_on_while, snapshot
from tutor.server.tables.journal import Journal
from tutor.server.tables.shared import Pace, SharedTable

pytestmark = pytest.mark.slow


def binary(name: str) -> str | None:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None)
    return found


class Cluster:
    """A PostgreSQL cluster in a temporary folder, run as ``user`` (``initdb`` refuses root)."""

    def __init__(self) -> None:
        initdb, self.pg_ctl = binary("initdb"), binary("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            pytest.skip("PostgreSQL's initdb and pg_ctl are not installed (Debian: apt-get install postgresql)")
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            if shutil.which("runuser") is None:
                pytest.skip("running as root, and runuser is missing to run PostgreSQL as its own user")
            try:
                import pwd

                pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root, and there is no postgres user to run PostgreSQL as")
            self.prefix = ["runuser", "-u", "postgres", "--"]
        self.folder = Path(tempfile.mkdtemp(prefix="qd-postgres-"))
        if self.prefix:
            shutil.chown(self.folder, "postgres")
        self.data, self.log = self.folder / "data", self.folder / "log"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.run(initdb, "-D", str(self.data), "-U", "qd", "--auth=trust", "--no-sync", "-E", "UTF8")
        self.start()
        self.url = f"postgresql+psycopg://qd@/postgres?host={self.folder}&port={self.port}"

    def run(self, *args: str) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise AssertionError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        assert self.pg_ctl is not None
        self.run(self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-w", "-o",
                 f"-p {self.port} -k {self.folder} -c listen_addresses='' -c fsync=off", "start")

    def stop(self) -> None:
        assert self.pg_ctl is not None
        self.run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    pytest.importorskip("psycopg", reason="psycopg (the project's 'postgres' extra) is not installed")
    made = Cluster()
    try:
        yield made
    finally:
        made.remove()


def test_tables_are_kept_in_postgresql_and_reopened_as_they_were(cluster: Cluster) -> None:
    journal, table = played_journal(cluster.url, "PGSQL1")
    journal.close()
    later = Journal(cluster.url)  # the schema is there: the migration finds it at its version
    [kept] = [k for k in later.kept() if k.opened.code == "PGSQL1"]
    assert snapshot(SharedTable.reopen(kept.opened, kept.entries, pace=Pace(0, 0, 0))) == snapshot(table)
    later.forget("PGSQL1")
    assert later.status("PGSQL1") is None
    later.close()


def test_postgresql_gone_mid_play_the_table_plays_on_and_everything_is_written_when_it_is_back(
        cluster: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    def gone(journal: Journal) -> Callable[[], None]:
        cluster.stop()
        return cluster.start

    with caplog.at_level(logging.WARNING, "tutor.tables"):
        plays_on_while(cluster.url, gone, caplog, code="PGSQL2")
