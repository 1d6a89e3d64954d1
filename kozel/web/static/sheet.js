// The score sheet (docs/rules.md#club): per scoring unit and round, before / this round / after.
// Goat family (loser-scoring sheets): remembered points in yellow with "+", open accounts in red
// without "+". Races ("race" sheets): the score before, the points scored during play (only
// when some round has any), the credit at the end of the hand, the score after; a round in
// which Sea Goat wrote every record off is struck through. Fish rounds are marked in both.
import { h, s } from "./dom.js";
import { plural, t } from "./i18n.js";

/** As the sheet shows an account: "37" (open), "+9" (remembered), "0". */
export function show(entry) {
  if (entry.open) return String(entry.account);
  return entry.remembered ? `+${entry.remembered}` : "0";
}

export function accountClass(entry) {
  return entry.open ? "open" : entry.remembered ? "remembered" : "zero";
}

/** A unit's cell of the view's sheet: a Goat account, or a race score (a number). */
export function score(entry) {
  if (typeof entry === "number") return h("span.score.race", {}, String(entry));
  return h("span.score", { class: accountClass(entry) }, show(entry));
}

/** A race sheet's number for the round's own points: "+21", or "0". */
export function plus(n) {
  return n > 0 ? `+${n}` : String(n);
}

export function fishIcon(label) {
  return s(
    "svg",
    { class: "fish", viewBox: "0 0 24 14", width: 24, height: 14, role: "img", "aria-label": label || t("term.fish") },
    s("title", {}, label || t("term.fish")),
    s("path", { d: "M2 7c3-5 9-6 14-3l5-3-1 6 1 6-5-3C11 13 5 12 2 7z" }),
    s("circle", { cx: 6.5, cy: 6, r: 1, class: "eye" }),
  );
}

/** Per seat, its scoring unit, for a page that has no view to read it from (a record's
 * review): the engine's `Options.unit_of`, copied here once (in team play seats 0 and 2 are
 * unit 0, seats 1 and 3 unit 1; else each seat is its own). A table reads its view's `units`;
 * tests/web/test_view_fields.py checks this copy against the engine. */
export function seatUnits(players, teams) {
  return Array.from({ length: players }, (_, seat) => (teams ? seat % 2 : seat));
}

/** One seat's unit by seatUnits' rule (a lobby request's seats, before any view). */
export function unitOfSeat(seat, teams) {
  return seatUnits(seat + 1, teams)[seat];
}

/** `units` as the functions below take it: per seat its unit (a view's `units`), or whether
 * the seats play in teams (a record's `options.teams`). */
function unitsOf(seats, units) {
  return Array.isArray(units) ? units : seatUnits(seats.length, Boolean(units));
}

/** The names of the scoring units, unit 0 first: a seat's, or a team's ("ann & cleo"). */
export function unitNames(seats, units) {
  const of = unitsOf(seats, units);
  const names = [];
  for (const [seat, u] of of.entries()) {
    if (names[u] === undefined) names[u] = seats[seat];
    else names[u] += ` & ${seats[seat]}`;
  }
  return names;
}

export function endText(end, seats) {
  const who = seats[end.seat];
  if (end.kind === "out") return t("round.out", { name: who });
  if (end.kind === "fish") return t(end.closed_both ? "round.closed_both" : "round.fish", { name: who });
  if (end.kind === "sortir") return t("round.sortir", { name: who });
  if (end.kind === "timeout") return t("round.timeout", { name: who });
  return end.kind;
}

/** Why a round decided the game at once (Sea Goat), from the server's `decided_by`:
 * "Bald goat: … went out on 0-0 and wins the game", or null. */
export function decidedText(round, seats) {
  const decides = round.end && round.end.decides;
  if (!decides) return null;
  const reason = round.decided_by || (decides.won ? "won" : "lost");
  return t(`decides.${reason}`, { name: seats[decides.seat] });
}

/** Sea Goat: "… declared the hundred and neither went out first nor was caught with 25: his
 * record is written off", from the server's `hundred_lost` (the declarer), or null. */
export function hundredLostText(round, seats) {
  return round.hundred_lost >= 0 ? t("notice.hundred_lost", { name: seats[round.hundred_lost] }) : null;
}

/** Who won a race's hand and what it was credited, in words. */
export function creditText(round, units, options) {
  // a game that places its players (Bykovo) says the places, not a credit
  if (round.places) return t("notice.places", { places: round.places.map((s) => units[s]).join(", ") });
  const credited = round.sheet.map((e) => e.credited);
  // every record written off (a second one opened); a failed hundred writes off one only
  if (round.sheet.every((e) => e.written_off)) {
    const u = credited.findIndex((c) => c > 0);
    return t("notice.written_off", { side: units[u] ?? "—", credit: credited[u] ?? 0 });
  }
  const parts = round.sheet.filter((e) => e.during).map((e) => plural("notice.during", e.during, { side: units[round.sheet.indexOf(e)] }));
  const u = credited.findIndex((c) => c > 0);
  if (u >= 0) parts.push(t("notice.credited", { side: units[u], credit: credited[u] }));
  else if (round.end.kind === "timeout") parts.push(t("notice.nothing_timeout"));
  else if (round.winner === null || round.winner === undefined) parts.push(t("notice.fish_tie"));
  else if (round.credit > 0 && options.open_at !== undefined) parts.push(t("notice.not_opened", { side: units[round.winner], credit: round.credit, n: options.open_at }));
  else parts.push(t("notice.nothing_credited", { side: units[round.winner] }));
  return parts.join(" ");
}

