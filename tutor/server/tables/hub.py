"""The tables of classmates as JupyterHub's managed service ``tables`` (``deploy/jupyterhub_config.py``):
the hub's own login on every page, and each player named by the hub.

On a hub every learner has a server of their own, so the tables cannot live in one of them: the
hub starts ``python -m tutor.server.tables`` as a service, proxied at ``/services/tables/``, and
gives it its token, OAuth client and prefix in the ``JUPYTERHUB_*`` environment
(:mod:`tutor.server.tables.__main__` then calls :func:`hub_routes`). Here:

- every route of :func:`tutor.server.tables.web.handlers` (the lobby, the teacher's page, the
  websocket, and any added later) first asks the hub who the browser is (JupyterHub's service
  OAuth: :class:`~jupyterhub.services.auth.HubOAuth`, its token kept in this service's own
  cookie). A page of nobody logged in redirects to the hub's login and comes back; a websocket of
  nobody is refused (403) before it opens, so it never gets a seat; a hub user without the scope
  ``access:services!service=tables`` is refused (403). The pages' scripts and styles
  (``static/…``) are the course's public code, served to anyone like the hub's own
  ``/hub/static/``: a page's module scripts are fetched in CORS mode, where JupyterHub accepts
  its cookie only with an XSRF token, which a ``<script type="module">`` cannot send;
- the player's name at a table is the hub user's name (the name typed in the lobby is ignored):
  the ``auth`` given to :class:`~tutor.server.tables.web.TableSocket`; and a seat is its hub
  user's: a page comes back to a seat (``rejoin``, by the token its browser kept, or a teacher's
  personal link) only for the hub user of that name (letter case aside), so the next learner
  on a shared computer is not seated as the last one. A teacher opening tables for a class
  types the learners' hub user names;
- the teacher's page, and the websocket's teacher messages (``watch``: every table at a glance,
  ``open_class``), are for teachers only: a hub admin, a name in ``QD_HUB_TEACHERS`` (the hub's
  configuration passes it on), or a member of the hub group ``teachers``. Anyone else gets 403
  (the page) or a refusal (the message).

The service's cookie is signed with a secret made when it starts (nothing is kept across a
restart, and neither are the tables): after a restart a browser goes through the hub's OAuth
again, which a learner logged in to the hub does not even see (``oauth_no_confirm``).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import urlparse

from jupyterhub.services.auth import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
    HubOAuth,
    HubOAuthCallbackHandler,
    HubOAuthenticated,
    UserNotAllowed,
)
from tornado import web, websocket

from tutor.server.tables.shared import clean_name
from tutor.server.tables.web import REFUSALS, TABLES, AssetHandler, TableSocket, Tables, handlers

__all__ = ["TEACHERS_GROUP", "TEACHERS_VARIABLE", "hub_routes", "is_teacher"]

LOG: Final = logging.getLogger("tutor.tables.hub")

TEACHERS_VARIABLE: Final = "QD_HUB_TEACHERS"
"""The teachers' hub user names, separated by spaces or commas (the hub's own setting, passed on)."""
TEACHERS_GROUP: Final = "teachers"
"""Members of this hub group are teachers too (for a school whose authenticator manages groups)."""
TEACHER_MESSAGES: Final = frozenset({"watch", "open_class"})
"""What only a teacher's page may send over the websocket."""


def teachers_from_environment() -> frozenset[str]:
    return frozenset(re.split(r"[\s,]+", os.environ.get(TEACHERS_VARIABLE, "").strip())) - {""}


def is_teacher(user: dict[str, Any], teachers: frozenset[str]) -> bool:
    """Whether the hub's user model ``user`` is a teacher's: a hub admin, a name in ``teachers``
    or a member of :data:`TEACHERS_GROUP` (the hub tells its ``admin`` and ``groups`` to a
    service's OAuth token).

    >>> is_teacher({"name": "ms-wu", "admin": False, "groups": []}, frozenset({"ms-wu"}))
    True
    >>> is_teacher({"name": "root", "admin": True}, frozenset())
    True
    >>> is_teacher({"name": "ana", "admin": False, "groups": ["teachers"]}, frozenset())
    True
    >>> is_teacher({"name": "ana", "admin": False, "groups": ["5b"]}, frozenset({"ms-wu"}))
    False
    """
    return bool(user.get("admin")) or user.get("name") in teachers or TEACHERS_GROUP in (user.get("groups") or ())


