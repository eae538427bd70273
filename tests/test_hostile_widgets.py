"""Hostile input through the widgets, by the entry points the browser uses.

Every message is delivered as ipywidgets receives a comm message (``Widget._handle_msg``
with ``{"content": {"data": {"method": ...}}, "buffers": [...]}``): custom messages (what
the page's ``model.send`` sends), state updates (what ``model.set`` + ``save_changes``
sends), state requests, and messages no page sends at all. A script can send anything;
whatever it sends:

- no exception escapes, and nothing reaches the page that is Python's own (no traceback
  shown, no "invalid literal …", "KeyError" …), nor anything the page cannot decode
  (NaN, a lone surrogate);
- a message that must be refused changes nothing but the widget's note (the synced
  traits are compared before and after);
- every message is handled at once (< 0.5 s), however large.

The inputs are generated (hypothesis, and products of hostile values with every message
field); ``test_zz_inputs_counted`` reports how many each widget received.
"""

from __future__ import annotations

import json
import math
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

pytest.importorskip("anywidget")
pytest.importorskip("hypothesis")

import ipywidgets.widgets.widget as ipywidget  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tutor.teach.drills import KINDS, AnswerKind, generate  # noqa: E402
from tutor.teach.drills.progress import Progress, utc  # noqa: E402
from tutor.rules.game import Bury, Call, Declare, Play, Solo  # noqa: E402
from tutor.play.record import export_hand  # noqa: E402
from tutor.play.strategy import ComputerPlayer  # noqa: E402
from widgets import CardPicker, CourseMap, DrillPlayer, Table  # noqa: E402

LIMIT = 5.0
"""Seconds of CPU a single message may take: a bound on pathological work (a hang, a blow-up
on a huge value), not a speed goal — the benchmarks measure speed. The calling thread's CPU
time, not wall time or the process's, so a busy shared machine does not make it flake (a
drill's sync took 1.05 s in a full run)."""

PYTHON_WORDS = (
    "Traceback", "invalid literal", "Exceeds the limit", "object has no attribute", "NoneType", "TypeError",
    "KeyError", "ValueError", "IndexError", "AttributeError", "RecursionError", "JSONDecodeError",
    "Expecting value", "Expecting property name", "not subscriptable", "not iterable", "unhashable",
    "with base 10", "int() argument", "set_int_max_str_digits", "unsupported operand", "codec can't",
    "maximum recursion depth", "Extra data", "Unterminated string", "Invalid control character", "(char ",
)
"""Words of Python's own, never meant for a learner."""

COUNTS: Counter[str] = Counter()
"""Inputs delivered, by target."""

SHOWN: list[str] = []
"""Tracebacks ipywidgets showed (it shows them on the page when a handler raises)."""


class _Shell:
    """Stands in for IPython: ipywidgets calls ``showtraceback`` on the page's behalf."""

    def showtraceback(self, *args: object, **kwargs: object) -> None:
        SHOWN.append("traceback")


@pytest.fixture(autouse=True, scope="module")
def _shell() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ipywidget, "get_ipython", lambda: _Shell())
        yield


# ------------------------------------------------------------------ the page


def comm(data: object, buffers: object = ()) -> dict[str, Any]:
    """A comm message as ipywidgets' ``_handle_msg`` receives it."""
    return {"header": {"msg_type": "comm_msg"}, "content": {"comm_id": "hostile", "data": data},
            "buffers": list(buffers) if isinstance(buffers, tuple) else buffers}


def custom(content: object) -> dict[str, Any]:
    """What the page's ``model.send(content)`` arrives as."""
    return comm({"method": "custom", "content": content})


def update(state: object, buffer_paths: object = ()) -> dict[str, Any]:
    """What the page's ``model.set(...); model.save_changes()`` arrives as."""
    return comm({"method": "update", "state": state,
                 "buffer_paths": list(buffer_paths) if isinstance(buffer_paths, tuple) else buffer_paths})


