/*
 * rulesbot widget: one script tag puts a rules chat on any page.
 *
 *   <script src="https://HOST/widget.js" data-game="canvas" data-lang="fr" async></script>
 *
 * It registers <rulesbot-chat> (Shadow DOM, so the site's CSS can't reach in and ours can't leak out),
 * adds one to the page, and talks only to the origin it was loaded from (or data-api). It works under a
 * strict Content-Security-Policy: no inline script or style, no eval, styles adopted through constructable
 * stylesheets, every piece of server text set with textContent. No cookies and no third-party requests; the
 * conversation is kept in sessionStorage (this tab only) unless data-history="off".
 *
 * Attributes (on the script tag as data-NAME, or on <rulesbot-chat> as NAME):
 *   game, lang (forces the answer language; without it the UI follows <html lang> and the answer follows
 *   the question), api (the API origin; default: where this script came from), max-chars (the server's
 *   RULESBOT_MAX_QUESTION_CHARS), rulebook-url (the site's own rulebook: page chips link to URL#page=N),
 *   history ("off": keep nothing across reloads), theme ("light", "dark" or "auto", the default).
 * Theme with CSS custom properties on the page: --rulesbot-accent, --rulesbot-bg, --rulesbot-fg,
 * --rulesbot-radius, --rulesbot-font. They are validated (a value that is not a colour, a length or a font
 * list is ignored) and the text on the accent is chosen for WCAG AA contrast.
 *
 * It also registers <rulesbot-painting>, the picture of a Canvas painting (three layered Art Cards over a
 * Background), which the demo page uses for `rulesbot score` results: element.paint(engineObject, lang).
 */
