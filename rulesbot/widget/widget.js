/*
 * rulesbot widget: one script tag puts a rules chat on any page.
 *
 *   <script src="https://HOST/widget.js" data-game="canvas" data-lang="fr" async></script>
 *
 * It registers <rulesbot-chat> (Shadow DOM, so the site's CSS can't reach in and ours can't leak out),
 * adds one to the page, and talks only to the origin it was loaded from (or data-api). It works under a
 * strict Content-Security-Policy: no inline script or style, no eval, styles adopted through a
 * constructable stylesheet, every piece of server text set with textContent. No cookies, no storage,
 * no third-party requests.
 *
 * Attributes (on the script tag or on <rulesbot-chat>): data-game / game, data-lang / lang (forces the
 * answer language; without it the UI follows <html lang> and the answer follows the question),
 * data-api / api (the API origin; default: where this script came from).
 * Theme with CSS custom properties on the page: --rulesbot-accent, --rulesbot-bg, --rulesbot-fg,
 * --rulesbot-radius, --rulesbot-font.
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
  // The engine's swatch colours in swatch order (engine/canvas/data/art_cards.json); a test keeps them equal.
  var SWATCH_COLOURS = ["red", "yellow", "green", "blue", "violet"];

  var TEXT = {
    en: {
      open: "Ask a rules question",
      close: "Close the rules assistant",
      title: "Rules assistant",
      label: "Your rules question",
      placeholder: "e.g. How many cards can I hold?",
      send: "Send",
      log: "Conversation",
      hello: "Ask me anything about the rules. I answer from the rulebook and show the page.",
      thinking: "Looking it up…",
      you: "You",
      bot: "Rules assistant",
      unknown: "I don't know",
      unknownHint: "The rulebook doesn't say clearly. Check the pages below or ask differently.",
      verdictTrue: "True",
      verdictFalse: "False",
      pages: "Rulebook pages",
      page: "p.",
      painting: "The painting",
      swatches: SWATCH_COLOURS,
      empty: "no icon",
      icons: { hue: "hue", shape: "shape", texture: "texture", tone: "tone" },
      per: "bonus per",
      tooMany: "Too many questions at once. Please wait a few seconds and try again.",
      loading: "The rules assistant is still starting up. Try again in a moment.",
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
      placeholder: "ex. Combien de cartes puis-je avoir en main ?",
      send: "Envoyer",
      log: "Conversation",
      hello: "Posez-moi vos questions de règles. Je réponds d’après le livret et j’indique la page.",
      thinking: "Je cherche…",
      you: "Vous",
      bot: "Assistant de règles",
      unknown: "Je ne sais pas",
      unknownHint: "Le livret ne le dit pas clairement. Voyez les pages ci-dessous ou reformulez.",
      verdictTrue: "Vrai",
      verdictFalse: "Faux",
      pages: "Pages du livret",
      page: "p.",
      painting: "Le tableau",
      swatches: ["rouge", "jaune", "vert", "bleu", "violet"],
      empty: "aucune icône",
      icons: { hue: "teinte", shape: "forme", texture: "texture", tone: "ton" },
      per: "bonus par",
      tooMany: "Trop de questions d’un coup. Patientez quelques secondes puis réessayez.",
      loading: "L’assistant de règles démarre. Réessayez dans un instant.",
      badInput: "Je n’ai pas pu prendre cette question",
      network: "Impossible de joindre l’assistant de règles. Vérifiez votre connexion et réessayez.",
      server: "Un problème est survenu de notre côté. Réessayez.",
      tooLong: "Les questions sont limitées à {n} caractères.",
    },
  };

  var CSS = [
    ":host{all:initial;display:block;position:fixed;right:20px;bottom:20px;z-index:2147483000;",
    "--_accent:var(--rulesbot-accent,#6b3fd4);--_bg:var(--rulesbot-bg,#ffffff);--_fg:var(--rulesbot-fg,#1f1b2d);",
    "--_muted:color-mix(in srgb,var(--_fg) 62%,var(--_bg));--_line:color-mix(in srgb,var(--_fg) 16%,var(--_bg));",
    "--_soft:color-mix(in srgb,var(--_accent) 10%,var(--_bg));--_radius:var(--rulesbot-radius,14px);",
    "--_font:var(--rulesbot-font,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif);",
    "font-family:var(--_font);font-size:15px;line-height:1.45;color:var(--_fg);color-scheme:light}",
    "@media (prefers-color-scheme:dark){:host{--_bg:var(--rulesbot-bg,#1c1a23);--_fg:var(--rulesbot-fg,#efecf5);",
    "--_accent:var(--rulesbot-accent,#a78bfa);color-scheme:dark}}",
    "*,*::before,*::after{box-sizing:border-box}",
    "[hidden]{display:none!important}",
    ".sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}",
    "button,input{font:inherit;color:inherit}",
    ":focus-visible{outline:3px solid var(--_accent);outline-offset:2px}",
    ".launcher{display:flex;align-items:center;justify-content:center;width:58px;height:58px;border-radius:50%;",
    "border:none;background:var(--_accent);color:#fff;cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);margin-left:auto}",
    ".launcher:hover{filter:brightness(1.08)}",
    ".launcher svg{width:28px;height:28px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}",
    ".panel{display:flex;flex-direction:column;width:min(380px,calc(100vw - 40px));height:min(560px,calc(100vh - 110px));",
    "margin-bottom:12px;background:var(--_bg);color:var(--_fg);border:1px solid var(--_line);border-radius:var(--_radius);",
    "box-shadow:0 12px 40px rgba(0,0,0,.28);overflow:hidden}",
    ".head{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--_accent);color:#fff}",
    ".head h2{flex:1;margin:0;font-size:16px;font-weight:650}",
    ".close{border:none;background:transparent;color:#fff;font-size:22px;line-height:1;width:34px;height:34px;border-radius:8px;cursor:pointer}",
    ".close:hover{background:rgba(255,255,255,.16)}",
    ".head :focus-visible{outline-color:#fff}",
    ".log{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:10px}",
    ".msg{max-width:92%;padding:10px 12px;border-radius:var(--_radius);white-space:pre-wrap;overflow-wrap:anywhere}",
    ".msg p{margin:0}",
    ".user{align-self:flex-end;background:var(--_accent);color:#fff;border-bottom-right-radius:4px}",
    ".bot{align-self:flex-start;background:var(--_soft);border:1px solid var(--_line);border-bottom-left-radius:4px}",
    ".bot.pending{color:var(--_muted);font-style:italic}",
    ".bot.unknown{background:transparent;border:1px dashed var(--_muted)}",
    ".bot.error{background:color-mix(in srgb,#d93025 10%,var(--_bg));border-color:color-mix(in srgb,#d93025 45%,var(--_bg))}",
    ".label{display:block;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--_muted);margin-bottom:4px}",
    ".badge{display:inline-block;margin:0 0 6px;padding:2px 10px;border-radius:999px;font-size:13px;font-weight:700;color:#fff}",
    ".badge.true{background:#1e7d3c}.badge.false{background:#b3261e}",
    ".chips{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0 0;padding:0;list-style:none}",
    ".chip{padding:1px 9px;border-radius:999px;border:1px solid var(--_accent);color:var(--_fg);font-size:13px;background:var(--_bg)}",
    ".painting{margin:10px 0 0}",
    ".painting figcaption{font-size:13px;color:var(--_muted);margin-bottom:4px}",
    ".swatches{display:grid;grid-template-columns:repeat(5,1fr);gap:4px}",
    ".swatch{min-height:64px;border-radius:8px;padding:4px;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;color:#fff}",
    ".swatch.red{background:#c9302c}.swatch.yellow{background:#e0a800;color:#1f1b2d}.swatch.green{background:#2e8b57}",
    ".swatch.blue{background:#2f6fbf}.swatch.violet{background:#7d3c98}",
    ".icon{display:flex;align-items:center;justify-content:center;width:26px;height:26px;border-radius:50%;background:rgba(255,255,255,.92);color:#1f1b2d}",
    ".icon.bonus{border:2px dashed #1f1b2d}",
    ".icon svg{width:18px;height:18px;fill:none;stroke:currentColor;stroke-width:2}",
    ".composer{display:flex;gap:8px;padding:10px;border-top:1px solid var(--_line)}",
    ".composer input{flex:1;min-width:0;padding:9px 11px;border:1px solid var(--_line);border-radius:calc(var(--_radius) * .6);background:var(--_bg)}",
    ".composer button{padding:9px 14px;border:none;border-radius:calc(var(--_radius) * .6);background:var(--_accent);color:#fff;font-weight:650;cursor:pointer}",
    ".composer button:disabled{opacity:.55;cursor:progress}",
    "@media (prefers-reduced-motion:no-preference){.panel{animation:rb-in .16s ease-out}}",
    "@keyframes rb-in{from{opacity:0;transform:translateY(8px)}to{opacity:1;transform:none}}",
    "@media (max-width:440px){:host{right:10px;bottom:10px}}",
  ].join("\n");

  var sharedSheet = null;

  function adoptStyles(root) {
    // Constructable stylesheets are CSSOM, which CSP's style-src does not block (a <style> element would be).
    if ("adoptedStyleSheets" in root && typeof CSSStyleSheet === "function") {
      try {
        if (!sharedSheet) {
          sharedSheet = new CSSStyleSheet();
          sharedSheet.replaceSync(CSS);
        }
        root.adoptedStyleSheets = [sharedSheet];
        return;
      } catch (ignored) {
        // fall through: older engines without constructable stylesheets
      }
    }
    var style = document.createElement("style");
    style.textContent = CSS;
    root.appendChild(style);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs).forEach(function (name) {
      node.setAttribute(name, attrs[name]);
    });
    return node;
  }

  function iconSvg(kind) {
    // One glyph per Element: hue (drop), shape (triangle), texture (waves), tone (half-filled square).
    var root = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
    if (kind === "hue") {
      root.appendChild(svg("path", { d: "M12 3c4 5 6 8 6 11a6 6 0 0 1-12 0c0-3 2-6 6-11z" }));
    } else if (kind === "shape") {
      root.appendChild(svg("path", { d: "M12 4l8 15H4z" }));
    } else if (kind === "texture") {
      root.appendChild(svg("path", { d: "M3 8c3-3 6 3 9 0s6 3 9 0M3 16c3-3 6 3 9 0s6 3 9 0" }));
    } else if (kind === "tone") {
      root.appendChild(svg("rect", { x: "4", y: "4", width: "16", height: "16", rx: "2" }));
      root.appendChild(svg("path", { d: "M4 20L20 4v16z", fill: "currentColor" }));
    } else {
      root.appendChild(svg("circle", { cx: "12", cy: "12", r: "7" }));
    }
    return root;
  }

  function chatIcon() {
    var root = svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" });
    root.appendChild(svg("path", { d: "M4 5h16v11H9l-5 4z" }));
    root.appendChild(svg("path", { d: "M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.4" }));
    root.appendChild(svg("path", { d: "M12 14.6v.1" }));
    return root;
  }

  function pickLang(value) {
    var lang = String(value || "").toLowerCase();
    return lang.indexOf("fr") === 0 ? "fr" : "en";
  }

  class RulesbotChat extends HTMLElement {
    constructor() {
      super();
      this._root = this.attachShadow({ mode: "open" });
      this._built = false;
      this._pending = false;
      this._onKeydown = this._onKeydown.bind(this);
    }

    connectedCallback() {
      if (this._built) return;
      this._built = true;
      this._config = {
        api: (this.getAttribute("api") || SCRIPT_DATA.api || SCRIPT_URL.origin).replace(/\/+$/, ""),
        game: this.getAttribute("game") || SCRIPT_DATA.game || "",
        lang: this.getAttribute("lang") || SCRIPT_DATA.lang || "",
        maxChars: parseInt(this.getAttribute("max-chars") || SCRIPT_DATA.maxChars, 10) || DEFAULT_MAX_CHARS,
      };
      adoptStyles(this._root);
      this._build();
      this._applyText();
      if (!this._config.lang) {
        // Follow the page's language (e.g. a site's FR/EN toggle) when none is forced.
        var self = this;
        this._observer = new MutationObserver(function () {
          self._applyText();
        });
        this._observer.observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
      }
    }

    disconnectedCallback() {
      if (this._observer) this._observer.disconnect();
    }

    get uiLang() {
      return pickLang(this._config.lang || document.documentElement.lang || navigator.language);
    }

    get text() {
      return TEXT[this.uiLang];
    }

    _build() {
      var root = this._root;
      var panel = el("section", "panel");
      panel.id = "rulesbot-panel";
      panel.setAttribute("role", "dialog");
      panel.setAttribute("aria-labelledby", "rulesbot-title");
      panel.hidden = true;

      var head = el("div", "head");
      var title = el("h2");
      title.id = "rulesbot-title";
      var close = el("button", "close", "×");
      close.type = "button";
      close.addEventListener("click", this.close.bind(this));
      head.append(title, close);

      var log = el("div", "log");
      log.setAttribute("role", "log");
      log.setAttribute("aria-live", "polite");
      log.setAttribute("aria-relevant", "additions");
      var hello = el("div", "msg bot hello");
      hello.appendChild(el("p"));
      log.appendChild(hello);

      var form = el("form", "composer");
      form.noValidate = true;
      var label = el("label", "sr-only");
      label.htmlFor = "rulesbot-input";
      var input = el("input");
      input.id = "rulesbot-input";
      input.type = "text";
      input.autocomplete = "off";
      input.maxLength = this._config.maxChars;
      input.setAttribute("enterkeyhint", "send");
      var send = el("button", "send");
      send.type = "submit";
      form.append(label, input, send);
      form.addEventListener("submit", this._onSubmit.bind(this));

      panel.append(head, log, form);

      var launcher = el("button", "launcher");
      launcher.type = "button";
      launcher.setAttribute("aria-expanded", "false");
      launcher.setAttribute("aria-controls", panel.id);
      launcher.appendChild(chatIcon());
      launcher.addEventListener("click", this.toggle.bind(this));

      root.append(panel, launcher);
      // On the whole shadow root, so Escape also closes while focus sits on the launcher.
      root.addEventListener("keydown", this._onKeydown);
      this._els = { panel: panel, title: title, close: close, log: log, hello: hello, label: label,
        input: input, send: send, launcher: launcher };
    }

    _applyText() {
      var t = this.text;
      var e = this._els;
      e.title.textContent = this._config.game ? t.title + " · " + this._gameName() : t.title;
      e.close.setAttribute("aria-label", t.close);
      e.log.setAttribute("aria-label", t.log);
      e.hello.firstChild.textContent = t.hello;
      e.label.textContent = t.label;
      e.input.placeholder = t.placeholder;
      e.send.textContent = t.send;
      e.launcher.setAttribute("aria-label", t.open);
      e.launcher.title = t.open;
    }

    _gameName() {
      var game = this._config.game;
      return game.charAt(0).toUpperCase() + game.slice(1);
    }

    get isOpen() {
      return !this._els.panel.hidden;
    }

    open() {
      this._els.panel.hidden = false;
      this._els.launcher.setAttribute("aria-expanded", "true");
      this._els.input.focus();
    }

    close() {
      this._els.panel.hidden = true;
      this._els.launcher.setAttribute("aria-expanded", "false");
      this._els.launcher.focus();
    }

    toggle() {
      if (this.isOpen) this.close();
      else this.open();
    }

    _onKeydown(event) {
      if (event.key === "Escape" && this.isOpen) {
        event.preventDefault();
        event.stopPropagation();
        this.close();
      }
    }

    _onSubmit(event) {
      event.preventDefault();
      var question = this._els.input.value.trim();
      if (!question || this._pending) return;
      if (question.length > this._config.maxChars) {
        this._addBotError(this.text.tooLong.replace("{n}", String(this._config.maxChars)));
        return;
      }
      this._els.input.value = "";
      this._ask(question);
    }

    _ask(question) {
      var t = this.text;
      var log = this._els.log;
      var mine = el("div", "msg user");
      mine.appendChild(el("span", "sr-only", t.you + ": "));
      mine.appendChild(el("p", null, question));
      log.appendChild(mine);
      var pending = el("div", "msg bot pending", t.thinking);
      pending.setAttribute("aria-busy", "true");
      log.appendChild(pending);
      this._scroll();
      this._setPending(true);

      var body = { question: question };
      if (this._config.lang) body.lang = pickLang(this._config.lang);
      if (this._config.game) body.game = this._config.game;

      var self = this;
      var controller = typeof AbortController === "function" ? new AbortController() : null;
      var timer = controller ? setTimeout(function () { controller.abort(); }, REQUEST_TIMEOUT_MS) : null;
      fetch(this._config.api + "/v1/ask", {
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
          return response.json().then(
            function (data) { return { status: response.status, data: data }; },
            function () { return { status: response.status, data: null }; }
          );
        })
        .then(function (result) {
          pending.remove();
          if (result.status === 200 && result.data && typeof result.data.answer === "string") {
            self._addAnswer(result.data);
          } else {
            self._addBotError(self._errorText(result.status, result.data));
          }
        })
        .catch(function () {
          pending.remove();
          self._addBotError(t.network);
        })
        .finally(function () {
          if (timer) clearTimeout(timer);
          self._setPending(false);
        });
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

    _addAnswer(answer) {
      var t = TEXT[pickLang(answer.lang || this.uiLang)];
      var unknown = answer.kind === "unknown";
      var bubble = el("div", unknown ? "msg bot unknown" : "msg bot");
      bubble.setAttribute("data-kind", String(answer.kind || ""));
      bubble.appendChild(el("span", "sr-only", t.bot + ": "));
      if (unknown) bubble.appendChild(el("span", "label", t.unknown));
      if (answer.kind === "claim" && typeof answer.verdict === "boolean") {
        var badge = el("span", "badge " + (answer.verdict ? "true" : "false"),
          answer.verdict ? t.verdictTrue : t.verdictFalse);
        bubble.appendChild(badge);
      }
      var text = el("p", "text", answer.answer);
      if (answer.lang) text.lang = answer.lang;
      bubble.appendChild(text);
      if (unknown && !answer.answer) bubble.appendChild(el("p", null, t.unknownHint));
      var visible = answer.engine && answer.engine.visible;
      if (Array.isArray(visible) && visible.length === SWATCH_COLOURS.length) {
        bubble.appendChild(this._painting(visible, answer.engine.title, t));
      }
      var pages = [];
      (Array.isArray(answer.citations) ? answer.citations : []).forEach(function (citation) {
        if (citation && Number.isInteger(citation.page) && pages.indexOf(citation.page) < 0) pages.push(citation.page);
      });
      if (pages.length) {
        var chips = el("ul", "chips");
        chips.setAttribute("aria-label", t.pages);
        pages.forEach(function (page) {
          chips.appendChild(el("li", "chip", t.page + " " + page));
        });
        bubble.appendChild(chips);
      }
      this._els.log.appendChild(bubble);
      this._scroll();
    }

    _painting(visible, title, t) {
      var figure = el("figure", "painting");
      var separator = t === TEXT.fr ? " : " : ": "; // French typography puts a space before the colon
      var caption = el("figcaption", null, title ? t.painting + separator + title : t.painting);
      var grid = el("div", "swatches");
      grid.setAttribute("role", "list");
      visible.forEach(function (icons, index) {
        var swatch = el("div", "swatch " + SWATCH_COLOURS[index]);
        swatch.setAttribute("role", "listitem");
        var names = [];
        (Array.isArray(icons) ? icons : []).forEach(function (icon) {
          var name = String(icon);
          var bonus = name.indexOf("per-") === 0;
          var kind = bonus ? name.slice(4) : name;
          var spoken = (t.icons[kind] || kind);
          if (bonus) spoken = t.per + " " + spoken;
          names.push(spoken);
          var badge = el("span", bonus ? "icon bonus" : "icon");
          badge.setAttribute("data-icon", name);
          badge.title = spoken;
          badge.appendChild(iconSvg(kind));
          swatch.appendChild(badge);
        });
        // Screen readers get the colour and its icons as text.
        swatch.appendChild(el("span", "sr-only", t.swatches[index] + ": " + (names.length ? names.join(", ") : t.empty)));
        grid.appendChild(swatch);
      });
      figure.append(caption, grid);
      return figure;
    }

    _addBotError(message) {
      var bubble = el("div", "msg bot error");
      bubble.setAttribute("role", "status");
      bubble.appendChild(el("p", null, message));
      this._els.log.appendChild(bubble);
      this._scroll();
    }

    _setPending(pending) {
      this._pending = pending;
      this._els.send.disabled = pending;
      this._els.log.setAttribute("aria-busy", pending ? "true" : "false");
    }

    _scroll() {
      var log = this._els.log;
      log.scrollTop = log.scrollHeight;
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