class Page:
    """A widget as its page sees it: every message the kernel sends it is kept."""

    def __init__(self, name: str, widget: Any) -> None:
        self.name = name
        self.widget = widget
        self.sent: list[Any] = []
        widget._send = lambda msg, buffers=None: self.sent.append(msg)

    def snapshot(self, *ignore: str) -> dict[str, Any]:
        """The synced traits (and what the kernel keeps behind them), but ``ignore``."""
        w = self.widget
        state = {k: v for k, v in w.get_state().items() if k not in ignore and k not in ("_esm", "_css")}
        if isinstance(w, DrillPlayer):
            state["@progress"], state["@drill"] = w.progress, id(w.drill)
        elif isinstance(w, Table):
            state["@history"], state["@game"] = len(w.game.history), id(w.game)
        elif isinstance(w, CourseMap):
            state["@progress"] = w.progress
        return state

    def deliver(self, msg: object) -> None:
        """Hand ``msg`` to the widget as ipywidgets does; fail if anything internal reaches the page."""
        COUNTS[self.name] += 1
        self.sent.clear()
        SHOWN.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            start = time.thread_time()
            self.widget._handle_msg(msg)  # an exception escaping fails the test
            elapsed = time.thread_time() - start
        assert not SHOWN, f"a traceback was shown for {short(msg)}"
        assert not caught, [str(w.message) for w in caught]
        assert elapsed < LIMIT, f"{elapsed:.2f} s for {short(msg)}"
        for out in self.sent:
            clean(out, msg)

    def send(self, content: object) -> None:
        self.deliver(custom(content))


def short(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to write
        text = f"<{type(value).__name__}>"
    return text[:300]


def strings(value: object, depth: int = 0) -> Iterator[str]:
    """Every string in a JSON-like value (keys too)."""
    if isinstance(value, str):
        yield value
    elif depth < 50 and isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key, depth + 1)
            yield from strings(item, depth + 1)
    elif depth < 50 and isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item, depth + 1)


