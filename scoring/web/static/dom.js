// Building the page: elements, SVG, a passing message.

// ---------------------------------------------------------------------------- helpers

// t(), fmt() and the language menu: static/i18n.js.

// Only the nodes among xs: replaceChildren(null) would print "null" on the page.
export const nodes = (...xs) => xs.flat().filter((x) => x !== null && x !== undefined && x !== false);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v;  // through the CSSOM: the policy refuses style attributes
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// Bring the page's `old` element to look like `fresh` while keeping old's nodes where the two agree (same
// tag at the same place): a button under a finger, a focused control and a loading picture stay the same
// element. Old nodes keep their listeners, so use it only where handlers read the state when they run.
export function morph(old, fresh) {
  if (old === fresh) return;
  if (old.nodeType !== fresh.nodeType || old.nodeName !== fresh.nodeName) { old.replaceWith(fresh); return; }
  if (old.nodeType !== Node.ELEMENT_NODE) { if (old.data !== fresh.data) old.data = fresh.data; return; }
  for (const { name } of [...old.attributes]) if (name !== "style" && !fresh.hasAttribute(name)) old.removeAttribute(name);
  for (const { name, value } of [...fresh.attributes]) {
    if (name !== "style" && old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  if (old.style && old.style.cssText !== fresh.style.cssText) old.style.cssText = fresh.style.cssText;
  const was = [...old.childNodes], now = [...fresh.childNodes];
  if (was.length !== now.length) { old.replaceChildren(...now); return; }
  was.forEach((node, i) => morph(node, now[i]));
}

export const SVG_NS = "http://www.w3.org/2000/svg";
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children.flat()) if (c != null) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}
