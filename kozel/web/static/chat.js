// Chat in the lobby and at a table: the room's last lines, new ones as they come over the
// page's socket, a line to type, and mutes kept in this browser (the whole chat, or one
// player). Lines are set as text, never as HTML.
import { get } from "./api.js";
import { h, mount } from "./dom.js";
import { errorText, t } from "./i18n.js";

const MAX_CHARS = 200;
const KEEP = 100; // lines kept on the page
const MUTED = "kozel.chat.muted";
const OFF = "kozel.chat.off";

function mutedNames() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]"));
  } catch {
    return new Set();
  }
}

export class ChatPanel {
  /** history: the path of the room's last lines; send(text) → false when not connected. */
  constructor(history, send) {
    this.history = history;
    this.send = send;
    this.lines = [];
    this.muted = mutedNames();
    this.list = h("ol.chat-lines", { "aria-live": "polite", "aria-label": t("chat.title") });
    this.input = h("input#chat-input", { maxlength: MAX_CHARS, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
    this.error = h("p.error.small", { role: "alert" });
    this.form = h(
      "form.chat-say",
      { onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.input,
      h("button#chat-send", { type: "submit" }, t("chat.send")),
    );
    this.hint = h("p.muted.small.chat-hint");
    this.off = h("input#chat-off", { type: "checkbox", checked: localStorage.getItem(OFF) === "1", onchange: () => this.toggle() });
    this.element = h(
      "section.card.chat",
      { "aria-labelledby": "chat-title" },
      h("div.chat-head", {}, h("h2#chat-title", {}, t("chat.title")), h("label.small", { for: "chat-off" }, this.off, " ", t("chat.mute_all"))),
      this.list,
      this.form,
      this.hint,
      this.error,
    );
    this.speaker(false);
  }

  /** Who may write: a signed-in player in the lobby, a seated player at a table. */
  speaker(yes, why = "") {
    this.canSpeak = yes;
    this.form.hidden = !yes || this.off.checked;
    this.hint.textContent = yes ? "" : why;
  }

  async load() {
    this.retry();
    try {
      for (const line of await get(this.history)) this.add(line);
    } catch {
      // the lines come again with the next connection
    }
  }

  receive(message) {
    if (message.type === "chat") this.add(message);
    else if (message.type === "error" && message.code.startsWith("chat")) this.error.textContent = errorText(`error.${message.code}`, message.params);
  }

  add(line) {
    if (this.lines.some((l) => l.id === line.id)) return;
    const last = this.lines.at(-1);
    this.lines.push(line);
    this.lines.sort((a, b) => a.id - b.id);
    this.lines = this.lines.slice(-KEEP);
    if (this.off.checked || this.muted.has(line.name)) return;
    if (last && line.id > last.id && this.list.querySelector("li[data-id]")) {
      // only the new line goes in: a screen reader hears it, not the whole chat again
      const unmutes = this.list.querySelector(".chat-unmutes");
      if (unmutes) unmutes.before(this.line(line));
      else this.list.append(this.line(line));
      while (this.list.querySelectorAll("li[data-id]").length > KEEP) this.list.querySelector("li[data-id]").remove();
      this.list.scrollTop = this.list.scrollHeight;
    } else {
      this.render();
    }
  }

  line(l) {
    return h("li", { "data-id": l.id }, h("button.link.chat-name", { type: "button", title: t("chat.mute", { name: l.name }), onclick: () => this.mute(l.name) }, l.name), ": ", h("span.chat-text", {}, l.text));
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    this.error.textContent = "";
    this.waiting = null;
    if (this.send(text)) this.input.value = "";
    else {
      // the socket is (re)connecting, as it does right after signing in: the line stays in
      // the box and goes out when the connection is back, unless it was changed meanwhile
      this.waiting = text;
      this.error.textContent = t("error.network");
    }
  }

  /** Called as a connection (re)opens: send the line that could not go out. */
  retry() {
    const text = this.waiting;
    this.waiting = null;
    if (text && this.input.value.trim() === text && this.send(text)) {
      this.input.value = "";
      this.error.textContent = "";
    }
  }

  toggle() {
    localStorage.setItem(OFF, this.off.checked ? "1" : "0");
    this.form.hidden = this.off.checked || !this.canSpeak;
    this.render();
  }

  mute(name) {
    if (this.muted.has(name)) this.muted.delete(name);
    else this.muted.add(name);
    localStorage.setItem(MUTED, JSON.stringify([...this.muted]));
    this.render();
  }

  render() {
    if (this.off.checked) {
      mount(this.list, h("li.muted", {}, t("chat.muted")));
      return;
    }
    const shown = this.lines.filter((l) => !this.muted.has(l.name));
    const muted = [...this.muted].filter((name) => this.lines.some((l) => l.name === name));
    mount(
      this.list,
      shown.length ? shown.map((l) => this.line(l)) : h("li.muted", {}, t("chat.empty")),
      muted.length ? h("li.small.chat-unmutes", {}, muted.map((name) => h("button.link.chat-unmute", { type: "button", onclick: () => this.mute(name) }, t("chat.unmute", { name })))) : null,
    );
    this.list.scrollTop = this.list.scrollHeight;
  }
}