def clean(out: object, given: object) -> None:
    """``out`` (sent to the page) is valid JSON, strict UTF-8, and quotes no Python words
    (unless the hostile input itself held them)."""
    try:
        text = json.dumps(out, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (TypeError, ValueError) as error:
        raise AssertionError(f"the page cannot decode {short(out)}: {error}") from None
    for word in PYTHON_WORDS:
        if word in text and not any(word in s for s in strings(given)):
            raise AssertionError(f"{word!r} sent to the page for {short(given)}: {text[:600]}")


# ------------------------------------------------------------------ the widgets


def _seeds(kind: str) -> range:
    """Seeds to look for each answer kind in (the coach's drills, which search, are all choices)."""
    return range(80) if not KINDS[kind].advice else range(2)


def _seed(kind: str, answer: AnswerKind) -> int:
    return next(s for s in _seeds(kind) if generate(kind, s, 1).answer is answer)


DRILL_TARGETS = [(kind, answer) for kind in KINDS for answer in AnswerKind
                 if any(generate(kind, s, 1).answer is answer for s in _seeds(kind))]


@cache
def drill_page(kind: str, answer: AnswerKind) -> Page:
    """A drill player as its page shows it."""
    player = DrillPlayer(kind, seed=_seed(kind, answer), level=1)
    return Page(f"DrillPlayer {kind}/{answer.value}", player)


def _act(table: Table) -> None:
    """The learner does what a computer player in its seat would."""
    action = ComputerPlayer(table.seat, table.game.seed, table.game.rules).act(table.game.view(table.seat))
    if isinstance(action, Play):
        table.play(action.cards)
    elif isinstance(action, Bury):
        table.bury(action.cards)
    elif isinstance(action, Call):
        table.call(action.card)
    elif isinstance(action, Solo):
        table.go_solo()
    elif isinstance(action, Declare):
        table.declare(action.cards)
    else:
        table.pass_declaration()


def _table(phase: str) -> Table:
    if phase == "dealing":
        return Table(5, pause_ms=0, deal_ms=0)
    for seed in range(60):
        table = Table(seed, pause_ms=0, deal_ms=0)
        for _ in range(200):
            waiting = table.run()
            if waiting == "done" or (table.game.phase.value == phase and waiting == "learner"):
                break
            if waiting == "declare":
                table.declare(0) if table.state["options"] else table.pass_declaration()
            else:
                _act(table)
        if table.game.phase.value == phase and (phase == "finished" or table.waiting == "learner"):
            return table
    raise AssertionError(f"no deal reached {phase} with the learner to act")


TABLE_PHASES = ["dealing", "burying", "playing", "finished"]


@cache
def table_page(phase: str) -> Page:
    return Page(f"Table {phase}", _table(phase))


@cache
def hand_page() -> Page:
    """A table for hand files (a file that reads replaces its hand)."""
    return Page("Table hand files", _table("playing"))


@cache
def finished_record() -> str:
    return export_hand(_table("finished").game)


@cache
def course_page() -> Page:
    return Page("CourseMap", CourseMap(query=""))


@cache
def picker_page() -> Page:
    return Page("CardPicker", CardPicker("♠AAK ♥3 BJ ♦10", trump="♥", pick=2))


def every_page() -> list[Page]:
    return ([drill_page(*t) for t in DRILL_TARGETS] + [table_page(p) for p in TABLE_PHASES]
            + [course_page(), picker_page()])


PAGE_NAMES = [f"drill-{k}-{a.value}" for k, a in DRILL_TARGETS] + [f"table-{p}" for p in TABLE_PHASES] \
    + ["course", "picker"]


def page_named(name: str) -> Page:
    if name.startswith("drill-"):
        _, kind, answer = name.split("-")
        return drill_page(kind, AnswerKind(answer))
    if name.startswith("table-"):
        return table_page(name.removeprefix("table-"))
    return course_page() if name == "course" else picker_page()


# ------------------------------------------------------------------ hostile values

HUGE = "x" * 10_000_000
SPECIAL_STRINGS = [
    "", " ", "\n", "9" * 5000, "-" + "9" * 4999, "9" * 4301, "+\t5", "- \u20035", "5\u00a0", "\u20037", "²",
    "¹²", "5²", "٣", "٣٤", "９", "１２", "1e3", "0x10", "1_000", "−7", "--5", "+-5", "nan", "inf", "-0", "None",
    "null", "true", "yes", "no", "maybe", "♠A", "♠A ♠A ♠A", "BJ BJ BJ", "SJ", "♠", "♠1", "♠AX", "\x00",
    "\x00" * 300, "\ud800", "\udcff", "a\udfffb", "🂡", "<script>alert(1)</script>", "{problem}", "{0}", "{",
    "%s", "\u202e", "a" * 201, "♠A " * 70, "♠A" * 150, "x" * 300_000, "\u0301" * 50, "\ufeff", "ｙｅｓ",
]
SPECIAL_NUMBERS: list[Any] = [
    0, -1, 1, 7, True, False, 2**31, 2**31 - 1, 2**53 + 1, 2**63, -(2**63), 10**20, 10**4299, -(10**4299),
    0.5, -0.0, 3.0, 1e300, -1e300, float("inf"), float("-inf"), float("nan"),
]
FIELDS = ["type", "method", "check_id", "answer", "selected", "progress", "verb", "cards", "option", "text",
          "actions", "version", "value", "state", "content", "data", "buffer_paths", "level"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
    st.sampled_from(SPECIAL_STRINGS), st.sampled_from(SPECIAL_NUMBERS),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6),
                                                                inner, max_size=6),
    max_leaves=20,
)
card_text = st.text(alphabet="♠♥♣♦AKQJ1098765432BS ,，、", max_size=14)
number_text = st.from_regex(r"\s*[+\-−]?\s*[0-9٠-٩０-９²]{0,8}\s*", fullmatch=True)
answers = st.one_of(json_values, card_text, number_text, st.lists(card_text, max_size=8),
                    st.lists(st.sampled_from(SPECIAL_STRINGS), max_size=3))
selections = st.one_of(json_values, st.lists(st.integers(-3, 40), max_size=25),
                       st.lists(st.integers(0, 19), max_size=8, unique=True),
                       st.lists(st.sampled_from(SPECIAL_NUMBERS) | st.text(max_size=2), max_size=5))


def good_progress() -> str:
    progress = Progress()
    for seed in range(6):
        progress = progress.record("follow", seed, 1, seed % 2 == 0, utc(2025, 1, 1, 0, seed))
    return progress.to_json()


