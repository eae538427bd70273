// What the widgets' front ends share (widgets/_common.py puts this file before each
// widget's own module): building elements, filling label templates, and the card
// picker. Nothing is fetched: no CDN, no fonts, no icons.

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") setText(node, value);
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// A pair named in a sentence ("♥7 ♥7") is never split between two lines: each stands in a
// span that does not wrap. The text (and what a screen reader reads) is unchanged.
const CARD = "(?:[♠♥♣♦](?:10|[2-9JQKA])|BJ|SJ|大王|小王)";
const PAIR = new RegExp(`(${CARD}) \\1(?![0-9])`, "gu");

function setText(node, value) {
  const text = String(value);
  const pairs = node.tagName === "OPTION" || node.tagName === "TEXTAREA" ? [] : [...text.matchAll(PAIR)];
  if (!pairs.length) { node.textContent = text; return; }
  node.textContent = "";
  let at = 0;
  for (const pair of pairs) {
    node.append(text.slice(at, pair.index));
    const span = document.createElement("span");
    span.className = "qd-pair";
    span.style.whiteSpace = "nowrap";
    span.textContent = pair[0];
    node.append(span);
    at = pair.index + pair[0].length;
  }
  node.append(text.slice(at));
}

// An element whose parts are read one after the other, as words: a space between each
// two. The accessible text of inline elements side by side is their texts run together
// (a badge "Rule W2" before "Right." is read "Rule W2Right."), and so is innerText.
function spaced(tag, attrs = {}, ...parts) {
  const node = h(tag, attrs);
  parts.filter(Boolean).forEach((part, i) => { if (i) node.append(" "); node.append(part); });
  return node;
}

// A glyph that only decorates (a tick, a bullet): seen, never read, and kept out of the
// accessible name of the control it is in — which CSS generated content (::before) is not.
function decoration(text, cls) {
  return h("span", { class: cls, "aria-hidden": "true", text });
}

