"""Hostile input to everything public in ``tutor``: the rules functions and constructors,
the game's actions, hand files and link parameters (the widgets: test_hostile_widgets.py;
the server: test_hostile_http.py).

Whatever comes in, the answer is either a result or a :class:`TutorError` whose message
is at most :data:`MAX_MESSAGE` characters — never another exception — a refused game
action changes nothing, and every call returns within :data:`MAX_SECONDS`. The inputs are
generated (hypothesis, seeded per test), tens of thousands in all; the counts are printed
with ``-s``.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tutor
from tutor import (
    Bury,
    Call,
    Card,
    Cards,
    CloseDeal,
    Deal,
    Declaration,
    Declare,
    Game,
    Phase,
    Play,
    Ruleset,
    Solo,
    Suit,
    Trump,
    TutorError,
)
from tutor.play.bots import play_random_hand, random_action
from tutor.rules.cards import PACK
from tutor.teach.course import LESSONS, parse_link
from tutor.teach import display
from tutor.core.i18n import Translator, and_list, or_list, said
from tutor.rules.scoring import side_name, table_row
from tutor.play.record import HandFileError, export_hand, import_hand

MAX_MESSAGE = 400
MAX_SECONDS = 5.0
"""Seconds of CPU one call may take: a bound on pathological work (a hang, a blow-up on a huge
input), not a speed goal — the benchmarks measure speed. The calling thread's CPU time, not wall
time or the process's: a busy shared machine, or the browser tests' threads, do not fail it
(a whole random hand takes ~0.5 s; a run of the full suite saw 1.1 s)."""
COUNTS: Counter[str] = Counter()
FUZZ = settings(max_examples=1000, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---------------------------------------------------------------- hostile values

_CARD_TEXT = st.text(alphabet="♠♥♣♦SHCDshcd23456789TJQKA10 大小王BJ,", max_size=30)
_SOME_CARDS = st.lists(st.sampled_from(PACK), max_size=12).map(Cards)
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(), st.floats(), st.complex_numbers(),
    st.text(max_size=20), _CARD_TEXT, st.binary(max_size=10), st.just("♠" * 5000), st.just("9" * 5000),
    st.just("²"), st.just("٣"), st.just("♠A ♠A ♠A"), st.sampled_from(PACK), _SOME_CARDS, st.sampled_from(list(Suit)),
    st.sampled_from([Trump("♠"), Trump(None), Ruleset(), object(), type, len, {}, set(), frozenset({1})]),
    st.lists(st.one_of(st.integers(), st.text(max_size=4), st.sampled_from(PACK)), max_size=5),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
    st.lists(_CARD_TEXT, max_size=5), st.tuples(_CARD_TEXT, _CARD_TEXT),
)
TRUMPS = st.one_of(st.sampled_from(["♠", "♥", "H", "黑桃", None, Trump("♦")]), JUNK)
CARDS = st.one_of(_CARD_TEXT, _SOME_CARDS, JUNK)


def expect_clear(call: Callable[[], Any], what: str) -> Any:
    """Run ``call``: a result, or a TutorError with a short message; never anything else."""
    COUNTS[what] += 1
    collecting = gc.isenabled()
    gc.disable()  # the call's own CPU: a collection of the whole suite's heap is not the call's
    started = time.thread_time()
    try:
        return call()
    except TutorError as error:
        message = str(error)
        assert message, f"{what}: an empty error"
        assert len(message) <= MAX_MESSAGE, f"{what}: a {len(message)}-character message: {message[:120]}…"
        return error
    finally:
        spent = time.thread_time() - started
        if collecting:
            gc.enable()
        assert spent < MAX_SECONDS, f"{what} took {spent:.2f} s"


# ---------------------------------------------------------------- the rules functions

API: dict[str, tuple[Callable[..., Any], tuple[st.SearchStrategy[Any], ...]]] = {
    "parse_cards": (tutor.parse_cards, (CARDS,)),
    "str(parse_cards)": (lambda cards: str(tutor.parse_cards(cards)), (CARDS,)),
    "points": (tutor.points, (CARDS,)),
    "Cards": (Cards, (CARDS,)),
    "Card": (Card, (JUNK, JUNK)),
    "Trump": (Trump, (TRUMPS,)),
    "is_pair": (tutor.is_pair, (CARDS,)),
    "is_tractor": (tutor.is_tractor, (CARDS, TRUMPS)),
    "split": (tutor.split, (CARDS, TRUMPS)),
    "check_follow": (tutor.check_follow, (CARDS, CARDS, CARDS, TRUMPS)),
    "legal_follows": (tutor.legal_follows, (CARDS, CARDS, TRUMPS)),
    "check_ruff": (tutor.check_ruff, (CARDS, CARDS, CARDS, TRUMPS)),
    "trick_winner": (tutor.trick_winner, (st.one_of(st.lists(CARDS, max_size=6), JUNK), TRUMPS)),
    "explain_trick": (tutor.explain_trick, (st.one_of(st.lists(CARDS, max_size=6), JUNK), TRUMPS)),
    "check_throw": (tutor.check_throw, (CARDS, st.one_of(st.lists(CARDS, max_size=5), JUNK), TRUMPS)),
    "kitty_multiplier": (tutor.kitty_multiplier, (CARDS, TRUMPS)),
    "score_hand": (tutor.score_hand, (st.one_of(st.integers(-50, 300).map(lambda n: n * 5), JUNK),)),
    "can_overturn": (tutor.can_overturn, (CARDS, st.one_of(st.none(), CARDS))),
    "check_declaration": (tutor.check_declaration, (CARDS, st.one_of(st.none(), CARDS))),
    "declaration_strength": (tutor.declaration_strength, (CARDS,)),
    "Declaration": (Declaration, (CARDS, JUNK)),
    "kitty_flip": (tutor.kitty_flip, (CARDS,)),
    "flip_trump": (tutor.flip_trump, (CARDS,)),
    "play_random_hand": (play_random_hand, (st.one_of(st.integers(0, 50), JUNK),)),
    "Translator": (Translator, (JUNK,)),
    "Translator()": (lambda message: Translator("zh-Hant")(message), (JUNK,)),
    "and_list": (and_list, (st.one_of(st.lists(JUNK, max_size=5), JUNK),)),
    "or_list": (or_list, (st.one_of(st.lists(JUNK, max_size=5), JUNK),)),
    "said": (said, (st.one_of(st.builds(TutorError, JUNK), st.builds(ValueError, JUNK), JUNK),)),
    "Verdict.say": (lambda tr: tutor.check_follow("♠A ♠3", "♠K", "♠3", "♥").say(tr), (st.one_of(
        st.sampled_from([Translator("en"), Translator("zh-Hans"), None]), JUNK),)),
    "side_name": (side_name, (st.one_of(st.sampled_from(["declarer", "friend", "attacker"]), JUNK),)),
    "table_row": (table_row, (st.one_of(st.integers(-100, 300), JUNK),)),
    "card_name": (display.card_name, (st.one_of(st.sampled_from(PACK), JUNK),)),
    "card_face": (lambda card, trump, four: display.card_face(card, trump=trump, four_colour=four),
                  (st.one_of(st.sampled_from(PACK), JUNK), st.one_of(st.none(), TRUMPS), JUNK)),
    "cards_html": (lambda cards, trump: display.cards_html(cards, trump=trump), (CARDS, st.one_of(st.none(), TRUMPS))),
    "hand_html": (display.hand_html, (CARDS, TRUMPS)),
    "hand_groups": (display.hand_groups, (CARDS, TRUMPS)),
    "lane_label": (display.lane_label, (st.one_of(st.integers(0, 4), JUNK),)),
    "trick_html": (lambda plays, winner: display.trick_html(plays, winner=winner),
                   (st.one_of(st.lists(st.tuples(st.one_of(st.integers(0, 4), JUNK), CARDS), max_size=6), JUNK),
                    st.one_of(st.none(), st.integers(0, 4), JUNK))),
}
KEYWORDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "score_hand": {"declarations": st.one_of(st.integers(1, 4), JUNK), "solo": JUNK, "friendless": JUNK},
    "check_follow": {"rules": st.one_of(st.just(Ruleset()), JUNK)},
    "legal_follows": {"rules": st.one_of(st.just(Ruleset()), JUNK)},
    "check_ruff": {"beat": st.one_of(st.none(), CARDS), "rules": st.one_of(st.just(Ruleset()), JUNK)},
    "check_throw": {"rules": st.one_of(st.just(Ruleset()), JUNK)},
}


@pytest.mark.parametrize("name", sorted(API))
@FUZZ
@given(data=st.data())
def test_every_public_function_answers_or_refuses_clearly(name: str, data: st.DataObject) -> None:
    function, strategies = API[name]
    args = [data.draw(s) for s in strategies]
    kwargs = {key: data.draw(s) for key, s in KEYWORDS.get(name, {}).items() if data.draw(st.booleans())}
    result = expect_clear(lambda: function(*args, **kwargs), name)
    if isinstance(result, tutor.Verdict):  # a verdict explains itself, in any language
        assert result.reason and len(result.say()) < 2000
        assert Translator("zh-Hans")(result.reason)


_RULESET_FIELDS = ("flip_declarations", "allow_buried_friend", "failed_throw_lead", "penalty_per_card",
                   "penalty_to_declarers", "throw_follow_duty", "kitty_pairs_from", "declare_after_deal")


@FUZZ
@given(st.dictionaries(st.sampled_from(_RULESET_FIELDS), JUNK, max_size=4))
def test_a_ruleset_refuses_values_of_the_wrong_type(options: dict[str, Any]) -> None:
    made = expect_clear(lambda: Ruleset(**options), "Ruleset")
    if isinstance(made, Ruleset):  # accepted: every field has its type
        for name in ("allow_buried_friend", "penalty_to_declarers", "declare_after_deal"):
            assert isinstance(getattr(made, name), bool)
        for name in ("flip_declarations", "penalty_per_card"):
            assert type(getattr(made, name)) is int


@FUZZ
@given(JUNK, JUNK)
def test_a_game_refuses_a_bad_seed_or_ruleset_at_once(seed: Any, rules: Any) -> None:
    expect_clear(lambda: Game(seed, rules), "Game")


# ---------------------------------------------------------------- the game's actions

def _snapshot(game: Game) -> tuple[Any, ...]:
    return (game.phase, len(game.history), len(game.events), tuple(game.hand(s) for s in range(5)),
            game.kitty, game.trick, game.to_play)


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    """Games stopped in every phase: dealing, declaring, burying, calling, playing, finished."""
    out = []
    for seed in range(6):
        game = Game(seed)
        rng = __import__("random").Random(seed)
        stops = {Phase.DEALING: 30 + seed * 10}
        steps = 0
        while game.phase is not Phase.FINISHED:
            if steps == stops.get(game.phase, -1) or (game.phase is not Phase.DEALING and rng.random() < 0.02):
                break
            game.apply(random_action(game, rng))
            steps += 1
        out.append(game)
    out.append(play_random_hand(7))
    return out


ACTIONS = st.one_of(
    st.builds(Deal), st.builds(CloseDeal),
    st.builds(lambda s, c: Declare(s, c), JUNK, CARDS), st.builds(lambda s, c: Bury(s, c), JUNK, CARDS),
    st.builds(lambda s, c: Call(s, c), JUNK, JUNK), st.builds(lambda s: Solo(s), JUNK),
    st.builds(lambda s, c: Play(s, c), st.one_of(st.integers(0, 4), JUNK), CARDS), JUNK,
)


@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # the drawn games are large; that is fine
@FUZZ
@given(st.integers(0, 6), st.data())
def test_a_refused_action_changes_nothing(positions: list[Game], index: int, data: st.DataObject) -> None:
    game = positions[index]
    before = _snapshot(game)
    try:
        action = data.draw(st.one_of(st.just(None), ACTIONS))
    except TutorError:  # an action value refused as it is made (a bad seat or cards)
        COUNTS["action made"] += 1
        return
    result = expect_clear(lambda: game.apply(action), "Game.apply")
    if isinstance(result, TutorError):
        assert _snapshot(game) == before, "a refused action changed the game"
    else:  # a legal action: undo it by rebuilding the position
        positions[index] = Game.replay(game.seed, game.history[:-1], game.rules, game.deck)
        assert _snapshot(positions[index]) == before


METHODS = ("declare", "bury", "call", "play", "go_solo", "hand", "view", "side_of", "declaration_options")


@FUZZ
@given(st.integers(0, 6), st.sampled_from(METHODS), JUNK, CARDS)
def test_game_methods_refuse_junk_clearly(positions: list[Game], index: int, method: str, seat: Any,
                                          cards: Any) -> None:
    game = positions[index]
    before = _snapshot(game)
    call = getattr(game, method)
    args = (seat,) if method in ("go_solo", "hand", "view", "side_of", "declaration_options") else (seat, cards)
    result = expect_clear(lambda: call(*args), f"Game.{method}")
    if isinstance(result, TutorError) or method not in ("declare", "bury", "call", "play", "go_solo"):
        assert _snapshot(game) == before
    else:
        positions[index] = Game.replay(game.seed, game.history[:-1], game.rules, game.deck)


# ---------------------------------------------------------------- hand files

@pytest.fixture(scope="module")
def record() -> str:
    return export_hand(play_random_hand(11))


_LINE_JUNK = st.one_of(st.text(max_size=40), st.sampled_from([
    "seed: ²", "seed: " + "9" * 5000, "seed: -1", "seed: ٣", "deal ²", "deal 0", "deal 999", "deal " + "9" * 5000,
    "rule penalty_per_card: ²", "rule penalty_per_card: " + "9" * 5000, "rule nonsense: 1", "rule declare_after_deal: 1",
    "play 5 ♠A", "play True ♠A", "play 0 ♠A ♠A ♠A", "solo 0 ♠A", "call 0", "bury 0 " + "♠A " * 5000,
    "declare 0 BJ BJ BJ", "deck: ♠A", "\x00\x01", "\ufeffseed: 1", "play 0 " + "♠" * 5000]))


@FUZZ
@given(st.data())
def test_a_tampered_hand_file_is_refused_with_its_line(record: str, data: st.DataObject) -> None:
    lines = record.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(lines)))
        change = data.draw(st.sampled_from(["insert", "replace", "delete"]))
        if change == "insert":
            lines.insert(where, data.draw(_LINE_JUNK))
        elif change == "replace" and where < len(lines):
            lines[where] = data.draw(_LINE_JUNK)
        elif lines and where < len(lines):
            del lines[where]
    text = "\n".join(lines)
    result = expect_clear(lambda: import_hand(text), "import_hand")
    assert isinstance(result, (Game, HandFileError)), result


@pytest.mark.parametrize("junk", [
    "x" * 10_000_000, "\x00" * 1000, b"# hand".decode() * 3, 12, None, b"bytes", ["seed: 1"], "\n" * 100_000,
])
def test_a_huge_or_wrong_hand_file_is_refused_at_once(junk: Any) -> None:
    result = expect_clear(lambda: import_hand(junk), "import_hand (whole file)")
    assert isinstance(result, HandFileError)


def test_every_exported_hand_imports_again() -> None:
    for seed in range(40):
        game = play_random_hand(seed)
        again = import_hand(export_hand(game))
        assert again.history == game.history and again.results == game.results


# ---------------------------------------------------------------- link parameters

_KEYS = st.sampled_from(["seed", "level", "kind", "lang", "seed", "x", "", "SEED", "se%65d", "lang[]"])
_VALUES = st.one_of(st.text(max_size=12), st.sampled_from(["²", "٣", "9" * 5000, "9" * 110, "-1", "1e3", "0x10", " 1",
                                                            "%ff", "%00", "zh-Hans", "follow", "3", "2147483648"]))


@FUZZ
@given(st.lists(st.tuples(_KEYS, _VALUES), max_size=30), st.sampled_from([None, *[i.slug for i in LESSONS]]))
def test_link_parameters_are_used_or_noted(pairs: list[tuple[str, str]], slug: str | None) -> None:
    query = "&".join(f"{key}={value}" for key, value in pairs)
    COUNTS["parse_link"] += 1
    started = time.thread_time()
    params, notes = parse_link(query, lesson=slug)
    assert time.thread_time() - started < MAX_SECONDS
    assert params.seed is None or 0 <= params.seed <= 2**31 - 1
    assert params.level in (None, 1, 2, 3)
    assert all(len(note) <= MAX_MESSAGE for note in notes)


@pytest.mark.parametrize("junk", [None, 5, b"seed=1", ["seed=1"], "seed=" + "9" * 100_000])
def test_a_query_of_the_wrong_type_is_refused_or_noted(junk: Any) -> None:
    expect_clear(lambda: parse_link(junk), "parse_link (wrong type)")


def test_zz_report_counts() -> None:
    """Print how many hostile inputs each target got (``pytest -s``)."""
    print(f"\nhostile inputs: {sum(COUNTS.values())} in all; " + ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items())))
    assert sum(COUNTS.values()) >= 20_000 or len(COUNTS) < 10  # the whole module ran: tens of thousands
