// A request's seats as the lobby and a link's page show them: who sits where, the seats kept
// for a player or for the link, the pairs of a team game, and whether you may sit down.
import { h } from "./dom.js";
import { t, tNodes } from "./i18n.js";
import { unitOfSeat } from "./sheet.js";

export const taken = (seat) => Boolean(seat && (seat.name || seat.bot));

/** True when the request is played in pairs: seats 0 and 2 against 1 and 3. */
export function inPairs(request) {
  return Boolean(request.options && request.options.teams);
}

/** Whether ``name`` may take this seat (``byLink``: he came by the request's link). */
export function mayTake(seat, name, byLink) {
  if (seat === null) return true;
  if (taken(seat)) return false;
  if (seat.link) return byLink;
  return Boolean(name) && seat.reserved === name; // the server keeps the name as the club spells it
}

/** Who is at a seat, in words. */
export function occupant(seat) {
  if (seat === null) return t("lobby.free_seat");
  if (seat.bot) return t("lobby.computer", { level: t(`level.${seat.bot}`) });
  if (seat.name) return seat.name;
  if (seat.link) return t("seats.kept_link");
  return t("seats.kept_for", { name: seat.reserved });
}

/** Who is at a seat, as the page shows it: a person's name marked as a name. */
function shownOccupant(seat) {
  if (seat && seat.name) return h("span.player-name", {}, seat.name);
  if (seat && !taken(seat) && !seat.link) return tNodes("seats.kept_for", { name: h("span.player-name", {}, seat.reserved) });
  return occupant(seat);
}

/** One seat's line: its team in a game of pairs, who is there, and a button to sit down
 * when ``sit`` is given. */
export function seatLine(request, index, sit) {
  const seat = request.seats[index];
  const pairs = inPairs(request);
  const team = unitOfSeat(index, true);
  return h(
    "li",
    { class: [seat === null ? "free" : "", seat && !taken(seat) ? "kept" : "", pairs ? `team${team}` : ""].join(" "), "data-seat": index },
    pairs ? h("span.team", { class: `team${team}` }, t("table.team", { n: team + 1 }), " ") : null,
    h("span.occupant", {}, shownOccupant(seat)),
    sit ? [" ", h("button.sit", { type: "button", "data-seat": index, onclick: () => sit(index) }, t("seats.sit"))] : null,
  );
}
