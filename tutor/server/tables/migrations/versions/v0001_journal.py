"""The tables and their journals.

Revision ID: 0001
Revises:
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "qd_tables",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "qd_journal",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("qd_journal")
    op.drop_table("qd_tables")
