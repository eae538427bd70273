// The page of a table of classmates (tutor/server/tables/web.py): the lobby, the seat's header and
// lesson 10's table drawn by its own front end (static/table.mjs), its model kept by the server
// over one websocket. The server holds the game: this page sends its seat's actions and draws what
// the server sends of its own seat. The seat's token stays in this browser, so a closed or dropped
// page comes back to its seat. Nothing is fetched from elsewhere.

const config = JSON.parse(document.getElementById("qd-config").textContent);
const T = config.texts;
const app = document.getElementById("qd-app");
const SEATS_KEY = "qidong-tutor/tables/v1";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

// A seat in a list of the table's players: "Seat 1: Ana", "Seat 2: computer" (the game's own seat numbers).
function seatOf(seat, who) {
  return T.seat_of.replace("{seat}", seat).replace("{name}", who);
}

function seats() {
  try { return JSON.parse(window.localStorage.getItem(SEATS_KEY) || "{}") || {}; } catch (e) { return {}; }
}

function keepSeat(code, token, name) {
  const all = seats();
  all[code] = { token, name, at: Date.now() };
  try { window.localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch (e) { /* private mode: no rejoin */ }
}

function forgetSeat(code) {
  const all = seats();
  delete all[code];
  try { window.localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch (e) { /* nothing kept */ }
}

// ---------------------------------------------------------------- the connection
function connect(onMessage, onOpen) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${window.location.host}${config.prefix}ws?lang=${encodeURIComponent(config.lang)}`;
  const link = { socket: null, closed: false, queue: [] };
  const lost = h("p", { class: "qd-refused", role: "status", "data-qd": "lost", hidden: true, text: T.lost });
  app.before(lost);
  function open() {
    const socket = new WebSocket(url);
    link.socket = socket;
    socket.addEventListener("open", () => { lost.hidden = true; onOpen(); });
    socket.addEventListener("message", (event) => {
      let data = null;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      if (data && typeof data.kind === "string") onMessage(data);
    });
    socket.addEventListener("close", () => {
      if (link.closed) return;
      lost.hidden = false;
      setTimeout(open, 1500);
    });
  }
  link.send = (message) => {
    if (link.socket && link.socket.readyState === WebSocket.OPEN) link.socket.send(JSON.stringify(message));
  };
  open();
  return link;
}

// The table's model as lesson 10's front end reads it (anywidget's get/set/on/off/send), kept here
// from the server's "traits" messages.
function makeModel(send) {
  const values = {};
  const handlers = new Map();
  return {
    get: (name) => values[name],
    set: (name, value) => {
      values[name] = value;
      if (name === "selected") send({ kind: "select", value });
    },
    save_changes: () => {},
    send: (content) => send({ kind: "msg", content }),
    on: (name, fn) => { if (!handlers.has(name)) handlers.set(name, new Set()); handlers.get(name).add(fn); },
    off: (name, fn) => { if (handlers.has(name)) handlers.get(name).delete(fn); },
    update(traits) {
      Object.assign(values, traits);
      for (const name of Object.keys(traits)) (handlers.get(`change:${name}`) || []).forEach((fn) => fn());
    },
  };
}

// A patch of a trait (tutor/server/tables/patch.py): {r: value}; of a list {k: first kept, a: items,
// t: last kept}, {o: first gone, a: items}, or {i: {index: patch}} (a list of the same length); of an
// object {s: set, p: patched, d: deleted}. A new value; the old one is not changed.
function applyPatch(old, patch) {
  if ("r" in patch) return patch.r;
  if ("i" in patch) {
    const items = old.slice();
    for (const [index, part] of Object.entries(patch.i)) items[Number(index)] = applyPatch(old[Number(index)], part);
    return items;
  }
  if ("k" in patch) return old.slice(0, patch.k).concat(patch.a, patch.t ? old.slice(old.length - patch.t) : []);
  if ("o" in patch) return old.slice(patch.o).concat(patch.a);
  const out = { ...old };
  for (const key of patch.d || []) delete out[key];
  Object.assign(out, patch.s || {});
  for (const [key, part] of Object.entries(patch.p || {})) out[key] = applyPatch(old[key], part);
  return out;
}

// ---------------------------------------------------------------- the lobby and the seat
function lobby() {
  const params = new URLSearchParams(window.location.search);
  const asked = (params.get("code") || "").toUpperCase().slice(0, 12);
  const personal = params.get("seat"); // a teacher's link to one learner's seat
  if (asked && personal) keepSeat(asked, personal, "");
  const refused = h("p", { class: "qd-refused", role: "alert", "data-qd": "refused" });
  const bar = h("div", { class: "qd-bar", "data-qd": "bar", hidden: true });
  const tableBox = h("div", { "data-qd": "table-host" });
  const nameInput = h("input", { name: "name", maxlength: "24", autocomplete: "nickname", "data-qd": "name" });
  const joinName = h("input", { name: "name", maxlength: "24", autocomplete: "nickname", "data-qd": "join-name" });
  const codeInput = h("input", { name: "code", maxlength: "6", value: asked, autocapitalize: "characters",
    "data-qd": "code", style: "text-transform: uppercase" });
  const level = h("select", { name: "level", "data-qd": "level" },
    ...config.levels.map((l) => h("option", { value: l.level, text: l.label })));
  let model = null;
  let seated = null; // {code, seat, token}
  let link = null;
  let version = null; // of the traits the model holds; null: waiting for the whole of them
  let resyncing = false; // "resync" sent, the whole not back yet

  // A "traits" message: the whole ("full"), or a patch on the version before it; a page that
  // missed one (or has none yet) asks for the whole and takes nothing until it comes.
  function received(data) {
    if (!model) return;
    if (!data.full && (version === null || data.version !== version + 1)) {
      if (version !== null && !resyncing) { resyncing = true; link.send({ kind: "resync" }); }
      return;
    }
    const traits = { ...data.traits };
    for (const [name, part] of Object.entries(data.patch || {})) traits[name] = applyPatch(model.get(name), part);
    version = data.version;
    resyncing = false;
    model.update(traits);
  }

  const openForm = h("form", { "data-qd": "open-form", onsubmit: (event) => {
    event.preventDefault();
    link.send({ kind: "open", name: nameInput.value, lang: config.lang, level: Number(level.value) });
  } }, h("label", {}, h("span", { text: T.name }), nameInput), h("label", {}, h("span", { text: T.level }), level),
  h("button", { type: "submit", "data-qd": "open", text: T.open }));
  const joinForm = h("form", { "data-qd": "join-form", onsubmit: (event) => {
    event.preventDefault();
    link.send({ kind: "join", code: codeInput.value.trim().toUpperCase(), name: joinName.value, lang: config.lang });
  } }, h("label", {}, h("span", { text: T.code }), codeInput), h("label", {}, h("span", { text: T.name }), joinName),
  h("button", { type: "submit", "data-qd": "join", text: T.join }));
  const forms = h("section", { "data-qd": "lobby" }, h("p", { text: T.intro }), openForm, joinForm);
  app.append(h("h1", { text: T.title }), refused, forms, bar, tableBox);

  function drawBar() {
    const state = (model && model.get("state")) || {};
    const shared = state.shared || {};
    const address = `${window.location.origin}${window.location.pathname}?code=${seated.code}`;
    const linkInput = h("input", { class: "qd-link", readonly: true, value: address, "data-qd": "link",
      "aria-label": T.share });
    const copy = h("button", { type: "button", "data-qd": "copy", text: T.copy, onclick: async () => {
      try { await navigator.clipboard.writeText(address); copy.textContent = T.copied; } catch (e) { linkInput.select(); }
    } });
    const players = (shared.players || []).map((name, seat) => h("li", {
      "data-seat": seat, "data-away": (shared.away || []).includes(seat) ? "true" : "false",
      text: seatOf(seat, name ? ((shared.away || []).includes(seat) && shared.started ? `${name} (${T.away})` : name)
        : T.computer) }));
    const start = h("button", { type: "button", "data-qd": "start", text: T.start,
      hidden: !(shared.you_open && !shared.started), onclick: () => link.send({ kind: "start" }) });
    const again = h("button", { type: "button", "data-qd": "again", text: T.again,
      hidden: !(shared.you_open && state.phase === "finished"), onclick: () => link.send({ kind: "again" }) });
    const waiting = h("p", { "data-qd": "waiting-start", text: T.waiting_start,
      hidden: !!shared.you_open || !!shared.started });
    bar.replaceChildren(h("span", { class: "qd-code", "data-qd": "code-shown", text: seated.code }),
      h("span", { text: T.share }), linkInput, copy,
      h("div", { class: "qd-at-table", "data-qd": "at-table" }, h("span", { id: "qd-seats-label", text: T.seats }),
        h("ul", { class: "qd-players", "data-qd": "players", "aria-labelledby": "qd-seats-label" }, ...players)),
      start, again, waiting);
    bar.hidden = false;
  }

  async function seat(data) {
    seated = { code: data.code, seat: data.seat, token: data.token };
    version = null; // the whole view follows "seated"
    keepSeat(data.code, data.token, data.name);
    forms.hidden = true;
    refused.textContent = "";
    const url = new URL(window.location.href);
    url.searchParams.set("code", data.code);
    url.searchParams.delete("seat");
    window.history.replaceState(null, "", url);
    if (!model) {
      model = makeModel((message) => link.send(message));
      model.on("change:state", drawBar);
      const table = await import(`${config.prefix}static/table.mjs`);
      if (!model.get("state")) { // lesson 10's front end draws from the seat's first state
        await new Promise((resolve) => {
          const first = () => { model.off("change:state", first); resolve(); };
          model.on("change:state", first);
        });
      }
      table.default.render({ model, el: tableBox });
      app.dataset.seat = String(data.seat);
    }
    drawBar();
  }

  link = connect((data) => {
    if (data.kind === "seated") seat(data);
    else if (data.kind === "traits") received(data);
    else if (data.kind === "refused") {
      refused.textContent = data.reason;
      if (seated === null && asked) forgetSeat(asked);
    }
  }, () => {
    const code = seated ? seated.code : asked;
    const kept = code ? seats()[code] : null;
    if (kept && kept.token) link.send({ kind: "rejoin", code, token: kept.token, lang: config.lang });
  });
}

// ---------------------------------------------------------------- the teacher's page
function teacher() {
  const names = h("textarea", { rows: "8", cols: "30", "data-qd": "names" });
  const level = h("select", { "data-qd": "level" },
    ...config.levels.map((l) => h("option", { value: l.level, text: l.label })));
  const made = h("div", { class: "qd-class-links", "data-qd": "class-links" });
  const list = h("div", { "data-qd": "overview" });
  const refused = h("p", { class: "qd-refused", role: "alert" });
  let link = null;
  const form = h("form", { onsubmit: (event) => {
    event.preventDefault();
    const given = names.value.split(/[\n,]/).map((n) => n.trim()).filter(Boolean);
    const base = `${window.location.origin}${config.prefix}`;
    link.send({ kind: "open_class", names: given, level: Number(level.value), lang: config.lang, base });
  } }, h("label", {}, h("span", { text: T.names }), names), h("label", {}, h("span", { text: T.level }), level),
  h("button", { type: "submit", "data-qd": "open-class", text: T.open_class }));
  app.append(h("h1", { text: T.teacher }), refused, form, made, list);
  function drawOverview(tables) {
    if (!tables.length) { list.replaceChildren(h("p", { text: T.none_yet })); return; }
    list.replaceChildren(h("table", { class: "qd-overview" }, h("tbody", {}, ...tables.map((t) => {
      const who = t.waiting_seat !== null && t.waiting_seat !== undefined ? t.players[t.waiting_seat].name : "";
      const where = !t.started ? T.not_started : t.phase === "finished" ? T.finished
        : t.phase === "playing" ? T.trick.replace("{n}", t.trick) : t.phase;
      return h("tr", { "data-code": t.code },
        h("th", { scope: "row", class: "qd-code", text: t.code }),
        h("td", {}, h("ul", { class: "qd-players" }, ...t.players.map((p) => h("li", {
          "data-away": p.name && !p.here ? "true" : "false",
          text: seatOf(p.seat, p.name ? (p.computer ? `${p.name} (${T.computer})` : p.name) : T.computer) })))),
        h("td", { "data-qd": "where", text: where }),
        h("td", { "data-qd": "points", text: (t.points || []).join(" · ") }),
        h("td", { "data-qd": "waits", text: who ? T.waits_for.replace("{name}", who) : "" }));
    }))));
  }
  link = connect((data) => {
    if (data.kind === "overview") drawOverview(data.tables);
    else if (data.kind === "class") {
      made.replaceChildren(...data.tables.map((t) => h("p", {}, h("strong", { text: `${t.code}: ` }),
        ...t.players.map((p) => h("span", {}, `${p.name} `, h("a", { href: p.link, text: p.link }), " ")))));
    } else if (data.kind === "refused") refused.textContent = data.reason;
  }, () => link.send({ kind: "watch" }));
}

if (config.page === "teacher") teacher(); else lobby();
