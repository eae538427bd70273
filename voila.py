"""Voila's configuration for the course, read when ``voila lessons`` starts from the
repository root (``./dev serve``). The settings, each with its reason, are in
``tutor/server``."""

from tutor.server import configure
from tutor.server.forking import warm

configure(get_config())  # type: ignore[name-defined]  # noqa: F821 — traitlets provides get_config
warm()  # the kernel zygote preloads the course while the server starts