(function () {
  "use strict";

  if (!window.customElements || window.customElements.get("rulesbot-chat")) {
    return; // no web components, or the script was included twice
  }

  // document.currentScript is null for async scripts: fall back to finding our own tag.
  var SCRIPT = document.currentScript || document.querySelector('script[src*="widget.js"]');
  var SCRIPT_URL = new URL(SCRIPT ? SCRIPT.src : "/widget.js", document.baseURI);
  var SCRIPT_DATA = SCRIPT ? SCRIPT.dataset : {};
  var SVG_NS = "http://www.w3.org/2000/svg";
  var REQUEST_TIMEOUT_MS = 20000;
  // The server's default question limit (RULESBOT_MAX_QUESTION_CHARS); a site that changes it sets data-max-chars.
  var DEFAULT_MAX_CHARS = 500;
  // The counter appears once a question uses this share of the limit.
  var COUNTER_FROM = 0.8;
  // Follow-ups: how many earlier questions go with a new one (newest last), and how much history is kept.
  var CONTEXT_QUESTIONS = 5;
  var HISTORY_ENTRIES = 30;
  var HISTORY_VERSION = 1;
  // A "did you mean" chip shows at most this much of its alternative's headline.
  var ALTERNATIVE_CHARS = 80;
  // Wait this long when a 429/503 comes without a usable Retry-After.
  var DEFAULT_RETRY_SECONDS = 5;
  var MAX_RETRY_SECONDS = 600;
  // The engine's swatch colours in swatch order (engine/canvas/data/art_cards.json); a test keeps them equal.
  var SWATCH_COLOURS = ["red", "yellow", "green", "blue", "violet"];
  // How each swatch colour is painted (display only; the colour names come from the engine's data above).
  var SWATCH_FILL = { red: "#c9302c", yellow: "#e0a800", green: "#2e8b57", blue: "#2f6fbf", violet: "#7d3c98" };

  var TEXT = {
    en: {
      open: "Ask a rules question",
      close: "Close the rules assistant",
      title: "Rules assistant",
      label: "Your rules question",
      placeholder: "Ask about the rules",
      send: "Send",
      log: "Conversation",
      hello: "Ask me anything about the rules. I answer from the rulebook and show the page.",
      suggestionsLabel: "Try asking",
      suggestions: [
        "How many cards can I hold?",
        "Is the card farthest from the deck free?",
        "What painting do Chosen, Game and Truth make?",
        "How much is a grey ribbon worth?",
      ],
      thinking: "Looking it up…",
      you: "You",
      bot: "Rules assistant",
      unknown: "I don't know",
      unknownHint: "The rulebook doesn't say clearly. Check the pages below or ask differently.",
      verdictTrue: "True",
      verdictFalse: "False",
      pages: "Rulebook pages",
      page: "p.",
      pageLong: "Page",
      openPage: "Open page {n} of the rulebook",
      details: "Details",
      detailsPainting: "Details and the painting",
      alternatives: "Did you mean",
      copy: "Copy",
      copied: "Copied",
      helpful: "Helpful",
      notHelpful: "Not helpful",
      thanks: "Thanks for the feedback.",
      commentLabel: "What was wrong? (optional)",
      commentSend: "Send feedback",
      newChat: "New conversation",
      answerSaid: "Answer: ",
      retry: "Retry",
      retryIn: "You can retry in {n} s.",
      counter: "{n} / {max}",
      tooLongLive: "Your question is {n} characters long; the limit is {max}.",
      painting: "The painting",
      paintingLabel: "Painting",
      background: "Background",
      layer: "card {n}",
      bottom: "bottom",
      top: "top",
      cardsBottomToTop: "Cards, bottom to top",
      shownBy: "shown by {card}",
      icons: { hue: "hue", shape: "shape", texture: "texture", tone: "tone" },
      swatches: SWATCH_COLOURS,
      empty: "no icon",
      per: "bonus per",
      iconsLegend: "Icons",
      layersLegend: "Layers",
      tooMany: "Too many questions at once.",
      loading: "The rules assistant is still starting up.",
      badInput: "I couldn't take that question",
      network: "I can't reach the rules assistant right now. Check your connection and try again.",
      server: "Something went wrong on our side. Please try again.",
      tooLong: "Please keep questions under {n} characters.",
    },
    fr: {
      open: "Poser une question de règles",
      close: "Fermer l’assistant de règles",
      title: "Assistant de règles",
      label: "Votre question de règles",
      placeholder: "Une question de règles ?",
      send: "Envoyer",
      log: "Conversation",
      hello: "Posez-moi vos questions de règles. Je réponds d’après le livret et j’indique la page.",
      suggestionsLabel: "Essayez",
      suggestions: [
        "Combien de cartes puis-je avoir en main ?",
        "La carte la plus éloignée de la pioche est-elle gratuite ?",
        "Quel tableau donnent Chosen, Game et Truth ?",
        "Combien vaut un ruban gris ?",
      ],
      thinking: "Je cherche…",
      you: "Vous",
      bot: "Assistant de règles",
      unknown: "Je ne sais pas",
      unknownHint: "Le livret ne le dit pas clairement. Voyez les pages ci-dessous ou reformulez.",
      verdictTrue: "Vrai",
      verdictFalse: "Faux",
      pages: "Pages du livret",
      page: "p.",
      pageLong: "Page",
      openPage: "Ouvrir la page {n} du livret",
      details: "Détails",
      detailsPainting: "Détails et tableau",
      alternatives: "Vouliez-vous dire",
      copy: "Copier",
      copied: "Copié",
      helpful: "Utile",
      notHelpful: "Pas utile",
      thanks: "Merci pour votre avis.",
      commentLabel: "Qu’est-ce qui n’allait pas ? (facultatif)",
      commentSend: "Envoyer l’avis",
      newChat: "Nouvelle conversation",
      answerSaid: "Réponse : ",
      retry: "Réessayer",
      retryIn: "Vous pourrez réessayer dans {n} s.",
      counter: "{n} / {max}",
      tooLongLive: "Votre question fait {n} caractères ; la limite est de {max}.",
      painting: "Le tableau",
      paintingLabel: "Tableau",
      background: "Fond",
      layer: "carte {n}",
      bottom: "dessous",
      top: "dessus",
      cardsBottomToTop: "Cartes, de bas en haut",
      shownBy: "montré par {card}",
      icons: { hue: "teinte", shape: "forme", texture: "texture", tone: "ton" },
      swatches: ["rouge", "jaune", "vert", "bleu", "violet"],
      empty: "aucune icône",
      per: "bonus par",
      iconsLegend: "Icônes",
      layersLegend: "Couches",
      tooMany: "Trop de questions d’un coup.",
      loading: "L’assistant de règles démarre.",
      badInput: "Je n’ai pas pu prendre cette question",
      network: "Impossible de joindre l’assistant de règles. Vérifiez votre connexion et réessayez.",
      server: "Un problème est survenu de notre côté. Réessayez.",
      tooLong: "Les questions sont limitées à {n} caractères.",
    },
  };

  // Defaults per colour scheme; the page's --rulesbot-* values replace them once validated.
  var THEMES = {
    light: { accent: "#6b3fd4", bg: "#ffffff", fg: "#1f1b2d" },
    // The dark accent is light, so its text is dark (white on #a78bfa was 2.7:1).
    dark: { accent: "#a78bfa", bg: "#1c1a23", fg: "#efecf5" },
  };
  var DEFAULT_RADIUS = "14px";
  var DEFAULT_FONT = "system-ui,-apple-system,'Segoe UI',Roboto,sans-serif";

  // The host's own box: `all: initial` drops whatever the page's inheritable properties would bring in, and
  // !important inside the shadow tree beats the page's rules, !important ones included (CSS cascade: for
  // important declarations the inner context wins), so `* { position: static }` can't move it.
  var HOST_CSS = [
    ":host{all:initial!important;display:block!important;position:fixed!important;right:20px!important;",
    "bottom:20px!important;left:auto!important;top:auto!important;z-index:2147483000!important;",
    "font-size:medium!important;line-height:1.45!important;direction:ltr!important;visibility:visible!important;",
    "opacity:1!important;transform:none!important;filter:none!important;width:auto!important;height:auto!important;",
    "margin:0!important;padding:0!important;border:0!important;background:none!important;contain:none!important;",
    "pointer-events:none!important}",
    "@media (max-width:479.98px){:host{right:12px!important;bottom:12px!important}}",
    "@media print{:host{display:none!important}}",
  ].join("\n");

  var WIDGET_CSS = [
    ".rb{pointer-events:auto;font-family:var(--_font);font-size:.9375em;line-height:1.45;color:var(--_fg);",
    "display:flex;flex-direction:column;align-items:flex-end;text-align:start;letter-spacing:normal;word-spacing:normal;",
    "text-transform:none;font-style:normal;font-weight:400;white-space:normal}",
    ".rb.dark{color-scheme:dark}.rb.light{color-scheme:light}",
    "*,*::before,*::after{box-sizing:border-box}",
    "[hidden]{display:none!important}",
    ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}",
    "button,input,textarea{font:inherit;color:inherit;letter-spacing:inherit}",
    "button{cursor:pointer}",
    ":focus-visible{outline:.2em solid var(--_ring);outline-offset:2px}",
    ".launcher{display:flex;align-items:center;justify-content:center;width:3.85em;height:3.85em;border-radius:50%;",
    "border:none;background:var(--_accent);color:var(--_on-accent);box-shadow:0 6px 20px rgba(0,0,0,.25)}",
    ".launcher:hover{filter:brightness(1.08)}",
    ".launcher svg{width:1.85em;height:1.85em;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
    ".panel{display:flex;flex-direction:column;width:min(25.5em,calc(100vw - 40px));height:min(38em,calc(100vh - 110px));",
    "margin-bottom:.8em;background:var(--_bg);color:var(--_fg);border:1px solid var(--_line);border-radius:var(--_radius);",
    "box-shadow:0 12px 40px rgba(0,0,0,.28);overflow:hidden}",
    ".head{display:flex;align-items:center;gap:.4em;padding:.6em .6em .6em 1em;background:var(--_accent);color:var(--_on-accent)}",
    ".head h2{flex:1;margin:0;font-size:1.07em;font-weight:650;line-height:1.3}",
    ".head button{border:none;background:transparent;color:inherit;line-height:1;min-width:2.3em;height:2.3em;border-radius:.5em;padding:0 .4em}",
    ".head .close{font-size:1.45em;min-width:1.6em;height:1.6em}",
    ".head button:hover{background:color-mix(in srgb,currentColor 16%,transparent)}",
    ".head svg{width:1.25em;height:1.25em;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;vertical-align:middle}",
    ".head :focus-visible{outline-color:var(--_on-accent)}",
    ".log{position:relative;flex:1;overflow-y:auto;padding:.9em;display:flex;flex-direction:column;gap:.65em;overscroll-behavior:contain}",
    ".log:focus-visible{outline-offset:-3px}",
    ".msg{max-width:92%;padding:.65em .8em;border-radius:var(--_radius);overflow-wrap:anywhere}",
    ".msg p{margin:0}",
    ".msg p+p{margin-top:.45em}",
    ".user{align-self:flex-end;background:var(--_accent);color:var(--_on-accent);border-bottom-right-radius:4px;white-space:pre-wrap}",
    ".bot{align-self:flex-start;background:var(--_soft);border:1px solid var(--_line);border-bottom-left-radius:4px}",
    ".bot.pending{color:var(--_muted);font-style:italic}",
    ".bot.unknown{background:var(--_bg);border:1px dashed var(--_muted)}",
    ".bot.error{background:var(--_error-bg);border-color:var(--_error-line)}",
    ".hello{white-space:normal}",
    ".suggestions{display:flex;flex-direction:column;align-items:flex-start;gap:.4em;margin:.7em 0 0}",
    ".suggestions .label{margin:0}",
    ".suggestion{text-align:start;padding:.4em .75em;border-radius:999px;border:1px solid var(--_accent-line);background:var(--_bg);color:var(--_fg);font-size:.93em}",
    ".suggestion:hover,.chip:hover,.alt:hover{background:var(--_soft)}",
    ".label{display:block;font-size:.8em;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--_muted);margin-bottom:.3em}",
    ".headline{font-weight:600}",
    ".badge{display:inline-block;margin:0 .45em 0 0;padding:.05em .65em;border-radius:999px;font-size:.87em;font-weight:700;color:#fff;vertical-align:.05em}",
    ".badge.true{background:#1e7d3c}.badge.false{background:#b3261e}",
    "details{margin:.5em 0 0}",
    "summary{cursor:pointer;color:var(--_link);font-weight:600;font-size:.93em;width:max-content;max-width:100%;border-radius:.3em}",
    "details[open] summary{margin-bottom:.35em}",
    ".rest{white-space:pre-wrap}",
    ".chips{display:flex;flex-wrap:wrap;gap:.4em;margin:.55em 0 0;padding:0;list-style:none}",
    ".chip,.alt{padding:.1em .65em;min-height:1.9em;border-radius:999px;border:1px solid var(--_accent-line);color:var(--_fg);font-size:.87em;background:var(--_bg)}",
    ".chip[aria-expanded=true],.alt[aria-expanded=true]{background:var(--_accent);color:var(--_on-accent);border-color:var(--_accent)}",
    ".passage{margin:.5em 0 0;padding:.55em .7em;border-left:3px solid var(--_accent-line);background:var(--_bg);border-radius:0 .5em .5em 0;font-size:.93em}",
    ".passage h3{margin:0 0 .2em;font-size:1em;font-weight:650}",
    ".passage .where{color:var(--_muted);font-size:.93em;margin:0 0 .2em}",
    ".passage blockquote{margin:0}",
    ".passage a{color:var(--_link);display:inline-block;margin-top:.3em}",
    ".alts{margin:.6em 0 0}",
    ".alts .label{margin-bottom:.25em}",
    ".alt-answer{margin:.45em 0 0;padding:.55em .7em;border:1px solid var(--_line);border-radius:.6em;background:var(--_bg)}",
    ".actions{display:flex;flex-wrap:wrap;align-items:center;gap:.3em;margin:.55em 0 0}",
    ".act{display:inline-flex;align-items:center;gap:.3em;min-width:2.2em;min-height:2.2em;padding:.2em .5em;border-radius:.5em;border:1px solid transparent;background:transparent;color:var(--_muted);font-size:.87em}",
    ".act:hover{border-color:var(--_line);color:var(--_fg)}",
    ".act[aria-pressed=true]{color:var(--_fg);border-color:var(--_accent-line);background:var(--_bg)}",
    ".act svg{width:1.2em;height:1.2em;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
    ".thanks{font-size:.87em;color:var(--_muted)}",
    ".comment{display:flex;gap:.4em;width:100%;margin-top:.3em}",
    ".comment input{flex:1;min-width:0;padding:.35em .55em;border:1px solid var(--_field-line);border-radius:.5em;background:var(--_bg);font-size:max(16px,1em)}",
    ".comment button,.retry{padding:.35em .8em;border:none;border-radius:.5em;background:var(--_accent);color:var(--_on-accent);font-weight:650}",
    ".retry{margin-top:.5em}",
    ".retry:disabled{opacity:.6;cursor:not-allowed}",
    ".countdown{display:block;margin-top:.3em;font-variant-numeric:tabular-nums}",
    ".composer{display:flex;align-items:flex-end;gap:.5em;padding:.6em;border-top:1px solid var(--_line);flex-wrap:wrap}",
    ".field{flex:1;min-width:0;display:flex;flex-direction:column}",
    // 16 px at least: iOS zooms into any smaller field. 1em of the host (the user's default size) otherwise.
    ".composer textarea{display:block;width:100%;resize:none;max-height:8em;padding:.55em .7em;border:1px solid var(--_field-line);",
    "border-radius:calc(var(--_radius) * .6);background:var(--_bg);font-size:max(16px,calc(1em / .9375));line-height:1.35}",
    ".composer textarea::placeholder{color:var(--_muted);opacity:1}",
    ".counter{align-self:flex-end;font-size:.8em;color:var(--_muted);margin-top:.2em;font-variant-numeric:tabular-nums}",
    ".counter.over{color:var(--_error-ink);font-weight:700}",
    ".send{padding:.6em .95em;border:none;border-radius:calc(var(--_radius) * .6);background:var(--_accent);color:var(--_on-accent);font-weight:650}",
    ".send:disabled{opacity:.6;cursor:progress}",
    "@media (prefers-reduced-motion:no-preference){.panel{animation:rb-in .16s ease-out}.log{scroll-behavior:smooth}}",
    "@keyframes rb-in{from{opacity:0;transform:translateY(8px)}to{opacity:1;transform:none}}",
    // Phones: the chat takes the whole screen (dynamic viewport height, clear of notches and home bars).
    "@media (max-width:479.98px){",
    ".panel{position:fixed;inset:0;width:100%;height:100vh;height:100dvh;max-height:none;margin:0;border-radius:0;border:none;",
    "padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)}",
    ".rb.open .launcher{display:none}",
    ".msg{max-width:100%}}",
    // Windows high contrast and other forced palettes: keep every boundary visible with system colours.
    "@media (forced-colors:active){",
    ".launcher,.send,.retry,.comment button,.chip,.alt,.suggestion,.act,.badge,.msg,.panel,.head{border:1px solid CanvasText}",
    ".chip[aria-expanded=true],.alt[aria-expanded=true],.act[aria-pressed=true]{background:Highlight;color:HighlightText;forced-color-adjust:none}",
    ":focus-visible{outline-color:Highlight}}",
  ].join("\n");

  // The painting picture: its own element and sheet, so the demo page draws the very same thing.
  var PAINTING_CSS = [
    ":host{display:block}",
    "*,*::before,*::after{box-sizing:border-box}",
    "figure{margin:.6em 0 0}",
    "figcaption{font-size:.93em;font-weight:600;margin-bottom:.35em}",
    "svg.picture{display:block;width:100%;height:auto;max-width:26em;border-radius:.5em}",
    ".paper{fill:#efe6d2;stroke:#6f6552;stroke-width:1.5}",
    ".paper-grain{stroke:#d8ccb2;stroke-width:1}",
    ".stripe{stroke:rgba(0,0,0,.35);stroke-width:1}",
    ".hatch{stroke:rgba(255,255,255,.55);stroke-width:3}",
    ".cell{stroke:#6f6552;stroke-width:1}",
    ".cell.none{fill:#f7f2e6}",
    ".red{fill:#c9302c}.yellow{fill:#e0a800}.green{fill:#2e8b57}.blue{fill:#2f6fbf}.violet{fill:#7d3c98}",
    ".disc{fill:#ffffff;stroke:#1f1b2d;stroke-width:1.5}",
    ".disc.bonus{stroke-dasharray:3 2;stroke-width:2}",
    ".glyph{fill:none;stroke:#1f1b2d;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
    ".glyph .solid{fill:#1f1b2d}",
    ".tag{fill:#ffffff;stroke:#1f1b2d;stroke-width:1.2}",
    ".tag-text{fill:#1f1b2d;font:700 12px system-ui,sans-serif}",
    ".cell-text{fill:#1f1b2d;font:600 10px system-ui,sans-serif}",
    ".cell-text.light{fill:#ffffff}",
    ".legend{display:flex;flex-wrap:wrap;gap:.3em 1.2em;margin:.45em 0 0;padding:0;font-size:.87em}",
    ".legend h4{flex-basis:100%;margin:.2em 0 0;font-size:.93em;font-weight:650}",
    ".legend ul{display:contents}",
    ".legend li{display:flex;align-items:center;gap:.35em;list-style:none;min-height:1.8em}",
    ".legend svg{width:1.7em;height:1.7em;flex:none}",
    ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}",
    "@media (forced-colors:active){",
    ".paper,.cell,.cell.none,.tag,.disc,.red,.yellow,.green,.blue,.violet{fill:Canvas;stroke:CanvasText}",
    ".stripe{fill:Canvas;stroke:CanvasText;stroke-width:2}",
    ".hatch,.paper-grain{stroke:CanvasText}",
    ".glyph{stroke:CanvasText}.glyph .solid{fill:CanvasText}",
    ".tag-text,.cell-text,.cell-text.light{fill:CanvasText}}",
  ].join("\n");

  var sheets = {};

  function sheetFor(css) {
    if (!sheets[css]) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      sheets[css] = sheet;
    }
    return sheets[css];
  }

  function adoptStyles(root, cssList) {
    // Constructable stylesheets are CSSOM, which CSP's style-src does not block (a <style> element would be).
    if ("adoptedStyleSheets" in root && typeof CSSStyleSheet === "function") {
      try {
        root.adoptedStyleSheets = cssList.map(sheetFor);
        return true;
      } catch (ignored) {
        // fall through: older engines without constructable stylesheets
      }
    }
    cssList.forEach(function (css) {
      var style = document.createElement("style");
      style.textContent = css;
      root.appendChild(style);
    });
    return false;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function button(className, text) {
    var node = el("button", className, text);
    node.type = "button";
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (name) {
      node.setAttribute(name, attrs[name]);
    });
    return node;
  }

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, function (whole, key) {
      return key in values ? String(values[key]) : whole;
    });
  }

  function glyph(kind, parent, x, y, size) {
    // One glyph per Element, drawn in a 24-unit box: hue (drop), shape (triangle), texture (waves), tone (half square).
    var group = svg("g", { class: "glyph", transform: "translate(" + x + " " + y + ") scale(" + size / 24 + ")" });
    if (kind === "hue") {
      group.appendChild(svg("path", { d: "M12 3c4 5 6 8 6 11a6 6 0 0 1-12 0c0-3 2-6 6-11z" }));
    } else if (kind === "shape") {
      group.appendChild(svg("path", { d: "M12 4l8 15H4z" }));
    } else if (kind === "texture") {
      group.appendChild(svg("path", { d: "M3 8c3-3 6 3 9 0s6 3 9 0M3 16c3-3 6 3 9 0s6 3 9 0" }));
    } else if (kind === "tone") {
      group.appendChild(svg("rect", { x: "4", y: "4", width: "16", height: "16", rx: "2" }));
      group.appendChild(svg("path", { d: "M4 20L20 4v16z", class: "solid" }));
    } else {
      group.appendChild(svg("circle", { cx: "12", cy: "12", r: "7" }));
    }
    parent.appendChild(group);
    return group;
  }

  function lineIcon(paths) {
    var root = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
    paths.forEach(function (d) {
      root.appendChild(svg("path", { d: d }));
    });
    return root;
  }

  var ICONS = {
    chat: ["M4 5h16v11H9l-5 4z", "M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.4", "M12 14.6v.1"],
    up: ["M7 11v9H4v-9z", "M7 11l4-7c1.5 0 2.5 1 2.2 2.6L12.6 10H18a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 16.8 20H7"],
    down: ["M7 13V4H4v9z", "M7 13l4 7c1.5 0 2.5-1 2.2-2.6L12.6 14H18a2 2 0 0 0 2-2.3l-1.2-6A2 2 0 0 0 16.8 4H7"],
    copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
    fresh: ["M12 5v14", "M5 12h14"],
  };

  function pickLang(value) {
    var lang = String(value || "").toLowerCase();
    return lang.indexOf("fr") === 0 ? "fr" : "en";
  }

  // ------------------------------------------------------------------------------------------ answers

  // Abbreviations a sentence does not end at ("p. 3", "e.g. this", "ex. ceci").
  var NOT_AN_END = /(?:^|[\s(])(?:p|pp|e\.g|i\.e|ex|cf|vs|etc|n°|no)\.$/i;
  var VERDICT_PREFIX = /^\s*(?:true|false|vrai|faux)\s*[:,.—–-]\s*/i;
  // An "I don't know" answer opens with those words; its label already says them.
  var UNKNOWN_PREFIX = /^\s*(?:i\s+don[’']?t\s+know|i\s+do\s+not\s+know|je\s+ne\s+sais\s+pas)\s*[:,.—–-]\s*/i;

  function firstSentence(text) {
    // The first sentence and the rest: a stop followed by space and a capital (or an opening quote/bracket).
    var pattern = /[.!?…](?=\s+["«“(]?[A-ZÀ-ÖØ-ÞŒ])/g;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      var head = text.slice(0, match.index + 1);
      if (!NOT_AN_END.test(head)) return [head.trim(), text.slice(match.index + 1).trim()];
    }
    return [text.trim(), ""];
  }

  function shorten(text, limit) {
    // At a word boundary, with an ellipsis: a chip is a label, the full text is one click away.
    if (text.length <= limit) return text;
    var cut = text.slice(0, limit);
    var space = cut.lastIndexOf(" ");
    return (space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "") + "…";
  }

  function capitalise(text) {
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  }

  function splitAnswer(answer) {
    // {headline, rest}: the API's headline when it sends one, else the first sentence (verdict prefix dropped).
    var text = typeof answer.answer === "string" ? answer.answer : "";
    var claim = answer.kind === "claim" && typeof answer.verdict === "boolean";
    if (typeof answer.headline === "string" && answer.headline.trim()) {
      var given = answer.headline.trim();
      // The details hold the rest of the answer: the headline's own sentence is not said twice.
      var rest = text.trim();
      var at = rest.indexOf(given);
      if (at >= 0) rest = (rest.slice(0, at) + " " + rest.slice(at + given.length)).replace(/\s+/g, " ").trim();
      if (claim) given = capitalise(given.replace(VERDICT_PREFIX, ""));
      return { headline: given, rest: rest };
    }
    var parts = firstSentence(text);
    var headline = parts[0];
    if (claim) headline = capitalise(headline.replace(VERDICT_PREFIX, ""));
    if (answer.kind === "unknown") headline = capitalise(headline.replace(UNKNOWN_PREFIX, ""));
    var points = answer.engine && answer.engine.points;
    if (answer.kind === "computed" && Number.isInteger(points)) {
      // A computed score: the sentence that gives the number is the headline, wherever it sits.
      var all = sentences(text);
      var number = new RegExp("(^|[^\\d])" + points + "\\s+points?\\b", "i");
      for (var index = 0; index < all.length; index++) {
        if (number.test(all[index])) {
          return { headline: all[index], rest: all.slice(0, index).concat(all.slice(index + 1)).join(" ") };
        }
      }
    }
    return { headline: headline, rest: parts[1] };
  }

  function sentences(text) {
    var out = [];
    var rest = text;
    while (rest) {
      var parts = firstSentence(rest);
      out.push(parts[0]);
      rest = parts[1];
    }
    return out;
  }

  function citationPages(citations) {
    // {page: [citation, ...]}, pages sorted.
    var byPage = {};
    (Array.isArray(citations) ? citations : []).forEach(function (citation) {
      if (!citation || !Number.isInteger(citation.page)) return;
      (byPage[citation.page] = byPage[citation.page] || []).push(citation);
    });
    return Object.keys(byPage)
      .map(Number)
      .sort(function (a, b) { return a - b; })
      .map(function (page) { return { page: page, citations: byPage[page] }; });
  }

  function retryAfterSeconds(header) {
    // Retry-After is seconds or an HTTP date (RFC 9110); clamp to something a person would wait for.
    if (!header) return DEFAULT_RETRY_SECONDS;
    var seconds = /^\s*\d+\s*$/.test(header) ? parseInt(header, 10) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
    if (!isFinite(seconds) || seconds < 1) return 1;
    return Math.min(seconds, MAX_RETRY_SECONDS);
  }

  // --------------------------------------------------------------------------------------------- theme

  var colourContext = null;

  function parseColour(value) {
    // [r, g, b] for an opaque CSS colour, or null (not a colour, or see-through: contrast can't be known).
    value = String(value || "").trim();
    if (!value || value.length > 200 || !(window.CSS && CSS.supports("color", value)) || /var\(|currentcolor/i.test(value)) {
      return null;
    }
    if (!colourContext) colourContext = document.createElement("canvas").getContext("2d");
    if (!colourContext) return null;
    colourContext.fillStyle = "#010203";
    colourContext.fillStyle = value;
    var normal = String(colourContext.fillStyle);
    var hex = /^#([0-9a-f]{6})$/i.exec(normal);
    if (hex) {
      var number = parseInt(hex[1], 16);
      return [(number >> 16) & 255, (number >> 8) & 255, number & 255];
    }
    return null; // rgba(...) with alpha below 1
  }

  function luminance(rgb) {
    var channels = rgb.map(function (channel) {
      var c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
  }

  function contrast(a, b) {
    var la = luminance(a);
    var lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  function mix(a, b, share) {
    // share of a, the rest of b
    return a.map(function (channel, index) { return Math.round(channel * share + b[index] * (1 - share)); });
  }

  function toward(colour, target, against, ratio) {
    // colour moved toward target until it reaches `ratio` against `against` (WCAG AA needs 4.5 for text).
    for (var share = 1; share >= 0; share -= 0.05) {
      var candidate = mix(colour, target, share);
      if (contrast(candidate, against) >= ratio) return candidate;
    }
    return target;
  }

  function css(rgb) {
    return "rgb(" + rgb.join(", ") + ")";
  }

  var WHITE = [255, 255, 255];
  var INK = [20, 18, 28];
  var ERROR = [217, 48, 37];

  function palette(scheme, page) {
    // Every colour the widget paints, as rgb(), each text colour at least 4.5:1 on what it sits on.
    var base = THEMES[scheme];
    var bg = parseColour(page.bg) || parseColour(base.bg);
    var fg = parseColour(page.fg);
    if (!fg || contrast(fg, bg) < 4.5) fg = parseColour(base.fg);
    if (contrast(fg, bg) < 4.5) fg = contrast(WHITE, bg) > contrast(INK, bg) ? WHITE : INK;
    var accent = parseColour(page.accent) || parseColour(base.accent);
    var onAccent = contrast(WHITE, accent) >= contrast(INK, accent) ? WHITE : INK;
    if (contrast(onAccent, accent) < 4.5) {
      // A mid-tone accent: darken (or lighten) it until its text reads.
      accent = toward(accent, onAccent === WHITE ? INK : WHITE, onAccent, 4.5);
    }
    var soft = mix(accent, bg, 0.1);
    var muted = toward(mix(fg, bg, 0.62), fg, soft, 4.5);
    var link = toward(accent, fg, soft, 4.5);
    return {
      "--_accent": css(accent),
      "--_on-accent": css(onAccent),
      "--_bg": css(bg),
      "--_fg": css(fg),
      "--_soft": css(soft),
      "--_muted": css(muted),
      "--_link": css(link),
      "--_line": css(mix(fg, bg, 0.16)),
      "--_field-line": css(toward(mix(fg, bg, 0.4), fg, bg, 3)),
      "--_accent-line": css(toward(accent, fg, bg, 3)),
      "--_ring": css(toward(accent, fg, bg, 3)),
      "--_error-bg": css(mix(ERROR, bg, 0.12)),
      "--_error-line": css(mix(ERROR, bg, 0.5)),
      "--_error-ink": css(toward(ERROR, fg, bg, 4.5)),
    };
  }

  function validLength(value) {
    value = String(value || "").trim();
    return value && value.length < 40 && window.CSS && CSS.supports("border-radius", value) && !/var\(/i.test(value)
      ? value : null;
  }

  function validFont(value) {
    value = String(value || "").trim();
    return value && value.length < 300 && window.CSS && CSS.supports("font-family", value) && !/var\(|url\(/i.test(value)
      ? value : null;
  }

  // ------------------------------------------------------------------------------------------ painting

  var paintingCount = 0;

  function iconName(name, t) {
    var bonus = name.indexOf("per-") === 0;
    var kind = bonus ? name.slice(4) : name;
    var spoken = t.icons[kind] || kind;
    return bonus ? t.per + " " + spoken : spoken;
  }

  function layerPattern(defs, id, layer) {
    // Card 1 (bottom) is plain, card 2 has diagonal hatching, card 3 (top) cross-hatching: the layer reads
    // without colour (forced colours, colour blindness).
    var pattern = svg("pattern", { id: id, width: "10", height: "10", patternUnits: "userSpaceOnUse" });
    if (layer >= 1) pattern.appendChild(svg("path", { class: "hatch", d: "M-2 12L12 -2" }));
    if (layer >= 2) pattern.appendChild(svg("path", { class: "hatch", d: "M-2 -2L12 12" }));
    defs.appendChild(pattern);
  }

  function drawStripe(parent, x, y, width, height, colour, layer, patternId) {
    parent.appendChild(svg("rect", { class: "stripe " + colour, x: x, y: y, width: width, height: height, rx: "3" }));
    if (layer > 0) {
      parent.appendChild(svg("rect", { x: x, y: y, width: width, height: height, rx: "3", fill: "url(#" + patternId + ")" }));
    }
  }

  function drawIcon(parent, name, cx, cy, radius) {
    var bonus = name.indexOf("per-") === 0;
    var kind = bonus ? name.slice(4) : name;
    var group = svg("g", { "data-icon": name });
    group.appendChild(svg("circle", { class: bonus ? "disc bonus" : "disc", cx: cx, cy: cy, r: radius }));
    glyph(kind, group, cx - radius * 0.68, cy - radius * 0.68, radius * 1.36);
    parent.appendChild(group);
  }

  function paintingFigure(data, t) {
    // The Background, each Art Card's visible stripe where it lies (marked with its layer), the icons in the
    // swatch row, and a legend. `shown_by` says which card shows each swatch (computed answers); a `score`
    // result has only `visible`, so its stripes carry no layer.
    var visible = data.visible;
    var cards = Array.isArray(data.cards) ? data.cards.map(String) : [];
    var shownBy = Array.isArray(data.shown_by) ? data.shown_by : [];
    var id = "rb-paint-" + ++paintingCount;
    var figure = el("figure", "painting");
    figure.setAttribute("data-painting", "");
    var separator = t === TEXT.fr ? " : " : ": "; // French typography puts a space before the colon
    var caption = el("figcaption", null, data.title ? t.painting + separator + data.title : t.painting);
    var width = 320;
    var height = 206;
    var column = 60;
    var left = 10;
    var picture = svg("svg", {
      class: "picture", viewBox: "0 0 " + width + " " + height, "aria-hidden": "true", focusable: "false",
    });
    var defs = svg("defs");
    picture.appendChild(defs);
    [0, 1, 2].forEach(function (layer) { layerPattern(defs, id + "-layer" + layer, layer); });
    // The Background card, with a faint canvas grain.
    picture.appendChild(svg("rect", { class: "paper", x: "1", y: "1", width: width - 2, height: height - 2, rx: "10" }));
    for (var grain = 18; grain < 146; grain += 16) {
      picture.appendChild(svg("path", { class: "paper-grain", d: "M12 " + grain + "H" + (width - 12) }));
    }
    var layersUsed = {};
    var items = [];
    visible.forEach(function (icons, index) {
      icons = Array.isArray(icons) ? icons.map(String) : [];
      var colour = SWATCH_COLOURS[index];
      var x = left + index * column;
      var shower = shownBy[index];
      var layer = shower === null || shower === undefined ? -1 : cards.indexOf(String(shower));
      var swatch = svg("g", { "data-swatch": colour, "data-layer": layer >= 0 ? String(layer + 1) : "" });
      if (icons.length) {
        // The stripe of the card that shows this swatch runs up the painting and covers what lies beneath.
        drawStripe(swatch, x + 3, 8, column - 6, 140, colour, layer, id + "-layer" + Math.max(layer, 0));
        if (layer >= 0) {
          layersUsed[layer] = true;
          swatch.appendChild(svg("circle", { class: "tag", cx: x + column / 2, cy: 24, r: "10" }));
          var number = svg("text", { class: "tag-text", x: x + column / 2, y: 28.5, "text-anchor": "middle" });
          number.textContent = String(layer + 1);
          swatch.appendChild(number);
        }
      }
      // The swatch row along the bottom edge: the colour, its visible icons, its name.
      swatch.appendChild(svg("rect", {
        class: icons.length ? "cell " + colour : "cell none", x: x + 3, y: 152, width: column - 6, height: 48, rx: "5",
      }));
      var radius = icons.length > 2 ? 8 : 11;
      var step = radius * 2 + 3;
      var start = x + column / 2 - ((icons.length - 1) * step) / 2;
      icons.forEach(function (name, position) {
        drawIcon(swatch, name, start + position * step, 169, radius);
      });
      var label = svg("text", {
        class: icons.length && colour !== "yellow" ? "cell-text light" : "cell-text",
        x: x + column / 2, y: 194, "text-anchor": "middle",
      });
      label.textContent = t.swatches[index];
      swatch.appendChild(label);
      picture.appendChild(swatch);
      var spoken = icons.map(function (name) { return iconName(name, t); });
      var item = t.swatches[index] + ": " + (spoken.length ? spoken.join(", ") : t.empty);
      if (layer >= 0) item += " (" + fill(t.shownBy, { card: cards[layer] }) + ")";
      items.push(item);
    });
    // Screen readers get each swatch as text; the picture itself is decoration for them.
    var list = el("ul", "sr-only");
    items.forEach(function (item) { list.appendChild(el("li", null, item)); });
    figure.append(caption, picture, list, legend(visible, cards, layersUsed, id, t));
    return figure;
  }

  function legend(visible, cards, layersUsed, id, t) {
    var box = el("div", "legend");
    box.setAttribute("aria-hidden", "true"); // the list above says it all to screen readers
    if (cards.length) {
      var anyLayer = Object.keys(layersUsed).length > 0;
      box.appendChild(el("h4", null, anyLayer ? t.layersLegend : t.cardsBottomToTop));
      var layers = el("ul");
      var background = el("li");
      var sample = svg("svg", { viewBox: "0 0 24 24" });
      sample.appendChild(svg("rect", { class: "paper", x: "2", y: "2", width: "20", height: "20", rx: "3" }));
      background.append(sample, el("span", null, t.background));
      if (anyLayer) layers.appendChild(background);
      cards.forEach(function (name, layer) {
        var entry = el("li");
        entry.setAttribute("data-layer", String(layer + 1));
        var where = layer === 0 ? " (" + t.bottom + ")" : layer === cards.length - 1 ? " (" + t.top + ")" : "";
        if (anyLayer) {
          var swatchSample = svg("svg", { viewBox: "0 0 24 24" });
          var patternId = id + "-legend" + layer;
          var defs = svg("defs");
          layerPattern(defs, patternId, layer);
          swatchSample.appendChild(defs);
          drawStripe(swatchSample, 2, 2, 20, 20, "violet", layer, patternId);
          swatchSample.appendChild(svg("circle", { class: "tag", cx: "12", cy: "12", r: "7" }));
          var digit = svg("text", { class: "tag-text", x: "12", y: "16", "text-anchor": "middle" });
          digit.textContent = String(layer + 1);
          swatchSample.appendChild(digit);
          entry.appendChild(swatchSample);
        }
        entry.appendChild(el("span", null, (anyLayer ? layer + 1 + " · " : "") + name + where));
        layers.appendChild(entry);
      });
      box.appendChild(layers);
    }
    var seen = [];
    visible.forEach(function (icons) {
      (Array.isArray(icons) ? icons : []).forEach(function (name) {
        if (seen.indexOf(String(name)) < 0) seen.push(String(name));
      });
    });
    if (seen.length) {
      box.appendChild(el("h4", null, t.iconsLegend));
      var icons = el("ul");
      seen.forEach(function (name) {
        var entry = el("li");
        entry.setAttribute("data-legend-icon", name);
        var sample = svg("svg", { viewBox: "0 0 24 24" });
        drawIcon(sample, name, 12, 12, 10);
        entry.append(sample, el("span", null, iconName(name, t)));
        icons.appendChild(entry);
      });
      box.appendChild(icons);
    }
    return box;
  }

  function isPainting(engine) {
    return !!engine && Array.isArray(engine.visible) && engine.visible.length === SWATCH_COLOURS.length;
  }

  class RulesbotPainting extends HTMLElement {
    constructor() {
      super();
      this._root = this.attachShadow({ mode: "open" });
      adoptStyles(this._root, [PAINTING_CSS]);
    }

    /** Draw a painting: {visible, cards?, shown_by?, title?} (a computed answer's engine object or a score result). */
    paint(data, lang) {
      var root = this._root;
      Array.prototype.slice.call(root.childNodes).forEach(function (node) {
        if (node.nodeName !== "STYLE") node.remove();
      });
      if (!isPainting(data)) return;
      root.appendChild(paintingFigure(data, TEXT[pickLang(lang)]));
    }
  }

  window.customElements.define("rulesbot-painting", RulesbotPainting);

  // ------------------------------------------------------------------------------------------ the chat

  class RulesbotChat extends HTMLElement {
    constructor() {
      super();
      this._root = this.attachShadow({ mode: "open" });
      this._built = false;
      this._pending = false;
      this._waitUntil = 0;
      this._entries = [];
      this._contextAllowed = true;
      this._feedbackAllowed = true;
      this._onKeydown = this._onKeydown.bind(this);
    }

    _setting(name) {
      var own = this.getAttribute(name);
      if (own !== null) return own;
      var key = name.replace(/-([a-z])/g, function (whole, letter) { return letter.toUpperCase(); });
      return SCRIPT_DATA[key];
    }

    connectedCallback() {
      if (this._built) return;
      this._built = true;
      var theme = String(this._setting("theme") || "auto").toLowerCase();
      this._config = {
        api: (this._setting("api") || SCRIPT_URL.origin).replace(/\/+$/, ""),
        game: this._setting("game") || "",
        lang: this._setting("lang") || "",
        maxChars: parseInt(this._setting("max-chars"), 10) || DEFAULT_MAX_CHARS,
        rulebookUrl: this._rulebookUrl(this._setting("rulebook-url")),
        history: String(this._setting("history") || "on").toLowerCase() !== "off",
        theme: theme === "light" || theme === "dark" ? theme : "auto",
      };
      this._themeSheet = typeof CSSStyleSheet === "function" ? new CSSStyleSheet() : null;
      var constructable = adoptStyles(this._root, [HOST_CSS, WIDGET_CSS]);
      if (constructable && this._themeSheet) {
        this._root.adoptedStyleSheets = this._root.adoptedStyleSheets.concat([this._themeSheet]);
      }
      this._build();
      this._applyTheme();
      this._applyText();
      this._restore();
      var self = this;
      if (document.readyState !== "complete") {
        // An async script can run before the page's stylesheets have loaded: read the theme again once they have.
        window.addEventListener("load", function () { self._applyTheme(); }, { once: true });
      }
      if (window.matchMedia) {
        this._darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
        this._onScheme = function () { self._applyTheme(); };
        this._darkQuery.addEventListener("change", this._onScheme);
      }
      if (!this._config.lang) {
        // Follow the page's language (e.g. a site's FR/EN toggle) when none is forced.
        this._observer = new MutationObserver(function () {
          self._applyText();
        });
        this._observer.observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
      }
    }

    disconnectedCallback() {
      if (this._observer) this._observer.disconnect();
      if (this._darkQuery) this._darkQuery.removeEventListener("change", this._onScheme);
      clearInterval(this._countdownTimer);
    }

    get uiLang() {
      return pickLang(this._config.lang || document.documentElement.lang || navigator.language);
    }

    get text() {
      return TEXT[this.uiLang];
    }

    _rulebookUrl(value) {
      if (!value) return "";
      try {
        var url = new URL(value, document.baseURI);
        // Only web links: a javascript: or data: URL is not a rulebook.
        if (url.protocol !== "https:" && url.protocol !== "http:") return "";
        url.hash = "";
        return url.href;
      } catch (ignored) {
        return "";
      }
    }

    _scheme() {
      if (this._config.theme !== "auto") return this._config.theme;
      return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    }

    _applyTheme() {
      // The page's --rulesbot-* values, validated, turned into the widget's own colours (rgb, AA contrast).
      var scheme = this._scheme();
      var style = getComputedStyle(this);
      var read = function (name) { return style.getPropertyValue("--rulesbot-" + name); };
      var colours = palette(scheme, { accent: read("accent"), bg: read("bg"), fg: read("fg") });
      colours["--_radius"] = validLength(read("radius")) || DEFAULT_RADIUS;
      colours["--_font"] = validFont(read("font")) || DEFAULT_FONT;
      this._colours = colours;
      var declarations = Object.keys(colours).map(function (name) { return name + ":" + colours[name]; }).join(";");
      if (this._themeSheet) {
        this._themeSheet.replaceSync(".rb{" + declarations + "}");
      }
      this._els.wrap.classList.toggle("dark", scheme === "dark");
      this._els.wrap.classList.toggle("light", scheme === "light");
    }

    _build() {
      var root = this._root;
      var wrap = el("div", "rb");
      var panel = el("section", "panel");
      panel.id = "rulesbot-panel";
      panel.setAttribute("role", "dialog");
      panel.setAttribute("aria-labelledby", "rulesbot-title");
      panel.hidden = true;

      var head = el("div", "head");
      var title = el("h2");
      title.id = "rulesbot-title";
      var fresh = button("fresh");
      fresh.appendChild(lineIcon(ICONS.fresh));
      fresh.addEventListener("click", this.newConversation.bind(this));
      var close = button("close", "×");
      close.addEventListener("click", this.close.bind(this));
      head.append(title, fresh, close);

      // Focusable, so keyboard users can scroll it; the live region below speaks, the log itself stays quiet.
      var log = el("div", "log");
      log.setAttribute("role", "log");
      log.setAttribute("aria-live", "off");
      log.tabIndex = 0;
      var hello = el("div", "msg bot hello");
      hello.appendChild(el("p"));
      var suggestions = el("div", "suggestions");
      hello.appendChild(suggestions);
      log.appendChild(hello);

      var announcer = el("div", "sr-only");
      announcer.setAttribute("role", "status");
      announcer.setAttribute("aria-live", "polite");
      announcer.className = "sr-only announcer";

      var form = el("form", "composer");
      form.noValidate = true;
      var field = el("div", "field");
      var label = el("label", "sr-only");
      label.htmlFor = "rulesbot-input";
      var input = el("textarea");
      input.id = "rulesbot-input";
      input.rows = 1;
      input.autocomplete = "off";
      input.setAttribute("enterkeyhint", "send");
      input.setAttribute("aria-describedby", "rulesbot-counter");
      var counter = el("span", "counter");
      counter.id = "rulesbot-counter";
      counter.hidden = true;
      field.append(label, input, counter);
      var send = el("button", "send");
      send.type = "submit";
      form.append(field, send);
      form.addEventListener("submit", this._onSubmit.bind(this));
      input.addEventListener("keydown", this._onInputKeydown.bind(this));
      input.addEventListener("input", this._onInput.bind(this));

      panel.append(head, log, announcer, form);

      var launcher = button("launcher");
      launcher.setAttribute("aria-expanded", "false");
      launcher.setAttribute("aria-controls", panel.id);
      launcher.appendChild(lineIcon(ICONS.chat));
      launcher.addEventListener("click", this.toggle.bind(this));

      wrap.append(panel, launcher);
      root.appendChild(wrap);
      // On the whole shadow root, so Escape also closes while focus sits on the launcher.
      root.addEventListener("keydown", this._onKeydown);
      this._els = { wrap: wrap, panel: panel, title: title, fresh: fresh, close: close, log: log, hello: hello,
        suggestions: suggestions, announcer: announcer, label: label, input: input, counter: counter, send: send,
        launcher: launcher };
    }

    _applyText() {
      var t = this.text;
      var e = this._els;
      e.title.textContent = this._config.game ? t.title + " · " + this._gameName() : t.title;
      e.close.setAttribute("aria-label", t.close);
      e.fresh.setAttribute("aria-label", t.newChat);
      e.fresh.title = t.newChat;
      e.log.setAttribute("aria-label", t.log);
      e.hello.firstChild.textContent = t.hello;
      e.label.textContent = t.label;
      e.input.placeholder = t.placeholder;
      e.send.textContent = t.send;
      e.launcher.setAttribute("aria-label", t.open);
      e.launcher.title = t.open;
      this._renderSuggestions();
      this._updateCounter();
    }

    _renderSuggestions() {
      var t = this.text;
      var box = this._els.suggestions;
      box.replaceChildren();
      box.hidden = this._entries.length > 0;
      box.appendChild(el("span", "label", t.suggestionsLabel));
      var self = this;
      t.suggestions.forEach(function (question) {
        var chip = button("suggestion", question);
        chip.addEventListener("click", function () {
          if (self._pending || self._waiting()) return;
          self._els.input.focus();
          self._ask(question);
        });
        box.appendChild(chip);
      });
    }

    _gameName() {
      var game = this._config.game;
      return game.charAt(0).toUpperCase() + game.slice(1);
    }

    get isOpen() {
      return !this._els.panel.hidden;
    }

    open() {
      this._applyTheme(); // the site may have switched its own theme since
      if (this._fullScreen()) this._els.panel.setAttribute("aria-modal", "true");
      else this._els.panel.removeAttribute("aria-modal");
      this._els.panel.hidden = false;
      this._els.wrap.classList.add("open");
      this._els.launcher.setAttribute("aria-expanded", "true");
      this._els.input.focus();
      this._scrollToEnd();
    }

    close() {
      this._els.panel.hidden = true;
      this._els.wrap.classList.remove("open");
      this._els.launcher.setAttribute("aria-expanded", "false");
      this._els.launcher.focus();
    }

    toggle() {
      if (this.isOpen) this.close();
      else this.open();
    }

    /** Forget the conversation (the log, the follow-up context and the stored history). */
    newConversation() {
      this._entries = [];
      this._save();
      var log = this._els.log;
      Array.prototype.slice.call(log.children).forEach(function (child) {
        if (!child.classList.contains("hello")) child.remove();
      });
      this._els.suggestions.hidden = false;
      this._els.input.focus();
    }

    _fullScreen() {
      return !!window.matchMedia && window.matchMedia("(max-width: 479.98px)").matches;
    }

    _onKeydown(event) {
      if (event.key === "Escape" && this.isOpen) {
        event.preventDefault();
        event.stopPropagation();
        this.close();
        return;
      }
      if (event.key === "Tab" && this.isOpen && this._fullScreen()) {
        // Full screen, the chat covers the page: Tab cycles inside it instead of wandering behind it.
        var focusable = Array.prototype.slice.call(this._els.panel.querySelectorAll(
          "button:not([disabled]),textarea,input,summary,a[href],[tabindex='0']"
        )).filter(function (node) { return node.getClientRects().length > 0; });
        var active = this._root.activeElement;
        var edge = event.shiftKey ? focusable[0] : focusable[focusable.length - 1];
        if (focusable.length && (active === edge || focusable.indexOf(active) < 0)) {
          event.preventDefault();
          (event.shiftKey ? focusable[focusable.length - 1] : focusable[0]).focus();
        }
        return;
      }
      // Arrow keys move between the chips of one row (page chips, alternatives).
      var target = event.composedPath()[0];
      if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && target && target.matches &&
          target.matches(".chip,.alt")) {
        var row = Array.prototype.slice.call(target.closest(".chips").querySelectorAll(".chip,.alt"));
        var next = row[row.indexOf(target) + (event.key === "ArrowRight" ? 1 : -1)];
        if (next) {
          event.preventDefault();
          next.focus();
        }
      }
    }

    _onInputKeydown(event) {
      // Enter sends, Shift+Enter is a new line (and Enter while an IME composes a word is the IME's).
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this._els.input.form.requestSubmit();
      }
    }

    _onInput() {
      var input = this._els.input;
      var log = this._els.log;
      var visibleBefore = log.clientHeight;
      // Grow with the text, up to the CSS max-height.
      input.style.height = "auto";
      input.style.height = Math.min(input.scrollHeight + 2, 200) + "px";
      this._updateCounter();
      // The log shrinks from the bottom as the field grows: keep its last visible lines in view.
      log.scrollTop += visibleBefore - log.clientHeight;
    }

    _updateCounter() {
      var t = this.text;
      var length = this._els.input.value.length;
      var max = this._config.maxChars;
      var counter = this._els.counter;
      var over = length > max;
      counter.hidden = length < max * COUNTER_FROM;
      counter.textContent = fill(t.counter, { n: length, max: max });
      counter.classList.toggle("over", over);
      this._els.input.setAttribute("aria-invalid", over ? "true" : "false");
      if (over && !this._saidTooLong) this._announce(fill(t.tooLongLive, { n: length, max: max }));
      this._saidTooLong = over;
    }

    _waiting() {
      return Date.now() < this._waitUntil;
    }

    _onSubmit(event) {
      event.preventDefault();
      var input = this._els.input;
      // Focus stays in the field whatever sent the question (Enter or the Send button).
      input.focus();
      var question = input.value.trim();
      if (!question || this._pending || this._waiting()) return;
      if (question.length > this._config.maxChars) {
        this._addBotError(fill(this.text.tooLong, { n: this._config.maxChars }), null);
        return;
      }
      input.value = "";
      this._onInput();
      this._ask(question);
    }

    _context() {
      var questions = this._entries.map(function (entry) { return entry.question; });
      return questions.slice(-CONTEXT_QUESTIONS);
    }

    _ask(question) {
      var t = this.text;
      var log = this._els.log;
      this._els.suggestions.hidden = true;
      var mine = this._addQuestion(question);
      var pending = el("div", "msg bot pending", t.thinking);
      log.appendChild(pending);
      this._scrollTo(mine);
      this._setPending(true);

      var body = { question: question };
      if (this._config.lang) body.lang = pickLang(this._config.lang);
      if (this._config.game) body.game = this._config.game;
      var context = this._context();
      // Only when there is one: a server without follow-up support refuses unknown fields.
      if (context.length && this._contextAllowed) body.context = context;

      var self = this;
      this._post("/v1/ask", body)
        .then(function (result) {
          if (result.status === 422 && body.context && self._refusedContext(result.data)) {
            // An older server: ask again without the follow-up context, and stop sending it.
            self._contextAllowed = false;
            delete body.context;
            return self._post("/v1/ask", body);
          }
          return result;
        })
        .then(function (result) {
          pending.remove();
          if (result.status === 200 && result.data && typeof result.data.answer === "string") {
            self._entries.push({ question: question, answer: result.data });
            self._entries = self._entries.slice(-HISTORY_ENTRIES);
            self._save();
            var bubble = self._addAnswer(result.data);
            self._setPending(false);
            self._scrollTo(mine, bubble);
            self._announceAnswer(result.data);
          } else {
            self._setPending(false);
            self._failed(question, mine, result);
          }
        })
        .catch(function (error) {
          pending.remove();
          self._setPending(false);
          self._failed(question, mine, { status: 0, data: null, error: error });
        });
    }

    _refusedContext(data) {
      var message = data && data.error && typeof data.error.message === "string" ? data.error.message : "";
      return message.indexOf("context") === 0;
    }

    _post(path, body) {
      var controller = typeof AbortController === "function" ? new AbortController() : null;
      var timer = controller ? setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS) : null;
      var self = this;
      return fetch(this._config.api + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        credentials: "omit",
        mode: "cors",
        cache: "no-store",
        referrerPolicy: "no-referrer",
        signal: controller ? controller.signal : undefined,
      })
        .then(function (response) {
          var retryAfter = response.headers.get("Retry-After");
          return response.json().then(
            function (data) { return { status: response.status, data: data, retryAfter: retryAfter }; },
            function () { return { status: response.status, data: null, retryAfter: retryAfter }; }
          );
        }, function (error) {
          self._explainNetworkError(error, controller);
          throw error;
        })
        .finally(function () {
          if (timer) clearTimeout(timer);
        });
    }

    _explainNetworkError(error, controller) {
      // A CORS refusal and a dead network look the same to fetch. An opaque no-cors request to the same
      // server tells them apart: if it gets through, the server is up and refused this page's origin.
      var api = this._config.api;
      var origin = window.location.origin;
      if ((controller && controller.signal.aborted) || new URL(api).origin === origin) return;
      fetch(api + "/healthz", { mode: "no-cors", credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" })
        .then(function () {
          console.warn(
            "rulesbot: the browser blocked the request to " + api + " (CORS): this page's origin " + origin +
            " is not allowed. Add it to RULESBOT_CORS_ORIGINS on the rulesbot server."
          );
        }, function () { /* the server is unreachable: the message in the chat says so */ });
    }

    _failed(question, mine, result) {
      // Keep the question: back in the field (unless something new was typed), and a Retry button.
      var input = this._els.input;
      if (!input.value.trim()) {
        input.value = question;
        this._onInput();
      }
      mine.remove();
      var t = this.text;
      var message = result.status === 0 ? t.network : this._errorText(result.status, result.data);
      var wait = result.status === 429 || result.status === 503 ? retryAfterSeconds(result.retryAfter) : 0;
      this._addBotError(message, question, wait);
    }

    _errorText(status, data) {
      var t = this.text;
      if (status === 429) return t.tooMany;
      if (status === 503) return t.loading;
      if (status >= 400 && status < 500) {
        var detail = data && data.error && typeof data.error.message === "string" ? data.error.message : "";
        return detail ? t.badInput + " (" + detail + ")." : t.badInput + ".";
      }
      return t.server;
    }

    _addQuestion(question) {
      var t = this.text;
      var mine = el("div", "msg user");
      mine.appendChild(el("span", "sr-only", t.you + ": "));
      mine.appendChild(el("p", null, question));
      this._els.log.appendChild(mine);
      return mine;
    }

    _addAnswer(answer) {
      var bubble = this._answerBlock(answer, "msg bot", true);
      this._els.log.appendChild(bubble);
      return bubble;
    }

    _answerBlock(answer, className, withActions) {
      var lang = pickLang(answer.lang || this.uiLang);
      var t = TEXT[lang];
      var unknown = answer.kind === "unknown";
      var bubble = el("div", className + (unknown ? " unknown" : ""));
      bubble.setAttribute("data-kind", String(answer.kind || ""));
      bubble.lang = lang;
      bubble.appendChild(el("span", "sr-only", t.bot + ": "));
      if (unknown) bubble.appendChild(el("span", "label", t.unknown));
      var parts = splitAnswer(answer);
      var head = el("p", "headline");
      if (answer.kind === "claim" && typeof answer.verdict === "boolean") {
        head.appendChild(el("span", "badge " + (answer.verdict ? "true" : "false"),
          answer.verdict ? t.verdictTrue : t.verdictFalse));
        head.appendChild(document.createTextNode(" ")); // read as two words
      }
      head.appendChild(el("span", "text", parts.headline));
      bubble.appendChild(head);
      if (unknown && !answer.answer) bubble.appendChild(el("p", null, t.unknownHint));
      var painting = isPainting(answer.engine);
      if (unknown && parts.rest) {
        // Short, and the closest pages it names are the point: nothing to fold.
        bubble.appendChild(el("p", "rest", parts.rest));
      } else if (parts.rest || painting) {
        // The details (the rest of the answer: assumptions, the computation, the painting) are one click away.
        var details = el("details", "more");
        details.appendChild(el("summary", null, painting ? t.detailsPainting : t.details));
        if (parts.rest) {
          var rest = el("div", "rest");
          sentences(parts.rest).forEach(function (sentence) { rest.appendChild(el("p", null, sentence)); });
          details.appendChild(rest);
        }
        if (painting) {
          var picture = document.createElement("rulesbot-painting");
          picture.paint(answer.engine, lang);
          details.appendChild(picture);
        }
        bubble.appendChild(details);
      }
      this._addCitations(bubble, answer.citations, t);
      if (Array.isArray(answer.alternatives) && answer.alternatives.length) this._addAlternatives(bubble, answer, t);
      if (withActions) this._addActions(bubble, answer, parts, t);
      return bubble;
    }

    _addCitations(bubble, citations, t) {
      var pages = citationPages(citations);
      if (!pages.length) return;
      var chips = el("ul", "chips");
      chips.setAttribute("aria-label", t.pages);
      var passages = el("div", "passages");
      var self = this;
      pages.forEach(function (entry) {
        var item = el("li");
        var chip = button("chip", t.page + " " + entry.page);
        var passage = self._passage(entry, t);
        chip.setAttribute("aria-expanded", "false");
        chip.setAttribute("aria-controls", passage.id);
        chip.addEventListener("click", function () {
          var opening = chip.getAttribute("aria-expanded") !== "true";
          chips.querySelectorAll(".chip").forEach(function (other) { other.setAttribute("aria-expanded", "false"); });
          passages.querySelectorAll(".passage").forEach(function (other) { other.hidden = true; });
          chip.setAttribute("aria-expanded", String(opening));
          passage.hidden = !opening;
        });
        item.appendChild(chip);
        chips.appendChild(item);
        passages.appendChild(passage);
      });
      bubble.append(chips, passages);
    }

    _passage(entry, t) {
      // The cited passage inline: section, page, the snippet (in the citation's language), and a link to the
      // site's own rulebook at that page when the site gives one.
      var passage = el("div", "passage");
      passage.id = "rb-passage-" + ++paintingCount;
      passage.hidden = true;
      passage.setAttribute("role", "region");
      var rulebook = this._config.rulebookUrl;
      entry.citations.forEach(function (citation) {
        var section = typeof citation.section === "string" ? citation.section : "";
        var lang = typeof citation.lang === "string" ? pickLang(citation.lang) : "";
        var heading = el("h3", null, section || t.pageLong + " " + entry.page);
        if (lang) heading.lang = lang;
        passage.appendChild(heading);
        passage.appendChild(el("p", "where", t.pageLong + " " + entry.page));
        if (typeof citation.snippet === "string" && citation.snippet) {
          var quote = el("blockquote");
          quote.appendChild(el("p", null, citation.snippet));
          if (lang) quote.lang = lang;
          passage.appendChild(quote);
        }
      });
      passage.setAttribute("aria-label", t.pageLong + " " + entry.page);
      if (rulebook) {
        var link = el("a", null, fill(t.openPage, { n: entry.page }));
        link.href = rulebook + "#page=" + entry.page;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        passage.appendChild(link);
      }
      return passage;
    }

    _addAlternatives(bubble, answer, t) {
      // "Did you mean": each other reading is a chip that reveals its answer in place.
      var box = el("div", "alts");
      var label = el("span", "label", t.alternatives);
      label.id = "rb-alts-" + ++paintingCount;
      var chips = el("ul", "chips");
      chips.setAttribute("aria-labelledby", label.id);
      var shown = el("div", "alt-answers");
      var self = this;
      answer.alternatives.forEach(function (alternative) {
        if (!alternative || typeof alternative.answer !== "string") return;
        var full = { answer: alternative.answer, lang: answer.lang, kind: alternative.kind || "rule",
          verdict: alternative.verdict, headline: alternative.headline, citations: alternative.citations };
        var item = el("li");
        var chip = button("alt", shorten(splitAnswer(full).headline, ALTERNATIVE_CHARS));
        var block = self._answerBlock(full, "alt-answer", false);
        block.id = "rb-alt-" + ++paintingCount;
        block.hidden = true;
        chip.setAttribute("aria-expanded", "false");
        chip.setAttribute("aria-controls", block.id);
        chip.addEventListener("click", function () {
          var opening = chip.getAttribute("aria-expanded") !== "true";
          chip.setAttribute("aria-expanded", String(opening));
          block.hidden = !opening;
        });
        item.appendChild(chip);
        chips.appendChild(item);
        shown.appendChild(block);
      });
      box.append(label, chips, shown);
      bubble.appendChild(box);
    }

    _addActions(bubble, answer, parts, t) {
      var actions = el("div", "actions");
      var copy = button("act copy");
      copy.appendChild(lineIcon(ICONS.copy));
      var copyLabel = el("span", null, t.copy);
      copy.appendChild(copyLabel);
      copy.addEventListener("click", function () {
        var lines = [answer.answer];
        citationPages(answer.citations).forEach(function (entry) {
          var section = entry.citations[0] && entry.citations[0].section;
          lines.push(t.page + " " + entry.page + (section ? " — " + section : ""));
        });
        var done = function () {
          copyLabel.textContent = t.copied;
          setTimeout(function () { copyLabel.textContent = t.copy; }, 2000);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(lines.join("\n")).then(done, function () {});
        }
      });
      actions.appendChild(copy);
      if (typeof answer.id === "string" && answer.id && this._feedbackAllowed) {
        this._addFeedback(actions, answer, t);
      }
      bubble.appendChild(actions);
    }

    _addFeedback(actions, answer, t) {
      var self = this;
      var up = button("act vote up");
      var down = button("act vote down");
      up.appendChild(lineIcon(ICONS.up));
      down.appendChild(lineIcon(ICONS.down));
      up.setAttribute("aria-label", t.helpful);
      down.setAttribute("aria-label", t.notHelpful);
      up.title = t.helpful;
      down.title = t.notHelpful;
      [up, down].forEach(function (vote) { vote.setAttribute("aria-pressed", "false"); });
      var thanks = el("span", "thanks");
      thanks.setAttribute("role", "status");
      var send = function (vote, comment) {
        var body = { id: answer.id, vote: vote };
        if (comment) body.comment = comment;
        self._post("/v1/feedback", body).then(function (result) {
          if (result.status === 404 || result.status === 405) {
            // No feedback endpoint on this server: drop the buttons quietly, everywhere.
            self._feedbackAllowed = false;
            self._els.log.querySelectorAll(".vote,.comment,.thanks").forEach(function (node) { node.remove(); });
          } else if (result.status < 300) {
            thanks.textContent = t.thanks;
          }
        }, function () { /* feedback is best effort */ });
      };
      up.addEventListener("click", function () {
        up.setAttribute("aria-pressed", "true");
        down.setAttribute("aria-pressed", "false");
        if (comment.parentNode) comment.remove();
        send("up");
      });
      var comment = el("form", "comment");
      var commentLabel = el("label", "sr-only", t.commentLabel);
      var commentInput = el("input");
      commentInput.id = "rb-comment-" + ++paintingCount;
      commentLabel.htmlFor = commentInput.id;
      commentInput.placeholder = t.commentLabel;
      commentInput.maxLength = 500;
      var commentSend = el("button", null, t.commentSend);
      commentSend.type = "submit";
      comment.append(commentLabel, commentInput, commentSend);
      comment.addEventListener("submit", function (event) {
        event.preventDefault();
        comment.remove();
        send("down", commentInput.value.trim());
        down.focus();
      });
      down.addEventListener("click", function () {
        if (down.getAttribute("aria-pressed") === "true") return;
        down.setAttribute("aria-pressed", "true");
        up.setAttribute("aria-pressed", "false");
        // A down vote asks what was wrong (optional) before it is sent.
        actions.appendChild(comment);
        commentInput.focus();
      });
      actions.append(up, down, thanks);
    }

    _addBotError(message, question, wait) {
      var t = this.text;
      var self = this;
      var bubble = el("div", "msg bot error");
      bubble.setAttribute("role", "alert");
      bubble.appendChild(el("p", null, message));
      this._els.log.appendChild(bubble);
      if (question) {
        var retry = button("retry", t.retry);
        retry.addEventListener("click", function () {
          if (self._pending || self._waiting()) return;
          bubble.remove();
          var input = self._els.input;
          if (input.value.trim() === question) {
            input.value = "";
            self._onInput();
          }
          input.focus();
          self._ask(question);
        });
        bubble.appendChild(retry);
        if (wait > 0) this._countdown(bubble, retry, wait);
      }
      this._scrollTo(bubble);
    }

    _countdown(bubble, retry, seconds) {
      // Retry-After, shown as a countdown; Send and Retry wait for it.
      var t = this.text;
      var self = this;
      var line = el("span", "countdown");
      bubble.insertBefore(line, retry);
      this._waitUntil = Date.now() + seconds * 1000;
      retry.disabled = true;
      this._els.send.disabled = true;
      clearInterval(this._countdownTimer);
      var tick = function () {
        var left = Math.ceil((self._waitUntil - Date.now()) / 1000);
        if (left > 0) {
          line.textContent = fill(t.retryIn, { n: left });
          return;
        }
        clearInterval(self._countdownTimer);
        line.remove();
        retry.disabled = false;
        self._els.send.disabled = self._pending;
      };
      tick();
      this._countdownTimer = setInterval(tick, 250);
    }

    _announceAnswer(answer) {
      var parts = splitAnswer(answer);
      var t = TEXT[pickLang(answer.lang || this.uiLang)];
      var verdict = answer.kind === "claim" && typeof answer.verdict === "boolean"
        ? (answer.verdict ? t.verdictTrue : t.verdictFalse) + ". " : "";
      var unknown = answer.kind === "unknown" ? t.unknown + ". " : "";
      this._announce(t.answerSaid + unknown + verdict + parts.headline);
    }

    _announce(message) {
      // After the busy state has cleared: screen readers hold back what changes inside a busy region.
      var announcer = this._els.announcer;
      announcer.textContent = "";
      setTimeout(function () { announcer.textContent = message; }, 50);
    }

    _setPending(pending) {
      this._pending = pending;
      this._els.send.disabled = pending || this._waiting();
      this._els.log.setAttribute("aria-busy", pending ? "true" : "false");
    }

    _scrollTo(first, last) {
      // Show the start of the new exchange (the question, then the answer's top), not the answer's end.
      var log = this._els.log;
      var target = first;
      if (last && last.offsetTop + last.offsetHeight - first.offsetTop > log.clientHeight) target = last;
      log.scrollTop = Math.max(0, target.offsetTop - 8);
    }

    _scrollToEnd() {
      var last = this._els.log.lastElementChild;
      if (last && last !== this._els.hello) this._scrollTo(last);
    }

    // ------------------------------------------------------------------------------------ history

    _storageKey() {
      return "rulesbot:" + HISTORY_VERSION + ":" + this._config.api + ":" + (this._config.game || "");
    }

    _storage() {
      if (!this._config.history) return null;
      try {
        return window.sessionStorage; // throws where storage is disabled (sandboxed frames, some privacy modes)
      } catch (ignored) {
        return null;
      }
    }

    _save() {
      var storage = this._storage();
      if (!storage) return;
      try {
        if (this._entries.length) storage.setItem(this._storageKey(), JSON.stringify(this._entries));
        else storage.removeItem(this._storageKey());
      } catch (ignored) {
        // quota exceeded: the conversation still works, it just won't survive a reload
      }
    }

    _restore() {
      var storage = this._storage();
      if (!storage) return;
      var entries;
      try {
        entries = JSON.parse(storage.getItem(this._storageKey()) || "[]");
      } catch (ignored) {
        entries = [];
      }
      if (!Array.isArray(entries)) return;
      var self = this;
      entries.forEach(function (entry) {
        if (!entry || typeof entry.question !== "string" || !entry.answer || typeof entry.answer.answer !== "string") {
          return;
        }
        self._entries.push(entry);
        self._addQuestion(entry.question);
        self._addAnswer(entry.answer);
      });
      this._els.suggestions.hidden = this._entries.length > 0;
    }
  }

  window.customElements.define("rulesbot-chat", RulesbotChat);

  function mount() {
    if (document.querySelector("rulesbot-chat")) return; // the site placed its own
    var chat = document.createElement("rulesbot-chat");
    document.body.appendChild(chat);
  }

  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
})();
