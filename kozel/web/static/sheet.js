// The score sheet (RULES.md §12): per scoring unit and round, before / this round / after;
// remembered points in yellow with "+", open accounts in red without "+", fish rounds marked.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

/** As the sheet shows an account: "37" (open), "+9" (remembered), "0". */
export function show(entry) {
  if (entry.open) return String(entry.account);
  return entry.remembered ? `+${entry.remembered}` : "0";
}

export function accountClass(entry) {
  return entry.open ? "open" : entry.remembered ? "remembered" : "zero";
}

export function score(entry) {
  return h("span.score", { class: accountClass(entry) }, show(entry));
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

/** The names of the scoring units: seats, or teams (unit 0 = seats 0 and 2). */
export function unitNames(seats, teams) {
  return teams ? [`${seats[0]} & ${seats[2]}`, `${seats[1]} & ${seats[3]}`] : seats;
}

export function endText(end, seats) {
  const who = seats[end.seat];
  if (end.kind === "out") return t("round.out", { name: who });
  if (end.kind === "fish") return t("round.fish", { name: who });
  if (end.kind === "timeout") return t("round.timeout", { name: who });
  return end.kind;
}

/** The sheet as a table; `rounds` as in the record (end, counts, sheet, eggs). */
export function sheetTable(rounds, seats, teams, { caption = true } = {}) {
  const units = unitNames(seats, teams);
  const perUnitCounts = (round, u) =>
    teams ? round.counts.filter((_, seat) => seat % 2 === u) : [round.counts[u]];
  return h("div.sheet-scroll", {}, h(
    "table.sheet",
    {},
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
      rounds.map((round, i) =>
        h(
          "tr",
          { "data-round": i + 1 },
          h(
            "th",
            { scope: "row", title: endText(round.end, seats) },
            String(i + 1),
            round.end.kind === "fish" ? fishIcon() : null,
            round.eggs ? h("span.eggs-carried", { title: t("term.eggs") }, ` +${round.eggs}`) : null,
          ),
          round.sheet.map((entry, u) =>
            h(
              "td",
              { "data-unit": u, title: t("sheet.count", { counts: perUnitCounts(round, u).join(" + ") }) },
              h("span.before", { class: accountClass(entry.before) }, show(entry.before)),
              h("span.charged", {}, String(entry.charged)),
              h("span.after", { class: accountClass(entry.after) }, show(entry.after)),
            ),
          ),
        ),
      ),
    ),
  ));
}