function fill(template, params) {
  return String(template || "").replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A widget speaks its own language: screen readers pick their voice, and browsers the
// right CJK glyphs, from the `lang` of the widget's own element. The page's <html lang>
// is the server's: an English widget on a Chinese page relabels nothing but itself.
function setLang(node, lang) {
  if (lang) node.setAttribute("lang", lang); else node.removeAttribute("lang");
}

// ---------------------------------------------------------------- card picker
// A multi-select listbox: click or tap toggles; arrows move, Space toggles, Enter
// submits; a polite live region says what changed.
function makePicker({ labels, onChange, onSubmit, announce, qd = null, keepFocus = false }) {
  let cards = [];
  let selected = new Set();
  let focus = 0;
  let disabled = false;
  let pick = null;
  const root = h("div", {
    class: "qd-picker", role: "listbox", "aria-multiselectable": "true",
    "aria-label": labels.hand || "", "data-qd": qd,
  });
  const options = [];

  function countText() {
    const count = selected.size;
    return pick ? fill(labels.picked_of, { count, pick }) : fill(labels.picked, { count });
  }

  function paint() {
    options.forEach((node, i) => {
      const on = selected.has(i);
      node.setAttribute("aria-selected", on ? "true" : "false");
      node.classList.toggle("qd-selected", on);
      node.tabIndex = i === focus && !disabled ? 0 : -1;
    });
    root.setAttribute("aria-disabled", disabled ? "true" : "false");
    root.classList.toggle("qd-disabled", disabled);
    root.dataset.selected = [...selected].sort((a, b) => a - b).join(",");
  }

  function toggle(i, viaKeyboard) {
    if (disabled || i < 0 || i >= cards.length) return;
    if (selected.has(i)) selected.delete(i); else selected.add(i);
    focus = i;
    paint();
    const state = selected.has(i) ? labels.selected : labels.deselected;
    announce(fill(state, { card: cards[i].name }) + " " + countText());
    onChange([...selected].sort((a, b) => a - b));
    if (viaKeyboard) options[i].focus();
  }

  function move(to) {
    if (!options.length) return;
    focus = Math.max(0, Math.min(options.length - 1, to));
    paint();
    options[focus].focus();
  }

  root.addEventListener("keydown", (event) => {
    const i = options.indexOf(document.activeElement);
    const at = i >= 0 ? i : focus;
    switch (event.key) {
      case "ArrowRight": case "ArrowDown": move(at + 1); break;
      case "ArrowLeft": case "ArrowUp": move(at - 1); break;
      case "Home": move(0); break;
      case "End": move(options.length - 1); break;
      case " ": case "Spacebar": toggle(at, true); break;
      case "Enter": if (!disabled) onSubmit([...selected].sort((a, b) => a - b)); break;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation();
  });

  function setCards(newCards, newPick = pick, intro = false) {
    cards = newCards || [];
    pick = newPick;
    selected = new Set();
    focus = keepFocus ? Math.min(focus, Math.max(0, cards.length - 1)) : 0;
    options.length = 0;
    root.replaceChildren();
    root.classList.toggle("qd-intro", !!intro);
    let group = null;
    let row = null;
    cards.forEach((card, i) => {
      if (!group || card.group !== group.dataset.group) {
        group = h("div", { class: "qd-group", role: "group", "aria-label": card.group, "data-group": card.group },
          h("span", {  // a suit's symbol alone is drawn larger than a word ("Trumps")
            class: [...card.group].length === 1 ? "qd-group-label qd-suit-label" : "qd-group-label",
            "aria-hidden": "true", text: card.group }));
        row = h("div", { class: "qd-cards" });
        group.append(row);
        root.append(group);
      }
      const option = h("div", {
        class: "qd-option", role: "option", "aria-selected": "false", tabindex: "-1",
        "aria-label": card.label, "data-index": i, "data-card": card.text, style: `--i:${i}`,
        html: card.face,
      });
      option.append(h("span", { class: "qd-tick", "aria-hidden": "true", text: "✓" }));
      option.addEventListener("click", () => toggle(i, false));
      row.append(option);
      options.push(option);
    });
    paint();
  }

  return {
    root,
    setCards,
    setSelected(list) {
      selected = new Set((list || []).filter((i) => Number.isInteger(i) && i >= 0 && i < cards.length));
      paint();
    },
    getSelected: () => [...selected].sort((a, b) => a - b),
    setDisabled(value) { disabled = !!value; paint(); },
    setPick(value) { pick = value; },
    focus() { if (options.length) options[Math.min(focus, options.length - 1)].focus(); },
    // The answer is read from the page, as the learner sees it; the kernel checks it all.
    cardsOf: (list) => list.map((i) => options[i].dataset.card),
  };
}

// ---------------------------------------------------------------- work under way
// A click that asks the kernel for work that may take a while (a new drill, the coach's
// search). `start(action, key, t0)` is called at the click, before the message goes: it
// marks the work as under way (so the pressed button is drawn busy at once) and gives the
// request id to send with the message — or null when that work, or work it must wait for,
// is already under way: a second click starts nothing. The kernel answers every request
// it handles, done, ignored or failed (the `handled` trait: {request, ...}); `finish`
// ends it. A request never answered ends after BUSY_LIMIT_MS with `onStuck`, so no button
// stays disabled for ever. `window.__qdBusy` keeps each request's figures: the click's
// time (`at`, performance.now()), then milliseconds from it to busy drawn (`busy`), to the
// next frame painted (`paint`), to the kernel's answer (`answer`).
const BUSY_LIMIT_MS = 120000; // a page's script (a test) may set window.__qdBusyLimitMs instead

function busyTimings() {
  if (!Array.isArray(window.__qdBusy)) window.__qdBusy = [];
  return window.__qdBusy;
}

function makeBusy({ onChange, onStuck = () => {}, blocks = () => false,
  limit = Number.isFinite(window.__qdBusyLimitMs) ? window.__qdBusyLimitMs : BUSY_LIMIT_MS }) {
  // This view's ids, apart from any other view's of the same model (a page may show one twice).
  let last = Math.floor(Math.random() * 2 ** 40);
  const pending = new Map(); // request id -> {id, action, key, t0, timer, record}
  let sent = 0;

  function end(id, stuck) {
    const work = pending.get(id);
    if (!work) return;
    clearTimeout(work.timer);
    pending.delete(id);
    work.record.answer = performance.now() - work.t0;
    work.record.stuck = stuck;
    onChange(work);
    if (stuck) onStuck(work);
  }

  return {
    // Returns the request id, or null (nothing is sent) when the work may not start now.
    start(action, key = action, t0 = performance.now()) {
      for (const work of pending.values()) {
        if (work.key === key || work.action === action || blocks(work.action, action)) return null;
      }
      last += 1;
      const id = last;
      const record = { action, at: t0, busy: null, paint: null, answer: null, stuck: false };
      const work = { id, action, key, t0, record, timer: setTimeout(() => end(id, true), limit) };
      pending.set(id, work);
      sent += 1;
      onChange(work);
      record.busy = performance.now() - t0;
      busyTimings().push(record);
      requestAnimationFrame(() => { record.paint = performance.now() - t0; });
      return id;
    },
    // The kernel handled request `id`: it handles one view's requests in order, so every
    // earlier one of this view is done too.
    finish(id) {
      if (!pending.has(id)) return;
      for (const key of [...pending.keys()]) if (key <= id) end(key, false);
    },
    // The kernel said what work request `id` turned out to be (a sync that makes a new drill).
    relabel(id, action) {
      const work = pending.get(id);
      if (work && work.action !== action) { work.action = action; work.record.action = action; onChange(work); }
    },
    has(action) { for (const w of pending.values()) if (w.action === action) return true; return false; },
    pressed(key) { for (const w of pending.values()) if (w.key === key) return true; return false; },
    get sent() { return sent; },
    stop() { pending.forEach((w) => clearTimeout(w.timer)); pending.clear(); },
  };
}

// The pressed button while its work is under way: announced busy and unavailable, but
// kept focusable (focus stays where the learner was; a click on it starts nothing).
function markBusy(button, on) {
  if (!button) return;
  if (on) {
    button.setAttribute("aria-busy", "true");
    button.setAttribute("aria-disabled", "true");
    button.classList.add("qd-working");
  } else if (button.classList.contains("qd-working")) {
    button.removeAttribute("aria-busy");
    button.removeAttribute("aria-disabled");
    button.classList.remove("qd-working");
  }
}
