// Front end of the class-progress widgets (widgets/classroom.py): display and input only.
// The hand-in panel reads this browser's stored progress (the lessons' drills and, in a
// store of their own, the quick checks) and the name typed, and offers
// the kernel's code to copy or download; the teacher's page sends what was pasted or
// uploaded and shows the kernel's table. Nothing is fetched. Uses h and setLang from common.js.

const PROGRESS_EVENT = "qd-tutor-progress";

function readProgress(key) {
  try { return window.localStorage.getItem(key); } catch (e) { return null; }
}

function renderHandIn({ model, el }) {
  const L = model.get("labels") || {};
  const nameId = `qd-name-${Math.random().toString(36).slice(2)}`;
  const codeId = `qd-code-${Math.random().toString(36).slice(2)}`;
  const name = h("input", { id: nameId, class: "qd-handin-name", type: "text", "data-qd": "name",
                             maxlength: model.get("max_name"), autocomplete: "name" });
  const code = h("textarea", { id: codeId, class: "qd-handin-code", "data-qd": "code", readonly: true, rows: 2,
                               spellcheck: "false" });
  const status = h("span", { class: "qd-handin-status", role: "status", "aria-live": "polite", "data-qd": "status" });
  const copy = h("button", { class: "qd-button", type: "button", "data-qd": "copy", text: L.copy });
  const download = h("button", { class: "qd-button", type: "button", "data-qd": "download", text: L.download });
  const note = h("div", { class: "qd-note", role: "note", "data-qd": "note", hidden: true });
  const root = h("section", { class: "qd-root qd-handin", "data-qd": "hand-in", "aria-label": L.title },
    h("label", { class: "qd-handin-label", for: nameId, text: L.name }), name,
    h("label", { class: "qd-handin-label", for: codeId, text: L.code }), code,
    h("div", { class: "qd-handin-actions" }, copy, download, status),
    note, h("p", { class: "qd-handin-about", text: L.about }));
  setLang(root, model.get("lang"));

  let timer = null;
  const send = () => model.send({ type: "sync", progress: readProgress(model.get("storage_key")),
                                  checks: readProgress(model.get("checks_key")), name: name.value });
  const draw = () => {
    const value = model.get("code") || "";
    code.value = value;
    root.dataset.code = value;
    copy.disabled = download.disabled = !value;
    const text = model.get("note") || "";
    note.textContent = text;
    note.hidden = !text;
  };
  name.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(send, 250); });
  copy.addEventListener("click", async () => {
    code.select();
    let done = false;
    try { await navigator.clipboard.writeText(code.value); done = true; } catch (e) {
      try { done = document.execCommand("copy"); } catch (e2) { done = false; }
    }
    status.textContent = done ? L.copied : L.copy_failed;
  });
  download.addEventListener("click", () => {
    const url = URL.createObjectURL(new Blob([`${code.value}\n`], { type: "text/plain" }));
    const link = h("a", { href: url, download: model.get("filename") || "qidong-progress.txt", hidden: true });
    root.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  const onStorage = (event) => {
    if (event.key === model.get("storage_key") || event.key === model.get("checks_key")) send();
  };
  const listeners = [["change:code", draw], ["change:note", draw]];
  listeners.forEach(([event, fn]) => model.on(event, fn));
  window.addEventListener("storage", onStorage);
  window.addEventListener(PROGRESS_EVENT, send);
  draw();
  el.append(root);
  send();
  return () => {
    clearTimeout(timer);
    listeners.forEach(([event, fn]) => model.off(event, fn));
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(PROGRESS_EVENT, send);
  };
}

function renderClass({ model, el }) {
  const L = model.get("labels") || {};
  const codesId = `qd-codes-${Math.random().toString(36).slice(2)}`;
  const filesId = `qd-files-${Math.random().toString(36).slice(2)}`;
  const codes = h("textarea", { id: codesId, class: "qd-class-codes", "data-qd": "codes", rows: 6,
                                spellcheck: "false" });
  const files = h("input", { id: filesId, type: "file", multiple: true, accept: ".txt,text/plain",
                             "data-qd": "files" });
  const show = h("button", { class: "qd-button qd-primary", type: "button", "data-qd": "show", text: L.show });
  const out = h("div", { class: "qd-class-out", "data-qd": "class", "aria-live": "polite" });
  const root = h("section", { class: "qd-root qd-class" },
    h("label", { class: "qd-handin-label", for: codesId, text: L.codes }), codes,
    h("div", { class: "qd-handin-actions" },
      h("label", { class: "qd-handin-label", for: filesId, text: L.files }), files, show),
    out);
  setLang(root, model.get("lang"));

  // Only what the kernel reads is sent: one character more than it reads says "too long".
  const cap = () => model.get("max_input") + 1;
  const send = async () => {
    const chosen = [...(files.files || [])].slice(0, model.get("max_files") + 1);
    const read = [];
    let budget = cap();
    for (const file of chosen) {
      const text = budget > 0 ? await file.slice(0, budget).text() : "";
      budget -= text.length;
      read.push({ name: file.name, text });
    }
    model.send({ type: "read", text: codes.value.slice(0, cap()), files: read });
  };
  const draw = () => {
    out.innerHTML = model.get("html") || "";
    root.dataset.read = String((Number(root.dataset.read) || 0) + 1);
  };
  show.addEventListener("click", send);
  files.addEventListener("change", send);
  model.on("change:html", draw);
  out.innerHTML = model.get("html") || "";
  el.append(root);
  return () => model.off("change:html", draw);
}

function render({ model, el }) {
  if (model.get("_view") === "hand-in") return renderHandIn({ model, el });
  return renderClass({ model, el });
}

export default { render };
