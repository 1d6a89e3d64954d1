// The administrators' view of the club's processes: every process with its lease, and which
// process owns which unfinished table (GET /api/admin/tables), refreshed every two seconds.
import { get } from "./api.js";
import { explain, link } from "./app.js";
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { gameName, rules } from "./options.js";

const row = (cells) => h("tr", {}, cells.map((c) => h("td", {}, String(c))));
const head = (keys) => h("thead", {}, h("tr", {}, keys.map((k) => h("th", {}, t(k)))));

export class AdminPage {
  constructor() {
    this.title = t("admin.title");
  }

  async show(main) {
    this.main = main;
    await rules();
    await this.refresh();
    this.timer = setInterval(() => this.refresh(), 2000);
  }

  dispose() {
    clearInterval(this.timer);
  }

  async refresh() {
    let data;
    try {
      data = await get("/api/admin/tables");
    } catch (error) {
      clearInterval(this.timer);
      mount(this.main, h("section.card", {}, h("p.error", {}, explain(error))));
      return;
    }
    mount(
      this.main,
      h(
        "section.card.admin",
        {},
        h("h1", {}, t("admin.title")),
        h("p.muted", {}, t("admin.answered_by", { node: data.node })),
        h(
          "table#nodes",
          {},
          head(["admin.node", "admin.alive", "admin.seen", "admin.up", "admin.tables"]),
          h(
            "tbody",
            {},
            data.nodes.map((n) =>
              row([n.name, n.alive ? t("admin.yes") : t("admin.no"), `${n.seen_ms_ago} ms`, `${n.up_seconds} s`, n.tables]),
            ),
          ),
        ),
        h(
          "table#tables",
          {},
          head(["admin.game", "admin.kind", "admin.owner", "admin.fence", "admin.version"]),
          h(
            "tbody",
            {},
            data.tables.map((g) =>
              h(
                "tr",
                {},
                h("td", {}, link(`/games/${g.id}`, `#${g.id}`)),
                h("td", {}, gameName(g.game)),
                h("td", {}, g.owner || "—"),
                h("td", {}, String(g.fence)),
                h("td", {}, String(g.version)),
              ),
            ),
          ),
        ),
      ),
    );
  }
}
