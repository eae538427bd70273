"""Drills: seeded practice positions, checked by the rules module.

See :mod:`tutor.drills.base` for the contract every drill kind keeps.
"""
