// The client's entry point: the header (pages, language, account) and a router by the path.
import { ApiError, me, post } from "./api.js";
import { h, mount } from "./dom.js";
import { LANGUAGES, errorText, has, lang, preferred, setLanguage, t } from "./i18n.js";

export const session = { user: null };
let current = null; // the page object shown now (may have a dispose())

const ROUTES = [
  [/^\/$/, () => import("./lobby.js").then((m) => new m.LobbyPage())],
  [/^\/leaderboard$/, () => import("./pages.js").then((m) => new m.LeaderboardPage())],
  [/^\/players\/([^/]+)$/, (name) => import("./pages.js").then((m) => new m.PlayerPage(decodeURIComponent(name)))],
  [/^\/rules(?:\/([a-z0-9_]+))?$/, (game) => import("./pages.js").then((m) => new m.RulesPage(game || null))],
  [/^\/games\/(\d+)$/, (id) => import("./table.js").then((m) => new m.TablePage(Number(id)))],
  [/^\/games\/(\d+)\/review$/, (id) => import("./review.js").then((m) => new m.ReviewPage(Number(id)))],
  [/^\/invite\/([A-Za-z0-9_-]+)$/, (code) => import("./invite.js").then((m) => new m.InvitePage(code))],
  [/^\/tournaments\/(\d+)$/, (id) => import("./tournament.js").then((m) => new m.TournamentPage(Number(id)))],
  [/^\/admin$/, () => import("./admin.js").then((m) => new m.AdminPage())],
];

export function go(path) {
  history.pushState(null, "", path);
  route();
}

/** Show the current path again (after signing in: the page shown may have changed meanwhile). */
export function again() {
  return route();
}

export function toast(text, kind = "error") {
  const el = h("div.toast", { class: kind, role: kind === "error" ? "alert" : "status" }, text);
  document.getElementById("toasts").append(el);
  setTimeout(() => el.remove(), 6000);
}

/** A message for an API failure, in the player's language where we know the case. */
export function explain(error) {
  if (!(error instanceof ApiError)) return String(error.message || error);
  if (error.status === 0) return t("error.network");
  // the server's code worded here, else what the status means: never the server's English
  return errorText(`error.${error.code}`, error.params) || t(has(`http.${error.status}`) ? `http.${error.status}` : "http.500");
}

export function banner(text) {
  const el = document.getElementById("banner");
  el.textContent = text || "";
  el.classList.toggle("shown", Boolean(text));
}

export function link(path, label, extra = {}) {
  return h("a", {
    href: path,
    ...extra,
    onclick: (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      go(path);
    },
  }, label);
}

export function renderHeader() {
  const user = session.user;
  const switcher = h(
    "select#lang",
    {
      "aria-label": t("header.language"),
      onchange: async (e) => {
        await setLanguage(e.target.value, true);
        renderHeader();
        route();
      },
    },
    LANGUAGES.map(([code, name]) => h("option", { value: code, selected: code === lang }, name)),
  );
  mount(
    document.getElementById("top"),
    h(
      "nav",
      { "aria-label": t("header.menu") },
      link("/", h("span.brand", {}, "Kozel")),
      link("/", t("nav.lobby")),
      link("/leaderboard", t("nav.leaderboard")),
      link("/rules", t("nav.rules")),
      user && user.admin ? link("/admin", t("admin.title")) : null,
      h("span.spacer"),
      user
        ? h(
            "span.account",
            {},
            link(`/players/${encodeURIComponent(user.name)}`, user.name, { class: "me" }),
            h("span.rating", { title: t("term.rating") }, String(user.rating)),
            h("button.link", {
              type: "button",
              onclick: async () => {
                try {
                  await post("/api/auth/logout");
                } catch (error) {
                  toast(explain(error));
                }
                session.user = null;
                renderHeader();
                go("/");
              },
            }, t("header.logout")),
          )
        : null,
      h("label.lang", {}, h("span.sr", {}, t("header.language")), switcher),
    ),
  );
}

export async function refreshUser() {
  try {
    session.user = await me();
  } catch {
    session.user = null;
  }
  renderHeader();
  return session.user;
}

async function route() {
  if (current && current.dispose) current.dispose();
  current = null;
  banner("");
  document.getElementById("toasts").replaceChildren();
  const path = location.pathname;
  const main = document.getElementById("page");
  for (const [pattern, make] of ROUTES) {
    const found = path.match(pattern);
    if (found) {
      const page = await make(...found.slice(1));
      current = page;
      await page.show(main);
      document.title = page.title ? `${page.title} · Kozel` : "Kozel";
      return;
    }
  }
  mount(main, h("section.card", {}, h("h1", {}, t("error.no_page")), link("/", t("nav.lobby"))));
}

window.addEventListener("popstate", route);
// for the browser tests and the curious: the page object shown now (e.g. kozel.page.socket)
window.kozel = { get page() { return current; } };

async function start() {
  await setLanguage(preferred());
  await refreshUser();
  await route();
}

start();
