// The lobby: signing in, the game form (every option), open requests live, your games.
import { get, post } from "./api.js";
import { again, explain, go, link, session, toast } from "./app.js";
import { ChatPanel } from "./chat.js";
import { h, mount } from "./dom.js";
import { plural, t } from "./i18n.js";
import { listNaming, seatNames } from "./names.js";
import { gameInfo, gameName, gameSummary, offerValid, optionField, optionsSummary, ratedProblem, rules } from "./options.js";
import { mayTake, seatLine, taken } from "./seats.js";
import { signInCard } from "./signin.js";
import { liveGame } from "./live.js";
import { LiveSocket } from "./socket.js";

// the levels the club offers, weakest first (kozel.layout.bots.CLUB_LEVELS); a stored game may name
// a former one (greedy: the amateur's old name), which i18n words as it reads now
const LEVELS = ["beginner", "amateur", "strong", "expert"];
const DEFAULT_LEVEL = "amateur";

/** What a level plays like, in a few words of the game's own table: a layout game's, Domino
 * Poker's or Trumps' (the table of tricks). */
function levelHelp(level, game) {
  const table = gameInfo(game)?.table ?? "layout";
  return t(table === "layout" ? `level_help.${level}` : `level_help.${table}.${level}`);
}

/** What each level is in ``game`` (the lobby's help under its choice of level). */
function levelsList(game) {
  return LEVELS.map((l) => [h("dt", {}, t(`level.${l}`)), h("dd", {}, levelHelp(l, game))]);
}
const LIVE_EVERY_MS = 10000;

/** Open a game's table, unless it is open already (the lobby's socket and the answer to a
 * request both announce a start: following twice would clear what the first one showed). */
function follow(gameId) {
  const path = `/games/${gameId}`;
  if (location.pathname !== path) go(path);
}

/** Open what a started request became: its table, or a tournament's page. */
function followStarted(request) {
  if (request.tournament_id) {
    const path = `/tournaments/${request.tournament_id}`;
    if (location.pathname !== path) go(path);
  } else if (request.game_id) follow(request.game_id);
}

/** What a request is for: its game and options, or a tournament and its field. */
function requestWhat(r) {
  if (r.tournament) return [h("strong", {}, t("tournament.request")), " · ", plural("tournament.players", r.seats.length)];
  return [h("strong", {}, gameName(r.game)), " · ", optionsSummary(r.game, r.options)];
}

export class LobbyPage {
  constructor() {
    this.title = t("nav.lobby");
    this.requests = [];
    this.version = null; // the lobby version this.requests reflect
    this.syncing = false; // a sync was sent and its snapshot has not come yet
    this.mine = new Set(); // requests I sit in, to follow them when they start
    this.mineOpen = []; // my open requests with their links (GET /api/me/requests), private ones too
  }

  async show(main) {
    // the lobby is redrawn as the player signs in; the chat below it is not
    this.chat = new ChatPanel("/api/chat", (text) => this.socket.send({ type: "chat", text }));
    this.main = h("div.lobby-page");
    mount(main, this.main, this.chat.element);
    this.games = await rules();
    this.render();
    this.socket = new LiveSocket("/ws/lobby", {
      onMessage: (m) => this.receive(m),
      onStatus: (status) => this.main.classList.toggle("offline", status !== "open"),
    });
    // the games being played change at their own pace: looked at again every few seconds
    this.liveTimer = setInterval(() => this.loadLive(), LIVE_EVERY_MS);
  }

  dispose() {
    this.disposed = true;
    if (this.socket) this.socket.close();
    clearInterval(this.liveTimer);
  }

  render() {
    const user = session.user;
    this.chat.speaker(Boolean(user), t("chat.sign_in"));
    this.list = h("div#requests");
    this.yours = h("div#your-games");
    this.waiting = h("div#waiting");
    this.live = h("div#live-games");
    mount(
      this.main,
      h(
        "div.lobby",
        {},
        user ? null : this.signIn(),
        user ? h("div.lobby-forms", {}, this.form(), this.tournamentForm()) : null,
        // beside the form (below it on a phone): what you wait for, your games, then the others'
        h(
          "div.lobby-side",
          {},
          this.waiting,
          user ? h("section.card.your-games", { "aria-labelledby": "your-games-title" }, h("h2#your-games-title", {}, t("lobby.your_games")), this.yours) : null,
          h("section.card.requests", { "aria-labelledby": "requests-title" }, h("h2#requests-title", {}, t("lobby.open_requests")), this.list),
          this.liveCard(),
        ),
      ),
    );
    this.renderRequests();
    this.loadLive();
    if (user) {
      this.loadYours();
      this.loadMine();
    }
  }

