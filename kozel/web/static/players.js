// The players round the layout table, as at a real table: the next to play on your left (play
// passes clockwise), then across, then on your right (page.place()). Each seat shows its name,
// its score, its hand face down (face up at a round's end), the clock when it is its turn and
// its last move. A person whose socket is gone is marked away, and the others may vote to let
// a computer player finish the game in the seat. The poker and trick tables (poker.js,
// tricks.js) draw their seats with the same name, class and away panel.
import { h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { tilesOf } from "./movelog.js";
import { isBot } from "./names.js";
import { scoresDuringPlay, seatScore } from "./scoring.js";
import { fishIcon, score } from "./sheet.js";
import { halves, tileSvg } from "./tiles.js";

const MAX_BACKS = 10; // face-down tiles drawn at a seat (the count says the rest)

/** The seats in order of play from yours (a spectator's from seat 0), each with its last move
 * of the round (``log``: movelog.js's entries). */
export function players(page, log) {
  const { state } = page;
  const n = state.seats.length;
  const order = [...Array(n).keys()].map((k) => ((page.you ?? 0) + k) % n);
  const last = new Map(log.map((entry) => [entry.seat, entry]));
  return h(
    "ol.players",
    { "aria-label": t("table.players") },
    order.map((seat) => player(page, seat, last.get(seat))),
  );
}

/** The class of a seat's place at the table: its turn, yours, your partner's, away. */
export function seatClass(page, seat) {
  const { state } = page;
  const turn = state.view.turn === seat && state.status === "playing";
  const partner = page.partnerOf(seat);
  return [turn ? "turn" : "", seat === page.you ? "you" : "", partner ? "partner" : "", away(page, seat) ? "away" : ""].join(" ");
}

/** One seat: its name (who()), score, tiles in hand (face down), the clock when it is
 * theirs to move, and their last move this round. */
function player(page, seat, last) {
  const { state } = page;
  const view = state.view;
  const place = page.place(seat);
  const turn = view.turn === seat && state.status === "playing";
  const count = view.hand_sizes[seat];
  // at a round's end every hand is turned face up
  const shown = state.shown && place !== "you" ? state.shown[seat] : null;
  const backs = place === "you" || shown ? [] : Array.from({ length: Math.min(count, MAX_BACKS) }, () => h("span.back"));
  return h(
    "li.player",
    { "data-seat": seat, "data-place": place, class: seatClass(page, seat) },
    who(page, seat),
    h(
      "div.facts",
      {},
      scoresDuringPlay(view) ? seatScore(view, page.unitOf(seat), seat) : score(view.sheet[page.unitOf(seat)]),
      backs.length ? h("span.backs", { "aria-hidden": "true" }, backs) : null,
      shown ? h("span.shown", { "aria-label": t("table.hand_shown", { tiles: shown.join(", ") || "—" }) }, shown.map((tile) => tileSvg(...halves(tile), { u: window.innerWidth < 720 ? 14 : 16, label: tile }))) : null,
      h("span.count", { title: t("table.tiles_in_hand") }, plural("table.tiles", count)),
      turn && seat === page.you ? h("strong.your-turn", {}, t("table.your_turn")) : null,
      // the eggs waiting for this round's loser lie under the clock of the seat to move
      turn && state.clock
        ? h(
            "span.clock-box",
            {},
            h("span.clock", { title: t("table.clock") }, ""),
            view.eggs ? h("span.eggs-pending.under-clock", { title: t("term.eggs") }, fishIcon(t("term.eggs")), ` +${view.eggs}`) : null,
          )
        : null,
    ),
    last ? lastMove(last) : null,
  );
}

/** A seat's name (a computer's level apart, so a phone cuts the level, not the name), a
 * computer that took it, whether its player is away, and its team or partner. */
export function who(page, seat) {
  const { state } = page;
  const label = state.seats[seat];
  const teams = state.view.options.teams;
  const partner = page.partnerOf(seat);
  const unit = page.unitOf(seat);
  const replaced = state.replaced && state.replaced[seat];
  return h(
    "div.who",
    {},
    h("span.name", { title: page.label(seat) }, page.short(seat), seat === page.you ? h("span.muted", {}, ` (${t("table.you")})`) : null),
    isBot(label) ? h("span.level", {}, h("span.sep", {}, "· "), t(`level.${label.slice(4)}`)) : null,
    replaced ? h("span.replaced.small.muted", {}, t("table.replaced", { name: replaced })) : null,
    away(page, seat) ? h("span.away-mark", {}, h("span", { "aria-hidden": "true" }, "⚠ "), t("table.disconnected")) : null,
    teams ? h("span.team", { class: `team${unit}` }, partner ? t("table.partner") : t("table.team", { n: unit + 1 })) : null,
  );
}

/** True when a person's seat (not yours) has no live socket: the server says so once the
 * grace is over (docs/protocol.md §6.8). */
function away(page, seat) {
  const { state } = page;
  return Boolean(state.connected) && state.connected[seat] === false && seat !== page.you && state.status === "playing";
}

/** The players who have disconnected: a warning with the time left when one is to move,
 * and for each the vote to let a computer player finish the game in the seat. */
export function awayPanel(page) {
  const { state } = page;
  const view = state.view;
  const seats = state.seats.map((_, seat) => seat).filter((seat) => away(page, seat));
  if (!seats.length) return null;
  const person = page.you !== null && !isBot(state.seats[page.you]);
  return h(
    "section.away-panel",
    { role: "status" },
    seats.map((seat) => {
      const name = page.label(seat);
      const vote = (state.votes || []).find((v) => v.seat === seat);
      const agreed = vote && vote.agreed.includes(page.you);
      let action = null;
      if (person && agreed) action = h("span.small.replace-waiting", {}, t("table.replace_agreed", { names: vote.waiting.map((s) => page.label(s)).join(", ") || "—" }));
      else if (person) {
        action = h(
          "button.replace-vote",
          { type: "button", "data-seat": seat, onclick: () => page.socket.send({ type: "replace", seat }) },
          t("table.replace_vote", { name }),
        );
      }
      return h(
        "div.away-seat",
        { "data-seat": seat },
        // the seconds tick in the text (the page's tick()); a screen reader hears the name once
        view.turn === seat && state.clock
          ? [h("strong.away-turn", { "data-name": name, "aria-hidden": "true" }, ""), h("span.sr", {}, t("table.away", { name }))]
          : h("strong", {}, t("table.away", { name })),
        action,
        person ? h("span.small.muted", {}, t("table.replace_unrated")) : null,
      );
    }),
  );
}

/** A seat's last move, short: the tiles it laid, what it drew, or its knock. */
function lastMove(entry) {
  const tiles = tilesOf(entry);
  let what;
  if (tiles.length) what = tiles.map((tile) => h("span.laid", {}, tileSvg(...halves(tile), { u: 9, label: tile }), ` ${tile}`));
  else if (entry.kind === "drew") what = t("seat.drew", { n: entry.n });
  else if (entry.kind === "no_hundred") what = t("seat.no_hundred");
  else what = t("seat.knocked");
  return h("div.last-move", { "data-kind": entry.kind }, h("span.sr", {}, `${t("seat.last")}: `), what);
}
