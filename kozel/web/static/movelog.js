// The round's moves in words, for the table's log: built from the state's round history (each
// tile with the value it was laid on, from the layout), a seat's draws in a row told as one.
// The list is one element kept across the table's redraws, so a screen reader following it
// (aria-live) hears only the moves added.
import { clear, h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { laidOn } from "./layout.js";

/**
 * The log's entries for `history` (this round's moves as the state gives them) and the
 * `layout` they made. Returns [{key, seat, kind: "lead" | "play" | "doubles" | "drew" |
 * "knock", move, value?, n?, tiles?}]: `value` the one a played tile was laid on, `n` the
 * tiles drawn in a row, `tiles` those of them the viewer may see (its own).
 */
export function moveLog(history, layout) {
  const on = laidOn(layout);
  const entries = [];
  history.forEach((move, key) => {
    const previous = entries[entries.length - 1];
    if (move.draw !== undefined) {
      const seen = typeof move.draw === "string" ? [move.draw] : [];
      // every move makes or extends the last entry: a draw after a draw of the same seat extends it
      if (previous && previous.kind === "drew" && previous.seat === move.seat) {
        previous.n += 1;
        previous.tiles.push(...seen);
      } else entries.push({ key, seat: move.seat, kind: "drew", move, n: 1, tiles: seen });
      return;
    }
    const kind = move.knock ? "knock" : move.doubles ? "doubles" : move.arm === undefined || move.arm === null ? "lead" : "play";
    entries.push({ key, seat: move.seat, kind, move, value: move.play ? on.get(move.play) : undefined });
  });
  return entries;
}

/** The tiles a log entry laid. */
export function tilesOf(entry) {
  if (entry.kind === "lead" || entry.kind === "play") return [entry.move.play];
  return entry.kind === "doubles" ? entry.move.doubles.map((d) => d.tile) : [];
}

/** One entry in words: who laid what on which value (and the points it scored, in the games
 * that score during play: "… → +15"), drew how many, knocked. */
export function describe(entry, name) {
  const move = entry.move;
  const notes = [move.close ? t("review.closed") : null, move.hundred ? t("review.hundred") : null].filter(Boolean);
  const scored = (text) => (move.points > 0 ? `${text} → +${move.points}` : text);
  const noted = (text) => scored(notes.length ? `${text} (${notes.join(", ")})` : text);
  if (entry.kind === "lead") return noted(t("log.lead", { name, tile: move.play }));
  if (entry.kind === "play") return noted(t("log.play", { name, tile: move.play, value: entry.value ?? "?" }));
  if (entry.kind === "doubles") return scored(t("review.doubles", { name, tiles: move.doubles.map((d) => `${d.tile}${d.close ? ` (${t("review.closed")})` : ""}`).join(", ") }));
  if (entry.kind === "drew") return entry.tiles.length ? plural("log.drew_tiles", entry.n, { name, tiles: entry.tiles.join(", ") }) : plural("log.drew", entry.n, { name });
  return t("review.knock", { name });
}

export class MoveLog {
  constructor() {
    this.list = h("ol.move-log", { "aria-live": "polite", "aria-relevant": "additions text" });
    this.round = null;
  }

  /** The log's section for round `round`, holding the one list; `lead` is a line before the
   * moves (who won the lot for the first lead), or null. */
  box(round, lead = null) {
    return h("section.log-box", { "aria-labelledby": "log-title" }, h("h2#log-title", {}, t("log.title", { n: round })), lead ? h("p.log-lead.small", {}, lead) : null, this.list);
  }

  /** Show `entries` (of moveLog) of round `round`: entries already shown stay as they are, the
   * last draw's count may grow, new ones are added; a new round starts afresh. `nameOf(seat,
   * key)` says who made the entry's move (key: the move's index in the round), `placeOf(seat)`
   * where the seat sits. */
  update(entries, round, nameOf, placeOf) {
    const list = this.list;
    if (this.round !== round) {
      clear(list);
      this.round = round;
    }
    entries.forEach((entry, i) => {
      const key = String(entry.key);
      const text = describe(entry, nameOf(entry.seat, entry.key));
      const li = list.children[i];
      if (li && li.dataset.key === key) {
        if (li.textContent !== text) li.textContent = text;
        return;
      }
      while (list.children.length > i) list.lastChild.remove();
      list.append(h("li", { "data-key": key, "data-seat": entry.seat, "data-kind": entry.kind, "data-place": placeOf(entry.seat) }, text));
    });
    while (list.children.length > entries.length) list.lastChild.remove();
    const box = list.closest(".log-box");
    if (box) box.scrollTop = box.scrollHeight;
  }
}
