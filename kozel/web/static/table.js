// The table: the live game over /ws/games/{id}. Everything shown comes from the server's state
// for this seat (docs/protocol.md §6); moves are chosen among view.legal_moves.
//
// The page follows the socket (each version's patch, a resync after a gap, a move sent again
// while the table changes servers), keeps the clock, and draws the layout table from its parts:
// the others round the board as at a real table (players.js), the board with the layout drawn
// to fit it (board.js), your hand and the move being chosen (hand.js), the round's moves in a
// log that screen readers follow (movelog.js), the ends of a round and of the game (ends.js),
// the shuffle's line (shuffle.js) and the sheet. A game not played on a layout is drawn by its
// own kind of table (poker.js, tricks.js), which uses the same parts where it can.
import { get } from "./api.js";
import { banner, go, link, refreshUser, toast } from "./app.js";
import { Board } from "./board.js";
import { ChatPanel } from "./chat.js";
import { h, mount } from "./dom.js";
import { endPanel, followRematch, noticePanel } from "./ends.js";
import { Hand } from "./hand.js";
import { errorText, t } from "./i18n.js";
import { MoveLog, moveLog } from "./movelog.js";
import { applyPatch } from "./patch.js";
import { awayPanel, players } from "./players.js";
import { beforeTakeover, bothNames, isBot, naming, seatName, shortName, takeoversBySeat } from "./names.js";
import { gameInfo, gameName, optionsSummary, rules, sheetInk } from "./options.js";
import { scoresDuringPlay } from "./scoring.js";
import { sheetTable } from "./sheet.js";
import { addSeed, shuffleLine } from "./shuffle.js";
import { LiveSocket } from "./socket.js";
import { play } from "./sounds.js";
import { PokerTable } from "./poker.js";
import { TrickTable } from "./tricks.js";

// the tables of the games not played on a layout, by the kind of table /api/rules names:
// each draws its own game from the page's state and moves through the page (send())
const DRAWERS = { poker: PokerTable, tricks: TrickTable };

// where each seat sits, from yours on: play passes clockwise, so the next is on your left
const PLACES = { 1: ["you"], 2: ["you", "across"], 3: ["you", "left", "right"], 4: ["you", "left", "across", "right"] };

/** A socket error in the player's language: an illegal move's reason when the client knows it. */
const wordError = (error) =>
  (error.reason && errorText(`error.illegal.${error.reason}`, error.params)) || errorText(`error.${error.code}`) || t("error.illegal");

export class TablePage {
  constructor(id) {
    this.id = id;
    this.title = `#${id}`;
    this.state = null;
    this.seen = -1;
    this.syncAsked = null; // when the whole state was last asked for (a version was missed)
    this.hand = new Hand(this); // the tiles in the player's order, the move being chosen
    this.busy = false;
    this.roundsSeen = null;
    this.notice = null; // the last round's end, shown until dismissed
    this.sheetOpen = null; // the player's choice to show or hide the sheet, once made
    this.board = new Board(this); // the layout last drawn, to see which tiles are new
    this.log = new MoveLog(); // lives across redraws: a screen reader hears what is added
    this.chat = new ChatPanel(`/api/games/${id}/chat`, (text) => Boolean(this.socket?.send({ type: "chat", text })));
  }

