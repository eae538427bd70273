"""Progress codes and the class table (``tutor.teach.classroom``, ``widgets.classroom``).

- A code round-trips whatever the progress (hypothesis), carries only the name and the
  lessons' counts (the quick checks' too) and rules missed, and stays short; a code of
  version 1 (before the quick checks were counted) still reads.
- Every damaged code is refused with a reason: changed anywhere (its check), cut
  anywhere, from a newer version, not a code at all.
- A class's paste: junk lines named and ignored, the same learner twice kept once (the
  later), huge input capped, nothing ever raised; the widgets take any message.
"""

from __future__ import annotations

import base64
import re
import hashlib
import time
from dataclasses import fields, replace
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.teach.classroom import (KIND_CODES, MAX_INPUT, MAX_LEARNERS, MAX_NAME, MAX_NOTES, MAX_RULES, PREFIX, VERSION,
                                   ClassroomError, CodeError, Report, Score, clean_name, decode, encode, read_class,
                                   report_of)
from tutor.teach.course import LESSONS
from tutor.teach.drills import KINDS, generate
from tutor.teach.drills.progress import MAX_STARS, KindProgress, Progress, track, utc
from tutor.core.i18n import Translator
from widgets.classroom import ClassProgress, HandIn
from widgets.check import quick_check

NOW = utc(2025, 3, 1)
TRACKS = [track(kind, info.slug) for info in LESSONS for kind in info.drills]
NAMES = st.text(st.characters(categories=("L", "N", "P", "Zs"), max_codepoint=0x9FFF), max_size=MAX_NAME)


