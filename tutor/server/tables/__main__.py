"""The tables as a server of their own: ``python -m tutor.server.tables [--port N] [--prefix /tables/]``.

On JupyterHub this is the hub-managed service ``tables`` (``deploy/jupyterhub_config.py``): the hub
gives its address and prefix in ``JUPYTERHUB_SERVICE_URL`` and ``JUPYTERHUB_SERVICE_PREFIX``, and
every page is the hub's own login (:mod:`tutor.server.tables.hub`)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from typing import Any
from urllib.parse import urlparse

from tornado import web

from tutor.server.tables.web import TABLES, handlers


def main(argv: list[str] | None = None) -> None:
    service = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    parser = argparse.ArgumentParser(prog="python -m tutor.server.tables", description=__doc__.splitlines()[0])
    parser.add_argument("--ip", default=service.hostname or "127.0.0.1")
    parser.add_argument("--port", type=int, default=service.port or 8870)
    parser.add_argument("--prefix", default=os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/tables/"))
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
        app.listen(args.port, args.ip)
        logging.getLogger("tutor.tables").info("tables served at http://%s:%d%s", args.ip, args.port, prefix)
        await asyncio.Event().wait()

    try:
        asyncio.run(forever())
    except KeyboardInterrupt:  # stopped (the hub stops its services with SIGINT first)
        pass


if __name__ == "__main__":
    main()
