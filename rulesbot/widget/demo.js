/* The demo page's English/French switch and its "score a painting" form (a file, not inline script: the page
   runs under a strict CSP). The painting is drawn by <rulesbot-painting>, which widget.js defines: the very
   picture the chat shows for painting answers. */
(function () {
  "use strict";
  var currentLang = "en";

  function setLang(lang) {
    currentLang = lang;
    document.documentElement.lang = lang; // the widget follows <html lang> when no data-lang is set
    document.querySelectorAll("[data-lang-block]").forEach(function (block) {
      block.hidden = block.getAttribute("data-lang-block") !== lang;
    });
    document.querySelectorAll("[data-set-lang]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-set-lang") === lang));
    });
    // Shared elements carry both texts, "English|Français".
    document.querySelectorAll("[data-lang-text]").forEach(function (node) {
      var texts = node.getAttribute("data-lang-text").split("|");
      node.textContent = lang === "fr" ? texts[1] : texts[0];
    });
    document.title = lang === "fr" ? "Canvas : les règles en bref · démo rulesbot" : "Canvas: rules at a glance · rulesbot demo";
  }

  function showScore(result, cards, box) {
    box.replaceChildren();
    if (result.status !== 200 || !result.data || !Array.isArray(result.data.visible)) {
      var message = result.data && result.data.error && result.data.error.message;
      var error = document.createElement("p");
      error.className = "score-error";
      error.textContent = message || (currentLang === "fr" ? "Le calcul a échoué." : "The engine could not score that.");
      box.appendChild(error);
      return;
    }
    var data = result.data;
    var picture = document.createElement("rulesbot-painting");
    box.appendChild(picture);
    picture.paint({ visible: data.visible, title: data.title, cards: cards }, currentLang);
    var ribbons = document.createElement("p");
    ribbons.className = "score-ribbons";
    var earned = Object.keys(data.ribbons || {}).filter(function (name) { return data.ribbons[name] > 0; })
      .map(function (name) { return name + " × " + data.ribbons[name]; });
    if (data.bonus) earned.push((currentLang === "fr" ? "argent (bonus)" : "silver (bonus)") + " × " + data.bonus);
    ribbons.textContent = (currentLang === "fr" ? "Rubans : " : "Ribbons: ") + (earned.join(", ") || "—");
    box.appendChild(ribbons);
  }

  function scorePainting(event) {
    event.preventDefault();
    var form = event.target;
    var cards = Array.prototype.map.call(form.querySelectorAll("input[name=card]"), function (input) {
      return input.value.trim();
    });
    var box = document.getElementById("score-result");
    fetch("/v1/score", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ cards: cards }),
      credentials: "omit",
    })
      .then(function (response) {
        return response.json().then(function (data) { return { status: response.status, data: data }; },
          function () { return { status: response.status, data: null }; });
      }, function () { return { status: 0, data: null }; })
      .then(function (result) {
        return window.customElements.whenDefined("rulesbot-painting").then(function () {
          showScore(result, cards, box);
        });
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-set-lang]").forEach(function (button) {
      button.addEventListener("click", function () { setLang(button.getAttribute("data-set-lang")); });
    });
    var form = document.getElementById("score-form");
    if (form) form.addEventListener("submit", scorePainting);
    // Start in French for French-speaking visitors; the choice is not stored (no cookies, no storage).
    if (/^fr\b/i.test(navigator.language || "")) setLang("fr");
  });
})();
