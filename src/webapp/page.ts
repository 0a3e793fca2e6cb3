/**
 * The Mini App's one page: e-mail, password and code, posted as JSON with Telegram's `initData`
 * to the same path. Everything is inline (served with a nonce under a CSP that allows nothing
 * else), so the page loads nothing from any host, Telegram's included.
 *
 * The page cannot know the user before the server has checked `initData`, so it carries the
 * words of every language and picks one itself: `?lang=`, else the `language_code` in `initData`,
 * else the bot's default. Telegram's theme (`tgWebAppThemeParams` in the fragment, or the bridge's
 * `themeParams` when a client injects one) becomes CSS variables.
 */
import { escapeHtml } from "../bot/ui/format.ts";

/** The page's words in one language (values from locales/*.ftl). */
export interface PageTexts {
  title: string;
  intro: string;
  email: string;
  password: string;
  code: string;
  submit: string;
  checking: string;
  done: string;
  notFromTelegram: string;
  failed: string;
}

export function loginPage(options: {
  texts: Record<string, PageTexts>;
  defaultLocale: string;
  /** The language the server already knows (a `?lang=` query), for the first paint. */
  locale: string;
  nonce: string;
}): string {
  const first = options.texts[options.locale] ?? options.texts[options.defaultLocale];
  if (first === undefined) throw new Error(`No page texts for ${options.locale}.`);
  // JSON inside <script>: "<" escaped, so no text can close the element.
  const data = JSON.stringify({ texts: options.texts, defaultLocale: options.defaultLocale }).replace(
    /</g,
    "\\u003c",
  );
  const text = (key: keyof PageTexts) => `data-t="${key}">${escapeHtml(first[key])}`;
  return `<!doctype html>
<html lang="${escapeHtml(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(first.title)}</title>
<style nonce="${options.nonce}">${STYLE}</style>
</head>
<body>
<main>
<h1 ${text("title")}</h1>
<p class="hint" ${text("intro")}</p>
<form id="login" novalidate>
<label for="email" ${text("email")}</label>
<input id="email" name="email" type="email" autocomplete="username" inputmode="email" required maxlength="254">
<label for="password" ${text("password")}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<label for="code" ${text("code")}</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9 ]*" required maxlength="7">
<button id="submit" type="submit" ${text("submit")}</button>
</form>
<p id="status" role="status" aria-live="polite"></p>
</main>
<script nonce="${options.nonce}" id="page-data" type="application/json">${data}</script>
<script nonce="${options.nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root {
  color-scheme: light dark;
  --bg: var(--tg-bg-color, #ffffff);
  --text: var(--tg-text-color, #1c1c1e);
  --hint: var(--tg-hint-color, #6d6d72);
  --field: var(--tg-secondary-bg-color, #f2f2f7);
  --button: var(--tg-button-color, #2481cc);
  --button-text: var(--tg-button-text-color, #ffffff);
  --error: var(--tg-destructive-text-color, #d93025);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: var(--tg-bg-color, #17212b);
    --text: var(--tg-text-color, #f5f5f5);
    --hint: var(--tg-hint-color, #a0a8b0);
    --field: var(--tg-secondary-bg-color, #232e3c);
    --button: var(--tg-button-color, #5288c1);
    --error: var(--tg-destructive-text-color, #ff6b6b);
  }
}
* { box-sizing: border-box; }
input, button { font-family: inherit; }
html, body { margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 420px; margin: 0 auto; padding: 20px 16px 32px; }
h1 { font-size: 1.3rem; margin: 0 0 6px; }
.hint { color: var(--hint); margin: 0 0 18px; font-size: .95rem; }
label { display: block; margin: 14px 0 6px; font-size: .9rem; color: var(--hint); }
input { width: 100%; padding: 12px; font-size: 16px; color: var(--text); background: var(--field);
  border: 1px solid transparent; border-radius: 10px; outline: none; }
input:focus { border-color: var(--button); }
#code { letter-spacing: .3em; font-variant-numeric: tabular-nums; }
button { width: 100%; margin-top: 22px; padding: 14px; font-size: 16px; font-weight: 600; border: 0;
  border-radius: 10px; background: var(--button); color: var(--button-text); cursor: pointer; }
button:disabled { opacity: .6; }
#status { min-height: 1.4em; margin: 16px 0 0; }
#status.error { color: var(--error); }
#status.done { font-weight: 600; }
`;

/** Runs in the browser; plain ES2017, no imports. */
const SCRIPT = `
(function () {
  "use strict";
  var page = JSON.parse(document.getElementById("page-data").textContent);
  var fragment = new URLSearchParams(location.hash.slice(1));
  var query = new URLSearchParams(location.search);
  var bridge = window.Telegram && window.Telegram.WebApp;
  var initData = (bridge && bridge.initData) || fragment.get("tgWebAppData") || "";
  var user = null;
  try { user = JSON.parse(new URLSearchParams(initData).get("user") || "null"); } catch (e) { user = null; }
  function known(code) {
    var base = String(code || "").toLowerCase().split("-")[0];
    return page.texts[base] ? base : "";
  }
  var lang = known(query.get("lang")) || known(user && user.language_code) || page.defaultLocale;
  var t = page.texts[lang];
  document.documentElement.lang = lang;
  document.title = t.title;
  document.querySelectorAll("[data-t]").forEach(function (el) { el.textContent = t[el.getAttribute("data-t")]; });

  var theme = bridge && bridge.themeParams;
  if (!theme) { try { theme = JSON.parse(fragment.get("tgWebAppThemeParams") || "null"); } catch (e) { theme = null; } }
  if (theme) {
    Object.keys(theme).forEach(function (key) {
      var value = String(theme[key]);
      if (/^[a-z_]+$/.test(key) && /^#[0-9a-fA-F]{3,8}$/.test(value)) {
        document.documentElement.style.setProperty("--tg-" + key.replace(/_/g, "-"), value);
      }
    });
  }

  // Telegram's clients listen for these events; in a plain browser nothing is listening.
  function postEvent(type) {
    var message = JSON.stringify({ eventType: type, eventData: {} });
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, "{}");
      else if (window.external && "notify" in window.external) window.external.notify(message);
      else if (window.parent !== window) window.parent.postMessage(message, "*");
    } catch (e) { /* not inside Telegram */ }
  }
  postEvent("web_app_ready");
  postEvent("web_app_expand");

  var form = document.getElementById("login");
  var status = document.getElementById("status");
  var button = document.getElementById("submit");
  function say(text, kind) { status.textContent = text; status.className = kind || ""; }
  if (!initData) { say(t.notFromTelegram, "error"); button.disabled = true; }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!initData || button.disabled) return;
    button.disabled = true;
    say(t.checking);
    var body = JSON.stringify({
      initData: initData,
      email: form.email.value.trim(),
      password: form.password.value,
      code: form.code.value.replace(/\\s/g, "")
    });
    fetch(location.pathname, { method: "POST", headers: { "content-type": "application/json" }, body: body })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (answer) {
          if (response.ok && answer.ok) {
            form.password.value = "";
            form.code.value = "";
            form.hidden = true;
            say(t.done, "done");
            if (bridge && bridge.close) bridge.close(); else postEvent("web_app_close");
            return;
          }
          form.code.value = "";
          say(answer.error || t.failed, "error");
          button.disabled = false;
        });
      })
      .catch(function () { say(t.failed, "error"); button.disabled = false; });
  });
})();
`;