  /** The games being played, for anyone to watch: a filter by game and the list. */
  liveCard() {
    const filter = h(
      "select#live-game",
      { "aria-label": t("live.filter"), onchange: () => this.loadLive() },
      h("option", { value: "" }, t("live.all")),
      this.games.map((g) => h("option", { value: g.id, selected: g.id === this.liveGame }, gameName(g.id))),
    );
    this.liveFilter = filter;
    return h(
      "section.card.live", { "aria-labelledby": "live-title" },
      h("div.live-head", {}, h("h2#live-title", {}, t("live.title")), h("label.small", {}, t("live.filter"), " ", filter)),
      this.live,
    );
  }

  async loadLive() {
    if (!this.live) return;
    this.liveGame = this.liveFilter ? this.liveFilter.value : "";
    let games;
    try {
      games = await get(`/api/live${this.liveGame ? `?game=${encodeURIComponent(this.liveGame)}` : ""}`);
    } catch (error) {
      mount(this.live, h("p.muted", {}, explain(error)));
      return;
    }
    if (this.disposed) return;
    mount(this.live, games.length ? h("ul.plain.live-games", {}, games.map((g) => liveGame(g))) : h("p.muted", {}, t("live.none")));
  }

  /** My open requests with their links: a waiting card offers each link, and shows the
   * private requests, which the lobby does not list. */
  async loadMine() {
    try {
      this.mineOpen = await get("/api/me/requests");
    } catch {
      this.mineOpen = [];
    }
    for (const r of this.mineOpen) if (!r.private) this.mine.add(r.id);
    this.renderWaiting();
  }

  async loadYours() {
    try {
      const me = await get(`/api/players/${encodeURIComponent(session.user.name)}`);
      const live = me.games.filter((g) => g.status === "playing");
      this.yours.closest(".your-games")?.classList.toggle("live", live.length > 0); // a phone shows it first
      // the others by name (computer players as their animals), yourself as "you"
      const seats = (g) => seatNames(g.seats, listNaming(g)).map((name, seat) => (g.seats[seat] === session.user.name ? t("table.you") : name));
      mount(
        this.yours,
        live.length
          ? h("ul.plain", {}, live.map((g) => h("li", {}, link(`/games/${g.id}`, `${gameName(g.game)} #${g.id}: ${seats(g).join(", ")}`))))
          : h("p.muted", {}, t("lobby.no_live_games")),
      );
    } catch (error) {
      mount(this.yours, h("p.muted", {}, explain(error)));
    }
  }

  signIn() {
    return signInCard(async () => {
      if (this.disposed) {
        await again(); // another page took over meanwhile (the language changed, say)
        return;
      }
      this.render();
      this.socket.drop(); // connect again as the player (to chat)
    });
  }

