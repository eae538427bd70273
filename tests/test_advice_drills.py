"""The coach's drills (``tutor.teach.drills.advice``) and their bank of prepared positions
(``tutor.play.bank``): advice that says it is advice, whose answer is the coach's
deep search — made again the same by ``./dev bank``, and holding when the coach deals other
layouts — opened at once, never a rule."""

from __future__ import annotations

import random
from importlib import resources

import pytest

from tools.advice_bank import analyse
from tutor.play import search as search_module
from tutor.play.search import edge, search, weigh_calls
from tutor.play.strategy import LEVEL_SETTINGS
from tutor.rules.cards import Card, Cards
from tutor.rules.friend import nameable_cards
from tutor.rules.refusal import play_refusal
from tutor.teach.drills import KINDS, drill_rng, generate
from tutor.teach.drills.advice import KEYS, Position, position
from tutor.play.bank import DEEP, FILE, FORMS, MARGIN, SURE, Entry, distractors, load, to_json
from widgets.drill import DrillPlayer

CASES = [(seed, level) for seed in range(4) for level in (1, 2, 3)]


def _position(seed: int, level: int) -> Position:
    return position(seed, level, drill_rng("advice", seed, level))  # as generate makes it


def test_the_bank_is_as_big_and_as_deep_as_promised() -> None:
    """≥ 500 positions a level (≥ 100 of each form), each weighed on ten times the layouts of
    the table's strongest level, in a file of at most 2 MB."""
    bank = load()
    assert bank.layouts == DEEP >= 10 * max(level.layouts for level in LEVEL_SETTINGS.values())
    for level in MARGIN:
        counts = {form: len(bank.entries(level, form)) for form in FORMS}
        assert sum(counts.values()) >= 500 and min(counts.values()) >= 100, (level, counts)
    size = len(resources.files("tutor.play").joinpath(FILE).read_bytes())
    assert size <= 2_000_000, size


def test_every_shown_choice_is_beaten_by_the_margin_and_two_standard_errors() -> None:
    bank = load()
    for form in FORMS:
        for entry in bank.by_form[form]:
            assert entry.options[0].gain == 0 and all(o.expected <= entry.options[0].expected + 1e-9
                                                      for o in entry.options)
            served = [level for level in MARGIN if distractors(entry, level) is not None]
            assert served, entry.number  # kept only where it serves a level
            for level in served:
                pair = distractors(entry, level)
                assert pair is not None
                for index in pair:
                    option = entry.options[index]
                    assert option.gain >= MARGIN[level] and option.gain > SURE * option.error


def test_every_prepared_position_replays_and_offers_legal_choices_only() -> None:
    """Each entry replays through the rules (its hand record) to a seat with a choice; every
    option weighed is a play the rules allow there (W1–W4), or a card the declarer may
    call (F1, F3) or a solo (F5)."""
    bank = load()
    for form in FORMS:
        for entry in bank.by_form[form]:
            view = entry.view()
            assert view.trump is not None
            for option in entry.options:
                if form == "play":
                    assert isinstance(option.choice, Cards) and view.actor == view.seat
                    assert play_refusal(view.hand, view.trick, view.forced_options, option.choice,
                                        view.trump) is None, (entry.number, option.choice)
                else:
                    assert view.kitty is not None and view.seat == view.declarer
                    assert option.choice is None or (isinstance(option.choice, Card)
                                                     and option.choice in nameable_cards(view.hand, view.kitty))


@pytest.mark.slow
def test_the_bank_is_made_again_the_same() -> None:
    """``./dev bank`` is reproducible: the first positions analysed again, in order, give the
    very entries the file keeps from them — the same positions kept and left out, the same
    options and numbers, as the file writes them (while the bank is young every level wants
    entries, so every position that serves one is kept)."""
    from tutor.play.bank import Bank

    first = 24
    again: dict[str, list[Entry]] = {form: [] for form in FORMS}
    for number in range(first):
        entry = analyse(number)
        if entry is not None:
            again[entry.form].append(entry)
    stored = {form: [entry for entry in load().by_form[form] if entry.number < first] for form in FORMS}
    assert sum(map(len, stored.values())) >= 6
    assert to_json(Bank(DEEP, {f: tuple(again[f]) for f in FORMS})) == to_json(Bank(DEEP, {f: tuple(stored[f])
                                                                                            for f in FORMS}))


