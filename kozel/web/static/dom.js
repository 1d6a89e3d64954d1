// Tiny DOM helpers: h("div.cls", {attrs}, children...) builds elements without innerHTML.
const SVG_NS = "http://www.w3.org/2000/svg";

function build(doc, ns, tag, attrs, children) {
  // "button.primary#login": a tag name, then .classes and an #id in any order
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = ns ? doc.createElementNS(ns, name) : doc.createElement(name);
  const classes = rest.filter((x) => x[0] === ".").map((x) => x.slice(1));
  const id = rest.find((x) => x[0] === "#");
  if (classes.length) el.setAttribute("class", classes.join(" "));
  if (id) el.id = id.slice(1);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.setAttribute("class", [el.getAttribute("class"), value].filter(Boolean).join(" "));
    } else if (key === "text") {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function h(tag, attrs, ...children) {
  return build(document, null, tag, attrs, children);
}

export function s(tag, attrs, ...children) {
  return build(document, SVG_NS, tag, attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function mount(el, ...children) {
  clear(el).append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
  return el;
}
