// The hand at the layout table and the move being chosen. The tiles stay in the order the
// player keeps them: a click on a half of a tile that cannot be played groups the hand by that
// value. A move is chosen among view.legal_moves step by step, asking only what is left open:
// the tile (clicked, or dragged onto the layout), the arm, closing its direction, declaring the
// hundred, or several doubles at once; the page (table.js) sends it with page.send().
import { h } from "./dom.js";
import { follow } from "./drag.js";
import { plural, t } from "./i18n.js";
import { hintMark, hints, hintsWanted } from "./scoring.js";
import { halves, tileSvg } from "./tiles.js";

const same = (a, b) => a.tile === b.tile && a.arm === b.arm && a.close === b.close;
const yesNo = (cls, answer) => [
  h(`button.${cls}-yes`, { type: "button", onclick: () => answer(true) }, t("option.bool.true")),
  h(`button.${cls}-no`, { type: "button", onclick: () => answer(false) }, t("option.bool.false")),
];

export class Hand {
  constructor(page) {
    this.page = page;
    this.order = []; // the hand in the player's order
    this.group = null; // the value the hand is grouped by
    this.pick = null; // {tile, arm?, close?, hundred?}: a move being chosen
    this.plan = null; // several doubles being chosen: [{tile, arm, close}]
  }

  /** Follow a new view: the tiles kept in the player's order (new ones at the right, still
   * grouped), and a choice dropped that the legal moves no longer allow. */
  sync(view) {
    const held = new Set(view.hand);
    this.order = this.order.filter((tile) => held.has(tile));
    const fresh = view.hand.filter((tile) => !this.order.includes(tile));
    this.order.push(...fresh);
    if (this.group !== null) this.groupBy(this.group);
    const legal = view.legal_moves;
    if (this.pick && !legal.some((m) => m.play === this.pick.tile)) this.pick = null;
    if (this.plan && !legal.some((m) => m.doubles)) this.plan = null;
  }

  /** Drop the move being chosen; true when there was one. */
  cancel() {
    if (!this.pick && !this.plan) return false;
    this.pick = null;
    this.plan = null;
    return true;
  }

  /** docs/decisions.md#the-browser-client (the rulebook's §4): clicking a half groups every tile of that value (at the left). */
  groupBy(value) {
    this.group = value;
    const has = this.order.filter((tile) => halves(tile).includes(value));
    const rest = this.order.filter((tile) => !halves(tile).includes(value));
    has.sort((a, b) => {
      const oa = halves(a).find((x) => x !== value) ?? value;
      const ob = halves(b).find((x) => x !== value) ?? value;
      return oa - ob;
    });
    this.order = [...has, ...rest];
  }

  /** The steps on offer: plain plays, or the next double of several being planned. */
  choices() {
    const { page } = this;
    const legal = page.state.view.legal_moves;
    if (!this.plan) {
      return legal.filter((m) => m.play).map((m) => ({ tile: m.play, arm: m.arm ?? null, close: Boolean(m.close), hundred: Boolean(m.hundred), move: m }));
    }
    const steps = [];
    for (const m of legal.filter((x) => x.doubles)) {
      const list = m.doubles.map((d) => ({ tile: d.tile, arm: d.arm, close: Boolean(d.close) }));
      if (!this.plan.every((p) => list.some((d) => same(d, p)))) continue;
      for (const d of list) {
        if (!this.plan.some((p) => p.tile === d.tile) && !steps.some((x) => same(x, d))) steps.push(d);
      }
    }
    return steps;
  }

  /** The legal several-doubles move that is exactly the plan (in the server's own order). */
  planned() {
    const { page } = this;
    if (!this.plan || this.plan.length < 2) return null;
    return (
      page.state.view.legal_moves.find(
        (m) => m.doubles && m.doubles.length === this.plan.length && m.doubles.every((d) => this.plan.some((p) => same(p, { tile: d.tile, arm: d.arm, close: Boolean(d.close) }))),
      ) || null
    );
  }

  /** The arms the tile being chosen may go to, while its arm is not chosen: the board marks
   * them. */
  targets() {
    if (!this.pick || this.pick.arm !== undefined) return [];
    return [...new Set(this.choices().filter((c) => c.tile === this.pick.tile).map((c) => c.arm))];
  }

  choose(tile) {
    const options = this.choices().filter((c) => c.tile === tile);
    if (!options.length) return false;
    this.pick = { tile };
    this.advance();
    return true;
  }

  chooseArm(arm) {
    if (!this.pick) return;
    this.pick.arm = arm;
    this.advance();
  }

  chooseClose(close) {
    if (!this.pick) return;
    this.pick.close = close;
    this.advance();
  }

