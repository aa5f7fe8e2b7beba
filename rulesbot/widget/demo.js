/* The demo page's English/French switch (a file, not inline script: the page runs under a strict CSP). */
(function () {
  "use strict";
  function setLang(lang) {
    document.documentElement.lang = lang; // the widget follows <html lang> when no data-lang is set
    document.querySelectorAll("[data-lang-block]").forEach(function (block) {
      block.hidden = block.getAttribute("data-lang-block") !== lang;
    });
    document.querySelectorAll("[data-set-lang]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-set-lang") === lang));
    });
    document.title = lang === "fr" ? "Canvas : les règles en bref · démo rulesbot" : "Canvas: rules at a glance · rulesbot demo";
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-set-lang]").forEach(function (button) {
      button.addEventListener("click", function () { setLang(button.getAttribute("data-set-lang")); });
    });
    // Start in French for French-speaking visitors; the choice is not stored (no cookies, no storage).
    if (/^fr\b/i.test(navigator.language || "")) setLang("fr");
  });
})();
