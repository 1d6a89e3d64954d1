// The review of a finished game not played on a layout (Domino Poker, Trumps): hand by hand
// from its record — every hand as dealt, face up; each move in words; how the hand ended —
// and a chart of the scores (or chips) after each hand. Everything here is the record's.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { legend, lineChart } from "./chart.js";
import { gameInfo } from "./options.js";
import { unitNames } from "./sheet.js";
import { halves, tileSvg } from "./tiles.js";
import { verdict } from "./judgement.js";

const tiles = (list) => h("span.tiles", {}, list.map((tile) => tileSvg(...halves(tile), { u: 14, label: tile })));

/** One move of the record in words (the tiles it names drawn beside them). */
function moveLine(move, seats) {
  const name = seats[move.seat];
  if (move.ante !== undefined) return t("review.ante", { name, n: move.ante });
  if (move.bid !== undefined) return t("review.bid", { name, n: move.bid });
  if (move.pass) return t("review.pass", { name });
  if (move.trumps !== undefined) return t("review.trumps", { name, n: move.trumps });
  if (move.play) return [t("review.lay", { name, tile: move.play }), " ", tiles([move.play])];
  if (move.check) return t("review.check", { name });
  if (move.fold) return t("review.fold", { name });
  if (move.bet !== undefined) return t("review.bet", { name, n: move.bet });
  if (move.call !== undefined) return t("review.call", { name, n: move.call });
  if (move.raise !== undefined) return t("review.raise", { name, n: move.raise });
  if (move.discard && !move.discard.length) return t("review.stand_pat", { name });
  if (move.discard) return [t("review.discard", { name }), " ", tiles(move.discard), " → ", tiles(move.drew || [])];
  return JSON.stringify(move);
}

/** How a hand ended: the pots and who took them, or the bid made or set. */
function endLine(round, seats, units) {
  const end = round.end;
  if (end.kind === "timeout") return t("review.hand_timeout", { name: seats[end.seat] });
  if (end.pots) return end.pots.map((pot) => t("review.pot", { n: pot.amount, names: pot.winners.map((s) => seats[s]).join(", ") })).join(" · ");
  const taken = round.sheet.map((entry, u) => `${units[u]}: ${entry.taken}`).join(" · ");
  return `${t(end.made ? "review.bid_made" : "review.bid_set", { name: seats[end.bidder], n: end.bid })} ${taken}`;
}

/** Each unit's score (or each seat's chips) after every hand: the chart's lines. */
function series(record, units) {
  return units.map((label, u) => ({
    label,
    values: record.rounds.map((r) => (r.chips_after ? r.chips_after[u] : r.sheet[u].after)),
  }));
}

/** A move's line with the expert's word on it when it judged it (`judged`: by "hand:move"). */
function judgedLine(move, seats, d) {
  const line = moveLine(move, seats);
  if (!d) return h("li", {}, line);
  const mark = d.mistake ? "mistake" : d.loss > 0 ? "inaccuracy" : "best";
  return h("li", { class: mark, "data-move": d.move }, line, h("span.judgement-here", {}, " — ", verdict(d), d.mistake ? [" ", h("strong.mistake-mark", {}, `✗ ${t("judge.mistake")}`)] : null));
}

/** The review of the record's hand ``index`` and the chart, below the page's title; the moves
 * the expert judged (`judged`, by "hand:move") carry its word. */
export function handsReview(record, seats, index, choose, judged = new Map()) {
  const units = unitNames(seats, record.options.teams ?? gameInfo(record.game).pairs);
  const round = record.rounds[index];
  const lines = series(record, units);
  const title = t(round.chips_after ? "review.chips" : "review.scores");
  return [
    h(
      "nav.rounds",
      { "aria-label": t("review.rounds") },
      record.rounds.map((_, i) => h("button.round", { type: "button", "aria-current": i === index ? "true" : "false", onclick: () => choose(i) }, String(i + 1))),
    ),
    h(
      "section.card.hand-review",
      { "data-hand": index + 1 },
      h("h2", {}, t("review.hand", { n: index + 1, name: seats[round.dealer] })),
      h(
        "div.all-hands",
        {},
        round.deal.hands.map((hand, seat) => h("div.seat-hand", { "data-seat": seat }, h("span.name", {}, seats[seat]), tiles(hand))),
      ),
      h("ol.hand-moves", {}, round.moves.map((move, i) => judgedLine(move, seats, judged.get(`${index + 1}:${i + 1}`)))),
      round.showdown && round.showdown.length
        ? h("div.showdown", {}, h("h3", {}, t("review.showdown")), round.showdown.map((entry) => h("div.seat-hand", {}, h("span.name", {}, seats[entry.seat]), tiles(entry.hand))))
        : null,
      h("p.hand-end", {}, h("strong", {}, endLine(round, seats, units))),
    ),
    h("section.card", {}, h("h2", {}, title), lineChart(lines, { label: title }), legend(lines)),
  ];
}
