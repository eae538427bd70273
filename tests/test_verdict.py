"""A verdict's reason naming its rule once (tutor/rules/verdict.py: ``Verdict.reason_cited``),
the sentence a lesson shows under a ruff (widgets.views.ruff_view)."""

from __future__ import annotations

import pickle

from tutor import check_follow, check_ruff
from tutor.core.i18n import Text, Translator
from tutor.rules import Verdict


def test_a_reason_names_its_rule_once() -> None:
    short = check_ruff("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", "♥")  # the reason does not name R1
    assert short.reason_cited == f"{short.reason} (R1)" and isinstance(short.reason_cited, Text)
    named = Verdict(False, "W3", "a pair must follow a pair (W3)")
    assert named.reason_cited == "a pair must follow a pair (W3)"
    assert Verdict(True, None, "you follow suit").reason_cited == "you follow suit"  # no rule to name


def test_a_winning_ruff_names_the_rules_it_meets_itself() -> None:
    ruffed = check_ruff("♥9 ♥7 ♥7 ♣3", "♠5 ♠6 ♠7", "♥9 ♥7 ♥7", "♥")
    assert ruffed.ruff and ruffed.reason_cited == ruffed.reason
    not_a_ruff = check_ruff("♥Q ♥K ♣4", "♥A", "♥K", "♥")
    assert not not_a_ruff.ruff and not_a_ruff.reason_cited.endswith("(R1)")
    assert pickle.loads(pickle.dumps(ruffed)).reason_cited == ruffed.reason_cited


def test_the_cited_reason_is_said_whole_in_the_page_language() -> None:
    short = check_ruff("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", "♥")
    chinese = Translator("zh-Hans")(short.reason_cited)
    assert chinese.count("R1") == 1 and "you" not in chinese
    follow = check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠")
    assert follow.reason_cited.endswith("(W3)") and follow.reason_cited.count("W3") == 1
