// The expert's judgement of a finished game on its review page: each player's accuracy and
// large mistakes, and every decision with the move played, the expert's move and the expected
// loss. The club computes it after the game (GET /api/games/{id}/analysis, docs/protocol.md);
// this page asks for it, waits while it is being computed, and only draws it.
import { get } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const POLL_MS = 2000;

/** Ask for a game's judgement and call `show(analysis)` with it, again while it is being
 * computed (every seat judged so far), until it is done or failed; `show(null, error)` if the
 * club refused. Returns a function that stops asking. */
export function follow(id, show) {
  let timer = null;
  let stopped = false;
  const ask = async () => {
    timer = null;
    try {
      const analysis = await get(`/api/games/${id}/analysis`);
      if (stopped) return;
      show(analysis, null);
      if (analysis.status === "queued" || analysis.status === "running") timer = setTimeout(ask, POLL_MS);
    } catch (error) {
      if (!stopped) show(null, error);
    }
  };
  ask();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** The decisions of a judgement by "round:move" (each seat moves at most once per move). */
export function byMove(analysis) {
  const found = new Map();
  for (const seat of analysis?.seats || []) {
    for (const d of seat.decisions) found.set(`${d.round}:${d.move}`, { ...d, seat: seat.seat, unit: seat.unit });
  }
  return found;
}

const number = (n) => (Math.round(n * 10) / 10).toLocaleString(undefined, { maximumFractionDigits: 1 });

/** A move as the judgement names it, short: a tile (and the value it is laid on, from
 * `onValue(arm)`), a draw, a bet… */
export function moveText(move, onValue = () => undefined) {
  if (move.play !== undefined && typeof move.play === "string") {
    const value = move.arm === undefined || move.arm === null ? undefined : onValue(move.arm);
    return value === undefined ? move.play : t("judge.on", { tile: move.play, value });
  }
  if (move.doubles) return move.doubles.map((d) => d.tile).join(", ");
  if (move.draw) return t("judge.draw");
  if (move.knock) return t("judge.knock");
  if (move.hundred === false) return t("judge.no_hundred");
  if (move.check) return t("judge.check");
  if (move.fold) return t("judge.fold");
  if (move.call !== undefined) return t("judge.call", { n: move.call });
  if (move.bet !== undefined) return t("judge.bet", { n: move.bet });
  if (move.raise !== undefined) return t("judge.raise", { n: move.raise });
  if (move.discard) return move.discard.length ? t("judge.discard", { tiles: move.discard.join(", ") }) : t("judge.stand_pat");
  if (move.bid !== undefined) return t("judge.bid", { n: move.bid });
  if (move.pass) return t("judge.pass");
  if (move.trumps !== undefined) return t("judge.trumps", { n: move.trumps });
  return JSON.stringify(move);
}

/** One decision in a line: the expert's move and what the one played is expected to lose. */
export function verdict(d, onValue) {
  if (d.loss === 0) return t("judge.agrees");
  return t("judge.prefers", { best: moveText(d.best, onValue), loss: number(d.loss), unit: t(`judge.unit.${d.unit}`) });
}

/** The judgement's card: a table of the players (accuracy, large mistakes, expected loss),
 * then each player's decisions; `jump(round, move)` (or null) opens a decision's position,
 * `onValueAt(round, move)` gives the values a tile could be laid on then (layout games). */
export function judgementCard(analysis, error, seats, { jump = null, onValueAt = () => () => undefined, explain = (e) => String(e), hands = false } = {}) {
  const at = (d) => t(hands ? "judge.at_hand" : "judge.at", { round: d.round, move: d.move });
  const title = h("h2", {}, t("judge.title"));
  if (error) return h("section.card.judgement", {}, title, h("p.judgement-failed", {}, error.code === "busy" ? t("judge.busy") : explain(error)));
  if (!analysis) return h("section.card.judgement", {}, title, h("p.muted", {}, t("judge.asking")));
  const pending = analysis.status === "queued" || analysis.status === "running";
  const status = pending
    ? h("p.judgement-pending", { role: "status" }, t("judge.pending", { done: analysis.progress.done, total: analysis.progress.of }))
    : analysis.status === "failed"
      ? h("p.judgement-failed", {}, t("judge.failed"))
      : null;
  const judged = analysis.seats.filter((s) => s.judged);
  const unjudged = analysis.seats.some((s) => !s.judged);
  const skipped = analysis.seats.find((s) => s.skipped && s.judged)?.skipped;
  const unit = (s) => t(`judge.unit.${s.unit}`);
  const summary = judged.length
    ? h(
        "table.judgement-summary",
        {},
        h("thead", {}, h("tr", {}, [t("judge.player"), t("judge.accuracy"), t("judge.mistakes"), t("judge.loss"), t("judge.decisions")].map((c) => h("th", { scope: "col" }, c)))),
        h(
          "tbody",
          {},
          judged.map((s) =>
            h(
              "tr",
              { "data-seat": s.seat },
              h("th", { scope: "row" }, seats[s.seat]),
              h("td.accuracy", {}, s.accuracy === null ? "—" : `${number(s.accuracy)}%`),
              h("td.mistake-count", {}, String(s.mistakes)),
              h("td.loss", {}, `${number(s.loss)} ${unit(s)}`),
              h("td", {}, String(s.decisions.length)),
            ),
          ),
        ),
      )
    : null;
  const lists = judged.map((s) =>
    h(
      "details.seat-judgement",
      { "data-seat": s.seat, open: s.mistakes > 0 },
      h("summary", {}, seats[s.seat], " · ", s.accuracy === null ? t("judge.no_choice") : `${number(s.accuracy)}%`, s.mistakes ? [" · ", h("span.mistake-mark", {}, t("judge.mistakes_n", { n: s.mistakes }))] : null),
      s.decisions.length
        ? h(
            "table.decisions",
            {},
            h("thead", {}, h("tr", {}, [t("judge.where"), t("judge.played"), t("judge.best"), t("judge.loss")].map((c) => h("th", { scope: "col" }, c)))),
            h(
              "tbody",
              {},
              s.decisions.map((d) => {
                const onValue = onValueAt(d.round, d.move);
                return h(
                  "tr.decision",
                  { class: d.mistake ? "mistake" : d.loss > 0 ? "inaccuracy" : "best", "data-round": d.round, "data-move": d.move },
                  h("td", {}, jump ? h("button.link", { type: "button", onclick: () => jump(d.round, d.move) }, at(d)) : at(d)),
                  h("td.played", {}, moveText(d.played, onValue)),
                  h("td.best", {}, moveText(d.best, onValue)),
                  h("td.loss", {}, d.loss === 0 ? "0" : `−${number(d.loss)}`, d.mistake ? [" ", h("strong.mistake-mark", { title: t("judge.mistake") }, `✗ ${t("judge.mistake")}`)] : null),
                );
              }),
            ),
          )
        : h("p.muted.small", {}, t("judge.no_choice")),
    ),
  );
  return h(
    "section.card.judgement",
    { "data-status": analysis.status },
    title,
    status,
    summary,
    judged.length ? h("p.small.muted", {}, t("judge.accuracy_help"), " ", t("judge.mistake_help")) : null,
    unjudged ? h("p.small.muted.unjudged", {}, t("judge.no_evaluator")) : null,
    skipped === "bids" ? h("p.small.muted", {}, t("judge.skipped_bids")) : null,
    lists,
  );
}
