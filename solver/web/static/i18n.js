// The page's words in English and French (i18n_en.js, i18n_fr.js). t(key, values) fills {name} placeholders.

import { EN } from "./i18n_en.js";
import { FR } from "./i18n_fr.js";

const STRINGS = { en: EN, fr: FR };

let current = "en";

export function setLanguage(language) {
  current = STRINGS[language] ? language : "en";
  document.documentElement.lang = current;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
    element.title = t(element.dataset.i18nLabel);
  }
  for (const element of document.querySelectorAll("[data-i18n-alt]")) element.alt = t(element.dataset.i18nAlt);
  const switcher = document.getElementById("ui-language");
  if (switcher) switcher.value = current;
}

/** A number as the page's language writes it ("2.3" in English, "2,3" in French). */
export function number(value, digits = 1) {
  return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function language() {
  return current;
}

export function has(key) {
  return key in STRINGS[current];
}

/** t() of `key_one` when `count` takes the singular in the page's language (English: 1;
 * French: 0 and 1, "0 tuile restante") and the language has that key, else of `key` ({count} filled in). */
export function tCount(key, count, values = {}) {
  const singular = new Intl.PluralRules(current).select(count) === "one";
  return t(singular && has(`${key}_one`) ? `${key}_one` : key, { count, ...values });
}

export function t(key, values = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}
