// Front end of the 启东招朋友 widgets: display and input only. Every decision is the
// kernel's (tutor); this file draws what the model holds and sends what the learner did.
// One module for every widget class; `_view` on the model says which one to draw.
// Nothing is fetched: no CDN, no fonts, no icons. Uses h, fill and makePicker from common.js.

const STORE_EVENT = "qd-tutor-progress";
// Work that replaces the drill on screen: while it is under way the old drill is greyed,
// marked busy and inert, and nothing else may start ("load": the page's first sync, when
// the kernel says it is making a new drill from the stored progress).
const TURNING = new Set(["next", "level", "load"]);


function timings() {
  if (!Array.isArray(window.__qdTimings)) window.__qdTimings = [];
  return window.__qdTimings;
}

// ---------------------------------------------------------------- stand-alone picker
function renderPicker({ model, el }) {
  const labels = model.get("labels") || {};
  const live = h("div", { class: "qd-sr", "aria-live": "polite" });
  const picker = makePicker({
    labels,
    announce: (text) => { live.textContent = text; },
    onChange: (selected) => { model.set("selected", selected); model.save_changes(); },
    onSubmit: (selected) => model.send({ type: "submit", selected, cards: picker.cardsOf(selected) }),
  });
  const root = h("div", { class: "qd-root" }, picker.root, live);
  setLang(root, model.get("lang"));
  const draw = () => {
    picker.setCards(model.get("cards") || [], model.get("pick"), false);
    picker.setSelected(model.get("selected"));
    picker.setDisabled(model.get("disabled"));
    root.classList.toggle("qd-four", !!model.get("four_colour"));
  };
  const onSelected = () => picker.setSelected(model.get("selected"));
  const onDisabled = () => picker.setDisabled(model.get("disabled"));
  draw();
  model.on("change:cards", draw);
  model.on("change:pick", draw);
  model.on("change:four_colour", draw);
  model.on("change:selected", onSelected);
  model.on("change:disabled", onDisabled);
  el.append(root);
  return () => {
    model.off("change:cards", draw); model.off("change:pick", draw); model.off("change:four_colour", draw);
    model.off("change:selected", onSelected); model.off("change:disabled", onDisabled);
  };
}

