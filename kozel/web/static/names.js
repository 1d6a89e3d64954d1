// What a person reads for a seat. The server labels seats with a player's name or `bot:LEVEL`;
// a computer player is shown as an animal with its level ("Ёжик · эксперт"), the animal chosen
// from a number and an index: a lone game's number and the seat, so that one table's computer
// players are told apart and keep their names wherever the game is shown (table, sheet, review,
// lobby); a tournament's number and the entrant, so that a tournament's computer player keeps
// one name on the tournament page and at all its tables.
import { t } from "./i18n.js";

const ANIMALS = 12; // bot.animal.0 … bot.animal.11 in every language

export function isBot(label) {
  return label.startsWith("bot:");
}

/** The animal of a computer player: no two seats of one game (entrants of one tournament)
 * share one. */
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

/** Every seat's full name; `namer` as naming() or listNaming() give it. */
export function seatNames(labels, namer) {
  return labels.map((label, seat) => seatName(label, ...namer(seat)));
}

/** Who names a game's computer players: the game by its seats, or the tournament the game is
 * one of by its entrants (`tournament`: its number and the entrant at each seat). Returns
 * (seat) => [number, index] for seatName and shortName. */
export function naming(game, tournament = null) {
  return tournament ? (seat) => [tournament.id, tournament.players[seat]] : (seat) => [game, seat];
}

/** naming() for a game as the server lists it (the lobby, a player's page, the live games): a
 * tournament's game says each computer seat's entrant (`entrants`, from the server's
 * names_json); older games and lone ones name their seats by the game. */
export function listNaming(g) {
  return (seat) => (g.tournament_id != null && g.entrants?.[seat] != null ? [g.tournament_id, g.entrants[seat]] : [g.id, seat]);
}

/** The name of a seat a computer player took from a person: both, in the order they played
 * it ("Ann → Wolf · expert"). */
export function bothNames(person, computer) {
  return t("names.taken", { person, computer });
}

/** The computer players who took seats (the record's `replaced`, a table's `takeovers`), by
 * seat: {player, by, round, move}. */
export function takeoversBySeat(list) {
  return new Map((list || []).map((x) => [x.seat, x]));
}

/** True when move `move` (counted from 0) of round `round` (from 1) was still the person's,
 * the computer playing from `taken`'s round and move on. */
export function beforeTakeover(taken, round, move) {
  return round < taken.round || (round === taken.round && move < taken.move);
}
