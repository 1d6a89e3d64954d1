// The table: the live game over /ws/games/{id}. Everything shown comes from the server's state
// for this seat (docs/protocol.md §6); moves are chosen among view.legal_moves.
//
// The others sit round the board as at a real table — the next to play on your left (play
// passes clockwise), then across, then on your right — each with the hand face down, the
// score, the clock when it is theirs to move and their last move. The board takes the height
// the window leaves above the hand, and the layout is drawn to fit it. The round's moves are
// listed in a log that screen readers follow (movelog.js); a newly laid tile slides from its
// player's seat.
import { get } from "./api.js";
import { banner, go, link, refreshUser, toast } from "./app.js";
import { ChatPanel } from "./chat.js";
import { h, mount } from "./dom.js";
import { follow } from "./drag.js";
import { errorText, plural, t } from "./i18n.js";
import { drawLayout } from "./layout.js";
import { MoveLog, moveLog, tilesOf } from "./movelog.js";
import { applyPatch } from "./patch.js";
import { beforeTakeover, bothNames, isBot, naming, seatName, shortName, takeoversBySeat } from "./names.js";
import { fewest, gameInfo, gameName, isRace, loserWord, optionsSummary, rules, sheetInk } from "./options.js";
import { endSum, hintMark, hints, hintsWanted, hintSwitch, scoresDuringPlay, seatScore, setHintsWanted } from "./scoring.js";
import { creditText, decidedText, endText, fishIcon, hundredLostText, score, sheetTable, unitNames } from "./sheet.js";
import { LiveSocket } from "./socket.js";
import { play, soundSwitch } from "./sounds.js";
import { halves, tileSvg } from "./tiles.js";
import { PokerTable } from "./poker.js";
import { TrickTable } from "./tricks.js";

// the tables of the games not played on a layout, by the kind of table /api/rules names:
// each draws its own game from the page's state and moves through the page (send())
const DRAWERS = { poker: PokerTable, tricks: TrickTable };

// where each seat sits, from yours on: play passes clockwise, so the next is on your left
const PLACES = { 1: ["you"], 2: ["you", "across"], 3: ["you", "left", "right"], 4: ["you", "left", "across", "right"] };
const MAX_BACKS = 10; // face-down tiles drawn at a seat (the count says the rest)
const FLY_MS = 450;

const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** A socket error in the player's language: an illegal move's reason when the client knows it. */
const wordError = (error) =>
  (error.reason && errorText(`error.illegal.${error.reason}`, error.params)) || errorText(`error.${error.code}`) || t("error.illegal");
const same = (a, b) => a.tile === b.tile && a.arm === b.arm && a.close === b.close;
const yesNo = (cls, answer) => [
  h(`button.${cls}-yes`, { type: "button", onclick: () => answer(true) }, t("option.bool.true")),
  h(`button.${cls}-no`, { type: "button", onclick: () => answer(false) }, t("option.bool.false")),
];