/** The sheet as a table; `rounds` as in the record (end, counts, sheet, eggs); `teams` the
 * seats' units (a view's `units`) or whether they play in teams; `kind` is the
 * game's sheet (a Goat family's accounts, or "race"). A game that scores during play passes
 * `during: true` (its column in every round, and a legend) and, while a round is played,
 * `current`: {round, before, during} per unit, shown as the round's row so far. */
export function sheetTable(rounds, seats, teams, { caption = true, kind = null, during: scoresDuring = false, current = null } = {}) {
  const units = unitNames(seats, teams);
  const unitOf = unitsOf(seats, teams);
  const race = kind === "race";
  const during = race && (scoresDuring || rounds.some((r) => r.sheet.some((e) => e.during)));
  const perUnitCounts = (round, u) => round.counts.filter((_, seat) => unitOf[seat] === u);
  const cell = (round, entry, u) => {
    const title = t("sheet.count", { counts: perUnitCounts(round, u).join(" + ") });
    if (!race) {
      return h(
        "td",
        { "data-unit": u, title },
        h("span.before", { class: accountClass(entry.before) }, show(entry.before)),
        h("span.charged", {}, String(entry.charged)),
        h("span.after", { class: accountClass(entry.after) }, show(entry.after)),
      );
    }
    return h(
      "td",
      { "data-unit": u, title, class: entry.written_off ? "written-off" : "" },
      h("span.before", {}, String(entry.before)),
      during ? h("span.during", { title: t("sheet.during") }, plus(entry.during)) : null,
      h("span.credited", { title: t(scoresDuring ? "sheet.bonus" : "sheet.credited") }, plus(entry.credited)),
      h("span.after", { class: entry.after > 0 ? "scored" : "zero" }, String(entry.after)),
    );
  };
  return h("div.sheet-scroll", {}, h(
    "table.sheet",
    { class: race ? "race" : "accounts" },
    caption ? h("caption", {}, t("sheet.title")) : null,
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("term.round")), units.map((name) => h("th", { scope: "col" }, name))),
    ),
    h(
      "tbody",
      {},
      rounds.length ? null : h("tr.none", {}, h("td.muted", { colspan: units.length + 1 }, t("sheet.no_rounds"))),
      rounds.map((round, i) => {
        const writtenOff = race && round.sheet.some((e) => e.written_off);
        const decided = decidedText(round, seats);
        return h(
          "tr",
          { "data-round": i + 1, class: writtenOff ? "written-off" : "" },
          h(
            "th",
            { scope: "row", title: [endText(round.end, seats), decided].filter(Boolean).join(" · ") },
            String(i + 1),
            round.end.kind === "fish" ? fishIcon() : null,
            round.eggs ? h("span.eggs-carried", { title: t("term.eggs") }, ` +${round.eggs}`) : null,
            round.hundred >= 0 ? h("span.hundred-mark", { title: t("table.hundred_declared", { name: seats[round.hundred] }) }, "100") : null,
            writtenOff ? h("span.written-off-mark", { title: t("sheet.written_off"), "aria-label": t("sheet.written_off") }, "✕") : null,
            decided ? h("span.decided-mark", { title: decided, "aria-label": decided }, "★") : null,
          ),
          round.sheet.map((entry, u) => cell(round, entry, u)),
        );
      }),
      current && race ? currentRow(current, units) : null,
    ),
  ), scoresDuring && race ? h("p.sheet-legend.small.muted", {}, t("sheet.legend_during")) : null);
}

/** The round being played, so far: the score before it, its points during play, no bonus yet,
 * the score now. */
function currentRow(current, units) {
  return h(
    "tr.current",
    { "data-round": current.round },
    h("th", { scope: "row", title: t("sheet.in_play") }, `${current.round}…`),
    units.map((_, u) =>
      h(
        "td",
        { "data-unit": u },
        h("span.before", {}, String(current.before[u])),
        h("span.during", { title: t("sheet.during") }, plus(current.during[u])),
        h("span.credited", { title: t("sheet.bonus") }, "…"),
        h("span.after", { class: current.before[u] + current.during[u] > 0 ? "scored" : "zero" }, String(current.before[u] + current.during[u])),
      ),
    ),
  );
}
