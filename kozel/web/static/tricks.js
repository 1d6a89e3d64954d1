// The trick table: four players in two pairs (partner across), a bidding, trumps named by the
// highest bidder, seven tricks. The page (table.js) owns the socket, the clock and the chat,
// and the layout table's parts draw the seats' names and the away panel (players.js), the end
// panel and the "next" button (ends.js) and the shuffle (shuffle.js); this draws the game from
// page.state (the seat's view, see docs/protocol.md) and moves through page.send(), choosing
// only among view.legal_moves.
//
// The seats sit round the table as at the layout games' table (you at the bottom, the next to
// play on your left, your partner across); the trick lies in the middle, each tile at its
// player's side, the led one marked. When a trick is complete its four tiles stay in the middle,
// the winner's marked, until the next tile is laid; then they shrink to the board's corner.
import { h, s } from "./dom.js";
import { endPanel, nextRound } from "./ends.js";
import { plural, t } from "./i18n.js";
import { gameName, optionsSummary } from "./options.js";
import { awayPanel, seatClass, who } from "./players.js";
import { unitNames } from "./sheet.js";
import { shuffleLine } from "./shuffle.js";
import { play, soundSwitch } from "./sounds.js";
import { halves, SPOTS, tileSvg } from "./tiles.js";

const SIDE = { you: "south", left: "west", across: "north", right: "east" };