def progress_texts() -> st.SearchStrategy[Any]:
    body = json.loads(good_progress())
    shapes = st.fixed_dictionaries({"version": st.sampled_from([1, 1, 1, 2, "1", None, 1.0, True])}, optional={
        "salt": json_values, "kinds": json_values | st.dictionaries(st.text(max_size=8), json_values, max_size=4),
        "reviews": json_values | st.lists(st.fixed_dictionaries({}, optional={
            "kind": json_values, "seed": json_values, "level": json_values, "cleared": json_values,
            "card": json_values | st.just(body["reviews"][0]["card"])}), max_size=4),
        "last": json_values,
    })
    return st.one_of(json_values, st.text(max_size=40), json_values.map(json.dumps), shapes.map(json.dumps),
                     st.just(good_progress()), st.builds(lambda k, v: json.dumps({**body, k: v}),
                                                         st.sampled_from(list(body)), json_values))


# ------------------------------------------------------------------ what each widget must refuse


def valid_positions(widget: Any, raw: object) -> bool:
    """A selection the page could send: distinct positions in the held hand."""
    size = len(widget.state.get("hand", ())) if isinstance(widget, DrillPlayer) else \
        len(widget.hand) if isinstance(widget, Table) else len(widget.cards)
    return (isinstance(raw, list) and len(raw) <= size
            and all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in raw)
            and len(set(raw)) == len(raw))


def unreadable_answer(answer: object) -> bool:
    """An answer no drill can read, whatever its kind."""
    if answer is None or isinstance(answer, (bool, dict)):
        return True
    if isinstance(answer, float):
        return not math.isfinite(answer)
    if isinstance(answer, int):
        return abs(answer) >= 10**15
    if isinstance(answer, str):
        return len(answer) > 200
    if isinstance(answer, list):
        return len(answer) > 200 or not all(isinstance(a, str) and len(a) <= 200 for a in answer)
    return False


def unreadable_store(stored: object) -> bool:
    """Saved progress that cannot be read at all (some of a readable store may be dropped)."""
    if not isinstance(stored, str) or not stored.strip() or len(stored) > 1_000_000:
        return stored is not None
    try:
        body = json.loads(stored)
    except (ValueError, RecursionError):
        return True
    return not isinstance(body, dict) or body.get("version") != 1


DRILL_TYPES = ("check", "hint", "retry", "next", "reset", "sync", "dismiss_note", "reveal", "level")
TABLE_TYPES = ("step", "act", "declare", "pass", "solo", "hint", "coach_review", "export", "import", "restart", "new",
               "stop_to_declare", "opponents")


def expect_refusals(page: Page, content: object, before: Callable[..., dict[str, Any]]) -> None:
    """After ``content`` was handled: what must have been refused changed nothing but the note.
    ``before(*ignore)`` is the snapshot taken before, without ``ignore``."""
    w = page.widget
    kind = content.get("type") if isinstance(content, dict) else None
    if isinstance(w, DrillPlayer):
        types: tuple[str, ...] = DRILL_TYPES
    elif isinstance(w, Table):
        types = TABLE_TYPES
    elif isinstance(w, CourseMap):
        types = ("sync",)
    else:
        types = ("submit",)
    if not isinstance(kind, str) or kind not in types:
        assert page.snapshot() == before(), "an unknown message changed something"
        return
    assert isinstance(content, dict)
    if isinstance(w, DrillPlayer):
        if kind == "check" and w.drill is not None:
            feedback = w.feedback
            assert isinstance(feedback.get("check_id"), int) and -1 <= feedback["check_id"] < 2**53
            answer = content.get("answer")
            if unreadable_answer(answer):
                assert feedback.get("error"), f"{short(answer)} was judged: {feedback}"
            if feedback.get("error"):
                taken = valid_positions(w, content.get("selected"))
                assert page.snapshot("feedback", "selected") == before("feedback", "selected")
                if not taken:
                    assert page.snapshot("feedback") == before("feedback"), "a junk selection was taken"
        elif kind == "sync" and unreadable_store(content.get("progress")):
            assert w.progress_note  # the page's first sync is a sync even when its store is unreadable
            assert page.snapshot("progress_note", "synced") == before("progress_note", "synced")
        elif kind == "dismiss_note":
            assert page.snapshot("progress_note") == before("progress_note")
    elif isinstance(w, Table):
        history_kept = page.snapshot()["@history"] == before()["@history"]
        if kind == "act":
            cards = content.get("cards")
            malformed = not isinstance(cards, list) or len(cards) > 40 or \
                not all(isinstance(c, str) and len(c) <= 8 for c in cards)
            if content.get("verb") not in ("play", "bury", "call"):
                assert page.snapshot() == before()
            elif malformed:
                assert w.feedback.get("kind") == "refused"
                assert page.snapshot("feedback") == before("feedback")
            elif history_kept:
                assert page.snapshot("feedback", "selected") == before("feedback", "selected")
                if not valid_positions(w, content.get("selected")):
                    assert page.snapshot("feedback") == before("feedback"), "a junk selection was taken"
        elif kind == "declare":
            option = content.get("option")
            if history_kept or not isinstance(option, int) or isinstance(option, bool):
                assert page.snapshot("feedback") == before("feedback")
        elif kind == "import":
            if w.load_error:
                assert page.snapshot("load_error") == before("load_error")
            if not isinstance(content.get("text"), str) or len(content["text"]) > 200_000:
                assert w.load_error
        elif kind == "step":
            version = content.get("version")
            if not (isinstance(version, int) and not isinstance(version, bool)
                    and version == before()["state"]["version"]):
                assert page.snapshot() == before()
        elif kind == "stop_to_declare" and not isinstance(content.get("value"), bool):
            assert page.snapshot() == before()
        elif kind == "opponents" and not (type(content.get("level")) is int and content["level"] in (1, 2, 3)):
            assert page.snapshot() == before(), "a level that is none was taken"
    elif isinstance(w, CourseMap):
        if unreadable_store(content.get("progress")):
            assert page.snapshot("html") == before("html")
            assert w.note
    else:  # the picker drops what is not a position in its hand
        assert valid_positions(w, w.selected)


