// The display's language: the one chosen on this device, else the browser's first that Borne speaks, else
// English. Its strings come from /api/strings?lang= (English wherever a translation lacks one); numbers are
// written as that language writes them (5,100 · 5 100 · 5.100), by the strings' own rule rather than the
// browser's Intl data (Chromium writes Italian 5100, the seeds and the score sheet 5.100).

export const LANGUAGE_KEY = "borne.language";

export const i18n = {
  S: {},               // the strings of the language shown
  language: "en",
  languages: { en: "English" },  // GET /api/languages: code → name in its own words
  number: { group: ",", decimal: ".", min_grouping: 1 },  // how the language writes numbers (strings' "number")
};

// The string at a dotted key, with {name} filled from vars; a value that is missing, null or undefined
// fills as nothing (never the words "null" or "undefined" on a TV).
export function t(key, vars) {
  let v = key.split(".").reduce((o, k) => (o == null ? undefined : o[k]), i18n.S);
  if (typeof v !== "string") v = key;
  return vars ? v.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? (vars[k] == null ? "" : String(vars[k])) : m)) : v;
}

// t(key), or fallback when the strings have no such key (a rule set the strings do not describe).
export function tOr(key, fallback) {
  const v = t(key);
  return v === key ? (fallback ?? "") : v;
}

// A whole number as the language writes it: group of three digits joined by number.group, once the number
// has at least 3 + number.min_grouping digits (Spanish: 5100 but 12.345). The same rule as scoring/web/i18n.py.
export function fmt(n) {
  const { group, min_grouping: minGrouping } = i18n.number;
  const value = Math.round(Number(n));
  if (!Number.isFinite(value)) return "";
  let digits = String(Math.abs(value));
  if (digits.length >= 3 + (minGrouping || 1)) digits = digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return (value < 0 ? "-" : "") + digits;
}

// A measure with one decimal, with the language's decimal mark (12.5 frames/s, 12,5 images/s).
export function fmtDecimal(x) {
  const value = Number(x);
  if (!Number.isFinite(value)) return "";
  return value.toFixed(1).replace(".", i18n.number.decimal || ".");
}

export function preferredLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(LANGUAGE_KEY); } catch (e) { /* storage refused: follow the browser */ }
  if (saved && saved in i18n.languages) return saved;
  for (const code of navigator.languages || [navigator.language]) {
    const primary = String(code || "").split("-")[0].toLowerCase();
    if (primary in i18n.languages) return primary;
  }
  return "en";
}

export async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

// Loads a language's strings and applies them to the page's fixed parts (the lang attribute, data-i18n texts).
export async function useLanguage(code) {
  const strings = await getJson(`/api/strings?lang=${encodeURIComponent(code)}`);
  i18n.S = strings;
  i18n.language = strings.language || "en";
  i18n.number = { group: ",", decimal: ".", min_grouping: 1, ...(strings.number || {}) };
  document.documentElement.lang = i18n.language;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const menu = document.getElementById("language");
  if (menu) { menu.value = i18n.language; menu.setAttribute("aria-label", t("app.language")); }
}

export async function startLanguage() {
  try { i18n.languages = await getJson("/api/languages"); } catch (e) { /* English only */ }
  await useLanguage(preferredLanguage());
}

// The language menu in the page's bar: a choice is remembered on this device and applied at once.
export function languageMenu(onChange) {
  const menu = document.createElement("select");
  menu.id = "language";
  menu.setAttribute("aria-label", t("app.language"));
  for (const [code, name] of Object.entries(i18n.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    menu.append(option);
  }
  menu.value = i18n.language;
  menu.addEventListener("change", async () => {
    try { localStorage.setItem(LANGUAGE_KEY, menu.value); } catch (e) { /* this visit only */ }
    await useLanguage(menu.value);
    onChange();
  });
  return menu;
}