  form() {
    const gameSelect = h("select#game", { name: "game" }, this.games.map((g) => h("option", { value: g.id }, gameName(g.id))));
    const presetSelect = h("select#preset", { name: "preset" });
    const summary = h("p.small.muted.game-summary");
    const howTo = h("a.small", { href: "/rules", onclick: (e) => { e.preventDefault(); go(`/rules/${gameSelect.value}`); } }, t("lobby.how_to_play"));
    const fields = h("div.options");
    const seconds = h("input#seconds", { type: "number", min: 5, max: 600, value: 60, name: "seconds_per_move" });
    const rated = h("input#rated", { type: "checkbox", name: "rated", "aria-describedby": "rated-why" });
    const privately = h("input#private", { type: "checkbox", name: "private", "aria-describedby": "private-help" });
    const ratedWhy = h("small.help.rated-why#rated-why", { role: "status" });
    let ratedWanted = false; // the player's choice, given back when the options allow it again
    const level = h("select#level", { name: "level", "aria-describedby": "level-help" }, LEVELS.map((l) => h("option", { value: l, selected: l === DEFAULT_LEVEL }, t(`level.${l}`))));
    const help = h("small.help#level-help", { role: "status" });
    const levels = h("dl.rules-list.small");
    const sayLevels = () => {
      help.textContent = levelHelp(level.value, gameSelect.value);
      mount(levels, levelsList(gameSelect.value));
    };
    level.addEventListener("change", sayLevels);
    const error = h("p.error", { role: "alert" });
    let readers = {};
    let setters = {};
    let allowers = {};
    const spec = () => this.games.find((g) => g.id === gameSelect.value);
    const layoutFields = () => {
      const game = spec();
      readers = {};
      setters = {};
      allowers = {};
      summary.textContent = gameSummary(game.id);
      howTo.setAttribute("href", `/rules/${game.id}`);
      const presets = Object.keys(game.presets);
      presetSelect.disabled = presets.length === 0;
      mount(presetSelect, h("option", { value: "" }, t("preset.none")), Object.keys(game.presets).map((p) => h("option", { value: p }, t(`preset.${p}`))));
      mount(
        fields,
        game.options.map((o) => {
          const [el, read, set, allow] = optionField(o, o.default, () => (presetSelect.value = ""));
          readers[o.name] = read;
          setters[o.name] = set;
          allowers[o.name] = allow;
          return el;
        }),
      );
    };
    gameSelect.addEventListener("change", layoutFields);
    gameSelect.addEventListener("change", sayLevels);
    sayLevels();
    presetSelect.addEventListener("change", () => {
      const game = spec();
      for (const o of game.options) setters[o.name](o.default);
      for (const [k, v] of Object.entries(game.presets[presetSelect.value] || {})) setters[k](v);
    });
    const values = () => Object.fromEntries(spec().options.map((o) => [o.name, readers[o.name]()]));
    // a game shortened below an option's rated bound cannot be rated: say which and why
    const checkRated = () => {
      offerValid(gameSelect.value, readers, allowers);
      const problem = ratedProblem(gameSelect.value, values());
      rated.disabled = Boolean(problem);
      rated.checked = !problem && ratedWanted;
      ratedWhy.textContent = problem;
    };
    rated.addEventListener("change", () => (ratedWanted = rated.checked));
    for (const kind of ["input", "change"]) fields.addEventListener(kind, checkRated);
    gameSelect.addEventListener("change", checkRated);
    presetSelect.addEventListener("change", checkRated);
    layoutFields();
    checkRated();
    const options = () => {
      const out = {};
      for (const o of spec().options) {
        const v = readers[o.name]();
        if (v !== o.default) out[o.name] = v;
      }
      return out;
    };
    const body = () => ({ game: gameSelect.value, options: options(), seconds_per_move: Number(seconds.value), rated: rated.checked });
    const act = async (path, extra = {}) => {
      error.textContent = "";
      try {
        const request = await post(path, { ...body(), ...extra });
        if (request.private && request.status === "open") go(`/invite/${request.code}`); // its page holds the link to send
        else if (request.tournament_id) go(`/tournaments/${request.tournament_id}`);
        else if (request.game_id) go(`/games/${request.game_id}`);
        else {
          this.mine.add(request.id);
          this.loadMine();
          // "play with a person" may have seated you at someone's request: the waiting card
          // (renderWaiting) says which and for how many more; a request you open is yours
          if (path === "/api/requests") toast(t("lobby.created"), "info");
        }
      } catch (e) {
        error.textContent = explain(e);
      }
    };
    return h(
      "section.card.play-form",
      { "aria-labelledby": "play-title" },
      h("h1#play-title", {}, t("lobby.play")),
      h(
        "form",
        // games against the computer are never rated
        { onsubmit: (e) => { e.preventDefault(); act("/api/play/computer", { level: level.value, rated: false }); } },
        h(
          "div.row.choose",
          {},
          h("div.field", {}, h("label", { for: "game" }, t("lobby.game")), gameSelect, howTo),
          h("div.field", {}, h("label", { for: "preset" }, t("lobby.preset")), presetSelect),
          h("div.field", {}, h("label", { for: "level" }, t("lobby.level")), level, help),
        ),
        h("details.levels-help", {}, h("summary.small", {}, t("lobby.levels_help")), levels),
        summary,
        h(
          "div.buttons",
          {},
          h("button.primary.big#play-computer", { type: "submit" }, t("lobby.play_computer")),
          h("button.big#play-person", { type: "button", onclick: () => act("/api/play/person") }, t("lobby.play_person")),
          h("button#create", { type: "button", onclick: () => act("/api/requests", { private: privately.checked }) }, t("lobby.create")),
          h("span.field.check.private", {}, h("label", { for: "private" }, privately, " ", t("lobby.private")), h("small.help#private-help", {}, t("lobby.private_help"))),
        ),
        error,
        h(
          "details.more",
          {},
          h("summary", {}, t("lobby.options")),
          fields,
          h(
            "div.row",
            {},
            h("div.field", {}, h("label", { for: "seconds" }, t("lobby.seconds")), seconds),
            h("div.field.check", {}, h("label", { for: "rated" }, rated, " ", t("lobby.rated")), h("small.help", {}, t("lobby.rated_help")), ratedWhy),
          ),
        ),
      ),
    );
  }