class HubUser(HubOAuthenticated):  # type: ignore[misc]  # jupyterhub has no types
    """Mixed into each of the tables' handlers: before anything else, the hub user of the
    request (asked of the hub without blocking the server, then cached by :class:`HubOAuth`
    for five minutes), or a redirect to the hub's login (a page) or 403 (the websocket, or a
    user the service is not for)."""

    hub_user: dict[str, Any] | None = None
    teachers: frozenset[str] = frozenset()
    teachers_only: bool = False

    def initialize(self, hub_auth: HubOAuth, teachers: frozenset[str], teachers_only: bool = False,
                   **kwargs: Any) -> None:
        self.hub_auth, self.teachers, self.teachers_only = hub_auth, teachers, teachers_only
        super().initialize(**kwargs)  # the tables' handler's own

    async def prepare(self) -> None:
        model = await self.hub_auth.get_user(self, sync=False)
        user = None
        if model:
            try:
                user = self.check_hub_user(model)
            except UserNotAllowed:  # no access:services!service=tables
                who = f"{model.get('kind', 'user')} {model.get('name')}"
                raise web.HTTPError(403, f"{who} may not use the tables") from None
            if user.get("kind", "user") != "user":  # a service's token: not a player
                raise web.HTTPError(403, f"service {user.get('name')} may not use the tables")
        self._hub_auth_user_cache = self.hub_user = user  # HubAuthenticated's current_user, settled
        request = self.request
        if user is None:
            if isinstance(self, websocket.WebSocketHandler) or request.method not in ("GET", "HEAD"):
                raise web.HTTPError(403, "log in to the hub first")
            self.redirect(self.get_login_url())
            return
        if self.teachers_only and not is_teacher(user, self.teachers):
            LOG.info("%s is no teacher: refused %s", user.get("name"), request.path)
            raise web.HTTPError(403, f"{user.get('name')} is no teacher of the class")


class HubTableSocket(HubUser, TableSocket):  # type: ignore[misc]  # initialize: HubUser's, then TableSocket's
    """The tables' websocket for a hub user only; a learner's page may not send a teacher's messages."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        # A refused handshake has no body: the browser drops the connection on the status
        # line, and configurable-http-proxy would log an error (EPIPE) forwarding a body to it.
        self.finish()

    def _handle(self, kind: str, data: dict[str, Any], now: float) -> None:
        name = str((self.hub_user or {}).get("name", ""))
        if kind in TEACHER_MESSAGES and not (self.hub_user and is_teacher(self.hub_user, self.teachers)):
            LOG.info("%s is no teacher: refused a %r message", name, kind)
            self.refuse(REFUSALS["unreadable"])
            return
        if kind == "rejoin":
            # A seat is its hub user's: the next learner on a shared computer (whose browser
            # kept the seat's token) or someone handed a teacher's personal link is not seated
            # there, and joins the table under their own name instead.
            table = self.tables.get(data.get("code"))
            player = table.claim(data.get("token")) if table is not None else None
            if player is not None and player.name.casefold() != clean_name(name).casefold():
                LOG.info("%s may not take %s's seat at table %s", name, player.name, table.code if table else "")
                self.refuse(REFUSALS["no_seat"], code=str(data.get("code"))[:12])
                return
        super()._handle(kind, data, now)


_GUARDED: dict[type, type] = {TableSocket: HubTableSocket}


def _guarded(cls: type) -> type:
    """``cls`` (one of :mod:`~tutor.server.tables.web`'s handlers) for hub users only."""
    if cls not in _GUARDED:
        _GUARDED[cls] = type(f"Hub{cls.__name__}", (HubUser, cls), {"__module__": __name__})
    return _GUARDED[cls]


class OAuthCallback(HubOAuthCallbackHandler):  # type: ignore[misc]  # jupyterhub has no types
    """The end of the hub's OAuth: the token into this service's cookie, back to the page asked for."""

    def initialize(self, hub_auth: HubOAuth) -> None:
        self.hub_auth = hub_auth


def player_name(handler: web.RequestHandler) -> str | None:
    """The ``auth`` of :class:`~tutor.server.tables.web.TableSocket`: the hub user's name."""
    user = getattr(handler, "hub_user", None)
    return str(user["name"]) if user else None


Route = tuple[str, Any, dict[str, Any]]


def hub_routes(prefix: str, tables: Tables = TABLES, *, cookie_secret: bytes | None = None,
               teachers: frozenset[str] | None = None,
               ) -> tuple[Callable[[web.RequestHandler], str | None], list[Route], dict[str, Any]]:
    """``(auth, routes, settings)`` for the tables under ``prefix`` as a hub service: ``routes``
    come before :func:`~tutor.server.tables.web.handlers`' (tornado takes the first that
    matches), so each of those but the scripts is served only to the hub's users; ``settings``
    for the :class:`tornado.web.Application` (the cookie's secret: ``cookie_secret``, else a new one).
    The hub's address, token and OAuth client are read from the ``JUPYTERHUB_*`` environment
    the hub gives its services; the teachers from ``QD_HUB_TEACHERS`` unless given."""
    hub_auth = HubOAuth(base_url=prefix)
    teachers = teachers_from_environment() if teachers is None else frozenset(teachers)
    callback = urlparse(hub_auth.oauth_redirect_uri).path or prefix + "oauth_callback"
    routes: list[Route] = [(callback, OAuthCallback, {"hub_auth": hub_auth})]
    for pattern, cls, kwargs in handlers(prefix, tables, player_name):
        if cls is AssetHandler:  # public code, like /hub/static/ (see above)
            continue
        routes.append((pattern, _guarded(cls), {**kwargs, "hub_auth": hub_auth, "teachers": teachers,
                                                "teachers_only": kwargs.get("page") == "teacher"}))
    settings = {"cookie_secret": cookie_secret or secrets.token_bytes(32)}
    LOG.info("hub service: the hub's users only (api %s), teachers %s", hub_auth.api_url,
             ", ".join(sorted(teachers)) or "the hub's admins")
    return player_name, routes, settings