def counts() -> st.SearchStrategy[KindProgress]:
    @st.composite
    def make(draw: st.DrawFn) -> KindProgress:
        attempts = draw(st.integers(0, 2**40))
        correct = draw(st.integers(0, attempts))
        stars = min(MAX_STARS, correct // 5, draw(st.integers(0, MAX_STARS)))  # 5 right in a row a star
        return KindProgress(attempts, correct, draw(st.integers(0, correct)), stars)
    return make()


@st.composite
def progresses(draw: st.DrawFn) -> Progress:
    """Random progress: counts in any lesson's tracks (and a track outside the lessons),
    and a few mistakes waiting to come back."""
    kinds = draw(st.dictionaries(st.sampled_from([*TRACKS, "follow", "ruff"]), counts(), max_size=len(TRACKS)))
    progress = Progress(kinds=tuple(sorted(kinds.items())), salt=draw(st.integers(0, 2**50)))
    for kind, seed, level in draw(st.lists(st.tuples(st.sampled_from(sorted(KINDS)), st.integers(0, 2**31 - 1),
                                                     st.integers(1, 3)), max_size=4)):
        progress = progress.record(kind, seed, level, False, NOW)
    return replace(progress, kinds=tuple(sorted(kinds.items())))  # the counts drawn, whatever record did


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(progresses(), NAMES)
def test_a_code_round_trips_any_progress(progress: Progress, name: str) -> None:
    report = report_of(progress, clean_name(name))
    code = encode(report)
    assert decode(code) == report
    assert code.startswith(PREFIX) and len(code) < 400
    for info in LESSONS:
        for kind in info.drills:
            stats = progress.kind(kind, info.slug)
            assert report.score(kind, info.slug) == Score(stats.stars, stats.attempts, stats.correct)
    wanted = [generate(r.kind, r.seed, r.level).rule for r in progress.reviews if not KINDS[r.kind].advice]
    assert sorted(count for _, count in report.missed) == sorted(wanted.count(rule) for rule in set(wanted))


@st.composite
def reports(draw: st.DrawFn) -> Report:
    """Any report a code can carry, counts up to what a browser's JSON keeps."""
    scores = {}
    for name in draw(st.lists(st.sampled_from(TRACKS), unique=True)):
        attempts = draw(st.integers(1, 2**53 - 1))
        scores[name] = Score(draw(st.integers(0, MAX_STARS)), attempts, draw(st.integers(0, attempts)))
    missed = draw(st.dictionaries(st.from_regex(r"[A-Z][0-9]", fullmatch=True), st.integers(1, 10**6),
                                  max_size=MAX_RULES))
    checks = {}
    for slug in draw(st.lists(st.sampled_from([info.slug for info in LESSONS]), unique=True)):
        attempts = draw(st.integers(1, 2**53 - 1))
        checks[slug] = Score(0, attempts, draw(st.integers(0, attempts)))
    return Report(clean_name(draw(NAMES)), tuple(sorted(scores.items())),
                  tuple(sorted(missed.items(), key=lambda item: (-item[1], item[0]))), tuple(sorted(checks.items())))


@settings(max_examples=150, deadline=None)
@given(reports(), st.data())
def test_any_change_or_cut_is_refused(report: Report, data: st.DataObject) -> None:
    code = encode(report)
    assert decode(code) == report
    at = data.draw(st.integers(len(PREFIX), len(code) - 1))
    other = data.draw(st.sampled_from([c for c in "AQgw-_9z" if c != code[at]]))
    with pytest.raises(CodeError):
        decode(code[:at] + other + code[at + 1:])
    cut = data.draw(st.integers(0, len(code) - 1))
    with pytest.raises(CodeError, match="cut short|not a progress code"):
        decode(code[:cut])


def test_only_the_name_and_the_lessons_counts_leave_the_browser() -> None:
    progress = Progress().record("follow", 11, 2, False, NOW, lesson="05-following")
    progress = progress.record("follow", 12, 2, True, NOW, lesson="05-following")
    progress = progress.with_level("follow", 3, "05-following")
    other = replace(progress, salt=99, last=None, levels=())  # what else the browser keeps
    assert encode(report_of(progress, "Ann")) == encode(report_of(other, "Ann"))
    assert [f.name for f in fields(Report)] == ["name", "scores", "missed", "checks"]
    assert report_of(progress).score("follow", "05-following") == Score(0, 2, 1)
    assert report_of(progress).missed == ((generate("follow", 11, 2).rule, 1),)


def test_the_quick_checks_count_for_their_lesson() -> None:
    """A learner who answered six of lesson 09's quick checks (five right) and one of its
    drills hands in both: the checks in a lesson's text keep their answers in a store of
    their own, and the code adds them up by lesson (every kind they ask)."""
    drills = Progress().record("score", 3, 1, True, NOW, lesson="09-scoring")
    checks = Progress()
    for step, (seed, level, right) in enumerate([(7, 2, True), (1, 1, True), (2, 1, False), (11, 3, True),
                                                 (2, 2, True), (40, 1, True)]):
        checks = checks.record("score", seed, level, right, NOW + timedelta(seconds=step), lesson="09-scoring")
    checks = checks.record("trick", 9, 2, True, NOW, lesson="05-following")  # a check of another kind
    checks = checks.record("follow", 1, 1, True, NOW)  # kept under its kind alone: no lesson to count it in
    report = report_of(drills, "Ann", checks)
    assert report.score("score", "09-scoring") == Score(0, 1, 1)
    assert report.checked("09-scoring") == Score(0, 6, 5)
    assert report.checked("05-following") == Score(0, 1, 1) and report.checked("00-welcome") == Score()
    assert decode(encode(report)) == report
    assert report_of(drills, "Ann") == replace(report, checks=())  # without the checks' store, none


def test_a_code_of_version_1_still_reads() -> None:
    """Codes handed in before the quick checks were counted (version 1: no checks after the
    rules missed) read as they did."""
    body = b"\x03Ann" + b"\x01" + bytes((5, KIND_CODES.index("follow"), 1)) + b"\x07\x06" + b"\x01W\x03\x02"
    assert decode(_frame(1, body)) == Report("Ann", (("05-following/follow", Score(1, 7, 6)),), (("W3", 2),))
    assert _frame(1, b"\x00\x00\x00") == "QD-AQMAAADHxeSO"  # the empty code version 1 wrote


def test_the_rules_missed_are_counted_most_first_and_capped() -> None:
    progress = Progress()
    for seed in range(40):
        progress = progress.record(("follow", "ruff", "trick")[seed % 3], seed, 1, False,
                                   NOW + timedelta(seconds=seed))
    missed = report_of(progress).missed
    assert [c for _, c in missed] == sorted((c for _, c in missed), reverse=True)
    assert sum(c for _, c in missed) == 40 and len(missed) <= MAX_RULES  # 15 rules at most in these kinds


@pytest.mark.parametrize(("name", "problem"), [
    ("x" * (MAX_NAME + 1), "at most 40 characters"), ("Ann\x00", "letters, digits"), (7, "a name is text"),
])
def test_a_name_that_cannot_go_into_a_code(name: object, problem: str) -> None:
    with pytest.raises(ClassroomError, match=problem):
        clean_name(name)


def test_a_report_no_code_can_carry_is_refused() -> None:
    with pytest.raises(ClassroomError, match="no lesson's drills"):
        encode(Report(scores=(("05-following/chess", Score(0, 1, 0)),)))
    with pytest.raises(ClassroomError, match="impossible counts"):
        encode(Report(scores=(("05-following/follow", Score(0, 1, 2)),)))
    with pytest.raises(ClassroomError, match="impossible rule"):
        encode(Report(missed=(("W", 1),)))
    with pytest.raises(ClassroomError, match="given twice"):
        encode(Report(missed=(("W3", 1), ("W3", 2))))


def _frame(version: int, body: bytes) -> str:
    frame = bytes((version, len(body))) + body
    frame += hashlib.sha256(frame).digest()[:4]
    return PREFIX + base64.urlsafe_b64encode(frame).decode().rstrip("=")


@pytest.mark.parametrize(("code", "problem"), [
    ("QD-", "cut short"),
    ("hello", "not a progress code"),
    ("QD-AQMAAAD*xeSO", "not a progress code"),
    ("QD-" + "A" * 2000, "too long"),
    (_frame(VERSION + 1, b"\x00\x00\x00\x00"),
     f"newer version of the course \\(version {VERSION + 1}; this page reads up to {VERSION}\\)"),
    (_frame(0, b"\x00\x00\x00"), "not a progress code"),
    (_frame(VERSION, b"\x00\x01\x63\x02\x00\x01\x00\x00"), "not made by this course"),  # lesson 99
    (_frame(VERSION, b"\x00\x00\x00\x00\x00"), "not made by this course"),  # a byte too many
    (_frame(1, b"\x00\x00\x00\x00"), "not made by this course"),  # version 1 had no quick checks
    (_frame(VERSION, b"\x00\x00\x00\x01\x63\x01\x00"), "not made by this course"),  # checks of lesson 99
    (_frame(VERSION, b"\x00\x00\x00\x01\x05\x01\x02"), "not made by this course"),  # 2 right of 1 answered
    (_frame(VERSION, b"\x02 A\x00\x00"), "not made by this course"),  # a name no learner could type
    (PREFIX + base64.urlsafe_b64encode(bytes((VERSION,)) + b"\xff" * 9 + b"\x01").decode().rstrip("="),
     "not made by this course"),  # a length no count can be (once a bare ValueError)
    (_frame(VERSION, b"\x00\x01" + b"\xff" * 9), "not made by this course"),  # a count too large, inside
])
def test_a_code_that_cannot_be_read_says_why(code: str, problem: str) -> None:
    assert decode(_frame(VERSION, b"\x01A\x00\x00\x00")) == Report(name="A")  # the frame the rows change
    with pytest.raises(CodeError, match=problem):
        decode(code)


def test_a_code_that_cannot_be_read_is_a_note_in_the_class_table() -> None:
    huge = PREFIX + base64.urlsafe_b64encode(bytes((VERSION,)) + b"\xff" * 9 + b"\x01").decode().rstrip("=")
    table = read_class(f"Ann: {huge}")
    assert not table.rows and "not made by this course" in str(table.notes[0])


def test_the_kinds_are_numbered_once_and_for_all() -> None:
    assert KIND_CODES[:9] == ("points", "tractor", "follow", "ruff", "throw", "trick", "declare", "friend", "score")
    assert {kind for info in LESSONS for kind in info.drills} <= set(KIND_CODES)
    assert all(info.slug[:2].isdigit() and info.slug[2] == "-" for info in LESSONS)  # a code names a lesson by it


# ----------------------------------------------------------------- the class

def _code(name: str, correct: int = 1) -> str:
    progress = Progress()
    for seed in range(correct):
        progress = progress.record("follow", seed, 1, True, NOW, lesson="05-following")
    return encode(report_of(progress, name))


def test_a_class_is_one_row_a_learner_with_notes_for_the_rest() -> None:
    ann, bob = _code("Ann", 6), _code("Bob", 1)
    tampered = bob[:-4] + ("A" if bob[-4] != "A" else "B") + bob[-3:]
    paste = "\n".join([f"Ann: {ann}", "", "hello teacher, here is my code:", tampered, bob[:-6], ann.lower(), bob])
    table = read_class(paste)
    assert [row.report.name for row in table.rows] == ["Ann", "Bob"]
    assert table.rows[0].report.score("follow", "05-following") == Score(1, 6, 6)
    notes = [str(note) for note in table.notes]
    assert notes == [
        "line 3 is not a progress code and was ignored (“hello teacher, here is my code…”)",
        "line 4: this code was changed or mistyped (its check does not match)",
        "line 5: this code is cut short",
        f"line 6 is not a progress code and was ignored (“{ann.lower()}”)",
    ]


def test_the_same_learner_twice_keeps_the_later_code() -> None:
    table = read_class("\n".join([_code("Ann", 1), _code("Bob"), _code("ann", 3)]))
    assert [row.report.name for row in table.rows] == ["Bob", "ann"]
    assert table.rows[1].report.score("follow", "05-following").attempts == 3
    assert [str(n) for n in table.notes] == ["Ann is here twice (line 1 and line 3); the later code is kept"]
    unnamed = _code("")
    table = read_class(f"{unnamed}\n{unnamed}\n{_code('', 2)}")
    assert len(table.rows) == 2 and "(no name, line 1) is here twice (line 1 and line 2)" in table.notes[0]


def test_files_are_read_and_named_in_the_notes() -> None:
    table = read_class("", [("ann.txt", _code("Ann") + "\n"), ("bob.txt", "oops\n" + _code("Bob"))])
    assert [row.report.name for row in table.rows] == ["Ann", "Bob"]
    assert [str(n) for n in table.notes] == ["bob.txt, line 1 is not a progress code and was ignored (“oops”)"]
    assert read_class("", [("x", 5), "junk"]) == read_class("")  # type: ignore[list-item]


def test_a_huge_paste_is_capped_and_quick() -> None:
    code = _code("Ann")
    paste = f"{code}\n" + ("x" * 99 + "\n") * (3 * MAX_INPUT // 100)
    started = time.thread_time()  # this thread's CPU: a busy machine does not fail it
    table = read_class(paste)
    assert time.thread_time() - started < 2
    assert [row.report.name for row in table.rows] == ["Ann"]
    assert len(table.notes) == MAX_NOTES
    assert str(table.notes[0]).startswith("the pasted text is too long: only its first")
    assert str(table.notes[-1]).startswith("and ") and str(table.notes[-1]).endswith("more notes")
    one_line = read_class("QD-" + "A" * (3 * MAX_INPUT))
    assert not one_line.rows and "too long" in one_line.notes[0]


def test_more_learners_than_the_table_takes() -> None:
    codes = "\n".join(_code(f"L{i}") for i in range(MAX_LEARNERS + 5))
    table = read_class(codes)
    assert len(table.rows) == MAX_LEARNERS
    assert [str(n) for n in table.notes] == [f"line {MAX_LEARNERS + 1}: more than {MAX_LEARNERS} learners; "
                                             "the rest were left out"]


def test_notes_are_said_in_every_language() -> None:
    table = read_class(f"hello\n{_code('Ann')}\n{_code('Ann')}")
    said = [Translator("zh-Hant")(note) for note in table.notes]
    assert said == ["第 1 行不是進度碼，已忽略（「hello」）",
                    "Ann 出現了兩次（第 2 行和第 3 行）；保留後面的那個進度碼"]


# ----------------------------------------------------------------- the widgets

def test_hand_in_makes_the_code_of_the_stored_progress() -> None:
    progress = Progress().record("follow", 3, 1, False, NOW, lesson="05-following")
    widget = HandIn()
    widget.sync(progress.to_json(), "  Ann  Lee ")
    assert decode(widget.code) == report_of(progress, "Ann Lee") and widget.filename == "qidong-progress-Ann-Lee.txt"
    widget.sync(progress.to_json(), "x" * 50)
    assert widget.code == "" and "That name cannot be used: a name is at most 40 characters" in widget.note
    widget.sync("{not json", "Ann")
    assert widget.code == "" and "nothing to hand in" in widget.note
    widget.sync(None, "")
    assert decode(widget.code) == Report() and widget.note == ""
    stored = progress.to_json().replace('"salt": 0', '"salt": -1')  # tampered: the rest still reads
    widget.sync(stored, "Ann")
    assert decode(widget.code) == report_of(progress, "Ann") and widget.note == (
        "Some saved progress could not be read and was left out.")


def test_hand_in_counts_the_quick_checks() -> None:
    checks = Progress().record("score", 7, 2, True, NOW, lesson="09-scoring")
    widget = HandIn()
    assert widget.checks_key == "qidong-tutor/checks/v1" != widget.storage_key
    widget._handle_custom_msg({"type": "sync", "progress": None, "checks": checks.to_json(), "name": "Ann"}, [])
    assert decode(widget.code).checked("09-scoring") == Score(0, 1, 1) and widget.note == ""
    widget._handle_custom_msg({"type": "sync", "progress": None, "checks": "{not json", "name": "Ann"}, [])
    assert decode(widget.code) == Report("Ann") and widget.note == (
        "Some saved progress could not be read and was left out.")


@pytest.mark.parametrize("content", [
    None, [], "sync", {"type": "sync"}, {"type": "sync", "progress": 5, "name": None},
    {"type": "sync", "progress": "x" * 10**6, "name": "y" * 10**6}, {"type": "x" * 100},
])
def test_hand_in_takes_any_message(content: object) -> None:
    widget = HandIn(lang="zh-Hans")
    widget._handle_custom_msg(content, [])
    assert not widget.note or not any("a" <= ch.lower() <= "z" for ch in widget.note)  # said in Chinese


@pytest.mark.parametrize("content", [
    None, {"type": "read"}, {"type": "read", "text": 5, "files": "no"},
    {"type": "read", "text": "x\n" * (MAX_INPUT), "files": [{"name": 1, "text": 2}, {"name": "a", "text": "b"}] * 300},
])
def test_the_class_table_takes_any_message(content: object) -> None:
    widget = ClassProgress()
    widget._handle_custom_msg(content, [])
    assert "Traceback" not in widget.html and widget.html


def test_the_class_table_shows_learners_by_lesson() -> None:
    widget = ClassProgress(lang="zh-Hans")
    progress = Progress().record("follow", 3, 1, False, NOW, lesson="05-following")
    rule = generate("follow", 3, 1).rule
    widget._handle_custom_msg({"type": "read", "text": "", "files": [
        {"name": "ann.txt", "text": encode(report_of(progress, "Ann <b>"))}]}, [])
    html = widget.html
    assert 'data-learner="Ann &lt;b&gt;"' in html and "<b>" not in html
    assert f'data-rule="{rule}"' in html and f"{rule} ×1" in html
    row = html.split('data-learner="Ann &lt;b&gt;"')[1]
    assert '<td data-lesson="05-following"><div class="qd-class-kind" title="跟牌" data-kind="follow">' in row
    assert "0/1" in row and "学生" in html and "1 名学生" in html


def test_the_class_table_shows_the_quick_checks() -> None:
    drills = Progress().record("score", 3, 1, False, NOW, lesson="09-scoring")
    checks = Progress()
    for seed in range(6):
        checks = checks.record("score", seed, 1, seed != 2, NOW + timedelta(seconds=seed), lesson="09-scoring")
    widget = ClassProgress()
    widget.read(encode(report_of(drills, "Ann", checks)))
    cell = re.search(r'<td data-lesson="09-scoring">(.*?)</td>', widget.html)
    assert cell is not None
    text = re.sub(r"<[^>]*>", " ", cell.group(1)).split()
    assert text == ["☆☆☆", "0/1", "✓", "5/6"]  # the drills' stars and answers, then the quick checks'
    assert 'title="5 right of 6 answered"' in cell.group(1)
    assert "✓ its quick checks" in widget.html  # the key says what ✓ counts


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=9), inner, max_size=5),
                    max_leaves=20)
