// The leaderboard, a player's page (rating chart, recent games) and the rules of each game.
import { get } from "./api.js";
import { explain, link } from "./app.js";
import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { legend, lineChart } from "./chart.js";
import { liveGame } from "./live.js";
import { listNaming, seatNames } from "./names.js";
import { gameName, rules } from "./options.js";

export class LeaderboardPage {
  constructor() {
    this.title = t("nav.leaderboard");
  }

  async show(main) {
    let rows;
    try {
      rows = await get("/api/leaderboard");
    } catch (error) {
      mount(main, h("p.error", {}, explain(error)));
      return;
    }
    mount(
      main,
      h(
        "section.card",
        {},
        h("h1", {}, t("nav.leaderboard")),
        rows.length
          ? h(
              "table.leaderboard",
              {},
              h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("signin.name")), h("th", {}, t("term.rating")))),
              h("tbody", {}, rows.map((r, i) => h("tr", {}, h("td", {}, String(i + 1)), h("td", {}, link(`/players/${encodeURIComponent(r.name)}`, r.name)), h("td", {}, String(r.rating))))),
            )
          : h("p.muted", {}, t("leaderboard.empty")),
      ),
    );
  }
}

export class PlayerPage {
  constructor(name) {
    this.name = name;
    this.title = name;
  }

  async show(main) {
    await rules();
    let player;
    try {
      player = await get(`/api/players/${encodeURIComponent(this.name)}`);
    } catch (error) {
      mount(main, h("p.error", {}, explain(error)));
      return;
    }
    const history = [...player.history].reverse();
    const series = [{ label: player.name, values: history.map((x) => x.rating) }];
    const status = (g) => t(`status.${g.status}`);
    mount(
      main,
      h(
        "div.player-page",
        {},
        h("h1", {}, player.name, player.guest ? h("span.muted", {}, ` (${t("player.guest")})`) : null),
        h("p", {}, t("term.rating"), ": ", h("strong.rating-value", {}, String(player.rating))),
        // the game he is playing now, to watch
        player.playing.length
          ? h("section.card.playing-now", { "aria-labelledby": "playing-now-title" }, h("h2#playing-now-title", {}, t("player.playing_now")), h("ul.plain.live-games", {}, player.playing.map((g) => liveGame(g))))
          : null,
        h(
          "section.card",
          {},
          h("h2", {}, t("player.rating_history")),
          history.length ? [lineChart(series, { label: t("player.rating_history") }), legend(series)] : h("p.muted", {}, t("player.no_rated_games")),
        ),
        h(
          "section.card",
          {},
          h("h2", {}, t("player.recent_games")),
          player.games.length
            ? h(
                "ul.plain.games",
                {},
                player.games.map((g) =>
                  h("li", {}, link(g.status === "playing" ? `/games/${g.id}` : `/games/${g.id}/review`, `${gameName(g.game)} #${g.id}`), ` · ${seatNames(g.seats, listNaming(g)).join(", ")} · ${status(g)}${g.rated ? "" : ` · ${t("lobby.unrated")}`}`),
                ),
              )
            : h("p.muted", {}, t("player.no_games")),
        ),
      ),
    );
  }
}

/** Rules pages of the club's own, beside each game's (kozel/web/rules/NAME.LANG.html). */
const PAGES = { shuffle: () => t("rules.page.shuffle") };

export class RulesPage {
  constructor(game) {
    this.game = game; // null: the first game the club offers
    this.title = t("nav.rules");
  }

  async show(main) {
    const games = await rules();
    const game = this.game ?? games[0].id;
    const page = Object.hasOwn(PAGES, game);
    if (!page && !games.some((g) => g.id === game)) {
      mount(main, h("section.card", {}, h("h1", {}, t("error.no_page")), link("/rules", t("nav.rules"))));
      return;
    }
    this.title = `${t("nav.rules")}: ${page ? PAGES[game]() : gameName(game)}`;
    const response = await fetch(`/rules-text/${game}.${lang}.html`);
    const text = response.ok ? await response.text() : "";
    const body = h("article.rules-text", { "data-game": game });
    // our own static fragment (kozel/web/rules), not user input
    body.innerHTML = text;
    mount(
      main,
      h(
        "section.card.rules",
        {},
        h("nav.tabs", { "aria-label": t("nav.rules") }, games.map((g) => link(`/rules/${g.id}`, gameName(g.id), { "aria-current": g.id === game ? "page" : null }))),
        // what holds for every game: how the tiles are shuffled
        h("p.rules-pages", {}, Object.entries(PAGES).map(([name, title]) => link(`/rules/${name}`, title(), { "aria-current": name === game ? "page" : null }))),
        body,
      ),
    );
  }
}
