"""A card a learner picks is named by what its face shows, then in words (WCAG 2.5.3, "label in
name": a learner who speaks to the page says what they see). The face's text is read off the
markup the page draws, in every language, for every card of the pack, trump or not, with its
points mark or without (a question whose answer is the points hides them, in the name too)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tutor.core.i18n import LANGUAGES, Translator
from tutor.rules.cards import PACK
from tutor.rules.order import Trump
from tutor.teach.display import card_name, hand_payload

FACE_TEXT = re.compile(r"<[^>]+>")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("points", [True, False], ids=["points", "no-points"])
def test_every_cards_label_says_its_face_then_its_name(language: str, points: bool) -> None:
    tr, trump = Translator(language), Trump("♥")
    order, payload = hand_payload(sorted(set(PACK), key=str), trump, tr, points=points)
    assert len(payload) == 54
    for card, drawn in zip(order, payload, strict=True):
        shown = unescape(FACE_TEXT.sub("", drawn["face"]))  # the text the face shows, as axe reads it
        assert drawn["label"] == f"{shown} — {card_name(card, tr, trump=trump)}", drawn
        if card.points:
            assert shown.endswith(str(card.points)) is points, drawn