MESSAGES = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["sync", "read"])},
                          optional={"progress": JSON | st.just(Progress().to_json()), "name": JSON,
                                    "text": JSON | st.just(_code("Ann")), "files": JSON}),
    JSON)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["custom", "update", "request_state", "nonsense"]), MESSAGES)
def test_the_widgets_take_any_comm_message(method: str, content: object) -> None:
    """What a script on the page could send, by the path ipywidgets takes (``_handle_msg``):
    nothing escapes, nothing is slow, and no trait the page draws holds Python's words."""
    for widget in (HandIn(), ClassProgress()):
        data = {"method": method, "content": content, "state": content, "buffer_paths": []}
        started = time.thread_time()  # this thread's CPU: a busy machine does not fail it
        widget._handle_msg({"content": {"data": data}, "buffers": []})
        assert time.thread_time() - started < 2, "pathological work for one message"  # (~10 ms; 0.5 s seen under load)
        shown = " ".join(str(getattr(widget, name)) for name in ("note", "html") if widget.has_trait(name))
        assert not any(word in shown for word in ("Traceback", "Error", "NoneType", "invalid literal"))


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_the_widgets_speak_chinese_throughout(lang: str) -> None:
    """Every text a teacher or learner sees or hears (titles and labels too) is said in
    Chinese: only rule IDs, the learner's name and codes are Latin."""
    progress = Progress().record("ruff", 5, 1, False, NOW, lesson="06-ruffing")
    code = encode(report_of(progress, "小明"))
    table = ClassProgress(lang=lang)
    table.read(f"{code}\nhello\n{code}\nQD-AQMAAADHxeSP")
    hand_in = HandIn(lang=lang)
    hand_in.sync("{", "x" * 41)
    texts = [table.html, hand_in.note, *hand_in.labels.values(), *table.labels.values()]
    spoken = [label for text in texts for label in re.findall(r'(?:title|aria-label)="([^"]*)"', text)]
    visible = " ".join([re.sub(r"<[^>]*>", " ", text) for text in texts] + spoken)
    english = re.findall(r"[A-Za-z]{2,}", re.sub(r"QD-[\w-]*|hello|\b[A-Z]\d\b", " ", visible))
    assert not english, english


def test_a_lessons_quick_check_reaches_the_hand_in() -> None:
    """The wiring, as a page does it: a quick check of lesson 01 answered (one wrong, then the
    next right) stores its answers under the lesson, and what it stores hands in as that
    lesson's checks (before, they were kept under the kind alone and counted for nothing)."""
    player = quick_check("points", level=1, seed=4, lesson="01-cards")
    drill = player.drill
    assert drill is not None and drill.number is not None
    player.check(str(drill.number + 1))
    player.next()
    nxt = player.drill
    assert nxt is not None and nxt.number is not None and nxt.seed != drill.seed
    player.check(str(nxt.number))
    widget = HandIn()
    widget._handle_custom_msg({"type": "sync", "progress": None, "checks": player.progress_json, "name": "Ann"}, [])
    assert decode(widget.code).checked("01-cards") == Score(0, 2, 1)
