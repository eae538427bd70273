"""Shared test helpers live beside this file (``voila_serve``); this conftest puts
``tests/`` on the import path for the test folders below it."""
