// What the widgets' front ends share (widgets/_common.py puts this file before each
// widget's own module): building elements, filling label templates, and the card
// picker. Nothing is fetched: no CDN, no fonts, no icons.

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
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
          h("span", { class: "qd-group-label", "aria-hidden": "true", text: card.group }));
        row = h("div", { class: "qd-cards" });
        group.append(row);
        root.append(group);
      }
      const option = h("div", {
        class: "qd-option", role: "option", "aria-selected": "false", tabindex: "-1",
        "aria-label": card.name, "data-index": i, "data-card": card.text, style: `--i:${i}`,
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
