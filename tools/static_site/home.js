// The static site's home page without Python (tools/static_site/home.py). The build drew the
// course map with widgets.course.CourseMap for no progress; this script fills in each
// lesson's stars and answered counts from the progress this browser keeps, with pieces the
// build drew with CourseMap too (so every word comes from the course's catalogs). Stored
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
  const isName = (name) => name.length > 0 && name.length <= HOME.maxName && !/(?! )[\p{C}\p{Z}]/u.test(name);
  const isCounts = (value) => Array.isArray(value) && value.length === 4 && value.every(isCount)
    && value[1] <= value[0] && value[2] <= value[1] && value[3] <= HOME.maxStars;

  function stored() {
    try { return window.localStorage.getItem(HOME.key); } catch (e) { return null; }
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
    return { counts, partial };
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
    let state = "none";
    if (text !== null) {
      const progress = read(text);
      if (progress === null) {
        state = "unreadable";
      } else {
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
    if (HOME.notes[state]) map.insertAdjacentHTML("afterbegin", HOME.notes[state]);
    map.dataset.qdProgress = state;
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
  window.addEventListener("storage", (event) => { if (event.key === HOME.key || event.key === null) redraw(); });
  window.addEventListener("pageshow", (event) => { if (event.persisted) redraw(); });
})();
