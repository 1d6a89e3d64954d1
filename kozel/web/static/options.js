// Games and their options as /api/rules gives them, labelled in the player's language. Nothing
// here (or anywhere in the client) names a game: what a game is — loser-scoring Goat family or
// winner-scoring race, line or cross — comes from the server.
import { get } from "./api.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";

let games = null;

export async function rules() {
  if (!games) games = await get("/api/rules");
  return games;
}

/** A game as /api/rules describes it: {id, family, board, sheet, options, presets, …}. */
export function gameInfo(id) {
  return (games || []).find((g) => g.id === id) || { id, options: [], presets: {} };
}

/** True for the winner-scoring games (the race to a target). */
export function isRace(id) {
  return gameInfo(id).family === "race";
}

export function gameName(id) {
  return has(`game.${id}`) ? t(`game.${id}`) : gameInfo(id).title || id;
}

export function gameSummary(id) {
  return has(`game.${id}.summary`) ? t(`game.${id}.summary`) : gameInfo(id).summary || "";
}

/** The class that colours a game's remembered points as its seed writes them: "" for Goat's
 * yellow "+", "remembered-red" for Donkey's red (open accounts then in the usual ink). */
export function sheetInk(id) {
  return gameInfo(id).remembered === "red" ? "remembered-red" : "";
}

/** The scoring units with the fewest points at the end of a loser-scoring game: its winners
 * (the penalty classic's rule; in Goat and Donkey the player who did best). */
export function fewest(accounts) {
  const low = Math.min(...accounts);
  return accounts.map((a, u) => (a === low ? u : -1)).filter((u) => u >= 0);
}

/** What the loser of a Goat-family game is called (the Goat, the Donkey). */
export function loserWord(id) {
  return has(`game.${id}.loser`) ? t(`game.${id}.loser`) : t("term.loser");
}

/** The key an option is worded by: its own name, or the label /api/rules gives it where the
 * same name means something else in another game. */
function wordKey(spec) {
  return spec.label || spec.name;
}

export function valueLabel(spec, value) {
  if (spec.kind === "bool") return t(`option.bool.${value}`);
  const key = `option.${wordKey(spec)}.${value}`;
  return has(key) ? t(key) : String(value);
}

export function optionLabel(spec) {
  const key = wordKey(spec);
  return has(`option.${key}`) ? t(`option.${key}`) : spec.name;
}

/** "Fish: all to the loser · Bazaar: without one" — the options that differ from defaults. */
export function optionsSummary(game, options) {
  const specs = (games || []).find((g) => g.id === game)?.options || [];
  const parts = [];
  for (const spec of specs) {
    if (spec.name in options && options[spec.name] !== spec.default) {
      parts.push(`${optionLabel(spec)}: ${valueLabel(spec, options[spec.name])}`);
    }
  }
  return parts.length ? parts.join(" · ") : t("lobby.default_options");
}

/** A form field for one option: [element, read(), set(value), allow(value, yes)] — allow
 * offers a value or takes it away (a value taken away while chosen falls back to the default). */
export function optionField(spec, value, onChange) {
  const id = `opt-${spec.name}`;
  const help = h("small.help", { id: `${id}-help` }, has(`option.${wordKey(spec)}.help`) ? t(`option.${wordKey(spec)}.help`) : spec.help);
  let input;
  let read;
  if (spec.kind === "bool") {
    input = h("input", { id, type: "checkbox", name: spec.name, checked: value, "aria-describedby": `${id}-help`, onchange: onChange });
    read = () => input.checked;
    const allow = (v, yes) => {
      input.disabled = !yes;
      if (!yes && input.checked === v) input.checked = spec.default;
    };
    return [h("div.field.check", {}, h("label", { for: id }, input, " ", optionLabel(spec)), help), read, (v) => (input.checked = v), allow];
  }
  if (spec.kind === "choice") {
    input = h(
      "select",
      { id, name: spec.name, "aria-describedby": `${id}-help`, onchange: onChange },
      spec.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === value }, valueLabel(spec, c))),
    );
    read = () => JSON.parse(input.value);
    const allow = (v, yes) => {
      const choice = [...input.options].find((o) => o.value === JSON.stringify(v));
      if (choice) choice.disabled = !yes;
      if (!yes && read() === v) input.value = JSON.stringify(spec.default);
    };
    return [h("div.field", {}, h("label", { for: id }, optionLabel(spec)), input, help), read, (v) => (input.value = JSON.stringify(v)), allow];
  }
  input = h("input", { id, type: "number", name: spec.name, min: spec.minimum ?? undefined, max: spec.maximum ?? undefined, step: 1, value, "aria-describedby": `${id}-help`, onchange: onChange });
  read = () => Number(input.value);
  return [h("div.field", {}, h("label", { for: id }, optionLabel(spec)), input, help), read, (v) => (input.value = String(v)), () => {}];
}

/** Why a game with these options (every option's value) cannot be rated — an option outside
 * the rated bounds /api/rules gives — in the player's language, or "" when it can. */
export function ratedProblem(game, options) {
  if (gameInfo(game).never_rated) return t("error.never_rated");
  for (const spec of gameInfo(game).options) {
    const value = options[spec.name];
    const option = optionLabel(spec);
    if (spec.rated_minimum != null && value < spec.rated_minimum) return t("lobby.rated_minimum", { option, value: spec.rated_minimum });
    if (spec.rated_maximum != null && value > spec.rated_maximum) return t("lobby.rated_maximum", { option, value: spec.rated_maximum });
  }
  return "";
}

/** Offer only the values whose needs (/api/rules: `teams` needs `players` 4) are met by the
 * other options' current values: a form never offers a combination the game refuses. */
export function offerValid(game, readers, allowers) {
  for (let pass = 0; pass < 2; pass++) {  // a need may rest on another (the partner's lead → pairs → 4 players)
    for (const spec of gameInfo(game).options) {
      for (const need of spec.needs || []) allowers[spec.name](need.value, readers[need.option]() === need.required);
    }
  }
}