def deliver_custom(page: Page, content: object) -> None:
    full = page.snapshot()

    def before(*ignore: str) -> dict[str, Any]:
        return {k: v for k, v in full.items() if k not in ignore}

    page.send(content)
    expect_refusals(page, content, before)


PAGE_SETS = {"selected", "pause_ms", "deal_ms"}


def valid_update(widget: Any, state: object) -> bool:
    """An update the real page could send (see widgets/static/*.js: ``model.set``)."""
    if not isinstance(state, dict) or not state:
        return False
    for name, value in state.items():
        if name == "selected" and hasattr(widget, "selected"):
            if not valid_positions(widget, value):
                return False
        elif name in ("pause_ms", "deal_ms") and isinstance(widget, Table):
            if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000):
                return False
        else:
            return False
    return True


def deliver_comm(page: Page, msg: object) -> None:
    before = page.snapshot()
    page.deliver(msg)
    content = msg.get("content") if isinstance(msg, dict) else None
    data = content.get("data") if isinstance(content, dict) else None
    if not isinstance(data, dict):
        assert page.snapshot() == before, f"{short(msg)} changed something"
        return
    method = data.get("method")
    if isinstance(method, str) and method == "custom" and "content" in data:
        expect_refusals(page, data["content"], lambda *ignore: {k: v for k, v in before.items() if k not in ignore})
        return
    if isinstance(method, str) and method == "update" and not data.get("buffer_paths") \
            and valid_update(page.widget, data.get("state")):
        changed = set(data["state"])
        assert page.snapshot(*changed) == {k: v for k, v in before.items() if k not in changed}
        return
    assert page.snapshot() == before, f"{short(msg)} changed something"


# ------------------------------------------------------------------ the messages a page sends, but hostile

drill_contents = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(["check", "hint", "retry", "sync", "dismiss_note"]) | json_values},
                          optional={"check_id": json_values, "answer": answers, "selected": selections,
                                    "progress": progress_texts()}),
    st.builds(lambda a, s, c: {"type": "check", "check_id": c, "answer": a, "selected": s},
              answers, selections, json_values | st.integers()),
    st.builds(lambda p: {"type": "sync", "progress": p}, progress_texts()),
)