  async show(main) {
    // the table is redrawn at every move; the chat below it is not (a line being typed stays)
    this.main = h("div.table-page");
    mount(main, this.main, this.chat.element);
    await rules();
    mount(this.main, h("p.loading", {}, t("table.connecting")));
    this.socket = new LiveSocket(`/ws/games/${this.id}`, {
      onMessage: (m) => this.receive(m),
      onStatus: (status) => {
        banner(status === "open" ? "" : t("table.reconnecting"));
        this.chatBehind = true;
      },
    });
    this.resize = () => this.state && this.render();
    window.addEventListener("resize", this.resize);
    this.keys = (e) => {
      if (e.key === "Escape" && this.hand.cancel()) this.render();
    };
    window.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tick(), 250);
  }

  dispose() {
    if (this.socket) this.socket.close();
    clearInterval(this.ticker);
    window.removeEventListener("resize", this.resize);
    window.removeEventListener("keydown", this.keys);
  }

  async receive(message) {
    if (message.type === "presence") {
      // who is connected, and the votes for a computer player (the position has not changed)
      if (this.state && message.version === this.seen) {
        Object.assign(this.state, { connected: message.connected, replaced: message.replaced, votes: message.votes });
        this.render();
      }
      return;
    }
    if (message.type === "rematch") {
      // a rematch offered at the game's end, and its answers (the position has not changed)
      if (this.state && message.version === this.seen) {
        this.state.rematch = message.rematch;
        this.rematchDeadline = performance.now() + message.rematch.remaining_ms;
        if (!followRematch(this)) this.render();
      }
      return;
    }
    if (message.type === "next_round") {
      // who still has to press "next" (no new version: the position has not changed)
      if (this.state && message.version === this.seen) {
        this.state.next_round = message;
        this.nextDeadline = performance.now() + message.remaining_ms;
        this.render();
      }
      return;
    }
    if (message.type === "state" && this.chatBehind) {
      // the socket listens now (the snapshot comes after it subscribed): what was said
      // before is stored, what is said from now on comes over the socket
      this.chatBehind = false;
      this.chat.load();
    }
    if (message.type === "chat" || message.code?.startsWith("chat")) {
      this.chat.receive(message);
      return;
    }
    if (message.type === "error") {
      if (message.code === "no_table") {
        this.socket.close();
        try {
          const game = await get(`/api/games/${this.id}`);
          if (game.status !== "playing") {
            history.replaceState(null, "", `/games/${this.id}/review`);
            go(`/games/${this.id}/review`);
            return;
          }
        } catch {
          /* an unknown game: say so below */
        }
        mount(this.main, h("section.card", {}, h("p", {}, t("table.no_table", { id: this.id })), link("/", t("nav.lobby"))));
        return;
      }
      if (message.code === "unavailable") {
        this.resend();
        return;
      }
      this.busy = false;
      if (message.code !== "stale") toast(wordError(message));
      return;
    }
    if (message.type === "event") {
      // what changed since the version held; after a missed version, ask for the whole state
      if (!this.state || message.version <= this.seen) return;
      let next = null;
      try {
        if (message.version === this.seen + 1) next = applyPatch(this.state, message.patch);
      } catch {
        next = null;
      }
      if (!next) {
        this.resync();
        return;
      }
      message = { ...next, version: message.version };
    }
    if (message.type !== "state" || message.version <= this.seen) return;
    this.syncAsked = null;
    if (message.status !== "playing" && message.rated && this.state?.status === "playing") refreshUser(); // the header's rating moved
    this.seen = message.version;
    const before = this.state;
    this.state = message;
    this.sound(before, message);
    this.chat.speaker(this.you !== null, t("chat.watchers"));
    this.busy = false;
    if (message.clock) this.deadline = performance.now() + message.clock.remaining_ms;
    if (message.rematch) this.rematchDeadline = performance.now() + message.rematch.remaining_ms;
    if (followRematch(this)) return;
    addSeed(this);
    if (message.next_round) {
      this.nextDeadline = performance.now() + message.next_round.remaining_ms;
      this.waited = true;
    } else if (this.waited && !message.shown) {
      this.waited = false;
      this.notice = null; // the next round is dealt: its notice was read while it waited
    }
    const view = message.view;
    if (view) {
      this.hand.sync(view);
      const finished = message.rounds.length;
      if (this.roundsSeen !== null && finished > this.roundsSeen) this.notice = message.rounds[finished - 1];
      this.roundsSeen = finished;
    }
    this.render();
  }

  /** Ask for the whole state (once in a while: the answer may be on its way). */
  resync() {
    const now = performance.now();
    if (this.syncAsked !== null && now - this.syncAsked < 2000) return;
    this.syncAsked = now;
    this.socket.send({ type: "sync" });
  }

  /** The sound of what a new state brings: a round's end; else the latest move (a tile laid,
   * a draw, a knock), then a chime when it has become your turn. */
  sound(before, after) {
    // a table drawn by its own kind (poker.js, tricks.js) makes its own sounds as it draws
    if (!before || !before.view || !after.view || this.drawer) return;
    if (after.rounds.length > before.rounds.length) {
      play("round_end");
      return;
    }
    const history = after.view.history;
    const moved = after.view.round === before.view.round && history.length > before.view.history.length;
    if (moved) {
      const latest = history[history.length - 1];
      // a refused hundred lays nothing: it makes no sound
      if (latest.hundred !== false || latest.play !== undefined) play(latest.knock ? "knocked" : latest.draw !== undefined ? "drew" : "laid");
    }
    const yours = (state) => this.you !== null && state.status === "playing" && state.view.turn === this.you;
    if (yours(after) && !yours(before)) setTimeout(() => play("turn"), moved ? 250 : 0);
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  send(move) {
    if (this.busy) return;
    this.busy = true;
    this.hand.cancel();
    this.sent = { version: this.seen, move, tries: 0 };
    if (!this.socket.send({ type: "move", version: this.seen, move })) {
      this.busy = false;
      toast(t("error.network"));
    }
    this.render();
  }

  /** Choose a tile of the hand, as a click on it does. */
  choose(tile) {
    return this.hand.choose(tile);
  }

  // The table is changing servers (or the database is away for a moment): send the same
  // move again a little later, against the same version; a move that was taken after all
  // comes back "stale" with the new position.
  resend() {
    const sent = this.sent;
    if (!sent || sent.version !== this.seen || sent.tries >= 5) {
      this.busy = false;
      toast(t("error.move_failed"));
      this.render();
      return;
    }
    sent.tries += 1;
    setTimeout(() => {
      if (this.sent === sent && sent.version === this.seen) this.socket.send({ type: "move", version: sent.version, move: sent.move });
    }, 1000 * sent.tries);
  }

  /** The whole table, drawn again at every state; a game not played on a layout is drawn by
   * its own kind of table. */
  render() {
    const state = this.state;
    if (!state) return;
    const view = state.view;
    if (!view) {
      mount(this.main, h("div.dealing", {}, h("p.loading", {}, t("table.dealing")), shuffleLine(this)));
      return;
    }
    this.title = `${gameName(view.game)} #${this.id}`;
    document.title = `${this.title} · Kozel`;
    const Drawer = DRAWERS[gameInfo(view.game).table];
    if (Drawer) {
      this.drawer = this.drawer || new Drawer(this);
      mount(this.main, this.drawer.render());
      this.tick();
      return;
    }
    this.loadTournament();
    const myTurn = view.turn !== null && view.turn === this.you && state.status === "playing";
    const log = moveLog(view.history, view.layout);
    mount(
      this.main,
      h(
        "div.table",
        { "data-game": view.game, "data-version": state.version, class: [myTurn ? "my-turn" : "", sheetInk(view.game)].join(" ").trim() },
        h(
          "div.table-head",
          {},
          h("h1", {}, gameName(view.game), h("span.muted", {}, ` #${this.id}`)),
          h("p.muted.small", {}, optionsSummary(view.game, view.options), " · ", t("table.round", { n: view.round })),
          shuffleLine(this),
          this.tournamentLine(),
        ),
        endPanel(this),
        h(
          "div.play",
          {},
          h(
            "div.arena",
            { "data-players": state.seats.length },
            players(this, log),
            // the last round's end above the layout, which is drawn in the room left
            h("div.board", {}, this.board.info(), awayPanel(this), noticePanel(this), h("div.layout", { "data-board": gameInfo(view.game).board })),
          ),
          this.you !== null ? this.hand.render() : h("p.muted.spectator", {}, t("table.spectator")),
          this.log.box(view.round, this.leadLine()),
        ),
        h("details.sheet-box", { open: this.sheetOpen ?? (window.innerWidth > 900 || state.status !== "playing"), ontoggle: (e) => (this.sheetOpen = e.target.open) }, h("summary", {}, t("sheet.title")), sheetTable(state.rounds, this.names(), view.units, { caption: false, kind: gameInfo(view.game).sheet, ...this.duringPlay() })),
      ),
    );
    this.tick(); // the clocks filled in before the board is measured
    this.board.draw(log);
    this.log.update(log, view.round, (seat, key) => this.logName(seat, view.round, key), (seat) => this.place(seat));
  }

  unitOf(seat) {
    return this.state.view.units[seat];
  }

  /** Whether `seat` is your partner (team play: another seat of your unit). */
  partnerOf(seat) {
    const { view } = this.state;
    return Boolean(view.options.teams) && this.you !== null && seat !== this.you && view.units[seat] === view.units[this.you];
  }

  /** Where a seat sits as seen from yours (a spectator sees from seat 0). */
  place(seat) {
    const n = this.state.seats.length;
    return PLACES[n][(seat - (this.you ?? 0) + n) % n];
  }

  /** Who names the computer players: this game by its seats, or the tournament it is one of
   * by its entrants (names.js), once the tournament's page data is here. */
  namer(seat) {
    return naming(this.id, this.tourney)(seat);
  }

  /** A seat's name in full (a computer's animal and level). */
  label(seat) {
    return seatName(this.state.seats[seat], ...this.namer(seat));
  }

  /** A seat's name where space is short: a computer's animal alone. */
  short(seat) {
    return shortName(this.state.seats[seat], ...this.namer(seat));
  }

  /** The sheet's names: a seat a computer player took from a person shows both. */
  names() {
    return this.state.seats.map((_, seat) => {
      const person = this.state.replaced && this.state.replaced[seat];
      return person ? bothNames(person, this.label(seat)) : this.label(seat);
    });
  }

  /** The name of whoever made move `key` (from 0) of round `round` at `seat`: the person who
   * sat there before a computer player took the seat from a later move. */
  logName(seat, round, key) {
    const taken = takeoversBySeat(this.state.takeovers).get(seat);
    return taken && beforeTakeover(taken, round, key) ? taken.player : this.short(seat);
  }

  /** The tournament this game is one of (its page's data): the entrant at each seat, which
   * game of it this is. Asked for once; the table is drawn again when it comes. */
  loadTournament() {
    const id = this.state.tournament;
    if (!id || this.tourneyAsked === id) return;
    this.tourneyAsked = id;
    get(`/api/tournaments/${id}`)
      .then((data) => {
        const k = data.games.findIndex((g) => g.id === this.id);
        if (k < 0) return;
        this.tourney = { id, players: data.games[k].players, n: k + 1 };
        this.render();
      })
      .catch(() => {
        /* the computer players keep the table's own names */
      });
  }

  /** "Game n of tournament #t", linking to its standings. */
  tournamentLine() {
    const tourney = this.tourney;
    if (!tourney) return null;
    return h("p.small.tournament-game", {}, link(`/tournaments/${tourney.id}`, t("tournament.game_of", { n: tourney.n, id: tourney.id }), { id: "tournament-standings" }));
  }

  /** True when every seat but yours is a computer's. */
  againstComputer() {
    return this.state.seats.every((label, seat) => seat === this.you || isBot(label));
  }

  /** Who leads the round and why, above its moves, in the engine's words (the view's
   * `lead`: the first round's tile that decided, the lot, how the last round ended); null
   * while the reason would name a tile this seat may not know yet. */
  leadLine() {
    const lead = this.state.view.lead;
    if (!lead) return null;
    const name = this.label(lead.seat);
    // the lot's reasons are worded with the lot's own strings
    if (lead.why.startsWith("lot_")) return t(`score.${lead.why}`, { name });
    return t(`lead.${lead.why}`, { name, tile: lead.tile ?? "" });
  }

  /** The sheet's points during play: a column in every round of a game that scores during
   * play, and the round being played so far. */
  duringPlay() {
    const view = this.state.view;
    if (!scoresDuringPlay(view)) return {};
    const current = this.state.status === "playing" && view.turn !== null ? { round: view.round, before: view.sheet, during: view.during } : null;
    return { during: true, current };
  }

  /** The clocks, four times a second: the seat to move's, an away player's seconds, and the
   * countdowns to the next round and to the rematch's end. */
  tick() {
    if (this.state?.rematch?.status === "open" && this.main) {
      const secs = Math.ceil(Math.max(0, this.rematchDeadline - performance.now()) / 1000);
      for (const el of this.main.querySelectorAll(".rematch-in")) el.textContent = t("rematch.left", { n: secs });
    }
    if (this.state?.next_round && this.main) {
      const secs = Math.ceil(Math.max(0, this.nextDeadline - performance.now()) / 1000);
      for (const el of this.main.querySelectorAll(".next-in")) el.textContent = t(el.dataset.key || "table.next_in", { n: secs });
    }
    if (!this.state || !this.state.clock || !this.main) return;
    const left = Math.max(0, this.deadline - performance.now());
    const secs = Math.ceil(left / 1000);
    const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
    for (const el of this.main.querySelectorAll(".clock")) {
      el.textContent = text;
      el.classList.toggle("low", secs <= 10);
    }
    for (const el of this.main.querySelectorAll(".away-turn")) el.textContent = t("table.away_turn", { name: el.dataset.name, n: secs });
  }
}