@pytest.mark.slow
def test_the_coachs_choice_holds_on_other_deals() -> None:
    """Positions spread over the bank, searched again by the coach's search on as many other
    layouts: the bank's best is still the best (or, once in a while, level with it: never
    clearly worse) against the two choices each level shows."""
    bank = load()
    agree = total = 0
    for form in FORMS:
        entries = bank.by_form[form]
        for entry in entries[:: max(1, len(entries) // 8)][:8]:
            level = next(level for level in MARGIN if distractors(entry, level) is not None)
            pair = distractors(entry, level)
            assert pair is not None
            shown = [entry.options[0].choice, *(entry.options[i].choice for i in pair)]
            rng = random.Random(f"other layouts {entry.number}")
            view = entry.view()
            if form == "play":
                found = search(view, rng=rng, layouts=DEEP, candidates=shown)  # type: ignore[arg-type]
                results = [found.value_of(play).results for play in shown]  # type: ignore[union-attr, arg-type]
            else:
                results = list(weigh_calls(view, shown, rng=rng, layouts=DEEP))  # type: ignore[arg-type]
            total += 1
            agree += max(range(3), key=lambda i: sum(results[i])) == 0
            for index in (1, 2):
                gain, error = edge(results[0], results[index])
                assert gain > -2 * error, (entry.number, index, gain, error)
    assert agree >= total - 1, f"the coach's choice held in {agree} of {total} positions"


def test_a_drill_opens_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    """A drill is served from the bank: nothing is searched when it opens."""
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("an advice drill searched as it opened")

    for name in ("search", "weigh_calls", "weigh_buries"):
        monkeypatch.setattr(search_module, name, refuse)
    for seed in range(30):
        for level in (1, 2, 3):
            drill = generate("advice", seed, level)
            assert len(drill.choices) == 3 and len(drill.correct) == 1


def test_the_drills_answer_is_the_banks_best_and_levels_ask_finer_choices() -> None:
    for seed, level in CASES:
        found = _position(seed, level)
        drill = generate("advice", seed, level)
        assert drill.correct == {KEYS[found.best]}
        assert found.options[found.best] is found.entry.options[0]
        closest = min(option.gain for option in found.options if option.gain > 0)
        assert closest >= MARGIN[level] and (level == 1 or closest < MARGIN[level - 1])


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_an_advice_drill_is_marked_advice_once_and_never_names_a_rule(lang: str) -> None:
    """The drill is marked advice (its title's badge, in words before any number: the page's
    test is test_lessons); its question, explanation and verdicts do not say it again."""
    marks = {"en": "not a rule", "zh-Hans": "不是规则", "zh-Hant": "不是規則"}

    def said(text: str) -> bool:
        return marks[lang] in text.lower()

    for seed in range(4):
        drill = generate("advice", seed, 1 + seed % 3, lang=lang)
        assert drill.advice and drill.rule == "" and KINDS["advice"].advice
        assert not said(drill.question) and not said(drill.explain)
        assert "{" not in drill.explain and "{" not in drill.question
        for choice in drill.choices:
            feedback = drill.check(choice.key)
            assert feedback.rule == "" and feedback.error is None and not said(feedback.message)
            if choice.key in drill.correct:
                assert feedback.correct
            else:
                assert not feedback.correct
                assert lang != "en" or "coach" in feedback.message.lower()  # whose judgment it is
                assert not any(c.label in feedback.message for c in drill.choices if c.key in drill.correct)


def test_the_same_link_gives_the_same_position_and_numbers() -> None:
    first, again = generate("advice", 3, 2), generate("advice", 3, 2)
    assert first == again and first.explain == again.explain


def test_the_drill_player_marks_an_advice_drill_and_shows_it_at_once() -> None:
    player = DrillPlayer("advice", seed=0, level=1, lang="en")
    assert player.drill is not None and player.state["advice"] is True and player.state["question"]
    assert player.labels["advice"] == "Advice, not a rule"
    assert DrillPlayer("follow", seed=0, level=1, lang="en").state["advice"] is False