table_contents = st.one_of(
    json_values,
    st.fixed_dictionaries({"type": st.sampled_from(["act", "declare", "hint", "export", "import", "step",
                                                    "stop_to_declare", "pass", "solo"]) | json_values},
                          optional={"verb": st.sampled_from(["play", "bury", "call"]) | json_values,
                                    "cards": st.lists(card_text, max_size=10) | json_values,
                                    "selected": selections, "option": json_values, "text": json_values,
                                    "actions": json_values, "version": json_values, "value": json_values}),
    st.builds(lambda v, c, s: {"type": "act", "verb": v, "cards": c, "selected": s},
              st.sampled_from(["play", "bury", "call"]), st.lists(card_text, max_size=10), selections),
    st.builds(lambda o: {"type": "declare", "option": o}, json_values),
    st.builds(lambda level: {"type": "opponents", "level": level}, json_values | st.sampled_from([1, 2, 3, 0, 4])),
)

comm_messages = st.one_of(
    json_values,
    st.fixed_dictionaries({}, optional={"content": json_values, "buffers": json_values}),
    st.builds(comm, json_values),
    st.builds(lambda m, s, b, c: comm({"method": m, "state": s, "buffer_paths": b, "content": c}),
              st.sampled_from(["update", "custom", "request_state", "echo_update", "UPDATE", ""]) | json_values,
              json_values | st.dictionaries(st.sampled_from(sorted(PAGE_SETS) + ["state", "feedback", "_esm",
                                                                                  "lang", "keys", "nope"]),
                                            selections, max_size=3),
              st.just([]) | json_values, json_values),
    st.builds(lambda m, s: comm({"method": m, "state": s}), st.just("update"),
              st.dictionaries(st.sampled_from(sorted(PAGE_SETS)), selections | st.integers(-5, 20_000),
                              min_size=1, max_size=2)),
    st.builds(lambda m: {"content": {"data": m}}, st.fixed_dictionaries({}, optional={"method": json_values})),
)

