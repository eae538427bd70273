// The static site's home page without Python (tools/static_site/home.py). The build drew the
// course map with widgets.course.CourseMap for no progress; this script fills in each
// lesson's stars and answered counts from the progress this browser keeps, and lists what has
// come due to review (the missed drills, and the positions of the learner's own hands kept
// under their own key), with pieces the build drew with CourseMap too (so every word comes from the course's catalogs). Stored
// progress is read as tutor.teach.drills.progress.read_stored reads the counts the map shows;
// what cannot be read leaves the map as it was, with CourseMap's note. Never throws.
(function () {
  "use strict";
  const HOME = __QD_HOME__; // see tools.static_site.home.home_facts
  const map = document.querySelector('[data-qd="course"]');
  if (!map) return;
  const blank = map.innerHTML;

  const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  const isCount = (value) => Number.isInteger(value) && value >= 0 && value <= HOME.maxCount;
  // A track's name as Python's str.isprintable() sees it (no control, format, unassigned or
  // separator character but the space).
  const isName = (name, most = HOME.maxName) => name.length > 0 && name.length <= most
    && !/(?! )[\p{C}\p{Z}]/u.test(name);
  const isCounts = (value) => Array.isArray(value) && value.length === 4 && value.every(isCount)
    && value[1] <= value[0] && value[2] <= value[1] && value[3] <= HOME.maxStars;

  function stored(key = HOME.key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  // {counts(track, kind) → [attempts, correct, streak, stars] or undefined, partial}, or
  // null when nothing can be read.
  function read(text) {
    if (typeof text !== "string" || text.length > HOME.maxStored) return null;
    let body;
    try { body = JSON.parse(text); } catch (e) { return null; }
    if (!isObject(body) || body.version !== HOME.version) return null;
    let kinds = Object.prototype.hasOwnProperty.call(body, "kinds") ? body.kinds : {};
    let partial = false;
    if (!isObject(kinds)) { partial = true; kinds = {}; }
    const names = Object.keys(kinds);
    if (names.length > HOME.maxKinds) partial = true;
    const tracks = new Map();
    for (const name of names.slice(0, HOME.maxKinds)) {
      if (isName(name) && isCounts(kinds[name])) tracks.set(name, kinds[name]);
      else partial = true;
    }
    // Progress from before it was kept per lesson: a kind's counts stand for each lesson's.
    const perLesson = body[HOME.perLesson] === true;
    const counts = (track, kind) => tracks.get(track) || (perLesson ? undefined : tracks.get(kind));
    return { counts, partial, body };
  }

  // ---------------------------------------------------------------- what has come due
  // Read as tutor.teach.drills.progress (its reviews: the missed drills) and tutor.teach.mistakes
  // (the positions of the learner's own hands) read them; a schedule as progress.read_card reads it.
  const REVIEW = HOME.review;
  const isText = (value, most) => typeof value === "string" && isName(value, most);
  const DUE = new RegExp(`^(?:${REVIEW.card.due})$`);

  // A stored time (progress.DUE_FORMAT, a real date and time) as milliseconds, or NaN.
  function time(value) {
    if (typeof value !== "string" || !DUE.test(value)) return NaN;
    const [date, clock] = value.split("T");
    const [y, mo, d] = date.split("-").map(Number);
    const zone = clock.slice(-6);
    const [h, mi, s] = clock.slice(0, 8).split(":").map(Number);
    const fraction = clock.slice(8, -6);
    const [oh, om] = zone.slice(1).split(":").map(Number);
    const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate(); // days in month mo (of a leap year)
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && !leap ? 28 : days) || h > 23 || mi > 59 || s > 59
        || oh > 23 || om > 59) return NaN;
    const moment = new Date(0);
    moment.setUTCFullYear(y, mo - 1, d);
    moment.setUTCHours(h, mi, s, fraction ? Math.floor(Number("0" + fraction) * 1000) : 0);
    return moment.getTime() - (zone[0] === "-" ? -1 : 1) * (oh * 60 + om) * 60000;
  }

  // A stored FSRS card's due time (ms), or NaN when the card cannot be read.
  function cardDue(card) {
    if (!isObject(card) || !REVIEW.card.fields.every((f) => Object.prototype.hasOwnProperty.call(card, f))) return NaN;
    const number = (v) => v === null || (typeof v === "number" && Number.isFinite(v));
    if (!isCount(card.card_id) || !REVIEW.card.states.includes(card.state) || !(card.step === null || isCount(card.step))
        || !number(card.stability) || !number(card.difficulty)
        || !(card.last_review === null || !Number.isNaN(time(card.last_review)))) return NaN;
    return time(card.due);
  }

  const cleared = (item) => (Object.prototype.hasOwnProperty.call(item, "cleared") ? item.cleared : 0);
  const isCleared = (value) => isCount(value) && value < REVIEW.card.clearedAfter;

  // {found: the missed drills due by kind, partial: whether any other part of stored progress
  // (already parsed: body) could not be read}, as progress.read_stored reads them.
  function dueDrills(body, now) {
    const found = new Map();
    const has = (name) => Object.prototype.hasOwnProperty.call(body, name);
    let partial = false;
    let reviews = has("reviews") ? body.reviews : [];
    if (!Array.isArray(reviews)) { partial = true; reviews = []; }
    if (reviews.length > REVIEW.reviews.maxReviews) partial = true;
    for (const item of reviews.slice(-REVIEW.reviews.maxReviews)) {
      const due = isObject(item) && isText(item.kind, HOME.maxName) && isCount(item.seed)
        && item.seed <= REVIEW.reviews.maxSeed && REVIEW.reviews.levels.includes(item.level)
        && isCleared(cleared(item)) ? cardDue(item.card) : NaN;
      if (Number.isNaN(due)) partial = true;
      else if (due <= now) found.set(item.kind, (found.get(item.kind) || 0) + 1);
    }
    if (has("salt") && !isCount(body.salt)) partial = true;
    const last = has("last") ? body.last : null;
    if (last !== null && !(Array.isArray(last) && last.length === 4 && isText(last[0], HOME.maxName)
        && isCount(last[1]) && isCount(last[2]) && typeof last[3] === "string" && last[3].length <= HOME.maxName)) {
      partial = true;
    }
    const levels = has("levels") ? body.levels : {};
    if (!isObject(levels)) partial = true;
    else {
      const names = Object.keys(levels);
      if (names.length > HOME.maxKinds) partial = true;
      for (const name of names.slice(0, HOME.maxKinds)) {
        if (!isName(name) || !REVIEW.reviews.levels.includes(levels[name])) partial = true;
      }
    }
    return { found, partial };
  }

  // {due: the kept positions due, problem: whether any of it could not be read}.
  function duePositions(text, now) {
    const facts = REVIEW.mistakes;
    if (text === null) return { due: 0, problem: false };
    if (typeof text !== "string" || text.length > facts.maxStored) return { due: 0, problem: true };
    let body;
    try { body = JSON.parse(text); } catch (e) { return { due: 0, problem: true }; }
    if (!isObject(body) || body.version !== facts.version) return { due: 0, problem: true };
    let problem = false;
    const field = (name) => (Object.prototype.hasOwnProperty.call(body, name) ? body[name] : []);
    let hands = field("hands"), kept = field("kept");
    if (!Array.isArray(hands)) { problem = true; hands = []; }
    if (!Array.isArray(kept)) { problem = true; kept = []; }
    if (kept.length > facts.maxKept) problem = true;
    const wellFormed = (s) => (typeof s.isWellFormed === "function" ? s.isWellFormed() : !/\p{Cs}/u.test(s));
    hands = hands.slice(0, facts.maxKept).map((hand) => (typeof hand === "string" && hand.length <= facts.maxHand
      && hand.startsWith(facts.header) && wellFormed(hand) ? hand : null));
    const seen = new Set();
    let due = 0;
    for (const item of kept.slice(-facts.maxKept)) {
      const ok = isObject(item) && isCount(item.hand) && item.hand < hands.length && isCount(item.seat)
        && item.seat < facts.seats && isCount(item.index) && item.index < facts.maxIndex
        && isText(item.cards, facts.maxPlayed) && isCleared(cleared(item)) && hands[item.hand] !== null;
      const when = ok ? cardDue(item.card) : NaN;
      if (Number.isNaN(when)) { problem = true; continue; }
      const key = `${item.index} ${hands[item.hand]}`;
      if (seen.has(key)) { problem = true; continue; }
      seen.add(key);
      if (when <= now) due += 1;
    }
    return { due, problem };
  }

  function said(plural, count) {
    const form = plural.forms[Number(plural.formOf[Math.min(count, plural.formOf.length - 1)])];
    return form.replace("{count}", () => String(count));
  }

  // The list of what has come due, as widgets.course.review_html draws it ("" when nothing has).
  function reviewHtml(positions, drills) {
    let total = positions, missed = 0;
    for (const count of drills.values()) missed += count;
    total += missed;
    if (!total) return "";
    let items = "";
    if (positions) items += REVIEW.positionsItem.replace("{href}", () => REVIEW.href)
      .replace("{text}", () => said(REVIEW.positions, positions));
    if (missed) {
      const links = REVIEW.lessons.filter(([, kinds]) => kinds.some((kind) => drills.has(kind))).map(([, , link]) => link);
      items += REVIEW.drillsItem.replace("{text}", () => said(REVIEW.drills, missed))
        .replace("{lessons}", () => links.join(REVIEW.gap));
    }
    return REVIEW.box.replace("{total}", () => String(total)).replace("{headline}", () => said(REVIEW.headline, total))
      .replace("{items}", () => items);
  }

  function fill(badge, counts) {
    const stars = badge.querySelector("span[aria-label]");
    const tail = badge.lastChild;
    if (!stars || !tail || tail.nodeType !== Node.TEXT_NODE) return;
    stars.textContent = HOME.stars[counts[3]];
    stars.setAttribute("aria-label", HOME.labels[counts[3]]);
    tail.data = HOME.answered.replace("{count}", String(counts[0]));
  }

  function draw() {
    map.innerHTML = blank;
    const text = stored();
    const now = Date.now();
    let state = "none";
    let drills = new Map();
    if (text !== null) {
      const progress = read(text);
      if (progress === null) {
        state = "unreadable";
      } else {
        const due = dueDrills(progress.body, now);
        drills = due.found;
        if (due.partial) progress.partial = true;
        for (const item of map.querySelectorAll("li[data-lesson]")) {
          const tracks = HOME.lessons[item.dataset.lesson] || [];
          item.querySelectorAll(".qd-course-kind").forEach((badge, i) => {
            const counts = i < tracks.length ? progress.counts(tracks[i][0], tracks[i][1]) : undefined;
            if (counts) fill(badge, counts);
          });
        }
        state = progress.partial ? "partial" : "shown";
      }
    }
    const positions = duePositions(stored(REVIEW.mistakes.key), now);
    const list = map.querySelector("ol");
    const review = reviewHtml(positions.due, drills);
    if (review && list) list.insertAdjacentHTML("beforebegin", review);
    if (positions.problem && state !== "partial") map.insertAdjacentHTML("afterbegin", HOME.notes.partial);
    if (HOME.notes[state]) map.insertAdjacentHTML("afterbegin", HOME.notes[state]);
    map.dataset.qdProgress = state;
    map.dataset.qdReview = String(review ? positions.due + [...drills.values()].reduce((a, b) => a + b, 0) : 0);
  }

  function redraw() {
    try {
      draw();
    } catch (e) { // nothing foreseen throws; if something does, the map stays as drawn, with a note
      map.innerHTML = HOME.notes.unreadable + blank;
      map.dataset.qdProgress = "unreadable";
    }
  }

  // The link's parameters this page does not use, each with the note the served home page
  // gives it (tutor.teach.course.page_link; HOME.link has its notes, made by it).
  function linkNotes() {
    const link = HOME.link;
    const cut = (text) => Array.from(text).slice(0, 30).join("");
    const quoted = ([key, raw]) => `${cut(key)}=${cut(raw)}`;
    const said = (note, pair) => note.replace("{param}", () => quoted(pair));
    const pairs = Array.from(new URLSearchParams(window.location.search));
    const notes = [];
    let language = false;
    for (const pair of pairs.slice(0, link.maxParams)) {
      if (pair[0] !== "lang") notes.push(said(link.unused, pair));
      else if (language) notes.push(said(link.twice, pair));
      else if (link.languages.includes(pair[1])) language = true;
      else notes.push(said(link.language, pair));
    }
    if (pairs.length > link.maxParams) notes.push(said(link.beyond, pairs[link.maxParams]));
    const box = document.createElement("div");
    box.dataset.qd = "link-notes";
    for (const note of notes) {
      const made = document.createElement("template");
      made.innerHTML = link.note;
      const shown = made.content.firstElementChild;
      shown.textContent = note;
      box.append(shown);
    }
    if (notes.length) map.before(box);
  }

  try { linkNotes(); } catch (e) { /* the map is shown all the same */ }
  redraw();
  // Progress answered in another tab, or this page shown again by the Back button.
  window.addEventListener("storage", (event) => {
    if ([HOME.key, HOME.review.mistakes.key, null].includes(event.key)) redraw();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) redraw(); });
})();
