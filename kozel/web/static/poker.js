// The poker table: Domino Poker's live game. The page (table.js) owns the socket, the clock
// and the chat, and the layout table's parts draw the seats' names and the away panel
// (players.js), the end panel and the "next" button (ends.js) and the shuffle (shuffle.js);
// this draws the game from page.state (the seat's view: docs/protocol.md §6,
// kozel/poker/views.py) and moves through page.send(), choosing only among view.legal_moves.
//
// The others sit round the felt as at the layout table, each with the chips, what it has put
// in the pot, the dealer's button, its marks (folded, all-in, out), how many tiles it changed
// and its last action; the pot and the phase lie in the middle; your five tiles lie below with
// what they make, and the actions of your turn: check, call, bet, raise, fold (in no-limit an
// amount between the least and the most the rules allow), or in the draw the tiles marked to
// change. A finished hand's notice says who won which pot with what; at the showdown the
// hands that reached it are turned face up at their seats.
import { h } from "./dom.js";
import { endPanel, nextRound } from "./ends.js";
import { plural, t } from "./i18n.js";
import { gameName, optionsSummary } from "./options.js";
import { awayPanel, seatClass, who } from "./players.js";
import { shuffleLine } from "./shuffle.js";
import { play, soundSwitch } from "./sounds.js";
import { halves, tileSvg } from "./tiles.js";

// the words of the categories the server names (kozel/poker/ranking.py CATEGORIES)
const CATEGORY = {
  none: () => t("poker.category.none"),
  pair: () => t("poker.category.pair"),
  flush: () => t("poker.category.flush"),
  three: () => t("poker.category.three"),
  four_straight: () => t("poker.category.four_straight"),
  full_hand: () => t("poker.category.full_hand"),
  five_straight: () => t("poker.category.five_straight"),
  four_of_a_kind: () => t("poker.category.four_of_a_kind"),
  six_straight: () => t("poker.category.six_straight"),
  royal_flush: () => t("poker.category.royal_flush"),
};

const PHASE = {
  deal: () => t("poker.phase.deal"),
  bet1: () => t("poker.phase.bet1"),
  draw: () => t("poker.phase.draw"),
  bet2: () => t("poker.phase.bet2"),
  over: () => t("poker.phase.over"),
};

const BETTING = new Set(["bet1", "bet2"]);
// the phase of the draw (its id is also a game's, which the client never names in quotes)
const drawing = (phase) => /^draw$/.test(phase);

/** A category in the player's words. */
export function categoryName(id) {
  return CATEGORY[id] ? CATEGORY[id]() : id;
}

/** The pips of some tiles: what breaks a tie between equal categories. */
export function pipsOf(tiles) {
  return tiles.reduce((sum, tile) => sum + halves(tile)[0] + halves(tile)[1], 0);
}

/** "Flush, 27 pips". */
function handWords(category, tiles) {
  return plural("poker.category_pips", pipsOf(tiles), { category: categoryName(category) });
}

