// The pages in the players' languages (issue 29): English, German, French, Spanish, Catalan.
// The language is the one chosen in the header's switch (kept in localStorage), else the first
// of the browser's (navigator.languages) the referee speaks, else English. The pages' own words
// come from GET /playground/messages/{language} (the catalogue service/playground/locale, whose
// ids are the English wording, as the referee's); every request to the API says the language in
// Accept-Language, so refusals, violations and pictures come back in it.
//
//   t("Round {round}", {round: 2})          a page string, worded; {named} details filled in
//   tn("{n} action", "{n} actions", n)      the same for a count (the detail n)
//   I18N.fetch(url, options)                fetch, saying the language
//   <span data-i18n>Players</span>          an element's text, worded (its English text is the id)
//   data-i18n-attrs="title placeholder"     those attributes worded too
"use strict";

const I18N = (() => {
  const LANGUAGES = ["en", "de", "fr", "es", "ca"];
  const NAMES = { en: "English", de: "Deutsch", fr: "Français", es: "Español", ca: "Català" };
  const KEY = "referee-language";
  let messages = {};
  const listeners = [];

  function stored() {
    try {
      return localStorage.getItem(KEY);
    } catch (error) {
      return null;  // storage refused (a private window's policy): the browser's language
    }
  }

  function preferred() {
    const chosen = stored();
    if (LANGUAGES.includes(chosen)) return chosen;
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const code = String(tag).slice(0, 2).toLowerCase();
      if (LANGUAGES.includes(code)) return code;
    }
    return "en";
  }

  let language = preferred();

  function format(pattern, details) {
    return pattern.replace(/\{(\w+)\}/g, (whole, name) => (name in details ? String(details[name]) : whole));
  }

  // The form of a count: French says 0 and 1 alike (CLDR), the others 1 alone.
  function one(n) {
    return language === "fr" ? n === 0 || n === 1 : n === 1;
  }

  function t(id, details = {}) {
    const found = messages[id];
    return format(typeof found === "string" && found ? found : id, details);
  }

  function tn(singular, plural, n, details = {}) {
    const found = messages[singular];
    const translated = Array.isArray(found) && found[0] && found[1];
    const singularForm = translated ? one(n) : n === 1;  // English when the catalogue lacks it
    return format(singularForm ? (translated ? found[0] : singular) : (translated ? found[1] : plural), { ...details, n });
  }

  // The page's marked elements and attributes in the language; their English is kept as the id.
  function translatePage(root = document) {
    document.documentElement.lang = language;
    for (const node of root.querySelectorAll("[data-i18n]")) {
      if (node.dataset.i18nId === undefined) node.dataset.i18nId = node.textContent.replace(/\s+/g, " ").trim();
      node.textContent = t(node.dataset.i18nId);
    }
    for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
      for (const name of node.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
        // the English of attribute aria-label kept as data-i18n-aria-label (dataset.i18nAriaLabel)
        const key = "i18n" + name.split("-").map((part) => part[0].toUpperCase() + part.slice(1)).join("");
        if (node.dataset[key] === undefined) node.dataset[key] = node.getAttribute(name) || "";
        node.setAttribute(name, t(node.dataset[key]));
      }
    }
    if (document.title && document.head.dataset.i18nTitle === undefined) {
      document.head.dataset.i18nTitle = document.title;
    }
    if (document.head.dataset.i18nTitle) document.title = t(document.head.dataset.i18nTitle);
  }

  async function load(wanted) {
    let loaded = {};
    if (wanted !== "en") {
      try {
        const response = await fetch(`/playground/messages/${wanted}`);
        if (response.ok) loaded = (await response.json()).messages || {};
      } catch (error) {
        loaded = {};  // the page in English rather than no page
      }
    }
    language = wanted;
    messages = loaded;
    translatePage();
  }

  // The header's switch: the languages by their own names; a choice is kept and said at once.
  function addSwitch() {
    const nav = document.querySelector("header nav");
    if (!nav || document.getElementById("language")) return;
    const label = document.createElement("label");
    label.className = "language";
    const text = document.createElement("span");
    text.dataset.i18n = "";
    text.textContent = "Language";
    const select = document.createElement("select");
    select.id = "language";
    for (const code of LANGUAGES) {
      const option = document.createElement("option");
      option.value = code;
      option.lang = code;
      option.textContent = NAMES[code];
      select.append(option);
    }
    select.value = language;
    select.addEventListener("change", async () => {
      try {
        localStorage.setItem(KEY, select.value);
      } catch (error) {
        // not kept: the choice holds for this page
      }
      await load(select.value);
      for (const listener of listeners) listener(language);
    });
    label.append(text, " ", select);
    nav.append(" \u00b7 ", label);
  }

  const ready = new Promise((resolve) => {
    const begin = () => {
      addSwitch();
      load(language).then(resolve, resolve);
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
    else begin();
  });

  return {
    LANGUAGES,
    get language() { return language; },
    t,
    tn,
    translatePage,
    ready,
    // fn(language) after the switch changed the language and the page's marked text
    onChange(fn) { listeners.push(fn); },
    fetch(url, options = {}) {
      const headers = new Headers(options.headers || {});
      headers.set("Accept-Language", language);
      return fetch(url, { ...options, headers });
    },
  };
})();

const t = I18N.t;
const tn = I18N.tn;
