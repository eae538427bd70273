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
- :class:`Choose` — choose (:class:`Buttons`, :class:`Menu`, :class:`Typed`,
  :class:`Number`, :class:`Tick`), then see the verdict: a lesson's "Try it".
- :func:`quick_check` — one drill question right after the rule it checks.
- :func:`row`, :func:`show`, :func:`trick`, :func:`trick_view` and the lessons' other
  views (:mod:`widgets.views`) — cards and sentences as a lesson shows them.
- :func:`link_params`, :func:`link_query`, :func:`notes_html` — the page's link, and its
  ignored parameters as a note.
- :func:`tables_html` — lesson 10's way to a table of classmates (:mod:`tutor.server.tables`).

A lesson imports what it wires from here (and the rules from :mod:`tutor`). Usage in a
notebook cell::

    from widgets import DrillPlayer
    DrillPlayer("follow")          # a follow-suit drill chosen by your progress
"""

from widgets.check import CHECKS_KEY, quick_check
from widgets.choose import NOTHING, Buttons, Choice, Choose, Menu, Number, Tick, Typed, answer_html
from widgets.classroom import ClassProgress, HandIn
from widgets.course import CourseMap, link_params, link_query, notes_html, practice, tables_html
from widgets.drill import STORAGE_KEY, DrillPlayer
from widgets.picker import CardPicker
from widgets.table import Table
from widgets.views import (Hand, Html, Part, TrickTable, attackers_total_view, call_view, components_view, flip_view,
                           follows_view, lead_view, link_view, markup, overturn_view, points_left_view, row, ruff_view,
                           score_view, show, shown_out_view, throw_view, trick, trick_view, weighed_calls_view,
                           who_knows_view)

__all__ = ["CHECKS_KEY", "NOTHING", "STORAGE_KEY", "Buttons", "CardPicker", "Choice", "Choose", "ClassProgress",
           "CourseMap", "DrillPlayer", "Hand", "HandIn", "Html", "Menu", "Number", "Part", "Table", "Tick",
           "TrickTable", "Typed", "answer_html", "attackers_total_view", "call_view", "components_view", "flip_view",
           "follows_view", "lead_view", "link_params", "link_query", "link_view", "markup", "notes_html", "overturn_view",
           "points_left_view", "practice", "quick_check", "row", "ruff_view", "score_view", "show", "shown_out_view",
           "tables_html", "throw_view", "trick", "trick_view", "weighed_calls_view", "who_knows_view"]