  chooseHundred(hundred) {
    if (!this.pick) return;
    this.pick.hundred = hundred;
    this.advance();
  }

  /** Narrow the choice by what the player said (the arm, closing it, declaring the hundred
   * with the lead); act when one step is left. */
  advance() {
    const { page } = this;
    const pick = this.pick;
    let options = this.choices().filter((c) => c.tile === pick.tile);
    const arms = [...new Set(options.map((c) => c.arm))];
    if (pick.arm === undefined && arms.length === 1) pick.arm = arms[0];
    if (pick.arm !== undefined) options = options.filter((c) => c.arm === pick.arm);
    const closes = [...new Set(options.map((c) => c.close))];
    if (pick.arm !== undefined && pick.close === undefined && closes.length === 1) pick.close = closes[0];
    // the last tile ends the round: whether it closes its direction does not matter
    if (pick.arm !== undefined && pick.close === undefined && !this.plan && page.state.view.hand.length === 1) pick.close = false;
    if (pick.close !== undefined) options = options.filter((c) => c.close === pick.close);
    const hundreds = [...new Set(options.map((c) => Boolean(c.hundred)))];
    if (pick.close !== undefined && pick.hundred === undefined && hundreds.length === 1) pick.hundred = hundreds[0];
    if (pick.hundred !== undefined) options = options.filter((c) => Boolean(c.hundred) === pick.hundred);
    if (pick.arm !== undefined && pick.close !== undefined && pick.hundred !== undefined && options.length === 1) {
      const step = options[0];
      this.pick = null;
      if (this.plan) this.plan.push({ tile: step.tile, arm: step.arm, close: step.close });
      else {
        page.send(step.move);
        return;
      }
    }
    page.render();
  }

  /** Drag a playable tile onto the layout: onto an arm's marker, or anywhere on the layout
   * when the tile fits one arm only. */
  drag(event, tile) {
    const { page } = this;
    follow(event, event.currentTarget, {
      onStart: () => {
        this.pick = { tile };
        page.render();
      },
      onDrop: (target) => {
        const marker = target && target.closest(".arm-target");
        const arms = [...new Set(this.choices().filter((c) => c.tile === tile).map((c) => c.arm))];
        if (marker) this.chooseArm(Number(marker.dataset.arm));
        else if (target && target.closest(".board") && arms.length === 1) this.chooseArm(arms[0]);
        else if (target && target.closest(".board")) page.render(); // it fits several ends: which one?
        else {
          this.pick = null;
          page.render();
        }
      },
    });
  }

  /** The hint to show now ({tiles, at}), or null: never in a rated game (nor sent). */
  shownHints() {
    const { page } = this;
    const { state } = page;
    if (state.rated || !state.view.hint || !state.view.hint.length || !hintsWanted(page.againstComputer())) return null;
    return hints(state.view);
  }

