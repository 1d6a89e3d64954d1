// What a person reads for a seat. The server labels seats with a player's name or `bot:LEVEL`;
// a computer player is shown as an animal with its level ("Ёжик · эксперт"), the animal chosen
// from the game's number and the seat, so that one table's computer players are told apart and
// keep their names wherever the game is shown (table, sheet, review, lobby).
import { t } from "./i18n.js";

const ANIMALS = 12; // bot.animal.0 … bot.animal.11 in every language

export function isBot(label) {
  return label.startsWith("bot:");
}

/** The animal of a computer player: no two seats of one game share one. */
export function animal(game, seat) {
  return t(`bot.animal.${(game * 5 + seat) % ANIMALS}`);
}

/** A seat's name in full: a person's own name, or the animal with the computer's level. */
export function seatName(label, game, seat) {
  if (!isBot(label)) return label;
  return t("bot.name", { animal: animal(game, seat), level: t(`level.${label.slice(4)}`) });
}

/** A seat's name where space is short (a table's move log): the animal alone for a computer. */
export function shortName(label, game, seat) {
  return isBot(label) ? animal(game, seat) : label;
}

/** Every seat's full name. */
export function seatNames(labels, game) {
  return labels.map((label, seat) => seatName(label, game, seat));
}
