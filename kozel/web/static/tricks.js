// The tricks table (being written): the page (table.js) owns the socket, the clock, the end
// panel and the chat; this draws the game from page.state and moves through page.send().
import { h } from "./dom.js";
import { t } from "./i18n.js";

export class TrickTable {
  constructor(page) {
    this.page = page;
  }

  /** The whole table, redrawn at every state. */
  render() {
    return h("div.table", { "data-game": this.page.state.view.game }, this.page.endPanel(), h("p.muted", {}, t("table.dealing")));
  }

  /** How a finished hand ended, in words (the end panel's last line). */
  endLine(round) {
    return round.end.kind;
  }
}
