// A Bykovo micro-tournament: the standings live (score, games played, who sits out, who was
// eliminated and when), every game one click away (its table while it is played, its review
// after) and a chart of the scores over the games. The state comes whole over
// /ws/tournaments/{id} on connecting and again after every game (docs/protocol.md).
import { link, session } from "./app.js";
import { h, mount } from "./dom.js";
import { plural, t } from "./i18n.js";
import { legend, lineChart } from "./chart.js";
import { seatName } from "./names.js";
import { LiveSocket } from "./socket.js";

/** An entrant's name: a person's own, or for `bot:LEVEL#N` an animal with the level, as a
 * table names its computer players (the animal chosen by the tournament and the entrant). */
export function entrantName(label, tournament, index) {
  const found = /^bot:([a-z]+)#\d+$/.exec(label);
  return found ? seatName(`bot:${found[1]}`, tournament, index) : label;
}

export class TournamentPage {
  constructor(id) {
    this.id = id;
    this.title = t("tournament.title", { id });
    this.state = null;
  }

  async show(main) {
    this.main = main;
    mount(main, h("p.muted", {}, t("tournament.loading")));
    this.socket = new LiveSocket(`/ws/tournaments/${this.id}`, {
      onMessage: (m) => this.receive(m),
      onStatus: (status) => main.classList.toggle("offline", status !== "open"),
    });
  }

  dispose() {
    if (this.socket) this.socket.close();
    this.main?.classList.remove("offline");
  }

  receive(message) {
    if (message.type === "error") {
      this.socket.close();
      mount(this.main, h("section.card", {}, h("p", {}, t("error.no_tournament")), link("/", t("nav.lobby"))));
      return;
    }
    if (message.type !== "tournament") return;
    // a message from before the one shown (two processes, a reconnection) is dropped
    if (this.state && message.games.length < this.state.games.length) return;
    this.state = message;
    this.render();
  }

  status(line, index) {
    const st = this.state;
    if (line.eliminated_after !== null) {
      const game = line.eliminated_after + 1;
      return line.timed_out ? t("tournament.timed_out", { game }) : t("tournament.eliminated", { game });
    }
    if (st.status === "finished") return t("tournament.finished_in");
    const live = st.games[st.games.length - 1];
    if (live && live.status === "playing") return live.players.includes(index) ? t("tournament.playing") : t("tournament.sitting_out");
    return "";
  }

  render() {
    const st = this.state;
    const names = st.players.map((label, p) => entrantName(label, st.id, p));
    const me = session.user?.name;
    const order = st.standings.map((line, index) => ({ line, index })).sort((a, b) => a.line.place - b.line.place);
    const live = st.games.find((g) => g.status === "playing");
    const mine = live && me && live.players.some((p) => st.players[p] === me);
    const series = names.map((label, p) => ({ label, values: st.history.map((scores) => scores[p]) }));
    const finished = st.status === "finished";
    mount(
      this.main,
      h(
        "div.tournament",
        { "data-status": st.status },
        h("h1", {}, t("tournament.title", { id: st.id })),
        h(
          "p.muted",
          {},
          plural("tournament.players", st.players.length),
          " · ",
          t("tournament.limit", { limit: st.limit }),
          " · ",
          t("lobby.clock", { seconds: st.seconds_per_move }),
          " · ",
          st.rated ? t("lobby.rated") : t("lobby.unrated"),
        ),
        mine ? h("p.your-game", {}, link(`/games/${live.id}`, t("tournament.your_game", { n: st.games.length }), { class: "button primary", id: "to-my-game" })) : null,
        h(
          "section.card.standings",
          { "aria-labelledby": "standings-title" },
          h("h2#standings-title", {}, finished ? t("tournament.final") : t("tournament.standings")),
          h(
            "table.standings",
            {},
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", {}, "#"),
                h("th", {}, t("tournament.player")),
                h("th", {}, t("tournament.score")),
                h("th", {}, t("tournament.played")),
                h("th", {}, t("tournament.state")),
                finished && st.rated ? h("th", {}, t("term.rating")) : null,
              ),
            ),
            h(
              "tbody",
              {},
              order.map(({ line, index }) =>
                h(
                  "tr",
                  { class: line.eliminated_after !== null ? "out" : "", "data-player": st.players[index] },
                  h("td", {}, String(line.place)),
                  h("td", {}, names[index]),
                  h("td.score", {}, `${line.score} / ${st.limit}`),
                  h("td", {}, String(line.played)),
                  h("td.state", {}, this.status(line, index)),
                  finished && st.rated ? h("td", {}, line.rating ? `+${line.rating}` : "0") : null,
                ),
              ),
            ),
          ),
        ),
        h(
          "section.card.tournament-games",
          { "aria-labelledby": "games-title" },
          h("h2#games-title", {}, t("tournament.games")),
          h(
            "ol.plain.games",
            {},
            st.games.map((g, k) =>
              h(
                "li",
                { "data-game": g.id },
                g.status === "playing"
                  ? link(`/games/${g.id}`, t("tournament.game_live", { n: k + 1 }))
                  : link(`/games/${g.id}/review`, t("tournament.game_review", { n: k + 1 })),
                ": ",
                g.players.map((p, seat) => (g.added ? `${names[p]} +${g.added[seat]}` : names[p])).join(", "),
                g.timed_out >= 0 ? ` · ${t("tournament.timed_out_game", { name: names[g.timed_out] })}` : "",
              ),
            ),
          ),
        ),
        st.history.length
          ? h("section.card.tournament-chart", {}, h("h2", {}, t("tournament.chart")), lineChart(series, { label: t("tournament.chart") }), legend(series))
          : null,
        finished ? h("p", {}, h("a", { href: `/api/tournaments/${st.id}/record`, download: `tournament-${st.id}.json` }, t("tournament.record"))) : null,
      ),
    );
  }
}
