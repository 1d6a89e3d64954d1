// Strings in Russian, Bulgarian, Uzbek and English: kozel/web/i18n/<lang>/{ui,options}.json.
export const LANGUAGES = [
  ["ru", "Русский"],
  ["bg", "Български"],
  ["uz", "Oʻzbekcha"],
  ["en", "English"],
];
const CODES = LANGUAGES.map(([code]) => code);
let strings = {};
let fallback = {};
export let lang = "en";

async function load(code) {
  const parts = await Promise.all(
    ["ui", "options"].map((part) =>
      fetch(`/i18n/${code}/${part}.json`).then((r) => (r.ok ? r.json() : {})),
    ),
  );
  return Object.assign({}, ...parts);
}

/** The saved choice, else the browser's first language we speak, else English. */
export function preferred() {
  const saved = localStorage.getItem("kozel.lang");
  if (CODES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = tag.toLowerCase().split("-")[0];
    if (CODES.includes(code)) return code;
  }
  return "en";
}

export async function setLanguage(code, save = false) {
  lang = CODES.includes(code) ? code : "en";
  if (save) localStorage.setItem("kozel.lang", lang);
  [strings, fallback] = await Promise.all([load(lang), lang === "en" ? {} : load("en")]);
  if (lang === "en") fallback = strings;
  document.documentElement.lang = lang;
}

/** The string for key in the current language, with {name} placeholders filled in. */
export function t(key, params = {}) {
  let text = strings[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

/** t() with elements among the params (a player's name marked as one): the string's pieces
 * and those elements, in order, for h() to take as children. */
export function tNodes(key, params = {}) {
  const nodes = Object.entries(params).filter(([, value]) => value instanceof Node);
  const text = t(key, Object.fromEntries(Object.entries(params).filter(([, value]) => !(value instanceof Node))));
  if (!nodes.length) return [text];
  const parts = text.split(new RegExp(`\\{(${nodes.map(([name]) => name).join("|")})\\}`));
  const byName = Object.fromEntries(nodes);
  return parts.map((part, i) => (i % 2 ? byName[part] : part)).filter((part) => part !== "");
}

/** A count in words, in the form the current language gives that number: the string of
 * `${key}.${form}` (form as Intl.PluralRules names it: one, few, many, other), else
 * `${key}.other`, with {n} filled in (and any other params). A language lists only the forms
 * its nouns take (Uzbek: other alone; Russian: one, few, many, other). */
export function plural(key, n, params = {}) {
  const form = new Intl.PluralRules(lang).select(n);
  const own = [`${key}.${form}`, `${key}.other`].find((k) => k in strings);
  const found = own ?? [`${key}.${new Intl.PluralRules("en").select(n)}`, `${key}.other`].find((k) => k in fallback) ?? `${key}.other`;
  return t(found, { n, ...params });
}

export function has(key) {
  return key in strings || key in fallback;
}

/** A refusal the club names by a code (docs/protocol.md) worded in the player's language, or
 * "" for a code this client does not know. Options in the params are shown by their labels. */
export function errorText(key, params = {}) {
  if (!has(key)) return "";
  const shown = { ...params };
  for (const name of ["option", "needs"]) {
    if (shown[name] && has(`option.${shown[name]}`)) shown[name] = t(`option.${shown[name]}`);
  }
  return t(key, shown);
}
