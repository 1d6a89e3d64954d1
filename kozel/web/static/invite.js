// The page of a link to a table (/invite/CODE): who invites you, to which game with which
// house rules, and who sits where. You take the seat you want — in a game of pairs, the one
// across from your partner — and are signed in as a guest first if you have no account. The
// creator copies the link to send, keeps seats for a player or for whoever holds the link,
// and may cancel. A link to a table that has started or was cancelled says so.
import { get, post } from "./api.js";
import { explain, go, link, refreshUser, session, toast } from "./app.js";
import { h, mount } from "./dom.js";
import { plural, t } from "./i18n.js";
import { gameInfo, gameName, optionLabel, rules, valueLabel } from "./options.js";
import { mayTake, occupant, seatLine, taken } from "./seats.js";
import { signInCard } from "./signin.js";
import { LiveSocket } from "./socket.js";

export class InvitePage {
  constructor(code) {
    this.code = code;
    this.title = t("invite.title");
    this.request = null;
    this.busy = false;
  }

  async show(main) {
    this.main = h("div.invite-page");
    mount(main, this.main);
    await rules();
    try {
      this.request = await get(`/api/invites/${encodeURIComponent(this.code)}`);
    } catch (error) {
      const text = error.status === 404 ? t("invite.nowhere") : explain(error);
      mount(this.main, h("section.card.invite", {}, h("h1", {}, t("invite.title")), h("p.invite-status", {}, text), link("/", t("nav.lobby"))));
      return;
    }
    this.render();
    // every change of the request comes whole: who sat down, a kept seat, the start
    this.socket = new LiveSocket(`/ws/invites/${encodeURIComponent(this.code)}`, {
      onMessage: (m) => {
        // the first message repeats what the page was drawn from: nothing to draw again
        if (m.type === "invite" && JSON.stringify(m.request) !== JSON.stringify(this.request)) {
          this.request = m.request;
          this.render();
        }
      },
    });
  }

  dispose() {
    this.disposed = true;
    if (this.socket) this.socket.close();
  }

  get me() {
    return session.user;
  }

  /** My seat at the request, or -1. */
  mySeat() {
    const me = this.me;
    return me ? this.request.seats.findIndex((seat) => seat && seat.name === me.name) : -1;
  }

  async sit(seat) {
    if (this.busy) return;
    this.busy = true;
    try {
      if (!this.me) {
        await post("/api/auth/guest"); // no account: a guest's is made for you
        await refreshUser();
      }
      this.request = await post(`/api/invites/${encodeURIComponent(this.code)}/join`, { seat });
    } catch (error) {
      toast(explain(error));
    }
    this.busy = false;
    if (!this.disposed) this.render();
  }

  async act(what, body) {
    try {
      this.request = await post(`/api/requests/${this.request.id}/${what}`, body);
    } catch (error) {
      toast(explain(error));
    }
    if (!this.disposed) this.render();
  }

  render() {
    const r = this.request;
    if (!r || this.disposed) return;
    const mine = this.mySeat();
    if (r.status === "started" && r.game_id && mine >= 0) {
      go(`/games/${r.game_id}`); // you sit there: to the table
      return;
    }
    const inviter = r.seats[0] && r.seats[0].name;
    this.title = t("invite.title");
    mount(
      this.main,
      h(
        "section.card.invite",
        { "data-status": r.status },
        h("h1", {}, t("invite.heading", { name: inviter || "—", game: gameName(r.game) })),
        this.status(mine),
        h("h2", {}, t("invite.house_rules")),
        this.houseRules(),
        h("h2", {}, t("invite.seats")),
        h("ol.seats.invite-seats", {}, r.seats.map((seat, i) => seatLine(r, i, this.canSit(seat, mine) ? (s) => this.sit(s) : null))),
        r.status === "open" && !this.me ? h("p.small.muted.guest-note", {}, t("invite.guest_note")) : null,
        r.status === "open" && mine >= 0 ? this.share() : null,
        r.status === "open" && mine === 0 ? this.keeping() : null,
        r.status === "open" && mine >= 0 ? this.buttons(mine) : null,
      ),
      r.status === "open" && !this.me ? signInCard(() => this.render(), "h2") : null,
    );
  }

  canSit(seat, mine) {
    return this.request.status === "open" && mine < 0 && mayTake(seat, this.me ? this.me.name : "", true) && !this.busy;
  }