export class TablePage {
  constructor(id) {
    this.id = id;
    this.title = `#${id}`;
    this.state = null;
    this.seen = -1;
    this.syncAsked = null; // when the whole state was last asked for (a version was missed)
    this.order = []; // the hand in the player's order
    this.group = null; // the value the hand is grouped by
    this.pick = null; // {tile, arm?, close?, hundred?}: a move being chosen
    this.plan = null; // several doubles being chosen: [{tile, arm, close}]
    this.busy = false;
    this.roundsSeen = null;
    this.notice = null; // the last round's end, shown until dismissed
    this.sheetOpen = null; // the player's choice to show or hide the sheet, once made
    this.laid = null; // {round, tiles}: the layout last drawn, to see which tiles are new
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
      if (e.key === "Escape" && (this.pick || this.plan)) {
        this.pick = null;
        this.plan = null;
        this.render();
      }
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
        if (!this.followRematch()) this.render();
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
    if (this.followRematch()) return;
    this.addSeed();
    if (message.next_round) {
      this.nextDeadline = performance.now() + message.next_round.remaining_ms;
      this.waited = true;
    } else if (this.waited && !message.shown) {
      this.waited = false;
      this.notice = null; // the next round is dealt: its notice was read while it waited
    }
    const view = message.view;
    if (view) {
      this.syncHand(view.hand);
      const legal = view.legal_moves;
      if (this.pick && !legal.some((m) => m.play === this.pick.tile)) this.pick = null;
      if (this.plan && !legal.some((m) => m.doubles)) this.plan = null;
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

  syncHand(hand) {
    const held = new Set(hand);
    this.order = this.order.filter((tile) => held.has(tile));
    const fresh = hand.filter((tile) => !this.order.includes(tile));
    this.order.push(...fresh);
    if (this.group !== null) this.groupBy(this.group);
  }

  /** docs/decisions.md#the-browser-client (the rulebook's §4): clicking a half groups every tile of that value (at the left). */
  groupBy(value) {
    this.group = value;
    const has = this.order.filter((tile) => halves(tile).includes(value));
    const rest = this.order.filter((tile) => !halves(tile).includes(value));
    has.sort((a, b) => {
      const oa = halves(a).find((x) => x !== value) ?? value;
      const ob = halves(b).find((x) => x !== value) ?? value;
      return oa - ob;
    });
    this.order = [...has, ...rest];
  }

  get you() {
    return this.state ? this.state.you : null;
  }

  send(move) {
    if (this.busy) return;
    this.busy = true;
    this.pick = null;
    this.plan = null;
    this.sent = { version: this.seen, move, tries: 0 };
    if (!this.socket.send({ type: "move", version: this.seen, move })) {
      this.busy = false;
      toast(t("error.network"));
    }
    this.render();
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

  // --- choosing a move ------------------------------------------------------------------

  /** The steps on offer: plain plays, or the next double of several being planned. */
  choices() {
    const legal = this.state.view.legal_moves;
    if (!this.plan) {
      return legal.filter((m) => m.play).map((m) => ({ tile: m.play, arm: m.arm ?? null, close: Boolean(m.close), hundred: Boolean(m.hundred), move: m }));
    }
    const steps = [];
    for (const m of legal.filter((x) => x.doubles)) {
      const list = m.doubles.map((d) => ({ tile: d.tile, arm: d.arm, close: Boolean(d.close) }));
      if (!this.plan.every((p) => list.some((d) => same(d, p)))) continue;
      for (const d of list) {
        if (!this.plan.some((p) => p.tile === d.tile) && !steps.some((x) => same(x, d))) steps.push(d);
      }
    }
    return steps;
  }

  /** The legal several-doubles move that is exactly the plan (in the server's own order). */
  planned() {
    if (!this.plan || this.plan.length < 2) return null;
    return (
      this.state.view.legal_moves.find(
        (m) => m.doubles && m.doubles.length === this.plan.length && m.doubles.every((d) => this.plan.some((p) => same(p, { tile: d.tile, arm: d.arm, close: Boolean(d.close) }))),
      ) || null
    );
  }

  choose(tile) {
    const options = this.choices().filter((c) => c.tile === tile);
    if (!options.length) return false;
    this.pick = { tile };
    this.advance();
    return true;
  }

  chooseArm(arm) {
    if (!this.pick) return;
    this.pick.arm = arm;
    this.advance();
  }

  chooseClose(close) {
    if (!this.pick) return;
    this.pick.close = close;
    this.advance();
  }

  chooseHundred(hundred) {
    if (!this.pick) return;
    this.pick.hundred = hundred;
    this.advance();
  }

  /** Narrow the choice by what the player said (the arm, closing it, declaring the hundred
   * with the lead); act when one step is left. */
  advance() {
    const pick = this.pick;
    let options = this.choices().filter((c) => c.tile === pick.tile);
    const arms = [...new Set(options.map((c) => c.arm))];
    if (pick.arm === undefined && arms.length === 1) pick.arm = arms[0];
    if (pick.arm !== undefined) options = options.filter((c) => c.arm === pick.arm);
    const closes = [...new Set(options.map((c) => c.close))];
    if (pick.arm !== undefined && pick.close === undefined && closes.length === 1) pick.close = closes[0];
    // the last tile ends the round: whether it closes its direction does not matter
    if (pick.arm !== undefined && pick.close === undefined && !this.plan && this.state.view.hand.length === 1) pick.close = false;
    if (pick.close !== undefined) options = options.filter((c) => c.close === pick.close);
    const hundreds = [...new Set(options.map((c) => Boolean(c.hundred)))];
    if (pick.close !== undefined && pick.hundred === undefined && hundreds.length === 1) pick.hundred = hundreds[0];
    if (pick.hundred !== undefined) options = options.filter((c) => Boolean(c.hundred) === pick.hundred);
    if (pick.arm !== undefined && pick.close !== undefined && pick.hundred !== undefined && options.length === 1) {
      const step = options[0];
      this.pick = null;
      if (this.plan) this.plan.push({ tile: step.tile, arm: step.arm, close: step.close });
      else {
        this.send(step.move);
        return;
      }
    }
    this.render();
  }

  /** Drag a playable tile onto the layout: onto an arm's marker, or anywhere on the layout
   * when the tile fits one arm only. */
  drag(event, tile) {
    follow(event, event.currentTarget, {
      onStart: () => {
        this.pick = { tile };
        this.render();
      },
      onDrop: (target) => {
        const marker = target && target.closest(".arm-target");
        const arms = [...new Set(this.choices().filter((c) => c.tile === tile).map((c) => c.arm))];
        if (marker) this.chooseArm(Number(marker.dataset.arm));
        else if (target && target.closest(".board") && arms.length === 1) this.chooseArm(arms[0]);
        else if (target && target.closest(".board")) this.render(); // it fits several ends: which one?
        else {
          this.pick = null;
          this.render();
        }
      },
    });
  }

  // --- drawing ------------------------------------------------------------------------

  render() {
    const state = this.state;
    if (!state) return;
    const view = state.view;
    if (!view) {
      mount(this.main, h("div.dealing", {}, h("p.loading", {}, t("table.dealing")), this.shuffleLine()));
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
          this.shuffleLine(),
          this.tournamentLine(),
        ),
        this.endPanel(),
        h(
          "div.play",
          {},
          h(
            "div.arena",
            { "data-players": state.seats.length },
            this.players(log),
            // the last round's end above the layout, which is drawn in the room left
            h("div.board", {}, this.boardInfo(), this.awayPanel(), this.noticePanel(), h("div.layout", { "data-board": gameInfo(view.game).board })),
          ),
          this.you !== null ? this.handPanel() : h("p.muted.spectator", {}, t("table.spectator")),
          this.log.box(view.round, this.leadLine()),
        ),
        h("details.sheet-box", { open: this.sheetOpen ?? (window.innerWidth > 900 || state.status !== "playing"), ontoggle: (e) => (this.sheetOpen = e.target.open) }, h("summary", {}, t("sheet.title")), sheetTable(state.rounds, this.names(), view.units, { caption: false, kind: gameInfo(view.game).sheet, ...this.duringPlay() })),
      ),
    );
    this.tick(); // the clocks filled in before the board is measured
    this.drawBoard(log);
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

  players(log) {
    const { state } = this;
    const n = state.seats.length;
    const order = [...Array(n).keys()].map((k) => ((this.you ?? 0) + k) % n);
    const last = new Map(log.map((entry) => [entry.seat, entry]));
    return h(
      "ol.players",
      { "aria-label": t("table.players") },
      order.map((seat) => this.seat(seat, last.get(seat))),
    );
  }

  /** The class of a seat's place at the table: its turn, yours, your partner's, away. */
  seatClass(seat) {
    const { state } = this;
    const turn = state.view.turn === seat && state.status === "playing";
    const partner = this.partnerOf(seat);
    return [turn ? "turn" : "", seat === this.you ? "you" : "", partner ? "partner" : "", this.away(seat) ? "away" : ""].join(" ");
  }

  /** One seat: its name (who()), score, tiles in hand (face down), the clock when it is
   * theirs to move, and their last move this round. */
  seat(seat, last) {
    const { state } = this;
    const view = state.view;
    const place = this.place(seat);
    const turn = view.turn === seat && state.status === "playing";
    const count = view.hand_sizes[seat];
    // at a round's end every hand is turned face up
    const shown = state.shown && place !== "you" ? state.shown[seat] : null;
    const backs = place === "you" || shown ? [] : Array.from({ length: Math.min(count, MAX_BACKS) }, () => h("span.back"));
    return h(
      "li.player",
      { "data-seat": seat, "data-place": place, class: this.seatClass(seat) },
      this.who(seat),
      h(
        "div.facts",
        {},
        scoresDuringPlay(view) ? seatScore(view, this.unitOf(seat), seat) : score(view.sheet[this.unitOf(seat)]),
        backs.length ? h("span.backs", { "aria-hidden": "true" }, backs) : null,
        shown ? h("span.shown", { "aria-label": t("table.hand_shown", { tiles: shown.join(", ") || "—" }) }, shown.map((tile) => tileSvg(...halves(tile), { u: window.innerWidth < 720 ? 14 : 16, label: tile }))) : null,
        h("span.count", { title: t("table.tiles_in_hand") }, plural("table.tiles", count)),
        turn && seat === this.you ? h("strong.your-turn", {}, t("table.your_turn")) : null,
        // the eggs waiting for this round's loser lie under the clock of the seat to move
        turn && state.clock
          ? h(
              "span.clock-box",
              {},
              h("span.clock", { title: t("table.clock") }, ""),
              view.eggs ? h("span.eggs-pending.under-clock", { title: t("term.eggs") }, fishIcon(t("term.eggs")), ` +${view.eggs}`) : null,
            )
          : null,
      ),
      last ? this.lastMove(last) : null,
    );
  }

  /** A seat's name (a computer's level apart, so a phone cuts the level, not the name), a
   * computer that took it, whether its player is away, and its team or partner. */
  who(seat) {
    const { state } = this;
    const label = state.seats[seat];
    const teams = state.view.options.teams;
    const partner = this.partnerOf(seat);
    const unit = this.unitOf(seat);
    const replaced = state.replaced && state.replaced[seat];
    return h(
      "div.who",
      {},
      h("span.name", { title: this.label(seat) }, this.short(seat), seat === this.you ? h("span.muted", {}, ` (${t("table.you")})`) : null),
      isBot(label) ? h("span.level", {}, h("span.sep", {}, "· "), t(`level.${label.slice(4)}`)) : null,
      replaced ? h("span.replaced.small.muted", {}, t("table.replaced", { name: replaced })) : null,
      this.away(seat) ? h("span.away-mark", {}, h("span", { "aria-hidden": "true" }, "⚠ "), t("table.disconnected")) : null,
      teams ? h("span.team", { class: `team${unit}` }, partner ? t("table.partner") : t("table.team", { n: unit + 1 })) : null,
    );
  }

  /** True when a person's seat (not yours) has no live socket: the server says so once the
   * grace is over (docs/protocol.md §6.8). */
  away(seat) {
    const { state } = this;
    return Boolean(state.connected) && state.connected[seat] === false && seat !== this.you && state.status === "playing";
  }

  /** The players who have disconnected: a warning with the time left when one is to move,
   * and for each the vote to let a computer player finish the game in the seat. */
  awayPanel() {
    const { state } = this;
    const view = state.view;
    const seats = state.seats.map((_, seat) => seat).filter((seat) => this.away(seat));
    if (!seats.length) return null;
    const person = this.you !== null && !isBot(state.seats[this.you]);
    return h(
      "section.away-panel",
      { role: "status" },
      seats.map((seat) => {
        const name = this.label(seat);
        const vote = (state.votes || []).find((v) => v.seat === seat);
        const agreed = vote && vote.agreed.includes(this.you);
        let action = null;
        if (person && agreed) action = h("span.small.replace-waiting", {}, t("table.replace_agreed", { names: vote.waiting.map((s) => this.label(s)).join(", ") || "—" }));
        else if (person) {
          action = h(
            "button.replace-vote",
            { type: "button", "data-seat": seat, onclick: () => this.socket.send({ type: "replace", seat }) },
            t("table.replace_vote", { name }),
          );
        }
        return h(
          "div.away-seat",
          { "data-seat": seat },
          // the seconds tick in the text (tick()); a screen reader hears the name once
          view.turn === seat && state.clock
            ? [h("strong.away-turn", { "data-name": name, "aria-hidden": "true" }, ""), h("span.sr", {}, t("table.away", { name }))]
            : h("strong", {}, t("table.away", { name })),
          action,
          person ? h("span.small.muted", {}, t("table.replace_unrated")) : null,
        );
      }),
    );
  }

  /** A seat's last move, short: the tiles it laid, what it drew, or its knock. */
  lastMove(entry) {
    const tiles = tilesOf(entry);
    let what;
    if (tiles.length) what = tiles.map((tile) => h("span.laid", {}, tileSvg(...halves(tile), { u: 9, label: tile }), ` ${tile}`));
    else if (entry.kind === "drew") what = t("seat.drew", { n: entry.n });
    else if (entry.kind === "no_hundred") what = t("seat.no_hundred");
    else what = t("seat.knocked");
    return h("div.last-move", { "data-kind": entry.kind }, h("span.sr", {}, `${t("seat.last")}: `), what);
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

  /** What lies beside the layout: the bazaar, the eggs waiting, a declared hundred. */
  boardInfo() {
    const { state } = this;
    const view = state.view;
    return h(
      "div.board-info",
      {},
      // a game that never draws the tiles left after the deal has no bazaar to show
      gameInfo(view.game).draws === false ? null : h("span.bazaar", {}, t("table.bazaar", { n: view.bazaar_left }), view.reserve ? t("table.reserve", { n: view.reserve }) : ""),
      // with a seat to move the eggs lie under its clock (seat())
      view.eggs && !(view.turn !== null && state.clock) ? h("span.eggs-pending", { title: t("term.eggs") }, fishIcon(t("term.eggs")), ` +${view.eggs}`) : null,
      view.hundred >= 0 ? h("span.hundred-declared", { role: "status" }, t("table.hundred_declared", { name: this.label(view.hundred) })) : null,
      endSum(view),
      this.you !== null && this.state.status === "playing"
        ? hintSwitch(this.state, this.againstComputer(), (on) => {
            setHintsWanted(this.againstComputer(), on);
            this.render();
          })
        : null,
      soundSwitch(),
    );
  }

  // --- the score as it happens (scoring.js) ------------------------------------------------

  /** True when every seat but yours is a computer's. */
  againstComputer() {
    return this.state.seats.every((label, seat) => seat === this.you || isBot(label));
  }

  /** The hint to show now ({tiles, at}), or null: never in a rated game (nor sent). */
  shownHints() {
    const { state } = this;
    if (state.rated || !state.view.hint || !state.view.hint.length || !hintsWanted(this.againstComputer())) return null;
    return hints(state.view);
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

  /** Give the board the height the window leaves above the bottom of the hand, then draw the
   * layout to fit it. */
  drawBoard(log) {
    const box = this.main.querySelector(".layout");
    if (!box) return;
    const view = this.state.view;
    const phone = window.innerWidth < 720;
    const [least, most] = phone ? [140, 460] : [200, 640];
    const below = this.main.querySelector(".hand-box") || this.main.querySelector(".arena");
    // how far the bottom of the hand is above the fold (below it: negative)
    const spare = () => window.innerHeight - (below.getBoundingClientRect().bottom + window.scrollY) - 8;
    let height = Math.round(Math.max(least, Math.min(most, box.clientHeight + spare())));
    box.style.height = `${height}px`;
    if (spare() < -1 && height > least) {
      // something beside the board grew with it (a wrapped line): take that back
      height = Math.round(Math.max(least, height + spare()));
      box.style.height = `${height}px`;
    }
    // a phone's round-end notice lies over the board: the board grows until all of it shows
    // (its last lines never hide behind its button in a box scrolled out of sight)
    const notice = phone && this.main.querySelector(".board .notice:not(.folded)");
    if (notice && notice.scrollHeight > notice.clientHeight) {
      height += notice.scrollHeight - notice.clientHeight + 2;
      box.style.height = `${height}px`;
    }
    if (!view.layout.first) {
      box.append(h("p.muted.empty", {}, t("table.empty_layout")));
      this.laid = { round: view.round, tiles: new Set() };
      return;
    }
    const lastEntry = [...log].reverse().find((e) => tilesOf(e).length);
    const last = lastEntry ? tilesOf(lastEntry).at(-1) : null;
    // each other seat's latest tiles, when laying them was its latest move
    const recent = new Map();
    for (const entry of new Map(log.map((e) => [e.seat, e])).values()) {
      const place = this.place(entry.seat);
      if (place !== "you") for (const tile of tilesOf(entry)) recent.set(tile, place);
    }
    let targets = [];
    if (this.pick && this.pick.arm === undefined) {
      targets = [...new Set(this.choices().filter((c) => c.tile === this.pick.tile).map((c) => c.arm))];
    }
    const svg = drawLayout(view.layout, {
      width: box.clientWidth - 8,
      height: height - 8,
      u: phone ? 24 : 30,
      minU: phone ? 9 : 12,
      targets,
      onArm: (arm) => this.chooseArm(arm),
      last,
      recent,
    });
    box.append(svg);
    this.fly(svg, log);
  }

  /** Tiles laid since the last drawing slide in from the seat of whoever laid them. */
  fly(svg, log) {
    const view = this.state.view;
    const tiles = new Set([view.layout.first, ...view.layout.arms.flatMap((a) => a.tiles)]);
    const before = this.laid && this.laid.round === view.round ? this.laid.tiles : null;
    this.laid = { round: view.round, tiles };
    if (!before || reducedMotion()) return;
    const by = new Map(log.flatMap((e) => tilesOf(e).map((tile) => [tile, e.seat])));
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width || 1;
    for (const g of svg.querySelectorAll("g.tile[data-tile]")) {
      const tile = g.dataset.tile;
      if (before.has(tile) || !by.has(tile)) continue;
      const seat = this.main.querySelector(`li.player[data-seat="${by.get(tile)}"]`);
      const at = g.getAttribute("transform").match(/translate\(([-\d.e]+) ([-\d.e]+)\)/);
      if (!seat || !at) continue;
      const from = seat.getBoundingClientRect();
      const to = g.getBoundingClientRect();
      const dx = (from.left + from.width / 2 - (to.left + to.width / 2)) / scale;
      const dy = (from.top + from.height / 2 - (to.top + to.height / 2)) / scale;
      const [x, y] = [Number(at[1]), Number(at[2])];
      svg.append(g); // above the others on its way
      g.style.transform = `translate(${x + dx}px, ${y + dy}px)`;
      g.getBoundingClientRect(); // the start is drawn before the move begins
      g.classList.add("flying");
      g.style.transform = `translate(${x}px, ${y}px)`;
      const land = () => {
        g.classList.remove("flying");
        g.style.transform = "";
      };
      g.addEventListener("transitionend", land, { once: true });
      setTimeout(land, FLY_MS + 200);
    }
  }

  handPanel() {
    const { state } = this;
    const view = state.view;
    const myTurn = view.turn === this.you && state.status === "playing";
    const choices = myTurn ? this.choices() : [];
    const playable = new Set(choices.map((c) => c.tile));
    const inPlan = new Set((this.plan || []).map((p) => p.tile));
    const upright = window.innerWidth >= 480;
    const hinted = myTurn ? this.shownHints() : null;
    const tiles = this.order.map((tile) => {
      let [a, b] = halves(tile);
      if (this.group !== null && b === this.group && a !== b) [a, b] = [b, a];
      const selected = this.pick && this.pick.tile === tile;
      return h(
        "button.hand-tile",
        {
          type: "button",
          "data-tile": tile,
          class: [playable.has(tile) ? "playable" : "", selected ? "selected" : "", inPlan.has(tile) ? "planned" : ""].join(" "),
          "aria-pressed": selected ? "true" : "false",
          "aria-label": `${tile}${playable.has(tile) ? ` (${t("table.playable")})` : ""}${hinted && hinted.tiles.get(tile) ? ` ${t("score.hint", { points: hinted.tiles.get(tile) })}` : ""}`,
          disabled: inPlan.has(tile),
          onclick: (e) => {
            if (playable.has(tile) && !this.busy) {
              this.choose(tile);
              return;
            }
            // not playable now: the half clicked groups the hand by its value
            const box = e.currentTarget.getBoundingClientRect();
            const first = !e.clientX || (upright ? e.clientY - box.top < box.height / 2 : e.clientX - box.left < box.width / 2);
            this.groupBy(first ? a : b);
            this.render();
          },
          onpointerdown: (e) => playable.has(tile) && !this.busy && !this.plan && this.drag(e, tile),
        },
        tileSvg(a, b, { u: upright ? 28 : 22, vertical: upright }),
        hinted ? hintMark(hinted.tiles.get(tile)) : null,
      );
    });
    const legal = myTurn ? view.legal_moves : [];
    // Sea Goat: the record holder dealt 6-6 is asked before the regular leader leads
    const refuse = legal.find((m) => m.hundred === false && m.play === undefined);
    const declare = refuse ? legal.find((m) => m.hundred === true) : null;
    const draw = legal.find((m) => m.draw);
    const knock = legal.find((m) => m.knock);
    const doubles = legal.some((m) => m.doubles);
    const actions = [];
    if (this.pick && this.pick.arm === undefined) {
      const arms = [...new Set(choices.filter((c) => c.tile === this.pick.tile).map((c) => c.arm))];
      const shows = (arm) => view.layout.arms.find((x) => x.arm === arm)?.shows;
      actions.push(
        h("span.prompt", {}, t("table.which_arm", { tile: this.pick.tile })),
        // a phone shows the short label (the number its marker on the board shows): four
        // long buttons would push the hand below the fold
        arms.map((arm) =>
          h(
            "button.arm",
            { type: "button", "data-arm": arm, onclick: () => this.chooseArm(arm) },
            h("span.arm-long", {}, t("table.arm", { arm, shows: shows(arm) })),
            h("span.arm-short", {}, t("table.arm_short", { arm, shows: shows(arm) })),
            hinted ? hintMark(hinted.at(this.pick.tile, arm)) : null,
          ),
        ),
      );
    } else if (this.pick && this.pick.close === undefined) {
      actions.push(h("span.prompt", { role: "alert" }, t("term.close_arm_question")), yesNo("close", (v) => this.chooseClose(v)));
    } else if (this.pick && this.pick.hundred === undefined) {
      actions.push(h("span.prompt", { role: "alert" }, t("term.hundred_question")), yesNo("hundred", (v) => this.chooseHundred(v)));
    }
    if (this.pick) actions.push(h("button.link", { type: "button", onclick: () => { this.pick = null; this.render(); } }, t("table.cancel")));
    if (!this.pick && this.plan) {
      const move = this.planned();
      actions.push(
        h("span.prompt", {}, t("table.plan", { tiles: this.plan.map((p) => `${p.tile}${p.close ? " ✕" : ""}`).join(", ") || "—" })),
        h("button.primary.lay-doubles", { type: "button", disabled: !move, onclick: () => move && this.send(move) }, plural("table.lay_doubles", this.plan.length)),
        h("button.link", { type: "button", onclick: () => { this.plan = null; this.render(); } }, t("table.cancel")),
      );
    }
    if (refuse && declare) {
      actions.push(
        h("span.prompt.hundred-asked", { role: "alert" }, t("table.hundred_asked")),
        // the classes of the other yes/no questions too (hundred-yes, hundred-no)
        h("button.primary.declare-hundred.hundred-yes", { type: "button", onclick: () => this.send(declare) }, t("table.hundred_yes")),
        h("button.refuse-hundred.hundred-no", { type: "button", onclick: () => this.send(refuse) }, t("table.hundred_no")),
      );
    } else if (!this.pick && !this.plan && myTurn) {
      if (doubles) actions.push(h("button.several", { type: "button", onclick: () => { this.plan = []; this.render(); } }, t("table.several_doubles")));
      if (draw) actions.push(h("button.primary.draw", { type: "button", onclick: () => this.send({ draw: true }) }, t("term.draw")));
      if (knock) actions.push(h("button.primary.knock", { type: "button", onclick: () => this.send({ knock: true }) }, t("term.knock")));
      if (!draw && !knock && !doubles) actions.push(h("span.prompt", {}, t("table.pick_tile")));
    }
    if (!myTurn && view.turn !== null && state.status === "playing") {
      const asked = view.hundred_asked >= 0 && view.hundred_asked === view.turn;
      actions.push(h("span.muted", {}, t(asked ? "table.hundred_deciding" : "table.turn_of", { name: this.label(view.turn) })));
    }
    return h(
      "section.hand-box",
      { "aria-label": t("table.your_hand") },
      h("div.actions", {}, actions),
      h("div.hand", {}, tiles),
      h(
        "div.sorter",
        {},
        h("span.muted.small", {}, t("table.group_by")),
        [0, 1, 2, 3, 4, 5, 6].map((v) => h("button.value", { type: "button", "data-value": v, "aria-pressed": this.group === v ? "true" : "false", onclick: () => { this.groupBy(v); this.render(); } }, String(v))),
      ),
    );
  }

  /** How a finished round ended, in words: who went out, or the fish and who won it. */
  endLine(round) {
    const view = this.state.view;
    const names = this.state.seats.map((_, s) => this.label(s));
    const units = unitNames(names, view.units);
    let text = endText(round.end, names);
    if (isRace(view.game) && round.end.kind === "fish") {
      text += ` — ${round.winner === null || round.winner === undefined ? t("notice.fish_nobody") : t("notice.fish_won", { side: units[round.winner] })}`;
    }
    return text;
  }

  noticePanel() {
    const round = this.notice;
    if (!round || this.state.status !== "playing") return null;
    const view = this.state.view;
    const names = this.state.seats.map((_, s) => this.label(s));
    const units = unitNames(names, view.units);
    const decided = decidedText(round, names) || hundredLostText(round, names);
    // a phone's notice lies over the board: folded, it leaves the final position in sight
    const folded = this.noticeFolded === round;
    return h(
      "section.notice",
      { role: "status", "data-end": round.end.kind, class: folded ? "folded" : "" },
      h(
        "button.link.notice-fold",
        { type: "button", "aria-expanded": folded ? "false" : "true", onclick: () => { this.noticeFolded = folded ? null : round; this.render(); } },
        t(folded ? "table.notice_show" : "table.notice_hide"),
      ),
      h("h2", {}, round.end.kind === "fish" ? fishIcon() : null, " ", this.endLine(round)),
      decided ? h("p.decided", {}, h("strong", {}, decided)) : null,
      h("ul.plain.counts", {}, round.counts.map((c, s) => h("li", {}, t("table.count_of", { name: names[s], count: c })))),
      isRace(view.game)
        ? h("p.small.credited", {}, creditText(round, units, view.options))
        : h("p.small", {}, round.sheet.map((e, u) => `${units[u]}: +${e.charged}`).join(" · ")),
      round.eggs ? h("p.small", {}, fishIcon(t("term.eggs")), plural("table.eggs_carried", round.eggs)) : null,
      this.state.next_round ? this.nextRound(names) : h("button.ok", { type: "button", onclick: () => { this.notice = null; this.render(); } }, t("table.ok")),
    );
  }

  /** The finished round waits for the next deal: who is still reading it, how long at most,
   * and the button that says one is ready (``label``: its words, e.g. "Next hand"). */
  nextRound(names, label = "table.next_round") {
    // the countdown names what comes as the button does: a round, or a hand
    const countdown = label === "table.next_hand" ? "table.next_hand_in" : "table.next_in";
    const { waiting } = this.state.next_round;
    const mine = this.you !== null && waiting.includes(this.you);
    const others = waiting.filter((s) => s !== this.you).map((s) => names[s]);
    return h(
      "div.next-round",
      {},
      mine ? h("button.primary#next-round", { type: "button", onclick: () => this.socket.send({ type: "next" }) }, t(label)) : null,
      h("span.small.next-in", { "data-key": countdown }, ""),
      others.length ? h("span.small.muted.waiting", {}, " ", t("table.waiting_for", { names: others.join(", ") })) : null,
    );
  }

  endPanel() {
    const { state } = this;
    if (state.status === "playing" || !state.result) return null;
    const res = state.result;
    const view = state.view;
    const names = state.seats.map((_, s) => this.label(s));
    const units = unitNames(names, view.units);
    const last = state.rounds[state.rounds.length - 1];
    const decided = last && !this.drawer ? decidedText(last, names) : null;
    // a game a clock ended says so once (the verdict), not again as its last round's end
    const timedOut = res.timeout !== null && res.timeout !== undefined;
    let verdict;
    if (timedOut) verdict = h("p.timed-out", {}, t("table.timed_out", { name: this.label(res.timeout) }));
    else if (res.winners) verdict = h("p.winner", {}, `${res.winners.length > 1 ? t("table.winners") : t("table.winner")}: `, h("strong", {}, res.winners.map((u) => units[u]).join(", ")));
    else {
      verdict = [
        h("p.loser", {}, `${loserWord(view.game)}: `, h("strong", {}, res.losers.map((u) => units[u]).join(", "))),
        h("p.fewest", {}, t("table.fewest", { names: fewest(res.accounts).map((u) => units[u]).join(", ") })),
      ];
    }
    return h(
      "section.game-over",
      { role: "status" },
      h("h2", {}, t("table.game_over")),
      last && this.drawer && !timedOut ? h("p.small.last-round", {}, this.drawer.endLine(last)) : null,
      last && !this.drawer && !timedOut ? h("p.small.last-round", {}, last.end.kind === "fish" ? fishIcon() : null, " ", this.endLine(last), isRace(view.game) && last.end.kind !== "timeout" ? `. ${creditText(last, units, view.options)}` : "") : null,
      decided ? h("p.decided", {}, decided) : null,
      verdict,
      last && !this.drawer ? this.finalHands(last, names) : null,
      res.scores ? h("p.small.scores", {}, res.scores.map((v, u) => `${units[u]}: ${v}`).join(" · ")) : null,
      state.rated
        ? h(
            "ul.plain.rating",
            {},
            res.rating.map((delta, seat) => h("li", {}, `${this.label(seat)}: ${t("table.rating_change", { delta: delta >= 0 ? `+${delta}` : delta })}`)),
          )
        : h("p.muted", {}, t("lobby.unrated")),
      this.rematchPanel(names),
      state.tournament
        ? h(
            "p.tournament-links",
            {},
            link(`/tournaments/${state.tournament}`, t("tournament.back"), { class: "button primary", id: "to-tournament" }),
            state.next_game ? [" · ", link(`/games/${state.next_game}`, t("tournament.next_game"), { id: "next-game" })] : null,
          )
        : null,
      h("p", {}, link(`/games/${this.id}/review`, t("table.review")), " · ", link("/", t("nav.lobby"))),
    );
  }

  /** Before the first deal, add a seed of our own to the table's shuffle (16 random bytes):
   * the deals then depend on a number the club did not know when it committed to its own. */
  addSeed() {
    const { state } = this;
    const shuffle = state.shuffle;
    if (!shuffle || state.view || state.status !== "playing" || this.you === null || this.seeded) return;
    if (shuffle.seeds[this.you] !== null) return;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    this.seeded = this.socket.send({ type: "seed", seed: [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("") });
  }

  /** What the table says of its shuffle: before the deal, the commitment and the seeds added;
   * at the end, the server seed revealed and where the check is. */
  shuffleLine() {
    const { state } = this;
    const shuffle = state.shuffle;
    if (!shuffle) return null;
    const short = (hex) => h("code", { title: hex }, `${hex.slice(0, 12)}…`);
    const added = shuffle.seeds.filter((seed) => seed !== null).length;
    return h(
      "p.small.muted.shuffle-line",
      { "data-commitment": shuffle.commitment },
      t("shuffle.commitment"),
      " ",
      short(shuffle.commitment),
      " · ",
      plural("shuffle.seeds", added),
      shuffle.server_seed ? [" · ", t("shuffle.revealed"), " ", short(shuffle.server_seed), " · ", link(`/games/${this.id}/review`, t("shuffle.check"))] : null,
      " · ",
      link("/rules/shuffle", t("shuffle.how")),
    );
  }

  /** The rematch everyone accepted has started: a player goes to its table. */
  followRematch() {
    const offer = this.state && this.state.rematch;
    if (!offer || offer.status !== "started" || this.you === null || !offer.game) return false;
    go(`/games/${offer.game}`);
    return true;
  }

  /** At the end of the game: offer a rematch, answer the offer, or see how it went (who
   * declined or did not answer in time); a spectator sees the offer and the new table. */
  rematchPanel(names) {
    const { state } = this;
    if (state.tournament) return null;
    const offer = state.rematch;
    const person = this.you !== null && !isBot(state.seats[this.you]);
    const answer = (accept) => this.socket.send({ type: "rematch", accept });
    const how = t(state.view.options.teams ? "rematch.kept" : "rematch.rotated");
    const offerButton = person ? h("button.primary#rematch-offer", { type: "button", onclick: () => answer(true) }, t("rematch.offer")) : null;
    const list = (seats) => seats.map((s) => names[s]).join(", ");
    let body;
    if (!offer) body = [offerButton, person ? h("span.small.muted", {}, " ", how) : null];
    else if (offer.status === "open") {
      const mine = person && offer.waiting.includes(this.you);
      body = [
        h("p.rematch-offered", {}, offer.by === this.you ? t("rematch.you_offered") : t("rematch.offered", { name: names[offer.by] }), " ", how),
        mine
          ? h("span.buttons", {}, h("button.primary#rematch-accept", { type: "button", onclick: () => answer(true) }, t("rematch.accept")), " ", h("button#rematch-decline", { type: "button", onclick: () => answer(false) }, t("rematch.decline")))
          : null,
        offer.waiting.length ? h("p.small.rematch-waiting", {}, t("table.waiting_for", { names: list(offer.waiting) }), " ", h("span.rematch-in", {}, "")) : null,
      ];
    } else if (offer.status === "started") {
      body = h("p.rematch-started", {}, t("rematch.started"), " ", link(`/games/${offer.game}`, t("rematch.watch"), { id: "rematch-watch" }));
    } else {
      const why = offer.status === "declined" ? t("rematch.declined", { names: list(offer.declined) }) : t("rematch.expired", { names: list(offer.waiting) });
      body = [h("p.rematch-over", { "data-status": offer.status }, why), offerButton];
    }
    return h("div.rematch", { role: "status", "data-status": offer ? offer.status : "none" }, body);
  }

  /** The hands left at the game's end, face up, each with its count as the game counts it
   * (the round's summary): the bonus and the charges can be checked here. */
  finalHands(last, names) {
    const shown = this.state.shown;
    if (!shown || !last.counts) return null;
    const u = window.innerWidth < 720 ? 14 : 17;
    return h(
      "ul.plain.final-hands",
      { "aria-label": t("table.final_hands") },
      shown.map((tiles, seat) =>
        h(
          "li",
          { "data-seat": seat },
          h("span.name", {}, names[seat]),
          h("span.shown", { "aria-label": t("table.hand_shown", { tiles: tiles.join(", ") || "—" }) }, tiles.length ? tiles.map((tile) => tileSvg(...halves(tile), { u, label: tile })) : "—"),
          h("strong.total", {}, t("table.hand_total", { count: last.counts[seat] })),
        ),
      ),
    );
  }

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

