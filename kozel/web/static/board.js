// The layout table's board: what lies beside the layout (the bazaar, the eggs waiting, a
// declared hundred, the end sum, the switches of the hints and the sounds), and the layout
// itself (layout.js), drawn in the height the window leaves above the hand. A newly laid tile
// slides in from its player's seat.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { drawLayout } from "./layout.js";
import { tilesOf } from "./movelog.js";
import { gameInfo } from "./options.js";
import { endSum, hintSwitch, setHintsWanted } from "./scoring.js";
import { fishIcon } from "./sheet.js";
import { soundSwitch } from "./sounds.js";

const FLY_MS = 450;

const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

export class Board {
  constructor(page) {
    this.page = page;
    this.laid = null; // {round, tiles}: the layout last drawn, to see which tiles are new
  }

  /** What lies beside the layout: the bazaar, the eggs waiting, a declared hundred. */
  info() {
    const { page } = this;
    const { state } = page;
    const view = state.view;
    return h(
      "div.board-info",
      {},
      // a game that never draws the tiles left after the deal has no bazaar to show
      gameInfo(view.game).draws === false ? null : h("span.bazaar", {}, t("table.bazaar", { n: view.bazaar_left }), view.reserve ? t("table.reserve", { n: view.reserve }) : ""),
      // with a seat to move the eggs lie under its clock (players.js)
      view.eggs && !(view.turn !== null && state.clock) ? h("span.eggs-pending", { title: t("term.eggs") }, fishIcon(t("term.eggs")), ` +${view.eggs}`) : null,
      view.hundred >= 0 ? h("span.hundred-declared", { role: "status" }, t("table.hundred_declared", { name: page.label(view.hundred) })) : null,
      endSum(view),
      page.you !== null && state.status === "playing"
        ? hintSwitch(state, page.againstComputer(), (on) => {
            setHintsWanted(page.againstComputer(), on);
            page.render();
          })
        : null,
      soundSwitch(),
    );
  }

  /** Give the board the height the window leaves above the bottom of the hand, then draw the
   * layout to fit it. */
  draw(log) {
    const { page } = this;
    const box = page.main.querySelector(".layout");
    if (!box) return;
    const view = page.state.view;
    const phone = window.innerWidth < 720;
    const [least, most] = phone ? [140, 460] : [200, 640];
    const below = page.main.querySelector(".hand-box") || page.main.querySelector(".arena");
    // how far the bottom of the hand is above the fold (below it: negative)
    const spare = () => window.innerHeight - (below.getBoundingClientRect().bottom + window.scrollY) - 8;
    let height = Math.round(Math.max(least, Math.min(most, box.clientHeight + spare())));
    box.style.height = `${height}px`;
    if (spare() < -1 && height > least) {
      // something beside the board grew with it (a wrapped line): take that back
      height = Math.round(Math.max(least, height + spare()));
      box.style.height = `${height}px`;
    }
    // a phone's round-end notice lies over the board: the board grows until all of it shows
    // (its last lines never hide behind its button in a box scrolled out of sight)
    const notice = phone && page.main.querySelector(".board .notice:not(.folded)");
    if (notice && notice.scrollHeight > notice.clientHeight) {
      height += notice.scrollHeight - notice.clientHeight + 2;
      box.style.height = `${height}px`;
    }
    if (!view.layout.first) {
      box.append(h("p.muted.empty", {}, t("table.empty_layout")));
      this.laid = { round: view.round, tiles: new Set() };
      return;
    }
    const lastEntry = [...log].reverse().find((e) => tilesOf(e).length);
    const last = lastEntry ? tilesOf(lastEntry).at(-1) : null;
    // each other seat's latest tiles, when laying them was its latest move
    const recent = new Map();
    for (const entry of new Map(log.map((e) => [e.seat, e])).values()) {
      const place = page.place(entry.seat);
      if (place !== "you") for (const tile of tilesOf(entry)) recent.set(tile, place);
    }
    const svg = drawLayout(view.layout, {
      width: box.clientWidth - 8,
      height: height - 8,
      u: phone ? 24 : 30,
      minU: phone ? 9 : 12,
      targets: page.hand.targets(),
      onArm: (arm) => page.hand.chooseArm(arm),
      last,
      recent,
    });
    box.append(svg);
    this.fly(svg, log);
  }

  /** Tiles laid since the last drawing slide in from the seat of whoever laid them. */
  fly(svg, log) {
    const { page } = this;
    const view = page.state.view;
    const tiles = new Set([view.layout.first, ...view.layout.arms.flatMap((a) => a.tiles)]);
    const before = this.laid && this.laid.round === view.round ? this.laid.tiles : null;
    this.laid = { round: view.round, tiles };
    if (!before || reducedMotion()) return;
    const by = new Map(log.flatMap((e) => tilesOf(e).map((tile) => [tile, e.seat])));
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width || 1;
    for (const g of svg.querySelectorAll("g.tile[data-tile]")) {
      const tile = g.dataset.tile;
      if (before.has(tile) || !by.has(tile)) continue;
      const seat = page.main.querySelector(`li.player[data-seat="${by.get(tile)}"]`);
      const at = g.getAttribute("transform").match(/translate\(([-\d.e]+) ([-\d.e]+)\)/);
      if (!seat || !at) continue;
      const from = seat.getBoundingClientRect();
      const to = g.getBoundingClientRect();
      const dx = (from.left + from.width / 2 - (to.left + to.width / 2)) / scale;
      const dy = (from.top + from.height / 2 - (to.top + to.height / 2)) / scale;
      const [x, y] = [Number(at[1]), Number(at[2])];
      svg.append(g); // above the others on its way
      g.style.transform = `translate(${x + dx}px, ${y + dy}px)`;
      g.getBoundingClientRect(); // the start is drawn before the move begins
      g.classList.add("flying");
      g.style.transform = `translate(${x}px, ${y}px)`;
      const land = () => {
        g.classList.remove("flying");
        g.style.transform = "";
      };
      g.addEventListener("transitionend", land, { once: true });
      setTimeout(land, FLY_MS + 200);
    }
  }
}
