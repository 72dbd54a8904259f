// Small helpers for the transcription grid (../transcribe.js): elements, the page's words
// with their placeholders, labels, signed scores. No state, no rule.

export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (all, key) => { return values[key] === undefined ? "" : values[key]; });
}

export function el(tag, attrs, text) {
  const node = document.createElement(tag);
  Object.keys(attrs || {}).forEach((key) => { node.setAttribute(key, attrs[key]); });
  if (text !== undefined) { node.textContent = text; }
  return node;
}

// An aria-label set only when it changes: a screen reader would announce it again.
export function setLabel(node, text) {
  if (node.getAttribute("aria-label") !== text) { node.setAttribute("aria-label", text); }
}

export function signed(n) { return n > 0 ? "+" + n : n < 0 ? "−" + (-n) : "0"; }

// The grid's input for row i's cell ("entry", "inversions", "p2.tricks", "p0.score").
export function input(tx, i, cell) {
  return tx.grid.querySelector('input[data-row="' + i + '"][data-cell="' + cell + '"]');
}