  /** Where the request stands: open (and whether you sit there), started, cancelled. */
  status(mine) {
    const r = this.request;
    if (r.status === "cancelled") return h("p.invite-status.cancelled", { role: "status" }, t("invite.cancelled"), " ", link("/", t("nav.lobby")));
    if (r.status === "started") {
      return h(
        "p.invite-status.started",
        { role: "status" },
        t("invite.started"),
        " ",
        r.game_id ? link(`/games/${r.game_id}`, t("invite.watch"), { class: "watch" }) : null,
      );
    }
    const seated = r.seats.filter(taken).length;
    return h(
      "div.invite-status.open",
      { role: "status" },
      mine >= 0 ? h("p.you-sit", {}, t("invite.you_sit", { n: mine + 1 })) : null,
      h("p.waiting-count", {}, plural("lobby.waiting_seats", r.seats.length - seated, { taken: seated, seats: r.seats.length })),
      r.private ? h("p.small.muted", {}, t("invite.private")) : null,
    );
  }

  /** Every option of the game with its value: the house rules the table plays by. */
  houseRules() {
    const r = this.request;
    const specs = gameInfo(r.game).options;
    return h(
      "div.house-rules",
      {},
      h(
        "dl.rules-list",
        {},
        specs.map((spec) => [h("dt", {}, optionLabel(spec.name)), h("dd", { class: r.options[spec.name] !== spec.default ? "changed" : "" }, valueLabel(spec, r.options[spec.name]))]),
      ),
      h("p.small.muted", {}, t("lobby.clock", { seconds: r.seconds_per_move }), " · ", r.rated ? t("lobby.rated") : t("lobby.unrated"), " · ", link(`/rules/${r.game}`, t("lobby.how_to_play"))),
    );
  }

  /** The link to send, with a button that copies it. */
  share() {
    const url = `${location.origin}/invite/${this.code}`;
    const field = h("input#invite-url", { type: "text", readonly: true, value: url, "aria-label": t("invite.link"), onfocus: (e) => e.target.select() });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(url);
        toast(t("invite.copied"), "info");
      } catch {
        field.focus(); // no clipboard here: the link is selected to copy by hand
        field.select();
      }
    };
    return h(
      "div.share",
      {},
      h("label", { for: "invite-url" }, t("invite.link")),
      h("div.row", {}, field, h("button#copy-link", { type: "button", onclick: copy }, t("invite.copy"))),
      h("p.small.muted", {}, t("invite.share_help")),
    );
  }

  /** The creator keeps a seat nobody has taken for a player or for the link, or frees it. */
  keeping() {
    const r = this.request;
    const seats = r.seats.map((seat, i) => [seat, i]).filter(([seat, i]) => i > 0 && !taken(seat));
    if (!seats.length) return null;
    // what the creator chose so far outlives a redraw (another player sat down meanwhile)
    const chosen = (this.keepChoice ??= { seat: null, how: "free", name: "" });
    const which = h("select#keep-seat", { "aria-label": t("invite.keep_seat") }, seats.map(([seat, i]) => h("option", { value: i, selected: String(i) === chosen.seat }, `${t("invite.seat", { n: i + 1 })}: ${occupant(seat)}`)));
    const how = h(
      "select#keep-how",
      { "aria-label": t("invite.keep_how") },
      [["free", t("invite.keep_free")], ["link", t("invite.keep_link")], ["name", t("invite.keep_player")]].map(([v, text]) => h("option", { value: v, selected: v === chosen.how }, text)),
    );
    const name = h("input#keep-name", { type: "text", maxlength: 24, value: chosen.name, "aria-label": t("signin.name"), placeholder: t("signin.name") });
    which.addEventListener("change", () => (chosen.seat = which.value));
    how.addEventListener("change", () => (chosen.how = how.value));
    name.addEventListener("input", () => (chosen.name = name.value));
    const keep = () => {
      const body = { seat: Number(which.value) };
      if (how.value === "link") body.link = true;
      if (how.value === "name") body.name = name.value.trim();
      this.act("reserve", body);
    };
    return h(
      "form.keep",
      { onsubmit: (e) => { e.preventDefault(); keep(); } },
      h("h2", {}, t("invite.keep_title")),
      h("div.row", {}, which, how, name, h("button#keep", { type: "submit" }, t("invite.keep"))),
      h("p.small.muted", {}, t("invite.keep_help")),
    );
  }

  buttons(mine) {
    const r = this.request;
    return h(
      "div.buttons",
      {},
      mine === 0
        ? h("button.cancel#cancel-invite", { type: "button", onclick: () => this.act("cancel") }, t("lobby.cancel"))
        : h("button.leave", { type: "button", onclick: () => this.act("leave") }, t("lobby.leave")),
      mine === 0 && r.seats.some((seat) => !taken(seat))
        ? h("button.bots", { type: "button", title: r.rated ? t("lobby.fill_bots_unrated") : undefined, onclick: () => this.act("bots", { level: "amateur" }) }, t("lobby.fill_bots"))
        : null,
    );
  }
}
