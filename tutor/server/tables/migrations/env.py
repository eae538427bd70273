"""Alembic's entry: the migrations run on the connection :class:`tutor.server.tables.journal.Journal` gives."""

from __future__ import annotations

from alembic import context

from tutor.server.tables.journal import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