/** "+14", "−7", "0". */
function gain(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function chipIcon() {
  return h("span.chip-icon", { "aria-hidden": "true" });
}

export class PokerTable {
  constructor(page) {
    this.page = page;
    this.marked = new Set(); // tiles marked to be changed in the draw
    this.markedFor = null; // the hand they were marked in
    this.amount = null; // a no-limit bet or raise being chosen
    this.amountFor = null; // the position it is chosen in
    this.logList = h("ol.move-log", { "aria-live": "polite", "aria-relevant": "additions text" });
    this.logHand = null;
  }

  get state() {
    return this.page.state;
  }

  get view() {
    return this.page.state.view;
  }

  myTurn() {
    const { state } = this;
    return this.page.you !== null && state.status === "playing" && state.view.turn === this.page.you;
  }

  /** The hand is over (its showdown or the last fold), waiting for the next deal or the end
   * (after a timeout the hand is left unfinished: not over). */
  handOver() {
    return this.view.phase === "over";
  }

  name(seat) {
    return this.page.label(seat);
  }

  short(seat) {
    return this.page.short(seat);
  }

  /** The page's sounds for what changed since the last drawing: a hand's end, else a bet or
   * a draw; then a chime when it has become your turn. */
  sound() {
    const { state, view } = this;
    const before = this.heard;
    this.heard = { version: state.version, hand: view.hand_number, moves: view.history.length, rounds: state.rounds.length, mine: this.myTurn() };
    if (!before || before.version === state.version) return;
    if (state.rounds.length > before.rounds) {
      play("round_end");
      return;
    }
    const moved = view.hand_number === before.hand && view.history.length > before.moves;
    if (moved) {
      // a check is a knock on the table, as in card poker; chips clink into the pot
      const latest = view.history[view.history.length - 1];
      if (latest.discard !== undefined || latest.discarded !== undefined) play("drew");
      else if (latest.check) play("knocked");
      else if (latest.fold) play("laid");
      else play("chips");
    }
    if (this.myTurn() && !before.mine) setTimeout(() => play("turn"), moved ? 250 : 0);
  }

  /** The whole table, redrawn at every state. */
  render() {
    const { state, view, page } = this;
    this.sound();
    this.forget();
    this.keepFocus();
    const myTurn = this.myTurn();
    const n = state.seats.length;
    const order = [...Array(n).keys()].map((k) => ((page.you ?? 0) + k) % n);
    const end = endPanel(page);
    if (end && state.result && state.result.chips) {
      // the end panel's verdict, then every seat's chips
      const chips = h("p.small.scores", {}, state.result.chips.map((c, s) => `${this.name(s)}: ${c}`).join(" · "));
      const last = end.querySelector(".last-round");
      const verdict = end.querySelector(".winner, .loser, .timed-out") || (last && last.nextElementSibling) || last;
      if (verdict) verdict.after(chips);
    }
    return h(
      "div.table.poker-table",
      { "data-game": view.game, "data-version": state.version, "data-phase": view.phase, class: myTurn ? "my-turn" : "" },
      h(
        "div.table-head",
        {},
        h("h1", {}, gameName(view.game), h("span.muted", {}, ` #${page.id}`)),
        h("p.muted.small", {}, optionsSummary(view.game, view.options), " · ", t("poker.hand_of", { n: view.hand_number, of: view.options.hands })),
        shuffleLine(page),
      ),
      end,
      h(
        "div.play",
        {},
        h(
          "div.arena",
          { "data-players": n },
          h("ol.players", { "aria-label": t("table.players") }, order.map((seat) => this.seat(seat))),
          h("div.board.poker-board", {}, this.boardInfo(), awayPanel(page), this.noticePanel(), this.middle()),
        ),
        page.you !== null ? this.handPanel() : h("p.muted.spectator", {}, t("table.spectator")),
        this.logBox(),
      ),
      h(
        "details.sheet-box",
        { open: page.sheetOpen ?? (window.innerWidth > 900 || state.status !== "playing"), ontoggle: (e) => (page.sheetOpen = e.target.open) },
        h("summary", {}, t("poker.sheet_title")),
        this.sheet(),
      ),
    );
  }

  /** The amount being typed keeps the focus when the table is redrawn meanwhile (a phone's
   * keyboard resizes the window, and a resize redraws). */
  keepFocus() {
    const id = document.activeElement && document.activeElement.id;
    if (id !== "poker-amount" && id !== "poker-amount-range") return;
    queueMicrotask(() => {
      const again = document.getElementById(id);
      if (again && document.activeElement !== again) again.focus({ preventScroll: true });
    });
  }

  /** Let go of marks and amounts that belong to an earlier position. */
  forget() {
    const view = this.view;
    const key = `${view.hand_number}`;
    if (this.markedFor !== key || !drawing(view.phase)) {
      this.marked = new Set();
      this.markedFor = key;
    }
    for (const tile of this.marked) if (!view.hand.includes(tile)) this.marked.delete(tile);
    if (this.amountFor !== this.state.version) {
      this.amount = null;
      this.amountFor = this.state.version;
    }
  }

  // --- the seats ------------------------------------------------------------------------

  /** The showdown of the hand just finished, by seat: {hand, category}. */
  showdown() {
    const out = new Map();
    if (!this.handOver()) return out;
    for (const entry of this.view.last_showdown || []) out.set(entry.seat, entry);
    return out;
  }

  /** One seat: name, chips, what it has in the pot, the dealer's button, its marks, the
   * tiles it changed, the clock on its turn, its last action; face down or, at the showdown,
   * face up with the category. */
  seat(seat) {
    const { state, view, page } = this;
    const place = page.place(seat);
    const turn = view.turn === seat && state.status === "playing";
    const over = this.handOver();
    const dealt = view.dealt_in[seat];
    const folded = dealt && view.folded[seat];
    // all in while the hand is played; out of chips when not dealt in, or once it is lost
    const allIn = dealt && !folded && view.chips[seat] === 0 && view.hand_number > 0 && !over;
    const out = view.hand_number > 0 && (!dealt || (over && view.chips[seat] === 0));
    const shown = seat !== page.you ? this.showdown().get(seat) : null;
    const round = over ? state.rounds[state.rounds.length - 1] : null;
    const won = round && round.gains ? round.gains[seat] : 0;
    const backs = seat !== page.you && dealt && !folded && !shown && view.hand_number > 0;
    const drew = view.discard_counts[seat];
    const classes = [seatClass(page, seat), "poker-seat", folded ? "folded" : "", allIn ? "all-in" : "", out ? "out" : "", won > 0 ? "won" : ""];
    return h(
      "li.player",
      { "data-seat": seat, "data-place": place, class: classes.join(" ") },
      who(page, seat),
      h(
        "div.facts",
        {},
        view.dealer === seat && view.hand_number > 0 ? h("span.dealer-button", { title: t("poker.dealer") }, h("span", { "aria-hidden": "true" }, t("poker.dealer_mark")), h("span.sr", {}, t("poker.dealer"))) : null,
        h("span.chips", { title: t("poker.chips") }, chipIcon(), h("span.sr", {}, `${t("poker.chips")}: `), String(view.chips[seat])),
        view.committed[seat] ? h("span.in-pot", {}, t("poker.in_pot", { n: view.committed[seat] })) : null,
        BETTING.has(view.phase) && view.round_bets[seat] ? h("span.bet-now", {}, t("poker.bet_now", { n: view.round_bets[seat] })) : null,
        folded ? h("span.mark.folded-mark", {}, t("poker.folded")) : null,
        allIn ? h("span.mark.all-in-mark", {}, t("poker.all_in")) : null,
        out ? h("span.mark.out-mark", {}, t("poker.out")) : null,
        drew > 0 ? h("span.drew", {}, plural("poker.did.change", drew)) : null,
        drew === 0 ? h("span.drew", {}, t("poker.did.stand_pat")) : null,
        over && won ? h("span.gain", { class: won > 0 ? "up" : "down" }, gain(won)) : null,
        backs ? h("span.backs", { "aria-hidden": "true" }, Array.from({ length: 5 }, () => h("span.back"))) : null,
        turn && seat === page.you ? h("strong.your-turn", {}, t("table.your_turn")) : null,
        turn && state.clock ? h("span.clock", { title: t("table.clock") }, "") : null,
      ),
      shown ? this.shownHand(shown) : null,
      folded ? null : this.lastAction(seat),
    );
  }

  /** A hand at the showdown, face up, with its category and pips. */
  shownHand(entry) {
    return h(
      "div.shown-hand",
      { "data-category": entry.category },
      h("span.shown", { "aria-label": t("poker.shown", { tiles: entry.hand.join(", ") }) }, entry.hand.map((tile) => tileSvg(...halves(tile), { u: 15, vertical: true, label: tile }))),
      h("span.category", {}, handWords(entry.category, entry.hand)),
    );
  }

  /** An action in words: "Raised 4", "Changed 2 tiles". */
  actionWords(entry) {
    if (entry.ante !== undefined) return t("poker.did.ante", { n: entry.ante });
    if (entry.check) return t("poker.did.check");
    if (entry.fold) return t("poker.did.fold");
    if (entry.bet !== undefined) return t("poker.did.bet", { n: entry.bet });
    if (entry.call !== undefined) return t("poker.did.call", { n: entry.call });
    if (entry.raise !== undefined) return t("poker.did.raise", { n: entry.raise });
    const count = entry.discard ? entry.discard.length : entry.discarded;
    return count ? plural("poker.did.change", count) : t("poker.did.stand_pat");
  }

  /** A seat's last bet this hand (its draw is among its facts; the antes are left out). */
  lastAction(seat) {
    const entries = this.view.history.filter((e) => e.seat === seat && e.ante === undefined);
    if (!entries.length) return null;
    const last = entries[entries.length - 1];
    const kind = ["check", "bet", "call", "raise", "fold"].find((k) => last[k] !== undefined);
    if (!kind) return null;
    return h("div.last-move", { "data-kind": kind }, h("span.sr", {}, `${t("seat.last")}: `), this.actionWords(last));
  }

  // --- the middle -----------------------------------------------------------------------

  boardInfo() {
    const view = this.view;
    return h(
      "div.board-info",
      {},
      h("span.phase", { "data-phase": view.phase }, (PHASE[view.phase] || (() => view.phase))()),
      soundSwitch(),
    );
  }

  /** The pot (the pots and their winners once the hand is over), and the bets of this round. */
  middle() {
    const { view, state } = this;
    const over = this.handOver();
    const round = over ? state.rounds[state.rounds.length - 1] : null;
    const pots = over ? (round && round.end ? round.end.pots : view.last_pots) || [] : [];
    const toCall = this.myTurn() && BETTING.has(view.phase) ? Math.max(...view.round_bets) - view.round_bets[this.page.you] : 0;
    return h(
      "div.pot-area",
      {},
      h("div.pot", {}, chipIcon(), h("span.pot-label", {}, t("poker.pot")), " ", h("strong.pot-amount", {}, String(view.pot))),
      pots.length ? h("ul.plain.pots", {}, pots.map((pot, i) => h("li", { "data-pot": i }, this.potWords(pot, i, pots.length, round)))) : null,
      toCall > 0 ? h("p.to-call", {}, t("poker.to_call", { n: Math.min(toCall, view.chips[this.page.you]) })) : null,
    );
  }

  /** "Main pot (30 chips): Alice — Flush, 27 pips". */
  potWords(pot, i, count, round) {
    const name = count === 1 ? t("poker.pot") : i === 0 ? t("poker.main_pot") : t("poker.side_pot", { k: i });
    const winners = pot.winners.map((s) => this.name(s)).join(", ");
    const shown = round && round.showdown ? round.showdown.find((e) => e.seat === pot.winners[0]) : null;
    const how = shown && round.end.kind === "showdown" ? handWords(shown.category, shown.hand) : t("poker.uncontested");
    return t("poker.pot_won", { pot: name, chips: plural("poker.chips_n", pot.amount), names: winners, how });
  }

  // --- a finished hand ------------------------------------------------------------------

  /** How a finished hand ended, in words (the notice's title and the end panel's last line):
   * "Hand 12: Alice takes 30 chips at the showdown — Flush, 27 pips" (all she takes from the
   * pots she won). */
  endLine(round) {
    const rounds = this.state.rounds;
    const number = rounds.indexOf(round) + 1 || rounds.length;
    const end = round.end;
    if (end.kind === "timeout") return t("poker.end.timeout", { hand: number, name: this.name(end.seat) });
    const pots = end.pots || [];
    if (!pots.length) return t("poker.hand_n", { n: number });
    const winners = pots[0].winners;
    // the chips the main pot's winner takes from every pot it won (its take of a split one)
    const taken = pots.reduce((sum, p, i) => sum + (p.winners.includes(winners[0]) ? round.takes[i][p.winners.indexOf(winners[0])] : 0), 0);
    if (end.kind === "fold") return plural("poker.end.fold", taken, { hand: number, name: this.name(winners[0]) });
    const shown = (round.showdown || []).find((e) => e.seat === winners[0]);
    const how = shown ? handWords(shown.category, shown.hand) : "";
    if (winners.length > 1) return t("poker.end.split", { hand: number, names: winners.map((s) => this.name(s)).join(", "), how });
    return plural("poker.end.showdown", taken, { hand: number, name: this.name(winners[0]), how });
  }

  noticePanel() {
    const { page, state } = this;
    const round = page.notice;
    if (!round || state.status !== "playing") return null;
    const folded = page.noticeFolded === round;
    const pots = round.end.pots || [];
    const names = state.seats.map((_, s) => this.name(s));
    return h(
      "section.notice.poker-notice",
      { role: "status", "data-end": round.end.kind, class: folded ? "folded" : "" },
      h(
        "button.link.notice-fold",
        { type: "button", "aria-expanded": folded ? "false" : "true", onclick: () => { page.noticeFolded = folded ? null : round; page.render(); } },
        t(folded ? "table.notice_show" : "table.notice_hide"),
      ),
      h("h2", {}, this.endLine(round)),
      pots.length > 1 ? h("ul.plain.pots", {}, pots.map((pot, i) => h("li", {}, this.potWords(pot, i, pots.length, round)))) : null,
      round.showdown && round.showdown.length
        ? h(
            "ul.plain.showdown",
            {},
            round.showdown.map((entry) =>
              h(
                "li",
                { "data-seat": entry.seat, class: pots.some((p) => p.winners.includes(entry.seat)) ? "winner" : "" },
                h("span.name", {}, this.short(entry.seat)),
                h("span.shown", { "aria-label": t("poker.shown", { tiles: entry.hand.join(", ") }) }, entry.hand.map((tile) => tileSvg(...halves(tile), { u: 13, vertical: true, label: tile }))),
                h("span.category", {}, handWords(entry.category, entry.hand)),
              ),
            ),
          )
        : null,
      // what each seat dealt in won or lost (a seat out of chips sat the hand out)
      round.gains ? h("p.small.gains", {}, round.gains.flatMap((g, s) => (round.chips_before[s] > 0 ? [`${names[s]}: ${gain(g)}`] : [])).join(" · ")) : null,
      state.next_round ? nextRound(page, names, "table.next_hand") : h("button.ok", { type: "button", onclick: () => { page.notice = null; page.render(); } }, t("table.ok")),
    );
  }

  // --- your hand and your move ----------------------------------------------------------

  handPanel() {
    const { view } = this;
    const myTurn = this.myTurn();
    const marking = myTurn && drawing(view.phase);
    const phone = window.innerWidth < 480;
    const tiles = view.hand.map((tile) => {
      const marked = this.marked.has(tile);
      const face = tileSvg(...halves(tile), { u: phone ? 26 : 32, vertical: true, label: tile });
      if (!marking) return h("span.hand-tile", { "data-tile": tile }, face);
      return h(
        "button.hand-tile.playable",
        {
          type: "button",
          "data-tile": tile,
          class: marked ? "marked" : "",
          "aria-pressed": marked ? "true" : "false",
          "aria-label": `${tile}${marked ? ` (${t("poker.marked")})` : ""}`,
          onclick: () => {
            if (this.marked.has(tile)) this.marked.delete(tile);
            else this.marked.add(tile);
            this.page.render();
          },
        },
        face,
        marked ? h("span.mark-x", { "aria-hidden": "true" }, "✕") : null,
      );
    });
    const you = this.page.you;
    const folded = view.dealt_in[you] && view.folded[you];
    return h(
      "section.hand-box.poker-hand",
      { "aria-label": t("table.your_hand"), class: folded ? "folded" : "" },
      h("div.actions", {}, this.actions()),
      view.hand_number > 0 && !view.dealt_in[you] && this.state.status === "playing" ? h("p.muted.you-out", {}, t("poker.you_out")) : null,
      h("div.hand", {}, tiles),
      view.hand.length
        ? h(
            "p.my-category",
            {},
            folded ? h("span.mark.folded-mark", {}, t("poker.you_folded")) : null,
            view.category ? [h("span.muted", {}, `${t("poker.your_hand")}: `), h("strong.category", { "data-category": view.category }, handWords(view.category, view.hand))] : null,
          )
        : null,
    );
  }

  actions() {
    const { view, state, page } = this;
    if (!this.myTurn()) {
      if (state.status === "playing" && view.turn !== null) return h("span.muted", {}, t("table.turn_of", { name: this.name(view.turn) }));
      return null;
    }
    if (drawing(view.phase)) {
      const count = this.marked.size;
      const discard = view.hand.filter((tile) => this.marked.has(tile));
      return [
        h("span.prompt", {}, t("poker.mark_prompt")),
        h(
          "button.primary.discard",
          { type: "button", onclick: () => page.send({ discard }) },
          count ? plural("poker.discard", count) : t("poker.stand_pat"),
        ),
        count ? h("button.link.unmark", { type: "button", onclick: () => { this.marked = new Set(); page.render(); } }, t("table.cancel")) : null,
      ];
    }
    const legal = view.legal_moves;
    const out = [];
    if (legal.some((m) => m.fold)) out.push(h("button.fold", { type: "button", onclick: () => page.send({ fold: true }) }, t("poker.fold")));
    if (legal.some((m) => m.check)) out.push(h("button.check", { type: "button", onclick: () => page.send({ check: true }) }, t("poker.check")));
    const call = legal.find((m) => m.call !== undefined);
    if (call) out.push(h("button.call", { type: "button", onclick: () => page.send({ call: call.call }) }, t("poker.call", { n: call.call })));
    for (const kind of ["bet", "raise"]) {
      // a no-limit run of every amount from n to m comes as one entry {bet: n, up_to: m}
      const ranges = legal.filter((m) => m[kind] !== undefined).map((m) => [m[kind], m.up_to ?? m[kind]]);
      if (ranges.length === 1 && ranges[0][0] === ranges[0][1]) {
        const n = ranges[0][0];
        out.push(h(`button.primary.${kind}`, { type: "button", onclick: () => page.send({ [kind]: n }) }, this.sizeWords(kind, n)));
      } else if (ranges.length) out.push(this.amountChooser(kind, ranges));
    }
    return out;
  }

  sizeWords(kind, n) {
    return kind === "bet" ? t("poker.bet", { n }) : t("poker.raise", { n });
  }

  /** No-limit: a number and a slider between the least and the most the rules allow, two
   * shortcuts (the pot, all in), and the button that bets or raises that much. */
  amountChooser(kind, ranges) {
    const { view, page } = this;
    const least = Math.min(...ranges.map(([low]) => low));
    const most = Math.max(...ranges.map(([, high]) => high));
    const allowed = (n) => ranges.some(([low, high]) => low <= n && n <= high);
    const clamp = (v) => Math.max(least, Math.min(most, Math.round(Number(v) || least)));
    const value = clamp(this.amount ?? least);
    this.amount = value;
    const button = h(`button.primary.${kind}`, { type: "button" }, this.sizeWords(kind, value));
    const number = h(`input.amount-number#poker-amount`, { type: "number", min: least, max: most, step: 1, value, inputmode: "numeric", "aria-label": t("poker.amount") });
    const slider = h("input.amount-range#poker-amount-range", { type: "range", min: least, max: most, step: 1, value, "aria-label": t("poker.amount"), "aria-valuetext": String(value) });
    const set = (v, from) => {
      const chosen = clamp(v);
      this.amount = chosen;
      if (from !== number) number.value = String(chosen);
      if (from !== slider) slider.value = String(chosen);
      slider.setAttribute("aria-valuetext", String(chosen));
      button.textContent = this.sizeWords(kind, chosen);
      button.disabled = !allowed(chosen);
    };
    number.addEventListener("input", () => {
      if (number.value !== "") set(number.value, number);
    });
    number.addEventListener("change", () => set(number.value, null));
    number.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        set(number.value, null);
        button.click();
      }
    });
    slider.addEventListener("input", () => set(slider.value, slider));
    button.addEventListener("click", () => {
      const chosen = clamp(number.value);
      if (allowed(chosen)) page.send({ [kind]: chosen });
    });
    const owed = Math.max(...view.round_bets) - view.round_bets[page.you];
    const potSize = clamp(owed + view.pot + owed);
    const shortcut = (cls, label, v) => h(`button.small.${cls}`, { type: "button", onclick: () => set(v, null) }, label);
    return h(
      "div.amount",
      { role: "group", "aria-label": t("poker.amount") },
      number,
      slider,
      potSize > least && potSize < most ? shortcut("pot-size", t("poker.pot"), potSize) : null,
      shortcut("all-in", t("poker.all_in_amount"), most),
      button,
    );
  }

  // --- the hand's actions and the sheet -------------------------------------------------

  /** This hand's actions, in words: the antes in one line, then each action by its seat. The
   * list lives across redraws and a screen reader hears the lines added (as movelog.js). */
  logBox() {
    const { view, page } = this;
    const list = this.logList;
    if (this.logHand !== view.hand_number) {
      list.replaceChildren();
      this.logHand = view.hand_number;
    }
    const antes = view.history.filter((e) => e.ante !== undefined);
    const lines = [];
    if (antes.length) lines.push({ text: t("poker.antes", { n: Math.max(...antes.map((e) => e.ante)) }), cls: "antes" });
    for (const e of view.history.filter((x) => x.ante === undefined)) {
      lines.push({ text: `${this.short(e.seat)}: ${this.actionWords(e)}`, place: page.place(e.seat), seat: e.seat });
    }
    lines.forEach((line, i) => {
      const li = list.children[i];
      if (li && li.textContent === line.text) return;
      while (list.children.length > i) list.lastChild.remove();
      list.append(h("li", { class: line.cls || "", "data-place": line.place, "data-seat": line.seat }, line.text));
    });
    while (list.children.length > lines.length) list.lastChild.remove();
    queueMicrotask(() => {
      const box = list.closest(".log-box");
      if (box) box.scrollTop = box.scrollHeight;
    });
    return h("section.log-box.poker-log", { "aria-labelledby": "poker-log-title" }, h("h2#poker-log-title", {}, t("poker.log")), list);
  }

  /** The chips hand by hand: per seat the chips before, the gain and the chips after. */
  sheet() {
    const { state } = this;
    const names = state.seats.map((_, s) => this.name(s));
    const rounds = state.rounds;
    return h(
      "div.sheet-scroll",
      {},
      h(
        "table.sheet.chips-sheet",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("poker.hand")), names.map((name) => h("th", { scope: "col" }, name)))),
        h(
          "tbody",
          {},
          rounds.length ? null : h("tr.none", {}, h("td.muted", { colspan: names.length + 1 }, t("poker.no_hands"))),
          rounds.map((round, i) =>
            h(
              "tr",
              { "data-round": i + 1, "data-end": round.end.kind },
              h("th", { scope: "row", title: this.endLine(round) }, String(i + 1)),
              names.map((_, s) =>
                h(
                  "td",
                  { "data-seat": s },
                  h("span.before", {}, String(round.chips_before[s])),
                  h("span.gain", { class: round.gains[s] > 0 ? "up" : round.gains[s] < 0 ? "down" : "" }, gain(round.gains[s])),
                  h("span.after", {}, String(round.chips_after[s])),
                ),
              ),
            ),
          ),
        ),
      ),
      h("p.sheet-legend.small.muted", {}, t("poker.sheet_legend")),
    );
  }
}
