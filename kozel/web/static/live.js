// A game being played as the lobby and a player's page list it (GET /api/live).
import { link, session } from "./app.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { listNaming, seatName } from "./names.js";
import { gameName, optionsSummary } from "./options.js";

/** One game being played: the game, its players with their ratings, the round, the score,
 * and the way to watch it (or back to your own table). */
export function liveGame(g) {
  const me = session.user;
  const yours = me && g.players.some((p) => p.name === me.name);
  const namer = listNaming(g);
  const names = g.players.map((p, seat) =>
    p.name
      ? h("span.live-player", {}, h("span.player-name", {}, p.name), " ", h("span.rating", { title: t("term.rating") }, String(p.rating)))
      : h("span.live-player.bot", {}, seatName(`bot:${p.bot}`, ...namer(seat))),
  );
  return h(
    "li.live-game",
    { "data-game": g.id },
    h("div.what", {}, h("strong", {}, gameName(g.game)), ` #${g.id} · `, optionsSummary(g.game, g.options), g.rated ? ` · ${t("lobby.rated")}` : ""),
    h("div.players", {}, names.flatMap((el, i) => (i ? [" · ", el] : [el]))),
    h(
      "div.meta",
      {},
      g.round ? t("live.round", { n: g.round }) : t("table.dealing"),
      g.score.length ? [" · ", t("live.score", { score: g.score.join(" : ") })] : null,
      g.commitment ? [" · ", h("span.commitment", { title: `${t("shuffle.commitment")} ${g.commitment}` }, t("shuffle.committed"), " ", h("code", {}, `${g.commitment.slice(0, 8)}…`))] : null,
      " · ",
      link(`/games/${g.id}`, yours ? t("live.yours") : t("live.watch"), { class: "watch-game" }),
    ),
  );
}

