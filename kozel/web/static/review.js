// A finished game: every round step by step with all hands shown, the final sheet, and a chart
// of each scoring unit's account (Goat family) or score (races) round by round. The positions
// are the engine's, from GET /api/games/{id}/positions; this page only draws them. A game not
// played on a layout is reviewed hand by hand from its record (handreview.js).
import { get } from "./api.js";
import { explain, link } from "./app.js";
import { h, mount } from "./dom.js";
import { plural, t } from "./i18n.js";
import { drawLayout, laidOn } from "./layout.js";
import { describe } from "./movelog.js";
import { legend, lineChart } from "./chart.js";
import { beforeTakeover, bothNames, naming, seatName, takeoversBySeat } from "./names.js";
import { fewest, gameInfo, gameName, isRace, loserWord, optionsSummary, rules, sheetInk } from "./options.js";
import { decidedText, endText, fishIcon, hundredLostText, sheetTable, unitNames } from "./sheet.js";
import { halves, tileSvg } from "./tiles.js";
import { handsReview } from "./handreview.js";
import { byMove, follow, judgementCard, verdict } from "./judgement.js";

export class ReviewPage {
  constructor(id) {
    this.id = id;
    this.title = `#${id}`;
    this.round = 0;
    this.step = 0;
    this.hand = 0;
    // the expert's judgement: asked for once the game is shown, drawn in a box of its own
    this.analysis = null;
    this.judged = new Map();
    this.judgementBox = h("div.judgement-box");
  }