  /** A Bykovo micro-tournament request: the field (4 to 7), the move clock, rated or not. */
  tournamentForm() {
    const game = this.games.find((g) => g.tournament);
    const field = h("select#tournament-players", { name: "players" }, [4, 5, 6, 7].map((n) => h("option", { value: n }, String(n))));
    const seconds = h("input#tournament-seconds", { type: "number", min: 5, max: 600, value: 60, name: "seconds_per_move" });
    const rated = h("input#tournament-rated", { type: "checkbox", name: "rated" });
    const error = h("p.error", { role: "alert" });
    const create = async () => {
      error.textContent = "";
      try {
        const request = await post("/api/tournaments", { players: Number(field.value), seconds_per_move: Number(seconds.value), rated: rated.checked });
        this.mine.add(request.id);
        if (request.tournament_id) go(`/tournaments/${request.tournament_id}`);
        else toast(t("lobby.created"), "info");
      } catch (e) {
        error.textContent = explain(e);
      }
    };
    return h(
      "section.card.tournament-form",
      { "aria-labelledby": "tournament-form-title" },
      h("h2#tournament-form-title", {}, t("tournament.request")),
      h("p.small.muted", {}, t("tournament.intro"), " ", game ? link(`/rules/${game.id}`, t("lobby.how_to_play")) : null),
      h(
        "form",
        { onsubmit: (e) => { e.preventDefault(); create(); } },
        h(
          "div.row",
          {},
          h("div.field", {}, h("label", { for: "tournament-players" }, t("tournament.field")), field),
          h("div.field", {}, h("label", { for: "tournament-seconds" }, t("lobby.seconds")), seconds),
          h("div.field.check", {}, h("label", { for: "tournament-rated" }, rated, " ", t("lobby.rated")), h("small.help", {}, t("tournament.rated_help"))),
        ),
        h("div.buttons", {}, h("button#create-tournament", { type: "submit" }, t("tournament.create"))),
        error,
      ),
    );
  }

  // A snapshot replaces the list; a change applies only on top of the version just before
  // it. A change already seen is dropped; after a gap (a change lost, or changes from
  // several server processes arriving out of order) the client asks for a new snapshot.
  receive(message) {
    if (message.type === "chat" || message.code?.startsWith("chat")) this.chat.receive(message);
    if (message.type === "requests") {
      this.chat.load(); // a snapshot: the socket listens now, so nothing said is missed
      this.version = message.version;
      this.syncing = false;
      this.update(message.requests);
    } else if (message.type === "lobby" && this.version !== null && message.version > this.version) {
      if (message.version === this.version + 1) {
        this.version = message.version;
        this.update(applyChange(this.requests, message.request));
        if (message.request.status === "started") this.loadLive();
      } else if (!this.syncing) {
        this.syncing = this.socket.send({ type: "sync" });
      }
    }
  }

  update(requests) {
    const me = session.user;
    const open = new Set(requests.map((r) => r.id));
    let unknown = false;
    for (const r of requests) {
      if (me && r.seats.some((seat) => seat && seat.name === me.name)) {
        this.mine.add(r.id);
        unknown ||= !this.mineOpen.some((m) => m.id === r.id);
      }
    }
    if (unknown) this.loadMine();
    // a request I sat in has left the list: it started (or was cancelled)
    for (const id of [...this.mine]) {
      if (!open.has(id)) {
        this.mine.delete(id);
        get(`/api/requests/${id}`).then((r) => {
          if (r.game_id) followStarted(r);
          else toast(t("lobby.cancelled", { id }), "info");
        }, () => {});
      }
    }
    this.requests = requests;
    this.renderRequests();
  }