  /** The hand, the actions of the move being chosen, and the buttons that group the tiles. */
  render() {
    const { page } = this;
    const { state } = page;
    const view = state.view;
    const myTurn = view.turn === page.you && state.status === "playing";
    const choices = myTurn ? this.choices() : [];
    const playable = new Set(choices.map((c) => c.tile));
    const inPlan = new Set((this.plan || []).map((p) => p.tile));
    const upright = window.innerWidth >= 480;
    const hinted = myTurn ? this.shownHints() : null;
    const tiles = this.order.map((tile) => {
      let [a, b] = halves(tile);
      if (this.group !== null && b === this.group && a !== b) [a, b] = [b, a];
      const selected = this.pick && this.pick.tile === tile;
      return h(
        "button.hand-tile",
        {
          type: "button",
          "data-tile": tile,
          class: [playable.has(tile) ? "playable" : "", selected ? "selected" : "", inPlan.has(tile) ? "planned" : ""].join(" "),
          "aria-pressed": selected ? "true" : "false",
          "aria-label": `${tile}${playable.has(tile) ? ` (${t("table.playable")})` : ""}${hinted && hinted.tiles.get(tile) ? ` ${t("score.hint", { points: hinted.tiles.get(tile) })}` : ""}`,
          disabled: inPlan.has(tile),
          onclick: (e) => {
            if (playable.has(tile) && !page.busy) {
              this.choose(tile);
              return;
            }
            // not playable now: the half clicked groups the hand by its value
            const box = e.currentTarget.getBoundingClientRect();
            const first = !e.clientX || (upright ? e.clientY - box.top < box.height / 2 : e.clientX - box.left < box.width / 2);
            this.groupBy(first ? a : b);
            page.render();
          },
          onpointerdown: (e) => playable.has(tile) && !page.busy && !this.plan && this.drag(e, tile),
        },
        tileSvg(a, b, { u: upright ? 28 : 22, vertical: upright }),
        hinted ? hintMark(hinted.tiles.get(tile)) : null,
      );
    });
    const legal = myTurn ? view.legal_moves : [];
    // Sea Goat: the record holder dealt 6-6 is asked before the regular leader leads
    const refuse = legal.find((m) => m.hundred === false && m.play === undefined);
    const declare = refuse ? legal.find((m) => m.hundred === true) : null;
    const draw = legal.find((m) => m.draw);
    const knock = legal.find((m) => m.knock);
    const doubles = legal.some((m) => m.doubles);
    const actions = [];
    if (this.pick && this.pick.arm === undefined) {
      const arms = [...new Set(choices.filter((c) => c.tile === this.pick.tile).map((c) => c.arm))];
      const shows = (arm) => view.layout.arms.find((x) => x.arm === arm)?.shows;
      actions.push(
        h("span.prompt", {}, t("table.which_arm", { tile: this.pick.tile })),
        // a phone shows the short label (the number its marker on the board shows): four
        // long buttons would push the hand below the fold
        arms.map((arm) =>
          h(
            "button.arm",
            { type: "button", "data-arm": arm, onclick: () => this.chooseArm(arm) },
            h("span.arm-long", {}, t("table.arm", { arm, shows: shows(arm) })),
            h("span.arm-short", {}, t("table.arm_short", { arm, shows: shows(arm) })),
            hinted ? hintMark(hinted.at(this.pick.tile, arm)) : null,
          ),
        ),
      );
    } else if (this.pick && this.pick.close === undefined) {
      actions.push(h("span.prompt", { role: "alert" }, t("term.close_arm_question")), yesNo("close", (v) => this.chooseClose(v)));
    } else if (this.pick && this.pick.hundred === undefined) {
      actions.push(h("span.prompt", { role: "alert" }, t("term.hundred_question")), yesNo("hundred", (v) => this.chooseHundred(v)));
    }
    if (this.pick) actions.push(h("button.link", { type: "button", onclick: () => { this.pick = null; page.render(); } }, t("table.cancel")));
    if (!this.pick && this.plan) {
      const move = this.planned();
      actions.push(
        h("span.prompt", {}, t("table.plan", { tiles: this.plan.map((p) => `${p.tile}${p.close ? " ✕" : ""}`).join(", ") || "—" })),
        h("button.primary.lay-doubles", { type: "button", disabled: !move, onclick: () => move && page.send(move) }, plural("table.lay_doubles", this.plan.length)),
        h("button.link", { type: "button", onclick: () => { this.plan = null; page.render(); } }, t("table.cancel")),
      );
    }
    if (refuse && declare) {
      actions.push(
        h("span.prompt.hundred-asked", { role: "alert" }, t("table.hundred_asked")),
        // the classes of the other yes/no questions too (hundred-yes, hundred-no)
        h("button.primary.declare-hundred.hundred-yes", { type: "button", onclick: () => page.send(declare) }, t("table.hundred_yes")),
        h("button.refuse-hundred.hundred-no", { type: "button", onclick: () => page.send(refuse) }, t("table.hundred_no")),
      );
    } else if (!this.pick && !this.plan && myTurn) {
      if (doubles) actions.push(h("button.several", { type: "button", onclick: () => { this.plan = []; page.render(); } }, t("table.several_doubles")));
      if (draw) actions.push(h("button.primary.draw", { type: "button", onclick: () => page.send({ draw: true }) }, t("term.draw")));
      if (knock) actions.push(h("button.primary.knock", { type: "button", onclick: () => page.send({ knock: true }) }, t("term.knock")));
      if (!draw && !knock && !doubles) actions.push(h("span.prompt", {}, t("table.pick_tile")));
    }
    if (!myTurn && view.turn !== null && state.status === "playing") {
      const asked = view.hundred_asked >= 0 && view.hundred_asked === view.turn;
      actions.push(h("span.muted", {}, t(asked ? "table.hundred_deciding" : "table.turn_of", { name: page.label(view.turn) })));
    }
    return h(
      "section.hand-box",
      { "aria-label": t("table.your_hand") },
      h("div.actions", {}, actions),
      h("div.hand", {}, tiles),
      h(
        "div.sorter",
        {},
        h("span.muted.small", {}, t("table.group_by")),
        [0, 1, 2, 3, 4, 5, 6].map((v) => h("button.value", { type: "button", "data-value": v, "aria-pressed": this.group === v ? "true" : "false", onclick: () => { this.groupBy(v); page.render(); } }, String(v))),
      ),
    );
  }

}
