// The ends of a round and of a game at the table. A finished round's notice lies over the
// board until it is read: how the round ended, the counts, what each side was charged or
// credited, and, while the table waits for the next deal, who is still reading it and the
// button that says one is ready. A finished game's panel says who won or lost, the last round,
// the hands left face up, the ratings moved, and the rematch anyone may offer (or the way back
// to the tournament). The poker and trick tables (poker.js, tricks.js) word their own notices
// and share the "next" button and the game's end.
import { go, link } from "./app.js";
import { h } from "./dom.js";
import { plural, t } from "./i18n.js";
import { isBot } from "./names.js";
import { fewest, isRace, loserWord } from "./options.js";
import { creditText, decidedText, endText, fishIcon, hundredLostText, unitNames } from "./sheet.js";
import { halves, tileSvg } from "./tiles.js";

/** How a finished round ended, in words: who went out, or the fish and who won it. */
function endLine(page, round) {
  const view = page.state.view;
  const names = page.state.seats.map((_, s) => page.label(s));
  const units = unitNames(names, view.units);
  let text = endText(round.end, names);
  if (isRace(view.game) && round.end.kind === "fish") {
    text += ` — ${round.winner === null || round.winner === undefined ? t("notice.fish_nobody") : t("notice.fish_won", { side: units[round.winner] })}`;
  }
  return text;
}

/** The last round's end (page.notice) at a layout table, until it is dismissed or the next
 * round is dealt; null once the game is over (the game's end says it). */
export function noticePanel(page) {
  const round = page.notice;
  if (!round || page.state.status !== "playing") return null;
  const view = page.state.view;
  const names = page.state.seats.map((_, s) => page.label(s));
  const units = unitNames(names, view.units);
  const decided = decidedText(round, names) || hundredLostText(round, names);
  // a phone's notice lies over the board: folded, it leaves the final position in sight
  const folded = page.noticeFolded === round;
  return h(
    "section.notice",
    { role: "status", "data-end": round.end.kind, class: folded ? "folded" : "" },
    h(
      "button.link.notice-fold",
      { type: "button", "aria-expanded": folded ? "false" : "true", onclick: () => { page.noticeFolded = folded ? null : round; page.render(); } },
      t(folded ? "table.notice_show" : "table.notice_hide"),
    ),
    h("h2", {}, round.end.kind === "fish" ? fishIcon() : null, " ", endLine(page, round)),
    decided ? h("p.decided", {}, h("strong", {}, decided)) : null,
    h("ul.plain.counts", {}, round.counts.map((c, s) => h("li", {}, t("table.count_of", { name: names[s], count: c })))),
    isRace(view.game)
      ? h("p.small.credited", {}, creditText(round, units, view.options))
      : h("p.small", {}, round.sheet.map((e, u) => `${units[u]}: +${e.charged}`).join(" · ")),
    round.eggs ? h("p.small", {}, fishIcon(t("term.eggs")), plural("table.eggs_carried", round.eggs)) : null,
    page.state.next_round ? nextRound(page, names) : h("button.ok", { type: "button", onclick: () => { page.notice = null; page.render(); } }, t("table.ok")),
  );
}

/** The finished round waits for the next deal: who is still reading it, how long at most,
 * and the button that says one is ready (``label``: its words, e.g. "Next hand"). */
export function nextRound(page, names, label = "table.next_round") {
  // the countdown names what comes as the button does: a round, or a hand
  const countdown = label === "table.next_hand" ? "table.next_hand_in" : "table.next_in";
  const { waiting } = page.state.next_round;
  const mine = page.you !== null && waiting.includes(page.you);
  const others = waiting.filter((s) => s !== page.you).map((s) => names[s]);
  return h(
    "div.next-round",
    {},
    mine ? h("button.primary#next-round", { type: "button", onclick: () => page.socket.send({ type: "next" }) }, t(label)) : null,
    h("span.small.next-in", { "data-key": countdown }, ""),
    others.length ? h("span.small.muted.waiting", {}, " ", t("table.waiting_for", { names: others.join(", ") })) : null,
  );
}

/** The game's end, under the table's head: the verdict, the last round, the hands left, the
 * ratings, the rematch; null while the game is played. */
