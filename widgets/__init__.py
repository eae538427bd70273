"""Interactive widgets for the lessons: display and input only; every decision is
asked of :mod:`tutor`.

- :class:`DrillPlayer` — question, answer, Check, feedback with the rule ID, Retry,
  Next, staged hints, streak and stars; progress kept in the browser.
- :class:`CardPicker` — pick cards from a held hand by click, tap or keyboard.
- :class:`Hand`, :class:`TrickTable` — display only (``_repr_html_``).
- :class:`Table` — play a whole hand against four computer players.
- :func:`practice`, :class:`CourseMap` — a lesson's drills chosen by its link, and the
  course's home page with each learner's progress.
- :class:`HandIn`, :class:`ClassProgress` — a learner's progress code to hand in, and the
  teacher's table of a class's codes.

Usage in a notebook cell::

    from widgets import DrillPlayer
    DrillPlayer("follow")          # a follow-suit drill chosen by your progress
"""

from widgets.classroom import ClassProgress, HandIn
from widgets.course import CourseMap, practice
from widgets.drill import STORAGE_KEY, DrillPlayer
from widgets.picker import CardPicker
from widgets.table import Table
from widgets.views import Hand, TrickTable

__all__ = ["STORAGE_KEY", "CardPicker", "ClassProgress", "CourseMap", "DrillPlayer", "Hand", "HandIn", "Table",
           "TrickTable", "practice"]
