"""The tables as a server of their own: ``python -m tutor.server.tables [--port N] [--prefix /tables/] [--database URL]``.

Every table is kept as its journal in a database (:mod:`tutor.server.tables.journal`): with no
``--database`` (nor ``QD_TABLES_DATABASE``), an SQLite file in the user's data folder. Started
again — after a clean stop or a crash — the server reopens every table that was open.

On JupyterHub this is the hub-managed service ``tables`` (``deploy/jupyterhub_config.py``): the hub
gives its address and prefix in ``JUPYTERHUB_SERVICE_URL`` and ``JUPYTERHUB_SERVICE_PREFIX``, and
every page is the hub's own login (:mod:`tutor.server.tables.hub`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from typing import Any
from urllib.parse import urlparse

from tornado import web

from tutor.server.tables.journal import DATABASE_VARIABLE, database_url
from tutor.server.tables.web import TABLES, handlers, resume_from


def main(argv: list[str] | None = None) -> None:
    service = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    parser = argparse.ArgumentParser(prog="python -m tutor.server.tables", description=__doc__.splitlines()[0])
    parser.add_argument("--ip", default=service.hostname or "127.0.0.1")
    parser.add_argument("--port", type=int, default=service.port or 8870)
    parser.add_argument("--prefix", default=os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/tables/"))
    parser.add_argument("--database", help=f"the tables' database URL (default: ${DATABASE_VARIABLE}, else an "
                        "SQLite file in the user's data folder)")
    args = parser.parse_args(argv)
    prefix = args.prefix if args.prefix.endswith("/") else args.prefix + "/"
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    auth: Any = None
    extra: list[Any] = []
    settings: dict[str, Any] = {}
    if "JUPYTERHUB_API_TOKEN" in os.environ:
        from tutor.server.tables.hub import hub_routes

        auth, extra, settings = hub_routes(prefix)
    app = web.Application([*extra, *handlers(prefix, TABLES, auth)], **settings)

    async def forever() -> None:
        resume_from(TABLES, database_url(args.database, args.port))
        app.listen(args.port, args.ip)
        logging.getLogger("tutor.tables").info("tables served at http://%s:%d%s", args.ip, args.port, prefix)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()

    try:
        asyncio.run(forever())
    except KeyboardInterrupt:  # stopped (the hub stops its services with SIGINT first)
        pass
    finally:
        if TABLES.journal is not None:
            TABLES.journal.retry()  # anything a database refused, tried once more
            TABLES.journal.close()


if __name__ == "__main__":
    main()
