// Front end of the table widget (widgets/table.py): display and input only. Every
// decision is the kernel's; this file draws the model's state, sends what the learner
// did, and asks for the next step (a card dealt, a computer player's move) after the
// deliberate pause — so the kernel never sleeps and the page never waits on it.
// Nothing is fetched: no CDN, no fonts, no icons. Uses h, fill and makePicker from common.js.

function timings() {
  if (!Array.isArray(window.__qdTableTimings)) window.__qdTableTimings = [];
  return window.__qdTableTimings;
}

let tablesDrawn = 0;

// The positions of the learner's own hands kept to review live in this browser (localStorage,
// the key is the kernel's mistakes_key): what is stored goes to the kernel as the table starts,
// and what the kernel sends back (mistakes_json) is stored.
function readKept(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function writeKept(key, value) {
  try { window.localStorage.setItem(key, value); return true; } catch (e) { return false; }
}

// ---------------------------------------------------------------- the table
function render({ model, el }) {
  // The learner's actions that change the game: one at a time (a second click starts nothing).
  // The list is Python's (widgets/requests.py GAME_ACTIONS), sent with the table.
  const GAME_ACTIONS = new Set(model.get("game_actions") || []);
  const L = () => model.get("labels") || {};
  const S = () => model.get("state") || {};
  let timer = null;
  let paused = false;
  let pendingPlay = null; // {t0, target}
  let lastFeedback = null;
  let drawn = false; // the first drawing done: a verdict after it answers the learner

  const live = h("div", { class: "qd-sr", "aria-live": "polite", "data-qd": "announce" });
  const phase = h("div", { class: "qt-phase", "data-qd": "phase" });
  const status = h("div", { class: "qt-status", "data-qd": "status" });
  const seatsBox = h("div", { class: "qt-seats", "data-qd": "seats" });
  const trickText = h("p", { class: "qt-trick-text", "data-qd": "trick-text", "aria-live": "polite" });
  const prompt = h("p", { class: "qt-prompt", "data-qd": "prompt" });
  const declareBox = h("div", { class: "qt-declare", role: "group", "data-qd": "declare" });
  const kittyBox = h("div", { class: "qt-kitty", "data-qd": "kitty" });
  const playBtn = h("button", { class: "qd-button qd-primary", type: "button", "data-qd": "play" });
  const buryBtn = h("button", { class: "qd-button qd-primary", type: "button", "data-qd": "bury" });
  const callBtn = h("button", { class: "qd-button qd-primary", type: "button", "data-qd": "call" });
  const soloBtn = h("button", { class: "qd-button", type: "button", "data-qd": "solo" });
  const hintBtn = h("button", { class: "qd-button", type: "button", "data-qd": "hint" });
  const friendBtn = h("button", { class: "qd-button", type: "button", "data-qd": "friend-odds" });
  const pauseBtn = h("button", { class: "qd-button", type: "button", "data-qd": "pause", "aria-pressed": "false" });
  // What the kernel is doing, while it takes a while: "The coach is thinking…".
  const busyNote = h("span", { class: "qd-busy-note", role: "status", "data-qd": "busy" });
  const actions = h("div", { class: "qd-actions" }, playBtn, buryBtn, callBtn, soloBtn, hintBtn, friendBtn, busyNote);
  const hintText = h("p", { class: "qt-hint", "data-qd": "hint-text", "aria-live": "polite" });
  const feedback = h("div", { class: "qd-feedback", role: "alert", "data-qd": "feedback", hidden: true });
  // Learn from your mistakes (advice, not rules): the mistake under way, what the coach said of
  // the last try, and the way on.
  const mistakesBox = h("section", { class: "qt-mistakes", "data-qd": "mistakes", hidden: true });
  const botSpeed = h("select", { class: "qt-select", "data-qd": "bot-speed" });
  const dealSpeed = h("select", { class: "qt-select", "data-qd": "deal-speed" });
  const stopBox = h("input", { type: "checkbox", "data-qd": "stop-to-declare" });
  const controls = h("div", { class: "qt-controls" });
  // The computer players' level: the learner's choice applies from the next hand dealt.
  const levelLegend = h("legend", { class: "qt-label" });
  const levelChoices = h("div", { class: "qt-level-choices" });
  const levelWhen = h("p", { class: "qt-level-when", "data-qd": "opponents-when" });
  const levelNote = h("p", { class: "qt-level-note", "data-qd": "opponents-note", "aria-live": "polite" });
  const levelBox = h("fieldset", { class: "qt-levels", "data-qd": "opponents-choice" },
    levelLegend, levelChoices, levelWhen, levelNote);
  let levelKey = "";
  let levelAsked = null; // the level just picked, shown checked until the kernel's state has it
  const levelGroup = `qt-level-${(tablesDrawn += 1)}`; // one radio group per table on the page
  const logList = h("ol", { class: "qt-log", "data-qd": "log" });
  const logBox = h("details", { class: "qt-log-box", open: true }, h("summary", {}), logList);
  const scoreBox = h("section", { class: "qt-score", "data-qd": "score", hidden: true });
  const reviewBox = h("details", { class: "qt-review", "data-qd": "review", hidden: true });
  const coachBox = h("section", { class: "qt-coach", "data-qd": "coach", hidden: true });
  const coachNote = h("span", { class: "qd-busy-note", role: "status", "data-qd": "coach-busy" });
  const fileInput = h("input", { type: "file", accept: ".txt,text/plain", class: "qt-file", "data-qd": "import" });
  const loadError = h("p", { class: "qd-error", role: "alert", "data-qd": "load-error", hidden: true });
  const shareInput = h("input", { class: "qt-share", type: "text", readonly: true, "data-qd": "share" });
  const footer = h("div", { class: "qt-footer" });
  const root = h("section", { class: "qd-root qt-table", "data-qd": "table" },
    h("header", { class: "qd-head" }, phase, status), seatsBox, trickText, prompt, declareBox, kittyBox);
  setLang(root, model.get("lang"));
  el.classList.add("qt-host"); // the container the table's narrow layout follows (table.css)

  // Work under way (see makeBusy in common.js): the pressed button busy at the click;
  // the coach's search and review say so where their answer will appear.
  const busy = makeBusy({
    onChange: drawBusy,
    onStuck: (work) => {
      const note = work.action === "coach_review" ? coachNote : busyNote;
      note.textContent = L().stuck || "";
      note.dataset.stuck = "true";
    },
    blocks: (under, asked) => GAME_ACTIONS.has(under) && GAME_ACTIONS.has(asked),
  });
  const busyButtons = new Map(); // button key -> the button (declaration options are redrawn)

  // Ask the kernel: the state the learner saw goes with the action (a repeat is ignored).
  function ask(type, key, content = {}, event = null) {
    const request = busy.start(type, key, event && event.timeStamp ? event.timeStamp : performance.now());
    if (request === null) return false;
    model.send({ ...content, type, request, version: S().version });
    root.dataset.requests = String(busy.sent);
    return true;
  }

  const picker = makePicker({
    labels: L(),
    announce: (text) => { live.textContent = text; },
    onChange: (selected) => { model.set("selected", selected); model.save_changes(); },
    onSubmit: () => primary(),
    qd: "hand",
    keepFocus: true,
  });
  root.append(mistakesBox, picker.root, actions, hintText, feedback, controls, levelBox, logBox, scoreBox, reviewBox, coachBox, footer, loadError, live);

  // ------------------------------------------------------------ sending
  function act(verb, event = null) {
    const selected = picker.getSelected();
    const t0 = performance.now();
    // The selection travels with the action: one message, no race with a pending update.
    if (!ask("act", verb, { verb, cards: picker.cardsOf(selected), selected }, event)) return;
    if (verb === "play") pendingPlay = { t0, target: (S().plays || 0) + 2 };
  }

  function primary() {
    const can = S().can || {};
    if (can.play) act("play");
    else if (can.bury) act("bury");
    else if (can.call) act("call");
  }

  playBtn.addEventListener("click", (event) => act("play", event));
  buryBtn.addEventListener("click", (event) => act("bury", event));
  callBtn.addEventListener("click", (event) => act("call", event));
  soloBtn.addEventListener("click", (event) => ask("solo", "solo", {}, event));
  // The coach weighs the picked cards too: they go with the request.
  hintBtn.addEventListener("click", (event) => ask("hint", "hint", { selected: picker.getSelected() }, event));
  friendBtn.addEventListener("click", (event) => ask("friend_odds", "friend_odds", {}, event));
  [["play", playBtn], ["bury", buryBtn], ["call", callBtn], ["solo", soloBtn], ["hint", hintBtn],
    ["friend_odds", friendBtn]]
    .forEach(([key, button]) => busyButtons.set(key, button));
  pauseBtn.addEventListener("click", () => {
    paused = !paused;
    drawControls();
    schedule();
  });

  // ------------------------------------------------------------ the clock
  function schedule() {
    clearTimeout(timer);
    timer = null;
    const s = S();
    root.dataset.waiting = s.waiting || "";
    // At a table of classmates the server deals and plays the computer's seats (tutor/server/tables).
    if (paused || s.shared || (s.waiting !== "deal" && s.waiting !== "bot")) return;
    const pause = Math.max(0, model.get("pause_ms") || 0);
    const deal = Math.max(0, model.get("deal_ms") || 0);
    const delay = s.delay === "deal" ? deal : s.delay === "trick" ? (pause ? Math.max(2 * pause, 900) : 0) : pause;
    const version = s.version;
    timer = setTimeout(() => {
      timer = null;
      if (!paused && S().version === version) model.send({ type: "step", version });
    }, delay);
  }

  // ------------------------------------------------------------ drawing
  function drawSeats(s) {
    const labels = L();
    const seats = s.seats || [];
    const me = s.seat || 0;
    const order = seats.map((_, i) => seats[(me + i) % seats.length]);
    seatsBox.replaceChildren(...order.map((seat) => {
      const backs = h("span", { class: "qt-backs", "aria-hidden": "true" });
      for (let i = 0; i < Math.min(seat.count, 28); i += 1) backs.append(h("span", { class: "qt-back" }));
      // A computer player choosing its move: the table's own "Seat 3 is thinking…" says so too.
      const thinking = seat.turn && !seat.you && s.waiting === "bot";
      const box = h("div", {
        class: "qt-seat" + (seat.you ? " qt-you" : "") + (seat.turn ? " qt-turn" : "") + (seat.winner ? " qt-won" : "")
          + (thinking ? " qt-thinking" : ""),
        "data-qd": "seat", "data-seat": seat.seat, role: "group", "aria-label": seat.name,
        "aria-busy": thinking ? "true" : null,
      },
      h("div", { class: "qt-seat-name" }, h("span", { text: seat.name }),
        ...seat.roles.map((r) => h("span", { class: "qd-badge", text: r }))),
      h("div", { class: "qt-seat-info" },
        seat.you ? null : backs,
        h("span", { class: "qt-count", "data-qd": "count", "data-value": seat.count, text: seat.count_text || "" }),
        h("span", { class: "qt-points", "data-qd": "points", "data-value": seat.points,
          text: fill(labels.points, { points: seat.points }) })),
      h("div", { class: "qt-played", "data-qd": "played", "data-cards": seat.played_text || "",
        html: seat.played || "" }));
      if (seat.result !== null && seat.result !== undefined) {
        box.append(h("div", { class: "qt-result", "data-qd": "result", text: (seat.result > 0 ? "+" : "") + seat.result }));
      }
      return box;
    }));
  }

  function drawStatus(s) {
    setText(phase, s.phase_text || "");
    status.replaceChildren(
      h("span", { "data-qd": "trump", text: s.trump_text || "" }),
      h("span", { "data-qd": "declaration", text: s.declaration_text || "" }),
      ...(s.friend_card_html ? [h("span", { class: "qt-friend-card", "data-qd": "friend-card", html: s.friend_card_html })] : []),
      h("span", { "data-qd": "friend", text: s.friend_text || "" }),
      h("span", { "data-qd": "opponents", text: (s.opponents || {}).text || "" }),
    );
  }

  // The radios are rebuilt only when their texts change (not at every card), so the one
  // the learner is on keeps its focus. Which is checked is the kernel's, except that the
  // one just picked stays checked while the cards dealt meanwhile are drawn.
  function drawLevels(s) {
    const labels = L();
    const o = s.opponents || {};
    const choices = o.choices || [];
    const key = JSON.stringify([labels.opponents, labels.opponents_when, choices]);
    if (key !== levelKey) {
      levelKey = key;
      levelLegend.textContent = labels.opponents || "";
      levelWhen.textContent = labels.opponents_when || "";
      levelChoices.replaceChildren(...choices.map((c) => {
        const input = h("input", { type: "radio", name: levelGroup, value: c.level, "data-qd": "opponents-level",
          "data-level": c.level });
        input.addEventListener("change", () => {
          if (!input.checked) return;
          levelAsked = c.level;
          model.send({ type: "opponents", level: c.level });
        });
        return h("label", { class: "qt-level" }, input,
          h("span", { class: "qt-level-text" }, h("span", { class: "qt-level-name", text: c.label }),
            h("span", { class: "qt-level-explain", text: c.explain })));
      }));
    }
    if (levelAsked === o.next) levelAsked = null;
    const checked = levelAsked === null ? o.next : levelAsked;
    levelChoices.querySelectorAll("input").forEach((input) => { input.checked = Number(input.value) === checked; });
    levelNote.textContent = o.note || "";
    levelBox.dataset.level = o.level || "";
    levelBox.dataset.next = o.next || "";
  }

  function drawDeclare(s) {
    const labels = L();
    const can = s.can || {};
    declareBox.replaceChildren();
    for (const key of [...busyButtons.keys()]) if (key.startsWith("declare:") || key === "pass") busyButtons.delete(key);
    (s.options || []).forEach((o) => {
      const key = `declare:${o.index}`;
      const button = h("button", {
        class: "qd-button qd-primary", type: "button", "data-qd": "declare-option", "data-cards": o.text,
        text: o.label, onclick: (event) => ask("declare", key, { option: o.index }, event),
      });
      busyButtons.set(key, button);
      declareBox.append(button);
    });
    if (can.pass) {
      const button = h("button", { class: "qd-button", type: "button", "data-qd": "pass", text: labels.pass,
        onclick: (event) => ask("pass", "pass", {}, event) });
      busyButtons.set("pass", button);
      declareBox.append(button);
    }
    declareBox.hidden = !declareBox.childElementCount;
    drawButtons();
  }

  function draw() {
    const s = S();
    const labels = L();
    const can = s.can || {};
    root.dataset.phase = s.phase || "";
    root.dataset.version = s.version || 0;
    root.dataset.plays = s.plays || 0;
    drawStatus(s);
    drawSeats(s);
    setText(trickText, s.trick_text || "");
    setText(prompt, s.prompt || "");
    drawDeclare(s);
    drawLevels(s);
    kittyBox.replaceChildren();
    if (s.kitty_html && s.phase !== "finished") {
      kittyBox.append(h("span", { class: "qt-label", text: labels.kitty }), h("span", { html: s.kitty_html }));
    }
    kittyBox.hidden = !kittyBox.childElementCount;
    picker.setPick(s.pick || null);
    playBtn.textContent = labels.play;
    buryBtn.textContent = labels.bury;
    callBtn.textContent = labels.call;
    soloBtn.textContent = labels.solo;
    hintBtn.textContent = labels.hint;
    friendBtn.textContent = labels.friend_odds;
    friendBtn.hidden = !can.friend_odds;
    hintBtn.hidden = !!s.mistakes || !!s.shared;
    controls.hidden = !!s.shared;
    levelBox.hidden = !!s.shared;
    playBtn.hidden = !can.play;
    buryBtn.hidden = !can.bury;
    callBtn.hidden = !can.call;
    soloBtn.hidden = !can.solo;
    drawButtons();
    logBox.querySelector("summary").textContent = labels.log;
    // Each line numbered by its place in the whole hand's log, not in the lines shown.
    logList.start = Number.isInteger(s.log_start) && s.log_start > 0 ? s.log_start : 1;
    logList.replaceChildren(...(s.log || []).map((line) => h("li", { text: line })));
    drawScore(s);
    drawMistakes(s);
    drawFooter(s);
    schedule();
    if (pendingPlay && (s.plays || 0) >= pendingPlay.target) {
      const record = { ms: performance.now() - pendingPlay.t0, paint: null };
      const t0 = pendingPlay.t0;
      pendingPlay = null;
      timings().push(record);
      requestAnimationFrame(() => {
        record.paint = performance.now() - t0;
        root.dataset.nextSeatMs = record.paint.toFixed(1);
      });
    }
    if (s.waiting === "done") pendingPlay = null;
  }

  function drawScore(s) {
    const labels = L();
    const score = s.score;
    scoreBox.hidden = !score;
    reviewBox.hidden = !score;
    coachBox.hidden = !score;
    if (!score) { scoreBox.replaceChildren(); reviewBox.replaceChildren(); coachBox.replaceChildren(); return; }
    drawCoach(s);
    const table = h("table", { class: "qt-results" }, h("tbody", {}, ...score.results.map((r) => h("tr",
      { "data-seat": r.seat }, h("th", { scope: "row", text: r.name }), h("td", { text: r.side }),
      h("td", { class: "qt-num", "data-qd": "seat-result", text: (r.result > 0 ? "+" : "") + r.result })))));
    scoreBox.replaceChildren(
      h("h3", { text: labels.score }),
      h("p", { class: "qt-verdict", "data-qd": "verdict", text: score.verdict }),
      h("ul", { "data-qd": "breakdown" }, ...score.lines.map((line) => h("li", { text: line }))),
      h("p", { "data-qd": "explain", text: score.explain }),
      table,
      h("p", {}, h("span", { class: "qt-label", text: labels.kitty }), h("span", { html: score.kitty_html })),
    );
    reviewBox.replaceChildren(h("summary", { text: labels.review }), ...(s.review || []).map((t) => h("div",
      { class: "qt-review-trick", "data-qd": "review-trick", "data-n": t.n },
      h("p", { class: "qt-review-text", text: t.text }),
      ...(t.notes || []).map((n) => h("p", { class: "qt-note", text: n })),
      h("div", { html: t.html }),
      ...(s.shared ? [] : [button(`replay:${t.n}`, "replay-from", labels.replay_from, "replay", { trick: t.n },
        { "data-n": t.n })]))));
  }

  // A button that asks the kernel, busy while its request is under way.
  function button(key, qd, text, type, content = {}, attrs = {}) {
    const made = h("button", { class: "qd-button", type: "button", "data-qd": qd, text, ...attrs,
      onclick: (event) => ask(type, key, content, event) });
    busyButtons.set(key, made);
    return made;
  }

  // Learn from your mistakes: the same deal at the learner's costly decision; they pick
  // cards and press Play (the kernel weighs the try), or ask for the answer, or skip.
  function drawMistakes(s) {
    const labels = L();
    const m = s.mistakes;
    for (const key of ["retry_answer", "retry_skip", "retry_next", "retry_leave"]) busyButtons.delete(key);
    mistakesBox.hidden = !m;
    root.classList.toggle("qt-retrying", !!m);
    if (!m) { mistakesBox.replaceChildren(); return; }
    const trying = m.status === "trying";
    mistakesBox.dataset.status = m.status;
    mistakesBox.dataset.number = m.number;
    mistakesBox.dataset.count = m.count;
    mistakesBox.dataset.review = m.review ? "true" : "false";
    mistakesBox.replaceChildren(
      h("p", { class: "qt-mistake-text", "data-qd": "mistake-text", text: m.text }),
      h("div", { class: "qt-mistake-said", "data-qd": "mistake-said", "aria-live": "polite" },
        ...(m.said || []).map((line) => h("p", { text: line }))),
      h("div", { class: "qd-actions" },
        ...(trying ? [button("retry_answer", "retry-answer", labels.retry_answer, "retry_answer"),
          button("retry_skip", "retry-skip", labels.retry_skip, "retry_skip")]
          : [button("retry_next", "retry-next", m.last ? labels.retry_end : labels.retry_next, "retry_next")]),
        button("retry_leave", "retry-leave", m.review ? labels.retry_stop : labels.retry_leave, "retry_leave")));
  }

  // The coach's review (advice, not rules): asked for with a button, each play a
  // <details> whose summary is the sentence and whose body is the position then.
  function drawCoach(s) {
    const labels = L();
    const review = s.coach;
    if (!review) {
      const button = h("button", { class: "qd-button", type: "button", "data-qd": "coach-review", text: labels.coach_review });
      button.addEventListener("click", (event) => ask("coach_review", "coach_review", {}, event));
      busyButtons.set("coach_review", button);
      coachBox.replaceChildren(button, coachNote);
      drawBusy();
      return;
    }
    busyButtons.delete("coach_review");
    busyButtons.delete("mistakes");
    coachBox.replaceChildren(
      h("h3", { "data-qd": "coach-heading", text: review.heading }),
      ...(review.summary ? [h("p", { class: "qt-mistakes-summary", "data-qd": "mistakes-summary", text: review.summary })] : []),
      ...(review.costly && !s.shared ? [h("p", {}, button("mistakes", "learn", labels.learn, "mistakes"))] : []),
      ...review.items.map((item) => h("details", { class: item.costly ? "qt-coach-item qt-costly" : "qt-coach-item",
        "data-qd": "coach-item", "data-trick": item.trick },
        h("summary", { text: item.text }),
        ...(item.trick_html ? [h("p", {}, h("span", { class: "qt-label", text: labels.coach_trick }),
          h("span", { html: item.trick_html }))] : []),
        h("p", {}, h("span", { class: "qt-label", text: labels.coach_hand }), h("span", { html: item.hand_html })),
        h("p", { class: "qt-label", text: labels.coach_weighed }),
        h("ul", {}, ...item.weighed.map((line) => h("li", { text: line }))))));
  }

  function drawFooter(s) {
    const labels = L();
    const level = s.opponents && s.opponents.level !== 1 ? `&level=${s.opponents.level}` : "";
    const link = `${window.location.origin}${window.location.pathname}?seed=${s.seed}${level}`;
    if (!footer.childElementCount) {
      const button = (key, qd, text, type, content = {}) => {
        const made = h("button", { class: "qd-button", type: "button", "data-qd": qd, text,
          onclick: (event) => ask(type, key, content, event) });
        busyButtons.set(key, made);
        return made;
      };
      footer.append(
        button("export", "export", labels.export, "export", { actions: true }),
        button("export-deal", "export-deal", labels.export_deal, "export", { actions: false }),
        h("label", { class: "qd-button qt-file-label" }, h("span", { text: labels.import }), fileInput),
        button("restart", "restart", labels.restart, "restart"),
        button("new", "new", labels.new, "new"),
        h("label", { class: "qt-share-label" }, h("span", { text: labels.share }), shareInput),
      );
    }
    shareInput.value = link;
    // At a table of classmates: the hand file once the hand is over, nothing else of lesson 10's footer.
    const shared = !!s.shared;
    footer.hidden = shared && s.phase !== "finished";
    footer.querySelectorAll(".qt-file-label, .qt-share-label, [data-qd=restart], [data-qd=new]")
      .forEach((node) => { node.hidden = shared; });
  }

  // Which buttons may be used: the game's answer (whose turn, what is open), and the work
  // under way — the pressed button busy, no second game action while one is.
  function drawButtons() {
    const can = S().can || {};
    const acting = [...GAME_ACTIONS].some((a) => busy.has(a));
    hintBtn.disabled = !can.hint;
    busyButtons.forEach((button, key) => {
      const pressed = busy.pressed(key);
      markBusy(button, pressed);
      if (key.startsWith("declare:") || key.startsWith("replay:") || ["play", "bury", "call", "solo", "pass", "restart",
        "new", "mistakes", "retry_answer", "retry_skip", "retry_next", "retry_leave"].includes(key)) {
        button.disabled = acting && !pressed;
      }
    });
    fileInput.disabled = acting;
    picker.setDisabled(!(can.play || can.bury || can.call) || acting);
  }

  // The work under way, drawn: the buttons, and the coach's own words while it searches
  // (the advice shown before, if any, greyed until the new one comes).
  function drawBusy() {
    drawButtons();
    const hinting = busy.has("hint") || busy.has("friend_odds");
    if (hinting) hintText.setAttribute("aria-busy", "true"); else hintText.removeAttribute("aria-busy");
    delete busyNote.dataset.stuck;
    busyNote.textContent = hinting ? (L().busy_hint || "") : "";
    const reviewing = busy.has("coach_review");
    if (reviewing) coachBox.setAttribute("aria-busy", "true"); else coachBox.removeAttribute("aria-busy");
    delete coachNote.dataset.stuck;
    coachNote.textContent = reviewing ? (L().busy_review || "") : "";
    root.dataset.busy = [...new Set(["hint", "coach_review", "friend_odds", ...GAME_ACTIONS].filter((a) => busy.has(a)))].join(" ");
  }

  function drawControls() {
    const labels = L();
    const options = (select, speeds, current) => {
      select.replaceChildren(...Object.entries(speeds).map(([key, ms]) => h("option", {
        value: ms, selected: ms === current, text: labels[key] || key })));
      if (![...select.options].some((o) => Number(o.value) === current)) {
        select.append(h("option", { value: current, selected: true, text: fill(labels.ms, { ms: current }) }));
      }
    };
    options(botSpeed, { slow: 900, normal: 450, fast: 200, instant: 0 }, model.get("pause_ms"));
    options(dealSpeed, { slow: 400, normal: 150, fast: 40, instant: 0 }, model.get("deal_ms"));
    stopBox.checked = !!model.get("stop_to_declare");
    pauseBtn.textContent = paused ? labels.resume : labels.pause;
    pauseBtn.setAttribute("aria-pressed", paused ? "true" : "false");
    controls.replaceChildren(
      h("label", {}, h("span", { text: labels.speed }), botSpeed),
      h("label", {}, h("span", { text: labels.deal_speed }), dealSpeed),
      h("label", {}, stopBox, h("span", { text: labels.stop_to_declare })),
      pauseBtn,
    );
  }

  botSpeed.addEventListener("change", () => { model.set("pause_ms", Number(botSpeed.value)); model.save_changes(); schedule(); });
  dealSpeed.addEventListener("change", () => { model.set("deal_ms", Number(dealSpeed.value)); model.save_changes(); schedule(); });
  stopBox.addEventListener("change", () => model.send({ type: "stop_to_declare", value: stopBox.checked }));
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    fileInput.value = ""; // choosing the same file again must fire "change" again
    if (!file) return;
    // Too big or unreadable: the kernel answers a null text with a clear message.
    if (file.size > 200000) { ask("import", "import", { text: null }); return; }
    let text = null;
    try { text = await file.text(); } catch (error) { text = null; }
    ask("import", "import", { text });
  });

  function onFeedback() {
    const fb = model.get("feedback") || {};
    const labels = L();
    feedback.replaceChildren();
    feedback.className = "qd-feedback";
    if (!fb.reason) { feedback.hidden = true; feedback.dataset.result = ""; return; }
    feedback.hidden = false;
    const refused = fb.kind === "refused" || fb.kind === "error";
    feedback.classList.add(refused ? "qd-wrong" : "qd-unreadable");
    feedback.dataset.result = fb.kind;
    feedback.dataset.id = fb.id;
    feedback.append(h("p", { class: "qd-verdict" },
      refused ? h("span", { class: "qd-icon", "aria-hidden": "true", text: "✗" }) : null,
      refused ? h("span", { class: "qd-sr", text: labels.refused }) : null,
      fb.rule ? h("span", { class: "qd-rule", "data-qd": "rule", text: fill(labels.rule, { rule: fb.rule }) }) : null,
      h("span", { class: "qd-reason", "data-qd": "reason", text: fb.reason })));
    if (refused && fb.id !== lastFeedback) pendingPlay = null;
    // A new verdict on the learner's action is brought into view (on a phone it can fall
    // below the screen's edge); one already seen, or drawn with the page, is left where it is.
    if (fb.id !== lastFeedback && drawn) showVerdict();
    lastFeedback = fb.id;
  }

  function showVerdict() {
    requestAnimationFrame(() => {
      const box = feedback.getBoundingClientRect();
      const bottom = window.innerHeight || document.documentElement.clientHeight;
      if (box.height && (box.top < 0 || box.bottom > bottom)) feedback.scrollIntoView({ block: "nearest" });
    });
  }

  function onHand() {
    picker.setCards(model.get("hand") || []);
    picker.setSelected(model.get("selected"));
    drawButtons();
  }

  function onDownload() {
    const d = model.get("download") || {};
    if (!d.text) return;
    const url = URL.createObjectURL(new Blob([d.text], { type: "text/plain;charset=utf-8" }));
    const a = h("a", { href: url, download: d.name || "hand.txt", hidden: true });
    root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function onLoadError() {
    const text = model.get("load_error");
    loadError.textContent = text || "";
    loadError.hidden = !text;
  }

  const onHint = () => { setText(hintText, model.get("hint_text") || ""); };
  const onHandled = () => {
    const done = model.get("handled") || {};
    if (typeof done.work === "number") root.dataset.work = String(done.work);
    if (typeof done.request === "number") busy.finish(done.request);
    if (busyNote.dataset.stuck || coachNote.dataset.stuck) drawBusy(); // the kernel answers again
  };
  const onSelected = () => picker.setSelected(model.get("selected"));
  const onFour = () => root.classList.toggle("qd-four", !!model.get("four_colour"));
  // The kernel's positions to store; another tab's stored positions, taken too (merged there).
  const onKept = () => {
    const json = model.get("mistakes_json");
    const key = model.get("mistakes_key");
    if (json && key && readKept(key) !== json) writeKept(key, json);
  };
  const onSynced = () => { if (model.get("synced")) root.dataset.synced = "true"; };
  // Every play of the learner's weighed for the coach's review (the static site weighs them meanwhile).
  const onWeighed = () => { root.dataset.reviewWeighed = model.get("review_weighed") ? "true" : "false"; };
  const onStorage = (event) => {
    if (event.key === model.get("mistakes_key") && event.newValue) model.send({ type: "sync", mistakes: event.newValue });
  };
  const onLang = () => setLang(root, model.get("lang"));
  const listeners = [
    ["change:state", draw], ["change:hand", onHand], ["change:selected", onSelected], ["change:feedback", onFeedback],
    ["change:hint_text", onHint], ["change:download", onDownload], ["change:load_error", onLoadError],
    ["change:four_colour", onFour], ["change:pause_ms", drawControls], ["change:deal_ms", drawControls],
    ["change:stop_to_declare", drawControls], ["change:labels", draw], ["change:lang", onLang],
    ["change:handled", onHandled], ["change:mistakes_json", onKept], ["change:synced", onSynced],
    ["change:review_weighed", onWeighed],
  ];
  listeners.forEach(([name, fn]) => model.on(name, fn));
  onHand();
  drawControls();
  draw();
  onFeedback();
  onHint();
  onLoadError();
  onFour();
  onSynced();
  onWeighed();
  el.append(root);
  drawn = true;
  window.addEventListener("storage", onStorage);
  model.send({ type: "sync", mistakes: readKept(model.get("mistakes_key")) });

  return () => {
    clearTimeout(timer);
    busy.stop();
    window.removeEventListener("storage", onStorage);
    listeners.forEach(([name, fn]) => model.off(name, fn));
  };
}

export default { render };