  /** A card per open request you sit at: the game, how many more players it needs, that it
   * starts by itself, and how to stop waiting; and how many other requests wait for players. */
  renderWaiting() {
    const me = session.user;
    if (!this.waiting) return;
    if (!me) {
      mount(this.waiting);
      return;
    }
    const sits = (r) => r.seats.some((seat) => seat && seat.name === me.name);
    const others = this.requests.filter((r) => !sits(r) && r.seats.includes(null)).length;
    const hidden = this.mineOpen.filter((r) => r.private); // not in the lobby's list
    mount(
      this.waiting,
      [...this.requests.filter(sits), ...hidden].map((r) => {
        const seated = r.seats.filter(taken).length;
        const code = r.code || this.mineOpen.find((m) => m.id === r.id)?.code;
        const creator = r.seats[0] && r.seats[0].name === me.name;
        const act = async (what) => {
          try {
            await post(`/api/requests/${r.id}/${what}`);
          } catch (e) {
            toast(explain(e));
          }
          this.loadMine(); // a private request leaves the cards only so
        };
        return h(
          "section.card.waiting",
          { role: "status", "data-request": r.id },
          // one opponent or several: the count is said below
          h("h2", {}, t(r.seats.length - seated > 1 ? "lobby.waiting_title_several" : "lobby.waiting_title")),
          h("p", {}, requestWhat(r)),
          h("p.waiting-count", {}, plural("lobby.waiting_seats", r.seats.length - seated, { taken: seated, seats: r.seats.length })),
          h("p.small.muted", {}, t(r.private ? "lobby.waiting_private" : r.tournament ? "lobby.waiting_help_tournament" : "lobby.waiting_help")),
          code ? h("p.small.invite-link", {}, link(`/invite/${code}`, t("lobby.invite_link"))) : null,
          others ? h("p.small.waiting-others", {}, plural("lobby.waiting_others", others)) : null,
          h(
            "div.buttons",
            {},
            creator
              ? h("button.stop-waiting", { type: "button", onclick: () => act("cancel") }, t("lobby.cancel"))
              : h("button.stop-waiting", { type: "button", onclick: () => act("leave") }, t("lobby.leave")),
          ),
        );
      }),
    );
  }

  renderRequests() {
    this.renderWaiting();
    if (!this.list) return;
    const me = session.user;
    if (!this.requests.length) {
      mount(this.list, h("p.muted", {}, t("lobby.no_requests")));
      return;
    }
    mount(
      this.list,
      h(
        "ul.requests",
        {},
        this.requests.map((r) => {
          const creator = r.seats[0] && me && r.seats[0].name === me.name;
          const sitting = me && r.seats.some((seat) => seat && seat.name === me.name);
          const free = r.seats.some((seat) => !taken(seat));
          const open = me && !sitting && r.seats.some((seat) => mayTake(seat, me.name, false));
          const sit = (seat) => act("join", { seat });
          const act = async (what, body) => {
            try {
              const answer = await post(`/api/requests/${r.id}/${what}`, body);
              // mine from now on: if it starts while the socket reconnects (right after
              // signing in), the next snapshot lacks it and the lobby follows it to its table
              if (what === "join") this.mine.add(r.id);
              if (answer.game_id) followStarted(answer);
              if (answer.notice) toast(t("lobby.now_unrated"), "info");
            } catch (e) {
              toast(explain(e));
            }
          };
          const level = h("select", { "aria-label": t("lobby.level") }, LEVELS.map((l) => h("option", { value: l, selected: l === DEFAULT_LEVEL, title: levelHelp(l, r.game) }, t(`level.${l}`))));
          return h(
            "li.request",
            { "data-request": r.id },
            h("div.what", {}, requestWhat(r)),
            h(
              "div.meta",
              {},
              t("lobby.clock", { seconds: r.seconds_per_move }),
              " · ",
              r.rated ? t("lobby.rated") : t("lobby.unrated"),
            ),
            // in a game of pairs the seat chosen is the partner chosen: each free seat says
            // its team and may be taken by itself
            h("ol.seats", {}, r.seats.map((seat, i) => seatLine(r, i, open && mayTake(seat, me.name, false) ? sit : null))),
            me
              ? h(
                  "div.buttons",
                  {},
                  open ? h("button.primary.join", { type: "button", onclick: () => act("join") }, t("lobby.join")) : null,
                  sitting && !creator ? h("button.leave", { type: "button", onclick: () => act("leave") }, t("lobby.leave")) : null,
                  creator && free ? h("span.fill", {}, level, h("button.bots", { type: "button", title: r.rated ? t("lobby.fill_bots_unrated") : undefined, onclick: () => act("bots", { level: level.value }) }, t("lobby.fill_bots"))) : null,
                  creator ? h("button.cancel", { type: "button", onclick: () => act("cancel") }, t("lobby.cancel")) : null,
                )
              : null,
          );
        }),
      ),
    );
  }
}

// The open requests after one request changed: replaced in place, added in order of id, or
// removed once it is no longer open.
function applyChange(requests, request) {
  const others = requests.filter((r) => r.id !== request.id);
  if (request.status !== "open") return others;
  if (others.length < requests.length) return requests.map((r) => (r.id === request.id ? request : r));
  const at = others.findIndex((r) => r.id > request.id);
  return at < 0 ? [...others, request] : [...others.slice(0, at), request, ...others.slice(at)];
}
