"""The coach's review is weighed before it is asked for, in a real browser: while the
learner thinks in the static site, and once the hand is over on a served course.

Lesson 10 opened in a fresh profile loads a finished hand from its hand file (the careless
learner's: costly plays). The table weighs the learner's plays between the page's requests
(:attr:`widgets.table.Table.weigh_ahead` in the static site, where Python runs in the page;
:attr:`widgets.table.Table.weigh_after_hand` on a served course, one machine for a class,
which weighs nothing while a hand is played) and marks ``data-review-weighed`` when every
play is weighed; "Review my play" then shows the review the Python table gives. The wait
itself is measured by ``benchmarks/learn_from_mistakes.py --think 10``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the careless learner

from test_learn_from_mistakes import SEED, careless_hand  # noqa: E402
from test_table_replay import open_hand  # noqa: E402

WEIGHED = "document.querySelector('[data-qd=table]').dataset.reviewWeighed === 'true'"


@pytest.mark.parametrize("served", ["lessons_server", "site"], ids=["served", "static"])
def test_the_review_is_weighed_before_it_is_asked_for(served: str, context: Any,
                                                      request: pytest.FixtureRequest) -> None:
    server = request.getfixturevalue(served)
    table = careless_hand(SEED)
    record = table.export()
    review = table.review_play()
    expected = table.state["coach"]
    assert any(d.costly for d in review)

    page, errors = open_hand(context, server, record)
    page.wait_for_function(WEIGHED, timeout=120_000)  # weighed while the learner reads the score
    page.click("[data-qd=coach-review]")
    page.locator("[data-qd=coach-heading]").wait_for()
    assert page.inner_text("[data-qd=coach-heading]") == expected["heading"]
    shown = page.eval_on_selector_all("[data-qd=coach-item] summary", "items => items.map(i => i.textContent)")
    assert shown == [item["text"] for item in expected["items"]]
    assert page.get_attribute("[data-qd=table]", "data-review-weighed") == "true"
    assert not errors, errors
    page.goto("about:blank")
    page.close()
