"""Tables of classmates in real browsers against the course's real server (``voila lessons``,
as ``./dev serve`` runs it, with ``QD_TABLE_PACE=0``: no deliberate pauses).

Five Chromium pages — five browser profiles, so five localStorages; one of them in 简体 —
sit at one table: the first opens it with a name, one joins by the table's shared link
(``?code=…``), the others by typing the code; the opener starts the hand. Each page is then
driven as a learner would drive it, by clicking: when the deal stops for it, it declares
(once) or lets the deal go on; when it is to bury, call or play, it picks cards in its own
hand and presses the button. The cards it picks are worked out from what that page shows
— its hand's cards, the trick on the table, the trump in the header — with the rules
module (a single card led, the first legal follow), as a learner reads the table.

The five pages must end at the same score: the same twenty tricks in the review (and
exactly the plays the test made), the same results and points, the same kitty; each page's
hand, at the first lead, held that seat's own cards only, and the five hands with the kitty
make the two packs; each seat played exactly the cards its page held. The 简体 page speaks
Chinese — the table and, in a test of its own, the lobby and the table's bar around it. A
last test reloads a page mid-hand: the seat's token kept in localStorage brings it back to
its seat and the same hand, and it plays on.

A page puts back the picked cards the server sends it after each pick, so the test clicks
the cards of a play one at a time, each once the server's answer to the last has come (it
counts them with a small script added to each page: observation only).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import pytest
from leaks import english_words
from voila_serve import VoilaServer, serve

from tutor.rules.cards import HAND_SIZE, KITTY_SIZE, PACK, PLAYERS
from tutor.rules.follow import legal_follows
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump

pytestmark = pytest.mark.slow

HAND_TIMEOUT = 150.0
"""Seconds the whole hand may take (five pages, about 110 clicks' worth of actions)."""
CJK = re.compile(r"[\u4e00-\u9fff]")
SUIT = re.compile(r"[♠♥♣♦]")

SNAPSHOT = """() => {
  const root = document.querySelector('[data-qd=table]');
  if (!root) return null;
  const shown = (sel) => { const n = root.querySelector(sel); return !!n && !n.hidden; };
  const feedback = root.querySelector('[data-qd=feedback]');
  const hand = root.querySelector('[data-qd=hand]');
  return {
    phase: root.dataset.phase || '', waiting: root.dataset.waiting || '', version: root.dataset.version || '',
    busy: root.dataset.busy || '', lang: root.getAttribute('lang') || '',
    play: shown('[data-qd=play]'), bury: shown('[data-qd=bury]'), call: shown('[data-qd=call]'),
    solo: shown('[data-qd=solo]'),
    options: [...root.querySelectorAll('[data-qd=declare-option]')].map((b) => b.dataset.cards),
    pass: !!root.querySelector('[data-qd=pass]'),
    hand: [...hand.querySelectorAll('.qd-option')].map((o) => o.dataset.card),
    selected: hand.dataset.selected || '',
    seats: [...root.querySelectorAll('[data-qd=seat]')].map((s) => ({
      seat: Number(s.dataset.seat), you: s.classList.contains('qt-you'), won: s.classList.contains('qt-won'),
      count: Number(s.querySelector('[data-qd=count]').dataset.value),
      points: Number(s.querySelector('[data-qd=points]').dataset.value),
      played: s.querySelector('[data-qd=played]').dataset.cards || '' })),
    trump: (root.querySelector('[data-qd=trump]') || {}).textContent || '',
    feedback: feedback.hidden ? null : { id: feedback.dataset.id || '', result: feedback.dataset.result || '',
      text: feedback.textContent },
    score: shown('[data-qd=score]'),
  };
}"""

FINAL = """() => {
  const root = document.querySelector('[data-qd=table]');
  const score = root.querySelector('[data-qd=score]');
  const cards = (node) => [...node.querySelectorAll('.qd-card')].map((c) => c.dataset.card);
  return {
    verdict: root.querySelector('[data-qd=verdict]').textContent,
    prompt: root.querySelector('[data-qd=prompt]').textContent,
    results: [...score.querySelectorAll('tr[data-seat]')].map((tr) =>
      [Number(tr.dataset.seat), tr.querySelector('[data-qd=seat-result]').textContent]),
    kitty: cards(score),
    points: [...root.querySelectorAll('[data-qd=seat]')].map((s) =>
      [Number(s.dataset.seat), Number(s.querySelector('[data-qd=points]').dataset.value)]).sort((a, b) => a[0] - b[0]),
    review: [...root.querySelectorAll('[data-qd=review-trick]')].map((t) =>
      [...t.querySelectorAll('tr[data-seat]')].filter((tr) => tr.querySelector('.qd-card')).map((tr) =>
        [Number(tr.dataset.seat), cards(tr).join(' '), tr.classList.contains('qd-winner')])),
    htmlLang: document.documentElement.lang,
    text: root.innerText,
  };
}"""



@pytest.fixture(scope="module")
def tables_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The course's server as ``./dev serve`` runs it, the tables' pauses none."""
    with serve("lessons", tmp_path_factory.mktemp("voila-tables") / "voila.log", env={"QD_TABLE_PACE": "0"}) as server:
        yield server


@dataclass
class Seat:
    """One learner's page and what the test knows of it."""

    name: str
    page: Any
    errors: list[str] = field(default_factory=list)
    seat: int = -1
    declared: bool = False
    refused: set[tuple[str, str]] = field(default_factory=set)
    """(verb, cards) refused at this page: not tried again."""
    feedback_seen: str = ""
    refusals: list[str] = field(default_factory=list)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.page.evaluate(SNAPSHOT)
        return state


def _new_page(browser: Any, url: str, name: str, contexts: list[Any]) -> Seat:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    context.set_default_timeout(20_000)
    contexts.append(context)
    page = context.new_page()
    seat = Seat(name, page)
    page.on("pageerror", lambda e: seat.errors.append(str(e)))
    page.goto(url)
    return seat


def _close(contexts: list[Any]) -> None:
    for context in contexts:
        try:
            context.close()
        except Exception:  # noqa: BLE001 - closing anyway
            pass


def _open_table(seat: Seat) -> str:
    seat.page.fill("[data-qd=name]", seat.name)
    seat.page.click("[data-qd=open]")
    seat.page.wait_for_selector("[data-qd=table] [data-qd=seat]")
    return str(seat.page.inner_text("[data-qd=code-shown]")).strip()


def _join(seat: Seat, code: str | None) -> None:
    """Join by typing ``code`` (None: the code is filled in already, from the link)."""
    page = seat.page
    if code is not None:
        page.fill("[data-qd=code]", code)
    page.fill("[data-qd=join-name]", seat.name)
    page.click("[data-qd=join]")
    page.wait_for_selector("[data-qd=table] [data-qd=seat]")


def _trump(text: str) -> Trump:
    found = SUIT.search(text)
    return Trump(found.group(0) if found else None)


def _positions(hand: list[str], cards: list[str]) -> list[int]:
    """Positions in ``hand`` of ``cards`` (each copy its own position)."""
    free = list(range(len(hand)))
    out = []
    for card in cards:
        i = next(i for i in free if hand[i] == card)
        free.remove(i)
        out.append(i)
    return sorted(out)


def _pick(seat: Seat, hand: list[str], cards: list[str]) -> None:
    """Click ``cards`` in the page's hand as a learner does, one after the other without waiting
    (the server does not send a page's own picks back), then check just they are picked."""
    page = seat.page
    wanted = _positions(hand, cards)
    for i in wanted:
        page.click(f"[data-qd=hand] .qd-option[data-index='{i}']")
    expected = ",".join(map(str, wanted))
    page.wait_for_function("(want) => document.querySelector('[data-qd=hand]').dataset.selected === want",
                           arg=expected, timeout=10_000)


def _press(seat: Seat, button: str, verb: str, cards: str) -> dict[str, Any] | None:
    """Press ``button`` and wait until the server has handled it: the page's state then, or
    None if it was refused (the refusal is kept, and that choice not tried again)."""
    page = seat.page
    page.locator(f"[data-qd=table] [data-qd={button}]").first.click()
    page.wait_for_function("() => !document.querySelector('[data-qd=table]').dataset.busy", timeout=20_000)
    after = seat.state()
    feedback = after["feedback"]
    if feedback and feedback["result"] in ("refused", "error") and feedback["id"] != seat.feedback_seen:
        seat.feedback_seen = feedback["id"]
        seat.refused.add((verb, cards))
        seat.refusals.append(f"{verb} {cards}: {feedback['text']}")
        return None
    return after


def _trick(state: dict[str, Any]) -> tuple[int, str] | None:
    """The lead of the trick under way, as the page shows it: (seat, cards), or None when
    this page leads (no card on the table, or the last trick's cards still shown)."""
    played = {s["seat"]: s["played"] for s in state["seats"] if s["played"]}
    if not played or any(s["won"] for s in state["seats"]):
        return None
    leader = next(s for s in played if (s - 1) % PLAYERS not in played)
    return leader, played[leader]


def _act(seat: Seat, state: dict[str, Any], rng: random.Random, plays: list[tuple[int, str]]) -> bool:
    """This page's move, if it has one now: True if it did something."""
    hand = state["hand"]
    if state["waiting"] == "declare" and (state["options"] or state["pass"]):
        if state["options"] and not seat.declared:
            seat.declared = True
            _press(seat, "declare-option", "declare", state["options"][0])
            return True
        if state["pass"]:
            _press(seat, "pass", "pass", "")
            return True
        return False
    if state["bury"]:
        # The last cards held (lowest of the last side suit), else any eight not refused.
        for attempt in range(20):
            cards = hand[-KITTY_SIZE:] if attempt == 0 else rng.sample(hand, KITTY_SIZE)
            text = " ".join(cards)
            if ("bury", text) not in seat.refused:
                break
        _pick(seat, hand, cards)
        _press(seat, "bury", "bury", text)
        return True
    if state["call"]:
        held = Counter(hand)
        for card in [c for c in hand if held[c] == 1] + list(dict.fromkeys(hand)):
            if ("call", card) not in seat.refused:
                _pick(seat, hand, [card])
                _press(seat, "call", "call", card)
                return True
        if state["solo"]:
            _press(seat, "solo", "solo", "")
            return True
        raise AssertionError(f"{seat.name}: every call refused: {seat.refusals}")
    if state["play"]:
        lead = _trick(state)
        if lead is None:
            options = [[c] for c in reversed(hand)]
        else:
            trump = _trump(state["trump"])
            follows = legal_follows(parse_cards(" ".join(hand)), parse_cards(lead[1]), trump)
            options = [[str(c) for c in f] for f in list(follows)[:40]]
            rng.shuffle(options)
        for cards in options:
            text = " ".join(cards)
            if ("play", text) not in seat.refused:
                break
        else:
            raise AssertionError(f"{seat.name}: every play refused: {seat.refusals}")
        _pick(seat, hand, cards)
        after = _press(seat, "play", "play", text)
        if after is not None and len(after["hand"]) == len(hand) - len(cards):  # carried out (not ignored)
            plays.append((next(x["seat"] for x in state["seats"] if x["you"]), text))
        return True
    return False


def _all(seats: list[Seat]) -> list[dict[str, Any]]:
    return [s.state() for s in seats]


def test_five_pages_play_a_hand(browser: Any, tables_server: VoilaServer, screenshot: Any) -> None:
    """Five Chromium pages play a whole hand together (one in 简体): every page shows the
    same tricks and score, each only its own hand."""
    started = time.monotonic()
    lobby = f"{tables_server.base}/tables/"
    contexts: list[Any] = []
    try:
        names = ["Ana", "Ben", "Chen", "Dara", "Eli"]
        ana = _new_page(browser, lobby, names[0], contexts)
        code = _open_table(ana)
        assert re.fullmatch(r"[A-Z2-9]{6}", code), code
        link = ana.page.input_value("[data-qd=link]")
        assert link.endswith(f"?code={code}"), link
        ben = _new_page(browser, link, names[1], contexts)  # the shared link: the code filled in
        assert ben.page.input_value("[data-qd=code]") == code
        _join(ben, None)
        chen = _new_page(browser, lobby + "?lang=zh-Hans", names[2], contexts)
        _join(chen, code.lower())  # typed, in lower case
        dara = _new_page(browser, lobby, names[3], contexts)
        _join(dara, code)
        eli = _new_page(browser, lobby, names[4], contexts)
        _join(eli, code)
        seats = [ana, ben, chen, dara, eli]
        for s in seats:
            s.seat = int(s.page.get_attribute("#qd-app", "data-seat"))
        assert [s.seat for s in seats] == list(range(PLAYERS))
        # Everyone sees everyone's name; only the opener may start.
        ana.page.wait_for_function("() => document.querySelectorAll('[data-qd=players] li').length === 5 && "
                                   "[...document.querySelectorAll('[data-qd=players] li')].every(li => "
                                   "!/computer/.test(li.textContent))")
        for s in seats[1:]:
            assert s.page.is_hidden("[data-qd=start]")
            assert s.page.is_visible("[data-qd=waiting-start]")
        assert chen.page.get_attribute("html", "lang") == "zh-Hans"
        ana.page.click("[data-qd=start]")

        rng = random.Random(5)
        plays: list[tuple[int, str]] = []
        at_lead: list[list[str]] | None = None
        deadline = time.monotonic() + HAND_TIMEOUT
        while True:
            states = _all(seats)
            if all(st["score"] for st in states):
                break
            assert time.monotonic() < deadline, f"the hand did not end in {HAND_TIMEOUT:.0f} s: " + \
                repr([(st["phase"], st["waiting"], st["play"]) for st in states])
            if at_lead is None and states[0]["phase"] == "playing":
                # The first lead: every page shows its twenty cards, and nothing else.
                if all(st["phase"] == "playing" and len(st["hand"]) == HAND_SIZE and
                       all(x["count"] == HAND_SIZE for x in st["seats"]) for st in states):
                    at_lead = [st["hand"] for st in states]
                else:
                    time.sleep(0.05)
                    continue
            for s, st in zip(seats, states, strict=True):  # each page holds its own seat's cards
                own = next(x for x in st["seats"] if x["you"])
                assert own["seat"] == s.seat and len(st["hand"]) == own["count"], (s.name, own, st["hand"])
            acted = False
            for s, st in zip(seats, states, strict=True):
                if st["busy"]:
                    continue
                if _act(s, st, rng, plays):
                    acted = True
            if not acted:
                time.sleep(0.05)
        played_in = time.monotonic() - started

        finals = [s.page.evaluate(FINAL) for s in seats]
        screenshot(ana.page, "english")
        screenshot(chen.page, "chinese")
        # Each page's hand: its own seat's count, and together with the kitty the two packs.
        assert at_lead is not None
        kitty = finals[0]["kitty"]
        assert len(kitty) == KITTY_SIZE, kitty
        together = Counter(c for hand in at_lead for c in parse_cards(" ".join(hand))) + \
            Counter(parse_cards(" ".join(kitty)))
        assert together == Counter(PACK), together - Counter(PACK)
        # Every page: the same twenty tricks (exactly the plays made), results, points and kitty.
        for s, final in zip(seats, finals, strict=True):
            assert len(final["review"]) == HAND_SIZE, (s.name, len(final["review"]))
            assert final["review"] == finals[0]["review"], s.name
            assert final["results"] == finals[0]["results"], s.name
            assert final["points"] == finals[0]["points"], s.name
            assert final["kitty"] == kitty, s.name
            assert final["verdict"].strip(), s.name
            assert not s.errors, (s.name, s.errors)
        made = [(seat, cards) for trick in finals[0]["review"] for seat, cards, _ in trick]
        assert made == plays, (made, plays)
        for s, hand in zip(seats, at_lead, strict=True):  # the page's hand was its seat's: it played just those
            assert Counter(c for seat, cards in made if seat == s.seat for c in cards.split()) == Counter(hand), s.name
        assert sum(won for trick in finals[0]["review"] for _, _, won in trick) == HAND_SIZE
        # The 简体 page speaks Chinese; the English pages do not.
        chinese = finals[2]
        assert chinese["htmlLang"] == "zh-Hans"
        assert chen.state()["lang"] == "zh-Hans"
        assert CJK.search(chinese["verdict"]), chinese["verdict"]
        assert CJK.search(chinese["prompt"]), chinese["prompt"]
        assert not CJK.search(finals[0]["verdict"]), finals[0]["verdict"]
        assert not english_words(chinese["text"], allow=names), chinese["text"]
        log = tables_server.log_text()
        assert "Traceback" not in log and "tutor.tables" not in log, log
        print(f"hand played in {played_in:.1f} s; plays {len(plays)}; refusals "
              f"{[r for s in seats for r in s.refusals]}")
    finally:
        _close(contexts)


def test_the_lobby_in_chinese(browser: Any, tables_server: VoilaServer, screenshot: Any) -> None:
    """A 简体 learner's lobby and table header are in Chinese, not only the table itself:
    the heading, the forms, the table's code bar and the opener's button, the computer's seats."""
    contexts: list[Any] = []
    try:
        chen = _new_page(browser, f"{tables_server.base}/tables/?lang=zh-Hans", "陈", contexts)
        lobby = chen.page.inner_text("#qd-app")
        code = _open_table(chen)
        bar = chen.page.inner_text("[data-qd=bar]").replace(code, "")
        table = chen.page.inner_text("[data-qd=table]")
        screenshot(chen.page, "lobby-zh")
        leaked = {"lobby": english_words(lobby), "bar": english_words(bar), "table": english_words(table)}
        assert not any(leaked.values()), f"English on the 简体 page: {leaked}"
    finally:
        _close(contexts)


def test_a_reloaded_page_comes_back_to_its_seat(browser: Any, tables_server: VoilaServer, screenshot: Any) -> None:
    """A page reloaded mid-hand comes back to its seat and its hand: the seat's token is
    kept in the browser's localStorage (the four other seats are the computer's)."""
    contexts: list[Any] = []
    try:
        ana = _new_page(browser, f"{tables_server.base}/tables/", "Ana", contexts)
        code = _open_table(ana)
        kept = ana.page.evaluate("() => JSON.parse(localStorage.getItem('qidong-tutor/tables/v1'))")
        assert code in kept and kept[code]["token"], kept
        ana.page.click("[data-qd=start]")
        rng = random.Random(3)
        plays: list[tuple[int, str]] = []
        deadline = time.monotonic() + 60
        while True:  # to the middle of the hand: some tricks played, the page to play
            st = ana.state()
            if st["play"] and len(st["hand"]) <= HAND_SIZE - 3 and not st["busy"]:
                break
            assert time.monotonic() < deadline, st
            if st["busy"] or not _act(ana, st, rng, plays):
                time.sleep(0.05)
        before = ana.state()
        ana.page.reload()
        ana.page.wait_for_selector("[data-qd=table] [data-qd=seat]")
        ana.page.wait_for_function("() => document.querySelectorAll('[data-qd=hand] .qd-option').length > 0")
        after = ana.state()
        assert ana.page.get_attribute("#qd-app", "data-seat") == "0"
        assert ana.page.inner_text("[data-qd=code-shown]").strip() == code
        assert ana.page.is_hidden("[data-qd=lobby]")
        assert not ana.page.inner_text("[data-qd=refused]").strip()
        assert after["hand"] == before["hand"]
        assert after["play"], after
        assert [s["count"] for s in after["seats"]] == [s["count"] for s in before["seats"]]
        # And the page plays on from its seat.
        assert _act(ana, after, rng, plays)
        ana.page.wait_for_function("(n) => document.querySelectorAll('[data-qd=hand] .qd-option').length < n",
                                   arg=len(after["hand"]))
        screenshot(ana.page, "reloaded")
        assert not ana.errors, ana.errors
    finally:
        _close(contexts)


LOSE_ONE_PATCH = """() => {
  window.qdWire = { dropped: 0, resyncs: 0 };
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      const add = this.addEventListener.bind(this);
      this.addEventListener = (type, fn, ...rest) => add(type, type !== "message" ? fn : (event) => {
        if (!window.qdWire.dropped && event.data.includes('"patch"') && event.data.includes("Dealing")) {
          window.qdWire.dropped = 1; // lost on the way: the page must notice at the next message
          return;
        }
        fn(event);
      }, ...rest);
    }
    send(text) {
      if (String(text).includes('"resync"')) window.qdWire.resyncs += 1;
      super.send(text);
    }
  };
}"""
"""A page whose socket loses the first patch of the deal (and counts the ``resync`` it sends)."""


def test_a_page_that_missed_a_patch_asks_for_the_whole_and_plays_on(browser: Any, tables_server: VoilaServer) -> None:
    """Each change reaches a page as a patch of what it holds: one lost in the deal, the next
    shows a version missed, the page asks for the whole view once and then draws its seat as
    it is (its whole hand, the count the table shows for it) and plays on."""
    contexts: list[Any] = []
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
        context.set_default_timeout(20_000)
        contexts.append(context)
        context.add_init_script(script=f"({LOSE_ONE_PATCH})()")
        page = context.new_page()
        ana = Seat("Ana", page)
        page.on("pageerror", lambda e: ana.errors.append(str(e)))
        page.goto(f"{tables_server.base}/tables/")
        _open_table(ana)
        page.click("[data-qd=start]")
        rng = random.Random(5)
        plays: list[tuple[int, str]] = []
        deadline = time.monotonic() + 60
        while True:  # the deal over, the page to play
            st = ana.state()
            if st["play"] and not st["busy"]:
                break
            assert time.monotonic() < deadline, st
            if st["busy"] or not _act(ana, st, rng, plays):
                time.sleep(0.05)
        assert page.evaluate("() => window.qdWire") == {"dropped": 1, "resyncs": 1}
        own = next(s for s in st["seats"] if s["seat"] == 0)
        assert len(st["hand"]) == own["count"] > 0, (st["hand"], own)
        assert _act(ana, st, rng, plays)
        page.wait_for_function("(n) => document.querySelectorAll('[data-qd=hand] .qd-option').length < n",
                               arg=len(st["hand"]))
        assert not ana.errors, ana.errors
    finally:
        _close(contexts)


def test_lesson_10_leads_to_the_tables(browser: Any, tables_server: VoilaServer) -> None:
    """Lesson 10's link (widgets.course.tables_html) opens the tables' lobby of the same server."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(tables_server.url("10-play.ipynb", "lang=zh-Hans"))
        link = page.wait_for_selector("[data-qd=tables-open]", timeout=60_000)
        href = link.get_attribute("href")
        assert href == "../../tables/"
        page.goto(urljoin(page.url, href))
        page.wait_for_selector("[data-qd=open-form]")
        assert page.get_attribute("html", "lang") == "zh-Hans"  # the language chosen on the lesson's page
    finally:
        context.close()


LOBBY_WORDS = {  # what each language's lobby says of an empty code, its default name, a computer's seat
    "en": ("Type the table's code first", "Seat 0: Guest A", "Seat 1: computer"),
    "zh-Hans": ("请先输入牌桌代码", "0号位：客人甲", "1号位：电脑"),
    "zh-Hant": ("請先輸入牌桌代碼", "0號位：客人甲", "1號位：電腦"),
}
PLACED = """() => {
  const label = document.querySelector('#qd-seats-label').getBoundingClientRect();
  const list = document.querySelector('[data-qd=players]').getBoundingClientRect();
  const first = document.querySelector('[data-qd=players] li').getBoundingClientRect();
  return { gap: first.left - label.right, rows: Math.abs((first.top + first.bottom) / 2 - (label.top + label.bottom) / 2),
           below: first.top - label.bottom, labelled: document.querySelector('[data-qd=players]')
             .getAttribute('aria-labelledby') === 'qd-seats-label', left: label.left, listLeft: list.left };
}"""


@pytest.mark.parametrize("lang, phone", [("en", False), ("zh-Hans", False), ("zh-Hant", False), ("en", True)],
                         ids=["en", "zh-Hans", "zh-Hant", "phone"])
def test_the_lobby_says_what_a_learner_left_out_and_names_seats_apart(
        browser: Any, tables_server: VoilaServer, screenshot: Any, lang: str, phone: bool) -> None:
    """#43 item 11: Join with no code says to type it (not "the code ?"); a learner who gives no
    name is a guest by a letter, never "Player 1" beside seat 1's computer; every seat is listed
    by the game's own seat number; "At this table" stands beside its list."""
    size = {"width": 390, "height": 844} if phone else {"width": 1100, "height": 900}
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone, locale="en-GB")
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{tables_server.base}/tables/?lang={lang}")
        empty, guest, computer = LOBBY_WORDS[lang]
        page.click("[data-qd=join]")
        page.wait_for_function("() => document.querySelector('[data-qd=refused]').textContent !== ''")
        refused = page.inner_text("[data-qd=refused]")
        assert empty in refused and "?" not in refused, refused
        screenshot(page, "empty-code")
        page.click("[data-qd=open]")  # no name given
        page.wait_for_selector("[data-qd=table] [data-qd=seat]")
        players = page.eval_on_selector_all("[data-qd=players] li", "items => items.map((i) => i.textContent)")
        assert players[0] == guest and players[1:] == [computer.replace("1", str(n)) for n in range(1, 5)], players
        assert not any(re.search(r"Player \d", p) for p in players), players
        placed = page.evaluate(PLACED)
        assert placed["labelled"]
        beside = 0 <= placed["gap"] <= 24 and placed["rows"] <= 12  # on the list's line, just before it
        under = 0 <= placed["below"] <= 16 and abs(placed["left"] - placed["listLeft"]) <= 2  # wrapped just above it
        assert beside or under, placed
        assert page.inner_text("[data-qd=refused]") == ""
        screenshot(page, "seated")
        assert errors == []
    finally:
        context.close()