export function endPanel(page) {
  const { state } = page;
  if (state.status === "playing" || !state.result) return null;
  const res = state.result;
  const view = state.view;
  const names = state.seats.map((_, s) => page.label(s));
  const units = unitNames(names, view.units);
  const last = state.rounds[state.rounds.length - 1];
  const decided = last && !page.drawer ? decidedText(last, names) : null;
  // a game a clock ended says so once (the verdict), not again as its last round's end
  const timedOut = res.timeout !== null && res.timeout !== undefined;
  let verdict;
  if (timedOut) verdict = h("p.timed-out", {}, t("table.timed_out", { name: page.label(res.timeout) }));
  else if (res.winners) verdict = h("p.winner", {}, `${res.winners.length > 1 ? t("table.winners") : t("table.winner")}: `, h("strong", {}, res.winners.map((u) => units[u]).join(", ")));
  else {
    verdict = [
      h("p.loser", {}, `${loserWord(view.game)}: `, h("strong", {}, res.losers.map((u) => units[u]).join(", "))),
      h("p.fewest", {}, t("table.fewest", { names: fewest(res.accounts).map((u) => units[u]).join(", ") })),
    ];
  }
  return h(
    "section.game-over",
    { role: "status" },
    h("h2", {}, t("table.game_over")),
    last && page.drawer && !timedOut ? h("p.small.last-round", {}, page.drawer.endLine(last)) : null,
    last && !page.drawer && !timedOut ? h("p.small.last-round", {}, last.end.kind === "fish" ? fishIcon() : null, " ", endLine(page, last), isRace(view.game) && last.end.kind !== "timeout" ? `. ${creditText(last, units, view.options)}` : "") : null,
    decided ? h("p.decided", {}, decided) : null,
    verdict,
    last && !page.drawer ? finalHands(page, last, names) : null,
    res.scores ? h("p.small.scores", {}, res.scores.map((v, u) => `${units[u]}: ${v}`).join(" · ")) : null,
    state.rated
      ? h(
          "ul.plain.rating",
          {},
          res.rating.map((delta, seat) => h("li", {}, `${page.label(seat)}: ${t("table.rating_change", { delta: delta >= 0 ? `+${delta}` : delta })}`)),
        )
      : h("p.muted", {}, t("lobby.unrated")),
    rematchPanel(page, names),
    state.tournament
      ? h(
          "p.tournament-links",
          {},
          link(`/tournaments/${state.tournament}`, t("tournament.back"), { class: "button primary", id: "to-tournament" }),
          state.next_game ? [" · ", link(`/games/${state.next_game}`, t("tournament.next_game"), { id: "next-game" })] : null,
        )
      : null,
    h("p", {}, link(`/games/${page.id}/review`, t("table.review")), " · ", link("/", t("nav.lobby"))),
  );
}

/** The rematch everyone accepted has started: a player goes to its table. */
export function followRematch(page) {
  const offer = page.state && page.state.rematch;
  if (!offer || offer.status !== "started" || page.you === null || !offer.game) return false;
  go(`/games/${offer.game}`);
  return true;
}

/** At the end of the game: offer a rematch, answer the offer, or see how it went (who
 * declined or did not answer in time); a spectator sees the offer and the new table. */
function rematchPanel(page, names) {
  const { state } = page;
  if (state.tournament) return null;
  const offer = state.rematch;
  const person = page.you !== null && !isBot(state.seats[page.you]);
  const answer = (accept) => page.socket.send({ type: "rematch", accept });
  const how = t(state.view.options.teams ? "rematch.kept" : "rematch.rotated");
  const offerButton = person ? h("button.primary#rematch-offer", { type: "button", onclick: () => answer(true) }, t("rematch.offer")) : null;
  const list = (seats) => seats.map((s) => names[s]).join(", ");
  let body;
  if (!offer) body = [offerButton, person ? h("span.small.muted", {}, " ", how) : null];
  else if (offer.status === "open") {
    const mine = person && offer.waiting.includes(page.you);
    body = [
      h("p.rematch-offered", {}, offer.by === page.you ? t("rematch.you_offered") : t("rematch.offered", { name: names[offer.by] }), " ", how),
      mine
        ? h("span.buttons", {}, h("button.primary#rematch-accept", { type: "button", onclick: () => answer(true) }, t("rematch.accept")), " ", h("button#rematch-decline", { type: "button", onclick: () => answer(false) }, t("rematch.decline")))
        : null,
      offer.waiting.length ? h("p.small.rematch-waiting", {}, t("table.waiting_for", { names: list(offer.waiting) }), " ", h("span.rematch-in", {}, "")) : null,
    ];
  } else if (offer.status === "started") {
    body = h("p.rematch-started", {}, t("rematch.started"), " ", link(`/games/${offer.game}`, t("rematch.watch"), { id: "rematch-watch" }));
  } else {
    const why = offer.status === "declined" ? t("rematch.declined", { names: list(offer.declined) }) : t("rematch.expired", { names: list(offer.waiting) });
    body = [h("p.rematch-over", { "data-status": offer.status }, why), offerButton];
  }
  return h("div.rematch", { role: "status", "data-status": offer ? offer.status : "none" }, body);
}

/** The hands left at the game's end, face up, each with its count as the game counts it
 * (the round's summary): the bonus and the charges can be checked here. */
function finalHands(page, last, names) {
  const shown = page.state.shown;
  if (!shown || !last.counts) return null;
  const u = window.innerWidth < 720 ? 14 : 17;
  return h(
    "ul.plain.final-hands",
    { "aria-label": t("table.final_hands") },
    shown.map((tiles, seat) =>
      h(
        "li",
        { "data-seat": seat },
        h("span.name", {}, names[seat]),
        h("span.shown", { "aria-label": t("table.hand_shown", { tiles: tiles.join(", ") || "—" }) }, tiles.length ? tiles.map((tile) => tileSvg(...halves(tile), { u, label: tile })) : "—"),
        h("strong.total", {}, t("table.hand_total", { count: last.counts[seat] })),
      ),
    ),
  );
}