// ---------------------------------------------------------------- drill player
function readStore(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function writeStore(key, value) {
  try { window.localStorage.setItem(key, value); return true; } catch (e) { return false; }
}

function renderDrill({ model, el }) {
  const L = () => model.get("labels") || {};
  let checkId = 0;
  const pending = new Map(); // check id -> performance.now() at the click
  let lastToken = null;
  let choice = null;
  let advanceTimer = null;
  let keepFocus = false; // Retry or Next was pressed: focus the answer once the kernel has drawn it
  let revealing = false; // Show answer was pressed

  const live = h("div", { class: "qd-sr", "aria-live": "polite", "data-qd": "announce" });
  const title = h("div", { class: "qd-title" });
  const stats = h("div", { class: "qd-stats", "aria-live": "polite", "data-qd": "stats" });
  const levels = h("div", { class: "qd-levels", role: "group", "data-qd": "levels" });
  const question = h("p", { class: "qd-question", "data-qd": "question" });
  const table = h("div", { class: "qd-table", "data-qd": "table" });
  const shown = h("div", { class: "qd-shown", "data-qd": "shown" });
  const answerBox = h("div", { class: "qd-answer", "data-qd": "answer" });
  const hintList = h("ol", { class: "qd-hints", "data-qd": "hints" });
  const feedback = h("div", { class: "qd-feedback", role: "status", "aria-live": "polite", "data-qd": "feedback" });
  const note = h("div", { class: "qd-note", role: "note", "data-qd": "note", hidden: true });
  const check = h("button", { class: "qd-button qd-primary", type: "button", "data-qd": "check" });
  const hint = h("button", { class: "qd-button", type: "button", "data-qd": "hint" });
  const retry = h("button", { class: "qd-button", type: "button", "data-qd": "retry" });
  const reveal = h("button", { class: "qd-button", type: "button", "data-qd": "reveal" });
  const next = h("button", { class: "qd-button", type: "button", "data-qd": "next" });
  // What the kernel is doing, while it takes a while: "Getting the next drill…".
  const busyNote = h("span", { class: "qd-busy-note", role: "status", "data-qd": "busy" });
  const actions = h("div", { class: "qd-actions" }, check, hint, retry, reveal, next, busyNote);
  const reset = h("button", { class: "qd-link", type: "button", "data-qd": "reset" });
  const confirmBox = h("div", { class: "qd-confirm", role: "group", "data-qd": "confirm", hidden: true });
  const footer = h("div", { class: "qd-footer" }, reset, confirmBox);
  const root = h("section", { class: "qd-root qd-drill", "data-qd": "drill" },
    h("header", { class: "qd-head" }, title, levels, stats), question, table, shown, answerBox, actions, hintList,
    feedback, note, footer, live);
  setLang(root, model.get("lang"));
  const greyed = [question, table, shown, answerBox, hintList, feedback];

  const busy = makeBusy({
    onChange: drawBusy,
    onStuck: (work) => { if (work.action !== "sync") { busyNote.textContent = L().stuck || ""; busyNote.dataset.stuck = "true"; } },
    blocks: (under, asked) => TURNING.has(under) || (TURNING.has(asked) && under !== "sync"),
  });
  const turning = () => busy.has("next") || busy.has("level") || busy.has("load");

  // Ask the kernel for work (see makeBusy): the pressed button is busy before the message
  // goes; false when the work may not start now (a second click).
  function ask(type, key, content = {}, event = null) {
    const request = busy.start(type, key, event && event.timeStamp ? event.timeStamp : performance.now());
    if (request === null) return false;
    model.send({ ...content, type, request });
    root.dataset.requests = String(busy.sent);
    return true;
  }

  const picker = makePicker({
    labels: L(),
    announce: (text) => { live.textContent = text; },
    onChange: (selected) => { model.set("selected", selected); model.save_changes(); },
    onSubmit: () => submit(),
  });
  const number = h("input", {
    class: "qd-number", type: "number", inputmode: "numeric", step: "1", "data-qd": "number",
    onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); submit(); } },
  });

  function answered() {
    const fb = model.get("feedback") || {};
    return fb.check_id !== undefined && !fb.error && fb.rule !== undefined;
  }

  function submit(event = null) {
    const state = model.get("state") || {};
    if (check.disabled || !state.answer) return;
    let answer;
    if (state.answer === "cards") answer = picker.cardsOf(picker.getSelected());
    else if (state.answer === "choice") answer = choice;
    else answer = number.value;
    const t0 = performance.now();
    // The selection travels with the check: one message, no race with a pending update;
    // the drill's token too (an answer to a drill no longer shown is not judged).
    if (!ask("check", "check", { check_id: checkId + 1, answer, selected: picker.getSelected(), token: state.token },
      event)) return;
    checkId += 1;
    pending.set(checkId, t0);
    root.dataset.checking = String(checkId);
  }

  function drawChoices(state) {
    const group = h("div", { class: "qd-choices", role: "radiogroup", "aria-label": L().answer || "" });
    const buttons = [];
    (state.choices || []).forEach((c, i) => {
      // The mark of the chosen one is decoration: the choice is named by its label alone.
      const button = h("button", {
        class: "qd-choice", type: "button", role: "radio", "aria-checked": "false", "data-key": c.key,
        tabindex: i === 0 ? "0" : "-1",
      }, decoration("●", "qd-choice-mark"), c.label);
      const select = () => {
        if (answered() || turning()) return;
        choice = c.key;
        buttons.forEach((b) => {
          const on = b === button;
          b.setAttribute("aria-checked", on ? "true" : "false");
          b.classList.toggle("qd-selected", on);
          b.tabIndex = on ? 0 : -1;
        });
      };
      button.addEventListener("click", select);
      button.addEventListener("keydown", (event) => {
        const at = buttons.indexOf(button);
        if (event.key === "ArrowRight" || event.key === "ArrowDown") buttons[(at + 1) % buttons.length].focus();
        else if (event.key === "ArrowLeft" || event.key === "ArrowUp") buttons[(at - 1 + buttons.length) % buttons.length].focus();
        else if (event.key === " ") select();
        else if (event.key === "Enter") { select(); submit(); }
        else return;
        event.preventDefault();
      });
      buttons.push(button);
      group.append(button);
    });
    return group;
  }

  function drawDrill() {
    const state = model.get("state") || {};
    const labels = L();
    const intro = state.token !== lastToken;
    lastToken = state.token;
    choice = null;
    title.textContent = state.title || "";
    if (state.advice) title.append(" ", h("span", { class: "qd-advice", "data-qd": "advice", text: labels.advice }));
    root.setAttribute("aria-label", state.title || "");
    setText(question, state.question || "");
    question.id = `qd-q-${state.token || "x"}`;
    table.innerHTML = state.table_html || "";
    table.hidden = !state.table_html;
    shown.innerHTML = state.shown_html || "";
    shown.hidden = !state.shown_html;
    answerBox.replaceChildren();
    if (state.error) {
      answerBox.append(h("p", { class: "qd-error", role: "alert", text: state.error }));
    } else if (state.answer === "cards") {
      picker.setCards(state.hand || [], state.pick, intro);
      picker.root.setAttribute("aria-describedby", question.id);
      answerBox.append(picker.root);
    } else if (state.answer === "choice") {
      if (state.hand_html) answerBox.append(h("div", { class: "qd-hand-view", html: state.hand_html }));
      answerBox.append(drawChoices(state));
    } else if (state.answer === "number") {
      if (state.hand_html) answerBox.append(h("div", { class: "qd-hand-view", html: state.hand_html }));
      number.value = "";
      number.setAttribute("aria-label", labels.number || "");
      answerBox.append(number);
    }
    check.textContent = labels.check;
    hint.textContent = labels.hint;
    retry.textContent = labels.retry;
    reveal.textContent = labels.reveal || "";
    next.textContent = labels.next;
    reset.textContent = labels.reset;
    drawHints();
    drawFeedback();
    drawStats();
    drawLevels();
    drawBusy();
    if (intro) root.dataset.token = state.token || "";
    settleFocus();
  }

  // The level of fresh drills: the learner's choice (stored), or this visit's link's.
  function drawLevels() {
    const labels = L();
    const current = model.get("level");
    levels.setAttribute("aria-label", labels.level || "");
    levels.replaceChildren(h("span", { class: "qd-levels-label", "aria-hidden": "true", text: labels.level || "" }),
      ...[1, 2, 3].map((n) => h("button", {
        class: "qd-level", type: "button", "data-level": n, "aria-pressed": n === current ? "true" : "false",
        "aria-label": fill(labels.level_n, { level: n }), text: String(n),
        onclick: (event) => {
          if (n !== model.get("level") && ask("level", `level:${n}`, { level: n, token: S().token }, event)) keepFocus = true;
        },
      })));
    drawButtons();
  }

  // Where keyboard focus goes in a drawn drill: into its answer (the picker, the chosen
  // or first choice, the number box), else Next (a drill that could not be made).
  function focusAnswer() {
    const state = model.get("state") || {};
    if (state.answer === "cards") picker.focus();
    else if (state.answer === "choice") {
      const buttons = [...answerBox.querySelectorAll("button.qd-choice")];
      (buttons.find((b) => b.tabIndex === 0) || buttons[0] || next).focus();
    } else if (state.answer === "number") number.focus();
    else next.focus();
  }

  // After Retry, Next or a level change the kernel redraws the drill (state and feedback
  // may arrive in either order): once it has, focus stays in the drill, not the page.
  function settleFocus() {
    if (!keepFocus) return;
    queueMicrotask(() => {
      if (!keepFocus || answered()) return;
      keepFocus = false;
      focusAnswer();
    });
  }

  function drawHints() {
    const state = model.get("state") || {};
    const shownHints = model.get("hints") || [];
    hintList.replaceChildren(...shownHints.map((text) => h("li", { text })));
    hintList.hidden = !shownHints.length;
    const total = state.hint_total || 0;
    drawButtons();
    // The last hint is the answer, and an answer after it does not count for the streak: say so first.
    const template = shownHints.length === total - 1 ? L().hint_answer : L().hint_count;
    hint.textContent = total ? fill(template, { hint: L().hint, shown: shownHints.length, total }) : L().hint;
    // The last hint disables Hint: focus stays in the drill.
    if (hint.disabled && document.activeElement === hint) (check.disabled ? retry : check).focus();
  }

  function drawStats() {
    const s = model.get("stats") || {};
    const max = s.max_stars || 0;
    const stars = s.stars || 0;
    stats.replaceChildren(
      h("span", { class: "qd-streak", "data-qd": "streak", "data-value": s.streak || 0,
        text: fill(L().streak, { count: s.streak || 0 }) }),
      h("span", { class: "qd-stars", "data-qd": "stars", "data-value": stars, role: "img",
        "aria-label": fill(L().stars, { count: stars, max }),
        text: max ? "★".repeat(Math.min(stars, max)) + "☆".repeat(Math.max(0, max - stars)) : `★ ${stars}` }),
    );
  }

  function drawFeedback() {
    const fb = model.get("feedback") || {};
    const state = model.get("state") || {};
    const labels = L();
    feedback.replaceChildren();
    feedback.className = "qd-feedback";
    const done = answered();
    if (fb.error) {
      feedback.classList.add("qd-unreadable");
      feedback.dataset.result = "error";
      feedback.append(h("p", { class: "qd-verdict", text: labels.unreadable }), h("p", { text: fb.error }));
    } else if (done) {
      feedback.classList.add(fb.correct ? "qd-right" : "qd-wrong");
      feedback.dataset.result = fb.correct ? "right" : "wrong";
      // Read as words, apart: "Rule W2 Not quite. …". The verdict word is the message's own
      // first ("Right." / "Not quite."): the icon only shows it.
      feedback.append(spaced("p", { class: "qd-verdict" },
        decoration(fb.correct ? "✓" : "✗", "qd-icon"),
        // (the coach's drill names no rule: its title says once that it is advice)
        fb.rule ? h("span", { class: "qd-rule", "data-qd": "rule", text: fill(labels.rule, { rule: fb.rule }) }) : null,
        h("span", { class: "qd-reason", "data-qd": "reason", text: fb.message || "" })));
      if (fb.answers && fb.answers.length) {
        const head = fb.answer_count > fb.answers.length
          ? fill(labels.answers_some, { shown: fb.answers.length, count: fb.answer_count })
          : fb.answers.length === 1 ? labels.answer_one : labels.answers;
        const list = h("ul", { class: "qd-answers" }, ...fb.answers.map((a) => h("li", { text: a })));
        feedback.append(h("p", { class: "qd-answers-head", text: head }), list);
      }
      // Why the correct answer is right: the kernel sends it only once the answer is shown.
      if (fb.explanation) feedback.append(h("p", { class: "qd-why", "data-qd": "why", text: fb.explanation }));
      if (!fb.correct && !fb.revealed) {
        feedback.append(h("p", { class: "qd-try-again", "data-qd": "try-again", text: labels.try_again }));
      }
      if (fb.helped) feedback.append(h("p", { class: "qd-helped", "data-qd": "helped", text: labels.helped }));
      if (fb.practice) feedback.append(h("p", { class: "qd-practice", text: labels.practice }));
    } else {
      feedback.dataset.result = "";
    }
    feedback.hidden = !fb.error && !done;
    reveal.hidden = !done || fb.correct;
    drawButtons();
    if (!done) picker.setSelected(model.get("selected"));
    return done;
  }

  // Which buttons and answers may be used: the drill's own state (answered or not, hints
  // left), and the work under way — the pressed button busy, and while the drill is being
  // replaced, nothing else either.
  function drawButtons() {
    const state = S();
    const fb = model.get("feedback") || {};
    const done = answered();
    const turn = turning();
    const total = state.hint_total || 0;
    const own = {
      check: done || !!state.error,
      hint: (model.get("hints") || []).length >= total || !!state.error,
      retry: !done,
      reveal: !done || !fb.can_reveal,
      // Next follows an answer: Progress.next_drill gives the same drill until one is recorded.
      next: !done && !state.error,
    };
    for (const [key, button] of [["check", check], ["hint", hint], ["retry", retry], ["reveal", reveal], ["next", next]]) {
      const pressed = busy.pressed(key);
      button.disabled = own[key] || (turn && !pressed);
      markBusy(button, pressed);
    }
    levels.querySelectorAll("button.qd-level").forEach((b) => {
      const pressed = busy.pressed(`level:${b.dataset.level}`);
      b.disabled = turn && !pressed;
      markBusy(b, pressed);
    });
    picker.setDisabled(done || turn);
    answerBox.querySelectorAll("button.qd-choice").forEach((b) => { b.disabled = done || turn; });
    number.disabled = done || turn;
  }

  // The work under way, drawn: the drill greyed and marked busy while it is being
  // replaced, with a short note of what is happening; the pressed button busy.
  function drawBusy() {
    const turn = turning();
    if (turn) root.setAttribute("aria-busy", "true"); else root.removeAttribute("aria-busy");
    if (turn) root.dataset.busy = busy.has("level") ? "level" : "next"; else delete root.dataset.busy;
    greyed.forEach((part) => { part.inert = turn; });
    delete busyNote.dataset.stuck;
    busyNote.textContent = !turn ? "" : (L().busy_next || "");
    drawButtons();
  }

  function onHandled() {
    const done = model.get("handled") || {};
    if (typeof done.work === "number") root.dataset.work = String(done.work);
    if (typeof done.request === "number") busy.finish(done.request);
    if (busyNote.dataset.stuck) drawBusy(); // the kernel answers again: "taking longer" is over
  }

  // The kernel's word that a request turned out to be slow work (the first sync making a new drill).
  function onCustom(msg) {
    if (msg && msg.type === "busy" && typeof msg.request === "number") busy.relabel(msg.request, "load");
  }

  function clearAnswer() {
    choice = null;
    answerBox.querySelectorAll("button.qd-choice").forEach((b, i) => {
      b.setAttribute("aria-checked", "false");
      b.classList.remove("qd-selected");
      b.tabIndex = i === 0 ? 0 : -1;
    });
  }

  function onFeedback() {
    const fb = model.get("feedback") || {};
    const done = drawFeedback();
    if (fb.check_id === undefined) clearAnswer();
    settleFocus();
    const t0 = pending.get(fb.check_id);
    if (t0 !== undefined) {
      pending.delete(fb.check_id);
      const ms = performance.now() - t0;
      const record = { id: fb.check_id, ms, paint: null, result: feedback.dataset.result };
      timings().push(record);
      root.dataset.feedbackMs = ms.toFixed(2);
      root.dataset.checked = String(fb.check_id);
      requestAnimationFrame(() => { record.paint = performance.now() - t0; });
      delete root.dataset.checking;
      if (done) (fb.correct ? next : retry).focus();
    }
    if (revealing && fb.revealed) { revealing = false; retry.focus(); }
    clearTimeout(advanceTimer);
    if (done && fb.correct && model.get("auto_advance")) {
      advanceTimer = setTimeout(() => ask("next", "next", { token: S().token }), 1500);
    }
  }

  function onProgress() {
    const json = model.get("progress_json");
    const key = model.get("storage_key");
    if (!json || !key || readStore(key) === json) return;
    if (writeStore(key, json)) {
      window.dispatchEvent(new CustomEvent(STORE_EVENT, { detail: { key, json, from: model } }));
    }
  }

  function onNote() {
    const text = model.get("progress_note");
    note.replaceChildren();
    note.hidden = !text;
    if (text) {
      note.append(h("span", { text }), h("button", {
        class: "qd-link", type: "button", text: L().dismiss,
        onclick: () => model.send({ type: "dismiss_note" }),
      }));
    }
  }

  function S() { return model.get("state") || {}; }

  function askReset() {
    const labels = L();
    confirmBox.replaceChildren(
      h("span", { text: labels.reset_ask }),
      h("button", { class: "qd-button qd-danger", type: "button", "data-qd": "reset-yes", text: labels.reset_yes,
        onclick: () => { closeReset(); model.send({ type: "reset" }); } }),
      h("button", { class: "qd-button", type: "button", "data-qd": "reset-no", text: labels.reset_no,
        onclick: () => { closeReset(); reset.focus(); } }),
    );
    confirmBox.hidden = false;
    reset.hidden = true;
    confirmBox.querySelector("[data-qd=reset-no]").focus();
  }

  function closeReset() {
    confirmBox.hidden = true;
    reset.hidden = false;
  }

  check.addEventListener("click", (event) => submit(event));
  // Each hint request names the hints seen (a second click asks for the same one: ignored).
  hint.addEventListener("click", (event) => ask("hint", "hint",
    { token: S().token, shown: (model.get("hints") || []).length }, event));
  retry.addEventListener("click", (event) => { if (ask("retry", "retry", {}, event)) keepFocus = true; });
  // Show answer disables itself: focus moves on to Retry, still in the drill.
  reveal.addEventListener("click", (event) => { if (ask("reveal", "reveal", {}, event)) revealing = true; });
  next.addEventListener("click", (event) => {
    clearTimeout(advanceTimer);
    if (ask("next", "next", { token: S().token }, event)) keepFocus = true;
  });
  reset.addEventListener("click", askReset);

  // Another widget of this page saved progress: this kernel takes it too.
  const onStore = (event) => {
    const d = event.detail || {};
    if (d.from !== model && d.key === model.get("storage_key")) model.send({ type: "sync", progress: d.json });
  };
  window.addEventListener(STORE_EVENT, onStore);
  // Another tab of this browser saved progress: take it before recording more.
  const onStorage = (event) => {
    if (event.key === model.get("storage_key") && event.newValue) model.send({ type: "sync", progress: event.newValue });
  };
  window.addEventListener("storage", onStorage);

  const onFour = () => root.classList.toggle("qd-four", !!model.get("four_colour"));
  const onSynced = () => { if (model.get("synced")) root.dataset.synced = "true"; };
  const onLang = () => setLang(root, model.get("lang"));
  const onSelected = () => { if (!answered()) picker.setSelected(model.get("selected")); };
  const listeners = [
    ["change:state", drawDrill], ["change:feedback", onFeedback], ["change:hints", drawHints],
    ["change:stats", drawStats], ["change:progress_json", onProgress], ["change:progress_note", onNote],
    ["change:four_colour", onFour], ["change:selected", onSelected], ["change:labels", drawDrill],
    ["change:lang", onLang], ["change:level", drawLevels], ["change:synced", onSynced],
    ["change:handled", onHandled], ["msg:custom", onCustom],
  ];
  listeners.forEach(([name, fn]) => model.on(name, fn));
  drawDrill();
  onNote();
  onFour();
  onSynced();
  el.append(root);

  // Progress lives in this browser: hand what is stored to the kernel on load (a request:
  // the kernel says when it makes a new drill from it, and the drill is shown busy).
  ask("sync", "sync", { progress: readStore(model.get("storage_key")) });

  return () => {
    clearTimeout(advanceTimer);
    busy.stop();
    window.removeEventListener(STORE_EVENT, onStore);
    window.removeEventListener("storage", onStorage);
    listeners.forEach(([name, fn]) => model.off(name, fn));
  };
}

// The course map: the kernel draws it from the progress this browser keeps (and the positions
// of the learner's own hands kept to review, and the quick checks' answers, under their own keys).
function renderCourse({ model, el }) {
  const root = h("nav", { class: "qd-root qd-course", "data-qd": "course" });
  setLang(root, model.get("lang"));
  const draw = () => { root.innerHTML = model.get("html") || ""; };
  const send = () => model.send({ type: "sync", progress: readStore(model.get("storage_key")),
                                  mistakes: readStore(model.get("mistakes_key")),
                                  checks: readStore(model.get("checks_key")) });
  const onStorage = (event) => {
    if ([model.get("storage_key"), model.get("mistakes_key"), model.get("checks_key"), null].includes(event.key)) send();
  };
  model.on("change:html", draw);
  window.addEventListener("storage", onStorage);
  draw();
  el.append(root);
  send();
  return () => { model.off("change:html", draw); window.removeEventListener("storage", onStorage); };
}

function render({ model, el }) {
  const view = model.get("_view");
  if (view === "picker") return renderPicker({ model, el });
  if (view === "course") return renderCourse({ model, el });
  return renderDrill({ model, el });
}

export default { render };