/** One half of a tile: the pips of a number (the trumps named, the trumps chooser). */
export function pips(value, size = 22) {
  const svg = s("svg", { class: "pips", viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true" });
  svg.append(s("rect", { class: "tile-face", x: 0.5, y: 0.5, width: 19, height: 19, rx: 3 }));
  for (const [x, y] of SPOTS[value]) svg.append(s("circle", { class: "pip", cx: x * 20, cy: y * 20, r: 1.9 }));
  return svg;
}

const holds = (tile, v) => v !== null && v !== undefined && halves(tile).includes(v);
const isDouble = (tile) => halves(tile)[0] === halves(tile)[1];

/** The hand by suit, each tile with its suit as the view gives it (``suits``, parallel to
 * ``hand``: {suit, trumps}): trumps first, then each suit from 6 down; within a suit the
 * double first, then by the other half, highest first. */
export function bySuit(hand, suits) {
  const entries = hand.map((tile, i) => {
    const suit = suits[i];
    const [a, b] = halves(tile);
    const other = a === suit.suit ? b : a;
    return { tile, suit, other, key: [suit.trumps ? 0 : 1, -suit.suit, isDouble(tile) ? -7 : -other] };
  });
  return entries.sort((x, y) => x.key[0] - y.key[0] || x.key[1] - y.key[1] || x.key[2] - y.key[2]);
}

export class TrickTable {
  constructor(page) {
    this.page = page;
    this.before = null; // the view last drawn: what changed since (the sounds, the new tiles)
    this.fresh = new Set(); // the tiles laid since the state before
  }

  get state() {
    return this.page.state;
  }

  get view() {
    return this.page.state.view;
  }

  names() {
    return this.state.seats.map((_, seat) => this.page.label(seat));
  }

  /** A pair's names where space is short: a computer player's animal alone. */
  shortPair(u) {
    return this.view.units.flatMap((unit, seat) => (unit === u ? [this.page.short(seat)] : [])).join(" & ");
  }

  units() {
    return unitNames(this.names(), this.view.units);
  }

  myTurn() {
    const { state } = this;
    return state.status === "playing" && this.page.you !== null && state.view.turn === this.page.you;
  }

  // --- the whole table ------------------------------------------------------------------

  /** The whole table, redrawn at every state. */
  render() {
    const { state, page } = this;
    const view = state.view;
    this.sound(view);
    const n = state.seats.length;
    const order = [...Array(n).keys()].map((k) => ((page.you ?? 0) + k) % n);
    return h(
      "div.table.trick-table",
      { "data-game": view.game, "data-version": state.version, "data-phase": view.phase, class: this.myTurn() ? "my-turn" : "" },
      h(
        "div.table-head",
        {},
        h("h1", {}, gameName(view.game), h("span.muted", {}, ` #${page.id}`)),
        h("p.muted.small", {}, optionsSummary(view.game, view.options), " · ", t("tricks.hand", { n: view.hand_number })),
        shuffleLine(page),
      ),
      endPanel(page),
      h(
        "div.play",
        {},
        h(
          "div.arena",
          { "data-players": n },
          h("ol.players", { "aria-label": t("table.players") }, order.map((seat) => this.seat(seat))),
          h("div.board.trick-board", {}, this.boardInfo(), awayPanel(page), this.noticePanel(), this.trickArea()),
        ),
        page.you !== null ? this.handPanel() : h("p.muted.spectator", {}, t("table.spectator")),
        this.pairsPanel(),
      ),
      h(
        "details.sheet-box",
        { open: page.sheetOpen ?? (window.innerWidth > 900 || state.status !== "playing"), ontoggle: (e) => (page.sheetOpen = e.target.open) },
        h("summary", {}, t("sheet.title")),
        this.sheet(),
      ),
    );
  }

  /** A tile laid, a hand's end, your turn: the page's sounds; and which tiles on the table are
   * new since the last state (they slide in from their players' sides). */
  sound(view) {
    const before = this.before;
    if (!before || before.version !== this.state.version) {
      const onTable = (v) => new Set([...v.trick, ...v.played.flat()].map((e) => e.tile));
      const seen = before ? onTable(before.view) : null;
      this.fresh = seen ? new Set([...onTable(view)].filter((tile) => !seen.has(tile))) : new Set();
    }
    this.before = { version: this.state.version, view, rounds: this.state.rounds.length, mine: this.myTurn() };
    if (!before || before.version === this.state.version) return;
    if (this.state.rounds.length > before.rounds) {
      play("round_end");
      return;
    }
    const laid = (v) => v.played.length * 4 + v.trick.length;
    const moved = view.hand_number === before.view.hand_number && laid(view) > laid(before.view);
    if (moved) play("laid");
    if (this.myTurn() && !before.mine) setTimeout(() => play("turn"), moved ? 250 : 0);
  }

  // --- the seats --------------------------------------------------------------------------

  /** The tiles a seat still holds. */
  tilesLeft(seat) {
    return this.view.hand_sizes[seat] ?? 0;
  }

  /** What a seat said in the bidding: "bid 34", "pass", or null (not yet). */
  bidText(seat) {
    const said = this.view.bids.find((b) => b.seat === seat);
    if (!said) return null;
    return said.bid === null ? t("tricks.passed") : t("tricks.bid_of", { bid: said.bid });
  }

  /** One seat: its name (who()), dealer, its bid or pass, the tiles it holds face down, the
   * clock when it is to move. */
  seat(seat) {
    const { state, page } = this;
    const view = state.view;
    const place = page.place(seat);
    const turn = view.turn === seat && state.status === "playing";
    const count = this.tilesLeft(seat);
    const said = this.bidText(seat);
    const holder = view.bidder === seat && view.phase !== "bid";
    // your own tiles are in your hand below; a spectator sees every seat's face down
    const backs = seat === page.you ? [] : Array.from({ length: count }, () => h("span.back"));
    return h(
      "li.player",
      { "data-seat": seat, "data-place": place, class: seatClass(page, seat) },
      who(page, seat),
      h(
        "div.facts",
        {},
        view.dealer === seat && view.phase !== "deal" ? h("span.dealer-mark", { title: t("tricks.dealer") }, t("tricks.dealer")) : null,
        said ? h("span.said", { class: holder ? "holder" : view.bids.find((b) => b.seat === seat).bid === null ? "passed" : "" }, said) : null,
        backs.length ? h("span.backs", { "aria-hidden": "true" }, backs) : null,
        h("span.count", { title: t("table.tiles_in_hand") }, plural("table.tiles", count)),
        turn && seat === page.you ? h("strong.your-turn", {}, t("table.your_turn")) : null,
        turn && state.clock ? h("span.clock", { title: t("table.clock") }, "") : null,
      ),
    );
  }

  // --- the board: the trumps, the bid, the trick ----------------------------------------------

  boardInfo() {
    const view = this.view;
    const names = this.names();
    return h(
      "div.board-info",
      {},
      view.trumps !== null && view.trumps !== undefined
        ? h("span.trumps-named", { "data-trumps": view.trumps }, pips(view.trumps, 20), " ", t("tricks.trumps", { v: view.trumps }))
        : h("span.trumps-named.none", {}, t("tricks.no_trumps")),
      view.bidder !== null && view.bidder !== undefined
        ? h("span.bid-held", {}, t("tricks.bid_held", { bid: view.bid, name: names[view.bidder] }))
        : h("span.bid-held.none", {}, t("tricks.no_bid")),
      soundSwitch(),
    );
  }

  /** A tile laid on the trick, at its player's side. */
  laid(entry, { led = false, winner = false, u = 26 } = {}) {
    const place = this.page.place(entry.seat);
    const [a, b] = halves(entry.tile);
    const trump = holds(entry.tile, this.view.trumps);
    return h(
      "div.trick-tile",
      {
        "data-seat": entry.seat,
        "data-place": place,
        "data-tile": entry.tile,
        class: [SIDE[place], led ? "led" : "", winner ? "winner" : "", trump ? "trump" : "", this.fresh?.has(entry.tile) ? "fresh" : ""].join(" "),
      },
      // north and south lay their tiles upright, west and east across: each points at the middle
      tileSvg(b, a, { vertical: place === "you" || place === "across", u, label: `${this.page.label(entry.seat)}: ${entry.tile}` }),
      led ? h("span.led-mark", {}, t("tricks.led_mark")) : null,
      winner ? h("span.winner-mark", {}, "★") : null,
    );
  }

  /** A seat's bid or pass in the middle of the table, at its side. */
  said(said) {
    const place = this.page.place(said.seat);
    const holder = said.bid !== null && said.seat === this.view.bidder;
    return h(
      "div.trick-bid",
      { "data-seat": said.seat, "data-place": place, class: [SIDE[place], said.bid === null ? "passed" : "", holder ? "holder" : ""].join(" ") },
      said.bid === null ? t("tricks.passed") : String(said.bid),
    );
  }

  /** The middle of the table: the trick being played; a trick just completed (its winner
   * marked) until the next tile; else what the hand waits for. */
  trickArea() {
    const view = this.view;
    const names = this.names();
    const phone = window.innerWidth < 720;
    const u = phone ? 20 : 28;
    const last = view.played.length ? view.played[view.played.length - 1] : null;
    const lastWinner = view.last_trick ? view.last_trick.winner : null;
    let middle;
    let tiles;
    let label;
    if (view.trick.length) {
      tiles = view.trick.map((entry, i) => this.laid(entry, { led: i === 0, u }));
      middle = h("p.trick-status", {}, this.ledText());
      label = t("tricks.trick_on_table");
    } else if (last) {
      tiles = last.map((entry, i) => this.laid(entry, { led: i === 0, winner: entry.seat === lastWinner, u }));
      middle = h(
        "p.trick-status.trick-won",
        { role: "status" },
        lastWinner === null ? t("tricks.last_trick") : t("tricks.won_by", { name: names[lastWinner], points: view.last_trick.points }),
      );
      label = t("tricks.last_trick");
    } else {
      // the bidding: what each seat said, at its side
      tiles = view.phase === "bid" || view.phase === "naming" ? view.bids.map((said) => this.said(said)) : [];
      middle = h("p.trick-status", {}, this.waitingText());
    }
    const corner =
      view.trick.length && last
        ? h(
            "div.last-trick",
            { role: "group", "aria-label": t("tricks.last_trick") },
            h("span.small", {}, t("tricks.last_trick"), lastWinner !== null ? `: ${names[lastWinner]}` : ""),
            h(
              "span.last-tiles",
              {},
              last.map((entry) =>
                h("span.mini", { class: entry.seat === lastWinner ? "winner" : "" }, tileSvg(...halves(entry.tile), { u: 9, label: `${names[entry.seat]}: ${entry.tile}` })),
              ),
            ),
          )
        : null;
    return h(
      "div.trick-area",
      { role: "group", "aria-label": label || t("tricks.trick_on_table"), "data-tricks": view.played.length, class: view.trick.length ? "" : last ? "finished" : "empty" },
      tiles,
      h("div.trick-middle", {}, middle),
      corner,
    );
  }

  /** The suit to follow, in words, as the view names it (`led`: trumps, or a number). */
  ledText() {
    const led = this.view.led;
    if (led.trumps) return t("tricks.led_trumps");
    return t("tricks.led", { suit: led.suit });
  }

  /** The middle while no tile lies there: the bidding, the trumps being named. */
  waitingText() {
    const view = this.view;
    const names = this.names();
    if (view.turn === null || this.state.status !== "playing") return "";
    if (view.phase === "bid") return view.bidder !== null ? t("tricks.bidding_high", { bid: view.bid, name: names[view.bidder] }) : t("tricks.bidding");
    if (view.phase === "naming") return t("tricks.naming", { name: names[view.turn] });
    if (view.phase === "play") return t("tricks.leads", { name: names[view.turn] });
    return "";
  }

  // --- your hand and your choices ---------------------------------------------------------

  handPanel() {
    const { state, page } = this;
    const view = state.view;
    const mine = this.myTurn();
    const legal = mine ? view.legal_moves : [];
    const playable = new Set(legal.filter((m) => m.play).map((m) => m.play));
    const phone = window.innerWidth < 480;
    const tiles = bySuit(view.hand, view.suits).map(({ tile, suit, other }) => {
      const trump = suit.trumps;
      // the number of its suit on top: a trump's the trump number, another tile's the suit
      // it leads and follows (the engine's, in the view)
      const [first, second] = [suit.suit, other];
      const can = playable.has(tile);
      const points = view.counters[tile] || 0; // the counting tiles, as the server names them
      const label = [tile, trump ? t("tricks.trump_tile") : "", points ? plural("tricks.points", points) : "", can ? t("table.playable") : ""].filter(Boolean).join(", ");
      return h(
        "button.hand-tile",
        {
          type: "button",
          "data-tile": tile,
          class: [can ? "playable" : "", mine && view.phase === "play" && !can ? "dimmed" : "", trump ? "trump" : ""].join(" "),
          "aria-label": label,
          "aria-disabled": can ? "false" : "true",
          onclick: () => can && !page.busy && page.send({ play: tile }),
        },
        // seven tiles at most: upright in one row, a phone's too
        tileSvg(first, second, { u: phone ? 22 : 28, vertical: true }),
        points ? h("span.counter", { "aria-hidden": "true" }, String(points)) : null,
        trump ? h("span.trump-mark", { "aria-hidden": "true" }, "★") : null,
      );
    });
    return h(
      "section.hand-box",
      { "aria-label": t("table.your_hand") },
      h("div.actions", {}, this.actions(legal)),
      h("div.hand", {}, tiles),
    );
  }

  /** Above the hand: the bidding box, the trumps chooser, what to play; else whose turn. */
  actions(legal) {
    const { state, page } = this;
    const view = state.view;
    const names = this.names();
    if (!this.myTurn()) {
      if (view.turn !== null && state.status === "playing") return h("span.muted", {}, t("table.turn_of", { name: names[view.turn] }));
      return null;
    }
    if (view.phase === "bid") {
      const pass = legal.find((m) => m.pass);
      const bids = legal.filter((m) => m.bid !== undefined);
      return h(
        "div.bid-box",
        { role: "group", "aria-label": t("tricks.your_bid") },
        h("span.prompt", {}, t("tricks.your_bid")),
        pass ? h("button.pass", { type: "button", onclick: () => !page.busy && page.send(pass) }, t("tricks.pass")) : h("span.small.must-bid", {}, t("tricks.dealer_must_bid")),
        h(
          "span.bids",
          {},
          bids.map((m) => h("button.bid", { type: "button", "data-bid": m.bid, onclick: () => !page.busy && page.send(m) }, String(m.bid))),
        ),
      );
    }
    if (view.phase === "naming") {
      const choices = legal.filter((m) => m.trumps !== undefined);
      return h(
        "div.trumps-box",
        { role: "group", "aria-label": t("tricks.name_trumps") },
        h("span.prompt", {}, t("tricks.name_trumps")),
        h(
          "span.trumps-choices",
          {},
          choices.map((m) => {
            const held = view.hand.filter((tile) => holds(tile, m.trumps)).length;
            return h(
              "button.trumps-choice",
              { type: "button", "data-trumps": m.trumps, "aria-label": `${m.trumps}: ${plural("table.tiles", held)}`, title: plural("table.tiles", held), onclick: () => !page.busy && page.send(m) },
              pips(m.trumps, 22),
              h("span.value", {}, String(m.trumps)),
              h("span.held", { class: held ? "" : "none" }, `×${held}`),
            );
          }),
        ),
      );
    }
    if (view.phase === "play") {
      if (!view.trick.length) return h("span.prompt", {}, t("tricks.your_lead"));
      const led = view.led;
      return h("span.prompt", {}, led.trumps ? t("tricks.follow_trumps") : t("tricks.follow", { suit: led.suit }));
    }
    return null;
  }

  // --- the pairs, the hand's end, the sheet --------------------------------------------------

  /** Each pair this hand (tricks, points taken) and in the game (score), and the target. */
  pairsPanel() {
    const view = this.view;
    const units = this.units();
    const bidding = view.bidder !== null && view.bidder !== undefined && view.phase !== "bid" ? view.units[view.bidder] : null;
    const mine = this.page.you !== null ? view.units[this.page.you] : null;
    const fact = (cls, label, value) => h("div", { class: cls }, h("dt", {}, label), h("dd", {}, String(value)));
    return h(
      "section.log-box.pairs-box",
      { "aria-label": t("tricks.pairs") },
      h("h2", {}, t("tricks.pairs"), h("span.muted.small.target", {}, ` · ${t("tricks.target", { n: view.target })}`)),
      h(
        "ul.plain.pairs",
        {},
        units.map((name, u) =>
          h(
            "li.pair",
            { "data-unit": u, class: [u === mine ? "ours" : "", u === bidding ? "bidding" : ""].join(" ") },
            h(
              "div.pair-head",
              {},
              h("span.team", { class: `team${u}` }, t("table.team", { n: u + 1 })),
              " ",
              h("span.pair-names", { title: name }, this.shortPair(u)),
              u === bidding ? [" ", h("span.bid-mark", { title: t("tricks.bid_held", { bid: view.bid, name: this.names()[view.bidder] }) }, t("tricks.bid_of", { bid: view.bid }))] : null,
            ),
            h(
              "dl.pair-facts",
              {},
              fact("tricks-won", t("tricks.col_tricks"), view.tricks_won[u]),
              fact("taken", t("tricks.col_taken"), view.taken[u]),
              fact("pair-score", t("tricks.col_score"), view.scores[u]),
            ),
          ),
        ),
      ),
    );
  }

  /** How a finished hand ended, in words (the notice's title, the end panel's last line). */
  endLine(round) {
    const names = this.names();
    const end = round.end;
    if (end.kind !== "hand") return t("round.timeout", { name: names[end.seat] });
    const side = this.units()[this.view.units[end.bidder]];
    return t(end.made ? "tricks.made" : "tricks.set", { side, bid: end.bid, name: names[end.bidder] });
  }

  /** A pair's line of a finished hand: tricks and points taken, what it recorded. */
  pairLine(round, u) {
    const tricks = round.tricks.filter((tr) => this.view.units[tr.winner] === u).length;
    const entry = round.sheet[u];
    return t("tricks.pair_line", {
      side: this.units()[u],
      tricks: plural("tricks.tricks", tricks),
      points: plural("tricks.points", entry.taken),
      credited: entry.credited > 0 ? `+${entry.credited}` : String(entry.credited),
    });
  }

  /** The hand just finished, until read: made or set, what each pair took and recorded, and
   * the button for the next deal. */
  noticePanel() {
    const { state, page } = this;
    const round = page.notice;
    if (!round || state.status !== "playing") return null;
    const folded = page.noticeFolded === round;
    const end = round.end;
    return h(
      "section.notice",
      { role: "status", "data-end": end.kind === "hand" ? (end.made ? "made" : "set") : end.kind, class: folded ? "folded" : "" },
      h(
        "button.link.notice-fold",
        { type: "button", "aria-expanded": folded ? "false" : "true", onclick: () => { page.noticeFolded = folded ? null : round; page.render(); } },
        t(folded ? "table.notice_show" : "table.notice_hide"),
      ),
      h("h2", {}, this.endLine(round)),
      end.kind === "hand" ? h("ul.plain.counts.pair-lines", {}, [0, 1].map((u) => h("li", { "data-unit": u }, this.pairLine(round, u)))) : null,
      h("p.small.credited", {}, round.sheet.map((e, u) => `${this.units()[u]}: ${e.after}`).join(" · ")),
      state.next_round ? nextRound(page, this.names(), "table.next_hand") : h("button.ok", { type: "button", onclick: () => { page.notice = null; page.render(); } }, t("table.ok")),
    );
  }

  /** The sheet: per hand and pair the score before, the points taken, what was recorded (with
   * "+"), the score after; the hand's bid, made or set, beside its number. */
  sheet() {
    const { state } = this;
    const units = this.units();
    const names = this.names();
    return h(
      "div.sheet-scroll",
      {},
      h(
        "table.sheet.race.tricks-sheet",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("tricks.hand_col")), units.map((name) => h("th", { scope: "col" }, name)))),
        h(
          "tbody",
          {},
          state.rounds.length ? null : h("tr.none", {}, h("td.muted", { colspan: units.length + 1 }, t("tricks.no_hands"))),
          state.rounds.map((round, i) => {
            const end = round.end;
            const made = end.kind === "hand" ? (end.made ? "made" : "set") : "timeout";
            return h(
              "tr",
              { "data-round": i + 1, "data-end": made },
              h(
                "th",
                { scope: "row", title: this.endLine(round) },
                String(i + 1),
                end.kind === "hand"
                  ? h("span.bid-mark", { class: made, title: t("tricks.bid_held", { bid: end.bid, name: names[end.bidder] }) }, ` ${end.bid}${end.made ? "✓" : "✗"}`)
                  : null,
              ),
              round.sheet.map((entry, u) =>
                h(
                  "td",
                  { "data-unit": u },
                  h("span.before", {}, String(entry.before)),
                  h("span.taken", { title: t("tricks.sheet_taken") }, String(entry.taken)),
                  h("span.credited", { title: t("tricks.sheet_credited") }, entry.credited > 0 ? `+${entry.credited}` : String(entry.credited)),
                  h("span.after", { class: entry.after > 0 ? "scored" : "zero" }, String(entry.after)),
                ),
              ),
            );
          }),
        ),
      ),
      h("p.sheet-legend.small.muted", {}, t("tricks.sheet_legend")),
    );
  }
}
