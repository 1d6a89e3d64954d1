// The table's verifiable shuffle (docs/shuffle.md, docs/protocol.md §6.11): before the first
// deal this browser adds a seed of its own; the table shows the club's commitment, how many
// seeds were added and, once the game is over, the server seed revealed and where to check it.
// Every kind of table (the layout table, poker.js, tricks.js) shows the same line.
import { link } from "./app.js";
import { h } from "./dom.js";
import { plural, t } from "./i18n.js";

/** Before the first deal, add a seed of our own to the table's shuffle (16 random bytes):
 * the deals then depend on a number the club did not know when it committed to its own. */
export function addSeed(page) {
  const { state } = page;
  const shuffle = state.shuffle;
  if (!shuffle || state.view || state.status !== "playing" || page.you === null || page.seeded) return;
  if (shuffle.seeds[page.you] !== null) return;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  page.seeded = page.socket.send({ type: "seed", seed: [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("") });
}

/** What the table says of its shuffle: before the deal, the commitment and the seeds added;
 * at the end, the server seed revealed and where the check is. */
export function shuffleLine(page) {
  const { state } = page;
  const shuffle = state.shuffle;
  if (!shuffle) return null;
  const short = (hex) => h("code", { title: hex }, `${hex.slice(0, 12)}…`);
  const added = shuffle.seeds.filter((seed) => seed !== null).length;
  return h(
    "p.small.muted.shuffle-line",
    { "data-commitment": shuffle.commitment },
    t("shuffle.commitment"),
    " ",
    short(shuffle.commitment),
    " · ",
    plural("shuffle.seeds", added),
    shuffle.server_seed ? [" · ", t("shuffle.revealed"), " ", short(shuffle.server_seed), " · ", link(`/games/${page.id}/review`, t("shuffle.check"))] : null,
    " · ",
    link("/rules/shuffle", t("shuffle.how")),
  );
}
