"""The tables' database schema, versioned by Alembic (:mod:`tutor.server.tables.journal` runs them on start)."""
