"""Interactive widgets for the lessons: display and input only; every decision is
asked of :mod:`tutor`."""
