// The score as it happens, in the games that score during play (docs/protocol.md §6.1): a
// seat's running score (the sheet's score plus the points of this round), the "+N" of the lay
// just made, the end sum, and the hint — the points each of your legal lays would score, sent
// by the server only at an unrated table and shown only when the player's switch is on (on by
// default against the computer, off against people; docs/decisions.md).
import { h } from "./dom.js";
import { plural, t } from "./i18n.js";

/** True when the view's game scores during play. */
export function scoresDuringPlay(view) {
  return Boolean(view.during && view.during.length);
}

/** A unit's score so far: the sheet's score plus its points during play this round. */
export function running(view, unit) {
  return view.sheet[unit] + (scoresDuringPlay(view) ? view.during[unit] : 0);
}

/** The last lay of the round if it scored: {seat, points, key} (key: its place in the
 * history), else null. A draw or knock after it does not take it away; the next lay does. */
export function lastScore(view) {
  for (let k = view.history.length - 1; k >= 0; k--) {
    const event = view.history[k];
    if (event.play === undefined && event.doubles === undefined) continue;
    return event.points > 0 ? { seat: event.seat, points: event.points, key: k } : null;
  }
  return null;
}

/** What a seat shows beside its name: the running score, and "+N" when its lay just scored. */
export function seatScore(view, unit, seat) {
  const just = lastScore(view);
  return [
    h("span.score.race", { title: t("score.running") }, String(running(view, unit))),
    just && just.seat === seat ? h("span.just-scored", { "data-key": just.key, title: plural("score.just_made", just.points) }, `+${just.points}`) : null,
  ];
}

/** The end sum beside the layout (games that count the ends), once a tile is down. */
export function endSum(view) {
  if (view.end_sum === null || view.end_sum === undefined) return null;
  return h("span.end-sum", { title: t("score.end_sum_help") }, t("score.end_sum", { n: view.end_sum }));
}

// --- the hint ---------------------------------------------------------------------------

const stored = (key) => {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage refused (private mode): the default then
  }
};

function settingKey(againstComputer) {
  return `kozel.hints.${againstComputer ? "computer" : "people"}`;
}

/** The player's choice to see the hint: remembered per kind of table, on by default when every
 * other seat is a computer. */
export function hintsWanted(againstComputer) {
  const value = stored(settingKey(againstComputer));
  return value === null ? againstComputer : value === "on";
}

export function setHintsWanted(againstComputer, on) {
  try {
    window.localStorage.setItem(settingKey(againstComputer), on ? "on" : "off");
  } catch {
    /* not remembered: the page still follows the switch until it is left */
  }
}

/** The hint's switch: only at an unrated table of a game that scores during play. */
export function hintSwitch(state, againstComputer, onChange) {
  if (state.rated || !scoresDuringPlay(state.view)) return null;
  return h(
    "label.hint-switch",
    {},
    h("input", { type: "checkbox", checked: hintsWanted(againstComputer), onchange: (e) => onChange(e.target.checked) }),
    " ",
    t("score.hints"),
  );
}

/** The hint as {tiles: Map(tile → best points), at(tile, arm) → points or 0}. Several doubles
 * at once count for each of their tiles. */
export function hints(view) {
  const tiles = new Map();
  const byArm = new Map();
  for (const move of view.hint || []) {
    const laid = move.doubles ? move.doubles.map((d) => [d.tile, d.arm]) : [[move.play, move.arm ?? null]];
    for (const [tile, arm] of laid) {
      tiles.set(tile, Math.max(tiles.get(tile) || 0, move.points));
      if (!move.doubles) byArm.set(`${tile}@${arm}`, Math.max(byArm.get(`${tile}@${arm}`) || 0, move.points));
    }
  }
  return { tiles, at: (tile, arm) => byArm.get(`${tile}@${arm ?? null}`) || 0 };
}

/** A quiet "+N" on a tile in hand or a direction's button. */
export function hintMark(points) {
  return points ? h("span.hint", { title: t("score.hint", { points }) }, `+${points}`) : null;
}