  async show(main) {
    this.main = main;
    await rules();
    try {
      [this.record, this.game] = await Promise.all([get(`/api/games/${this.id}/record`), get(`/api/games/${this.id}`)]);
      // the club's check of the verifiable shuffle, as `kozel verify` makes it
      this.shuffle = this.record.shuffle ? await get(`/api/games/${this.id}/shuffle`) : null;
      this.layout = gameInfo(this.record.game).table === "layout";
      await this.name();
      if (!this.layout) {
        // a game of hands, not of positions on a layout: its record says it all
        this.title = `${gameName(this.record.game)} #${this.id}`;
        this.renderHands(this.record.rounds.length - 1);
        this.judge();
        return;
      }
      this.positions = await get(`/api/games/${this.id}/positions`);
    } catch (error) {
      mount(main, h("section.card", {}, h("p", {}, error.status === 409 ? t("review.not_over") : explain(error)), link(`/games/${this.id}`, t("review.to_table"))));
      return;
    }
    // the record's rounds with what the engine says of each (Sea Goat's hundred, instant ends)
    this.rounds = this.record.rounds.map((r, i) => {
      const { positions: _, ...facts } = this.positions.rounds[i];
      return { ...r, ...facts };
    });
    this.title = `${gameName(this.record.game)} #${this.id}`;
    this.load(this.record.rounds.length - 1, "end");
    this.judge();
    this.keys = (e) => {
      if (e.target.closest && e.target.closest("input, select, textarea")) return;
      const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -1e9, End: 1e9 }[e.key];
      if (moves !== undefined) {
        e.preventDefault();
        this.go(moves);
      }
    };
    window.addEventListener("keydown", this.keys);
  }

  /** The seats' names: a tournament's computer players as its page names them; a seat a
   * computer player took from a person by both (`this.seats`), and who made each move. */
  async name() {
    let namer = naming(this.id);
    const tournament = this.game.tournament_id;
    if (tournament) {
      try {
        const games = (await get(`/api/tournaments/${tournament}`)).games;
        const game = games.find((g) => g.id === this.id);
        if (game) namer = naming(this.id, { id: tournament, players: game.players });
      } catch {
        /* the computer players keep the game's own names */
      }
    }
    this.taken = takeoversBySeat(this.record.replaced);
    this.people = this.record.seats.map((label, seat) => seatName(label, ...namer(seat)));
    this.computers = this.record.seats.map((_, seat) => (this.taken.has(seat) ? seatName(this.taken.get(seat).by, ...namer(seat)) : null));
    this.seats = this.people.map((name, seat) => (this.computers[seat] ? bothNames(name, this.computers[seat]) : name));
  }

  /** Who made move `index` (from 0) of round `round` (from 1) at `seat`. */
  mover(seat, round, index) {
    const taken = this.taken.get(seat);
    if (!taken) return this.seats[seat];
    return beforeTakeover(taken, round, index) ? this.people[seat] : this.computers[seat];
  }

  dispose() {
    if (this.keys) window.removeEventListener("keydown", this.keys);
    if (this.unfollow) this.unfollow();
  }

  /** Ask for the expert's judgement of the game and draw it as it comes (the seats judged so
   * far while it is being computed). */
  judge() {
    const draw = (analysis, error) => {
      this.analysis = analysis;
      this.judged = byMove(analysis);
      mount(this.judgementBox, judgementCard(analysis, error, this.seats, { jump: (round, move) => this.jump(round, move), onValueAt: (round, move) => this.onValueAt(round, move), explain, hands: !this.layout }));
      if (this.layout) this.render();
      else this.renderHands(this.hand);
    };
    this.unfollow = follow(this.id, draw);
  }

  /** The values a tile could be laid on before move `move` of round `round` (by arm), for
   * naming a judged move; a game of hands has none. */
  onValueAt(round, move) {
    if (!this.layout) return () => undefined;
    const before = this.positions.rounds[round - 1]?.positions[move - 1];
    const arms = before ? before.layout.arms : [];
    return (arm) => arms.find((a) => a.arm === arm)?.shows;
  }

  /** Show the position a judged move led to (a game of hands: its hand). */
  jump(round, move) {
    if (!this.layout) {
      this.renderHands(round - 1);
      this.main.querySelector(`.hand-moves li[data-move="${move}"]`)?.scrollIntoView({ block: "center" });
      return;
    }
    this.round = round - 1;
    this.steps = this.positions.rounds[this.round].positions;
    this.step = Math.min(move, this.steps.length - 1);
    this.render();
    this.main.querySelector(".stepper")?.scrollIntoView({ block: "nearest" });
  }

  /** The expert's word on the move that led to the position shown, if it judged it. */
  here() {
    const d = this.step > 0 ? this.judged.get(`${this.round + 1}:${this.step}`) : undefined;
    if (!d) return null;
    return h("p.judgement-here", { class: d.mistake ? "mistake" : d.loss > 0 ? "inaccuracy" : "best" }, `${t("judge.expert")}: `, verdict(d, this.onValueAt(this.round + 1, this.step)), d.mistake ? [" ", h("strong.mistake-mark", {}, `✗ ${t("judge.mistake")}`)] : null);
  }

  load(round, where = "start") {
    this.round = round;
    this.steps = this.positions.rounds[round].positions;
    this.step = where === "end" ? this.steps.length - 1 : 0;
    this.render();
  }

  go(delta) {
    this.step = Math.max(0, Math.min(this.steps.length - 1, this.step + delta));
    this.render();
  }

  /** The move that led to a position, in the words of the table's move log (the value a
   * tile was laid on, read from the position's layout; the points it scored); a draw names
   * its tile, since the review shows every hand. */
  describe(move, layout) {
    if (!move) return t("review.deal");
    const who = this.mover(move.seat, this.round + 1, this.step - 1);
    if (move.draw) return t("review.draw", { name: who, tile: move.draw });
    const kind = move.knock ? "knock" : move.doubles ? "doubles" : move.arm === undefined || move.arm === null ? "lead" : "play";
    return describe({ kind, move, value: move.play ? laidOn(layout).get(move.play) : undefined }, who);
  }

  /** A game of hands: the title and result, then one hand from the record. */
  renderHands(index) {
    const record = this.record;
    this.hand = index;
    mount(this.main, h("div.review", { "data-table": gameInfo(record.game).table }, this.heading(), handsReview(record, this.seats, index, (i) => this.renderHands(i), this.judged), this.judgementBox));
  }

  /** The title, the options and the result with the rating it gave. */
  heading() {
    const record = this.record;
    const units = unitNames(this.seats, record.options.teams ?? gameInfo(record.game).pairs);
    const result = record.result;
    const decided = this.layout ? decidedText(this.rounds[this.rounds.length - 1], this.seats) : null;
    const verdict = () => {
      if (result.timeout !== undefined && result.timeout !== null) return t("table.timed_out", { name: this.seats[result.timeout] });
      if (result.winners) return [h("span.winner", {}, `${result.winners.length > 1 ? t("table.winners") : t("table.winner")}: `, h("strong", {}, result.winners.map((u) => units[u]).join(", ")))];
      return [
        h("span.loser", {}, `${loserWord(record.game)}: `, h("strong", {}, result.losers.map((u) => units[u]).join(", "))),
        " · ",
        h("span.fewest", {}, t("table.fewest", { names: fewest(result.accounts).map((u) => units[u]).join(", ") })),
      ];
    };
    return [
      h("h1", {}, t("review.title", { game: gameName(record.game), id: this.id })),
      h("p.muted.small", {}, optionsSummary(record.game, record.options)),
      result
        ? h(
            "p.result",
            {},
            decided ? [decided, " "] : null,
            verdict(),
            " · ",
            // the record says what the rating would be; only a rated game moved it
            this.game.rated ? result.rating.map((d, s) => `${this.seats[s]} ${d >= 0 ? "+" : ""}${d}`).join(", ") : t("lobby.unrated"),
          )
        : null,
      this.shuffleCheck(),
    ];
  }

  /** Whether every deal is the one the seeds give: the commitment made before the first
   * deal, the server seed revealed at the end, each player's seed, and each round's verdict. */
  shuffleCheck() {
    const check = this.shuffle;
    if (!check) return null;
    const failed = check.rounds.filter((r) => !r.ok).map((r) => r.round);
    const header = check.shuffle;
    const hex = (text) => (text ? h("code", {}, text) : "—");
    return h(
      "details.card.shuffle-check",
      { "data-ok": String(check.ok), open: !check.ok },
      h("summary", {}, h("strong.verdict", {}, check.ok ? `✓ ${plural("shuffle.verified", check.rounds.length)}` : `✗ ${t("shuffle.failed")}`)),
      failed.length ? h("p.failed-rounds", {}, t("shuffle.rounds_failed", { rounds: failed.join(", ") })) : null,
      check.ok || !check.problems.length ? null : h("p.small", {}, t("shuffle.not_committed")),
      h(
        "dl.rules-list",
        {},
        h("dt", {}, t("shuffle.commitment")),
        h("dd", {}, hex(header.commitment)),
        h("dt", {}, t("shuffle.revealed")),
        h("dd", {}, hex(header.server_seed)),
        header.seeds.map((seed, s) => [h("dt", {}, t("shuffle.seed_of", { name: this.seats[s] })), h("dd", {}, hex(seed))]),
      ),
      h("p.small.muted", {}, t("shuffle.yourself"), " ", h("code", {}, "kozel verify"), " · ", h("a", { href: `/api/games/${this.id}/record`, download: `game-${this.id}.json` }, t("shuffle.record")), " · ", link("/rules/shuffle", t("shuffle.how"))),
    );
  }

  render() {
    const record = this.record;
    const round = this.rounds[this.round];
    const at = this.steps[this.step];
    const teams = record.options.teams;
    const units = unitNames(this.seats, teams);
    const race = isRace(record.game);
    const series = units.map((label, u) => ({ label, values: record.rounds.map((r) => (race ? r.sheet[u].after : r.sheet[u].after.account)) }));
    const chartTitle = race ? t("review.scores") : t("review.accounts");
    const width = Math.min(this.main.clientWidth || window.innerWidth, 1100) - 24;
    const height = Math.max(200, Math.min(480, window.innerHeight * 0.6));
    mount(
      this.main,
      h(
        "div.review",
        {},
        this.heading(),
        h(
          "nav.rounds",
          { "aria-label": t("review.rounds") },
          record.rounds.map((r, i) =>
            h("button.round", { type: "button", "aria-current": i === this.round ? "true" : "false", onclick: () => this.load(i) }, String(i + 1), r.end.kind === "fish" ? fishIcon() : null),
          ),
        ),
        h(
          "div.stepper",
          {},
          h("button.first", { type: "button", "aria-label": t("review.first"), onclick: () => this.go(-1e9) }, "◀◀"),
          h("button.prev", { type: "button", "aria-label": t("review.prev"), onclick: () => this.go(-1) }, "◀"),
          h("span.step", {}, t("review.step", { n: this.step, total: this.steps.length - 1 })),
          h("button.next", { type: "button", "aria-label": t("review.next"), onclick: () => this.go(1) }, "▶"),
          h("button.last", { type: "button", "aria-label": t("review.last"), onclick: () => this.go(1e9) }, "▶▶"),
        ),
        h("p.move", { "aria-live": "polite" }, this.describe(at.move, at.layout), this.step === this.steps.length - 1 ? ` — ${[endText(round.end, this.seats), decidedText(round, this.seats), hundredLostText(round, this.seats)].filter(Boolean).join(" · ")}` : ""),
        this.here(),
        h(
          "div.all-hands",
          {},
          at.hands.map((hand, seat) =>
            h(
              "div.seat-hand",
              { "data-seat": seat },
              h("span.name", {}, this.seats[seat]),
              h("span.tiles", {}, hand.map((tile) => tileSvg(...halves(tile), { u: 16 }))),
            ),
          ),
          h("p.small.muted", {}, [gameInfo(record.game).draws === false ? null : t("table.bazaar", { n: at.bazaar_left }), at.turn !== null ? t("table.turn_of", { name: this.mover(at.turn, this.round + 1, this.step) }) : null].filter(Boolean).join(" · ")),
        ),
        h("div.layout", { "data-board": gameInfo(record.game).board }, at.layout.first ? drawLayout(at.layout, { width, height, u: width < 480 ? 20 : 26, minU: 9, last: at.laid[at.laid.length - 1] ?? null }) : h("p.muted", {}, t("table.empty_layout"))),
        h("section.card", {}, h("h2", {}, chartTitle), lineChart(series, { label: chartTitle }), legend(series)),
        h("section.card.final-sheet", { class: sheetInk(record.game) }, sheetTable(this.rounds, this.seats, teams, { kind: gameInfo(record.game).sheet })),
        this.judgementBox,
      ),
    );
  }
}