SETTINGS = settings(deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@pytest.mark.parametrize("target", DRILL_TARGETS, ids=lambda t: f"{t[0]}-{t[1].value}" if isinstance(t, tuple) else "")
@settings(SETTINGS, max_examples=200)
@given(content=drill_contents)
def test_drill_messages(target: tuple[str, AnswerKind], content: object) -> None:
    deliver_custom(drill_page(*target), content)


@pytest.mark.parametrize("phase", TABLE_PHASES)
@settings(SETTINGS, max_examples=250)
@given(content=table_contents)
def test_table_messages(phase: str, content: object) -> None:
    deliver_custom(table_page(phase), content)


@settings(SETTINGS, max_examples=300)
@given(content=st.one_of(json_values, st.builds(lambda p: {"type": "sync", "progress": p}, progress_texts())))
def test_course_map_messages(content: object) -> None:
    deliver_custom(course_page(), content)


@settings(SETTINGS, max_examples=100)
@given(content=st.one_of(json_values, st.builds(lambda s: {"type": "submit", "selected": s}, selections)))
def test_picker_messages(content: object) -> None:
    deliver_custom(picker_page(), content)


@pytest.mark.parametrize("name", PAGE_NAMES)
@settings(SETTINGS, max_examples=60)
@given(msg=comm_messages)
def test_comm_messages(name: str, msg: object) -> None:
    deliver_comm(page_named(name), msg)


# ------------------------------------------------------------------ products of hostile values


HOSTILE: list[Any] = [*SPECIAL_STRINGS, *SPECIAL_NUMBERS, None, [], {}, [[]], [None], [[["♠A"]]], {"a": 1},
                      ["♠A"] * 201, [HUGE], [1, "♠A"], ["♠A", {"x": 1}], [10**4299], list(range(5000)),
                      [True, False], [-1], [0, 0], [2**63], {"type": "check"}]


def _products(types: tuple[str, ...], fields: tuple[str, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind in types:
        for field in fields:
            for value in HOSTILE:
                out.append({"type": kind, field: value})
    return out


def _odd_shapes() -> list[object]:
    return [None, "check", 3, [], [{"type": "check"}], {"type": None}, {"type": ["check"]}, {"type": {"a": 1}},
            {"type": 5}, {"type": True}, {"type": "CHECK"}, {"type": "check "}, {"type": "launch"}, {"no": "type"},
            {"type": HUGE}, {"type": "x" * 10_000}, {"type": "__init__"}, {"type": "_on_message"}]


@pytest.mark.parametrize("target", DRILL_TARGETS, ids=lambda t: f"{t[0]}-{t[1].value}" if isinstance(t, tuple) else "")
def test_drill_products(target: tuple[str, AnswerKind]) -> None:
    page = drill_page(*target)
    contents = [*_odd_shapes(), *_products(("check",), ("answer", "selected", "check_id")),
                *_products(("sync",), ("progress",)),
                *({"type": "check", "check_id": 1, "answer": a, "selected": a} for a in HOSTILE)]
    for content in contents:
        deliver_custom(page, content)


def test_drill_known_leaks() -> None:
    """The inputs that once showed Python's words to the learner."""
    page = drill_page("score", AnswerKind.NUMBER)
    for answer in ("9" * 5000, "9" * 199, "9" * 16, "²", "5²", 10**4299, -(10**20), [10**4299], "0\x1f1"):
        deliver_custom(page, {"type": "check", "check_id": 4, "answer": answer, "selected": []})
        assert page.widget.feedback["error"] and page.widget.feedback["check_id"] == 4
    for answer in ("+\t5", "- \u20035", "\u20037", "0\x1f", "１２", "٣"):  # numbers, spaced oddly: read
        deliver_custom(page, {"type": "check", "check_id": 6, "answer": answer, "selected": []})
        assert "error" not in page.widget.feedback and page.widget.feedback["message"]
    choice = drill_page("tractor", AnswerKind.CHOICE)
    for answer in (10**4299, -(10**4299), [10**4299]):
        deliver_custom(choice, {"type": "check", "check_id": 5, "answer": answer, "selected": []})
        assert choice.widget.feedback["error"]
    for stored in ("{not json", '{"version": 1, "reviews": [{"kind": "follow"}]}',
                   '{"version": 1, "reviews": [{"kind": "follow", "seed": 1, "level": 1, "card": {}}]}',
                   '{"version": 1, "reviews": [{"kind": "follow", "seed": 1, "level": 1, "card": 5}]}',
                   json.dumps({"version": 1, "kinds": {f"k{i}": [1, 1, 1, 1] for i in range(100_000)}}),
                   " " * 9_000_000 + "{}", "[" * 100_000):
        deliver_custom(page, {"type": "sync", "progress": stored})
        assert page.widget.progress_note


@pytest.mark.parametrize("phase", TABLE_PHASES)
def test_table_products(phase: str) -> None:
    page = table_page(phase)
    contents = [*_odd_shapes(),
                *_products(("act",), ("cards", "selected", "verb")),
                *({"type": "act", "verb": verb, "cards": value, "selected": value}
                  for verb in ("play", "bury", "call") for value in HOSTILE),
                *({"type": "act", "verb": verb, "cards": cards, "selected": []}
                  for verb in ("play", "bury", "call")
                  for cards in (["♠A"] * 3, ["BJ"] * 3, ["♠1"], ["♠A♠A"], ["X"], [""], ["♠A"] * 4, ["\ud800"],
                                ["²"], ["♠" * 8], ["BJ"] * 40, ["BJ"] * 41)),
                *_products(("declare",), ("option",)),
                *_products(("step",), ("version",)),
                *_products(("stop_to_declare",), ("value",)),
                *_products(("export",), ("actions",)),
                *_products(("import",), ("text",))]
    for content in contents:
        deliver_custom(page, content)


def _hand_files() -> list[str]:
    whole = finished_record()
    deal = "\n".join(line for line in whole.splitlines() if not line.startswith(("play", "bury", "call", "solo")))
    lines = whole.splitlines()
    swaps = ["²", "¹²", "٣", "９", "9" * 5000, "9" * 30, "-1", str(2**31), "1 2", "", "\x00", "\ud800", "x" * 300,
             "♠A " * 200, "{problem}"]
    files = [HUGE, "\x00\xff" * 100_000, "x" * 200_001, "\n" * 200_001, whole + "\n" * 100_000, "\ufeff" + whole,
             whole.replace("\n", "\r\n"), whole.replace("\n", "\r"), whole + "play 0 ♠A\n" * 2000,
             lines[0] + "\n" + "# x\n" * 3000, lines[0] + "\nseed: 1\n" + "deal 1\n" * 1999, lines[0],
             lines[0] + "\nseed: ²\n", lines[0] + "\nseed: " + "9" * 5000 + "\n", lines[0] + "\nseed: ٣\n"]
    for i, line in enumerate(lines):
        head, _, rest = line.partition(" ")
        for swap in swaps:
            for new in (f"{head} {swap}" if i % 2 else f"{head} {rest.split(' ')[0]} {swap}", swap):
                files.append("\n".join([*lines[:i], new, *lines[i + 1:]]))
        files.append("\n".join(lines[:i]))
        files.append("\n".join([*lines[:i], line, line, *lines[i + 1:]]))
    for swap in swaps:
        files.append(deal.replace("seed: ", "seed: " + swap))
        files.append(deal + f"\nrule kitty_multiplier: {swap}\n")
        files.append(deal.replace("\n", f"\nrule {swap}: 1\n", 1))
        files.append(deal + f"\ndeal {swap}\n")
    return files


def test_hand_files() -> None:
    """Hand files tampered with line by line, and the ones that once reached Python's words."""
    page = hand_page()
    for text in _hand_files():
        deliver_custom(page, {"type": "import", "text": text})
    for text in (HUGE, "qidong\nseed: ²", "# 启东招朋友 hand record v1\nseed: ²\n",
                 "# 启东招朋友 hand record v1\nseed: " + "9" * 5000 + "\n", bytes(range(256)).decode("latin-1")):
        start = time.thread_time()  # this thread's CPU: a busy machine does not fail it
        page.send({"type": "import", "text": text})
        assert time.thread_time() - start < 1 and page.widget.load_error  # refused at once, not read through


@settings(SETTINGS, max_examples=150)
@given(line=st.integers(0, 80), junk=st.one_of(st.text(max_size=40), st.sampled_from(SPECIAL_STRINGS[:-8])))
def test_hand_file_lines(line: int, junk: str) -> None:
    whole = finished_record().splitlines()
    whole.insert(min(line, len(whole)), junk)
    deliver_custom(hand_page(), {"type": "import", "text": "\n".join(whole)})


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_comm_products(name: str) -> None:
    page = page_named(name)
    msgs: list[object] = [None, 3, "x", [], {}, {"content": None}, {"content": {}}, {"content": {"data": None}},
                          {"content": {"data": {}}}, {"content": {"data": []}}, comm({}), comm({"method": None}),
                          comm({"method": ["update"]}), comm({"method": {"a": 1}}), comm({"method": "nope"}),
                          comm({"method": "update"}), comm({"method": "update", "state": None}),
                          comm({"method": "custom"}), comm({"method": "custom", "content": None}),
                          comm({"method": "request_state"}), comm({"method": "update", "state": {}}, None)]
    for value in HOSTILE:
        for key in (*sorted(PAGE_SETS), "state", "feedback", "lang", "_esm", "nope", "comm", "keys", "layout"):
            msgs.append(update({key: value}))
        msgs.append(update({"selected": [0]}, value))
        msgs.append(comm({"method": "update", "state": {"selected": [0]}, "buffer_paths": [["selected"]]}, value))
        msgs.append(comm({"method": value, "state": {"selected": [0]}}))
        msgs.append(comm(value))
    for msg in msgs:
        deliver_comm(page, msg)


def test_page_updates_still_work() -> None:
    """What the real page sets (widgets/static/*.js ``model.set``) is still taken."""
    for page in (drill_page("follow", AnswerKind.CARDS), table_page("playing"), picker_page()):
        page.deliver(update({"selected": [1, 0]}))
        assert page.widget.selected == [1, 0]
        page.deliver(update({"selected": []}))
        assert page.widget.selected == []
    table = table_page("dealing")
    table.deliver(update({"pause_ms": 200}))
    table.deliver(update({"deal_ms": 0}))
    assert (table.widget.pause_ms, table.widget.deal_ms) == (200, 0)
    sent = len(table.sent)
    table.deliver(comm({"method": "request_state"}))
    assert len(table.sent) >= sent


def test_zz_inputs_counted() -> None:
    """How many inputs each widget received (shown with ``-rP`` / ``-s``)."""
    if len(COUNTS) < len(PAGE_NAMES):
        pytest.skip("only part of this file ran")
    for name, count in sorted(COUNTS.items()):
        print(f"{name:32} {count:6}")
    total = sum(COUNTS.values())
    print(f"{'total':32} {total:6}")
    assert total >= 10_000

