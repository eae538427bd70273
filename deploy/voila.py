"""Voila's configuration for the course on one machine: ``./dev serve`` runs ``voila lessons
--Voila.config_file_paths=deploy`` from the repository root. The settings, each with its
reason, are in ``tutor/server``. (Here rather than at the root, where a file named
``voila.py`` on Python's path would hide the ``voila`` package.)"""

from tutor.server import configure
from tutor.server.forking import warm
from tutor.server.pages import drawn_pages

configure(get_config())  # type: ignore[name-defined]  # noqa: F821 — traitlets provides get_config
warm()  # the kernel zygote preloads the course while the server starts
drawn_pages("lessons")  # the lessons' examples drawn once, in the background (./dev serve runs from the repository)
