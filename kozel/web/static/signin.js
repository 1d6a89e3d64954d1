// Signing in: log in, register or play as a guest (the lobby's card, and a link's page).
import { post } from "./api.js";
import { explain, refreshUser } from "./app.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The sign-in card; ``onSignedIn()`` runs once the header knows the player. ``heading``:
 * its title's level (a page of its own: h1; below another title: h2). */
export function signInCard(onSignedIn, heading = "h1") {
  const name = h("input#name", { name: "name", autocomplete: "username", required: true, minlength: 3, maxlength: 24 });
  const password = h("input#password", { name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8 });
  const error = h("p.error", { role: "alert" });
  const submit = async (path) => {
    error.textContent = "";
    const guest = path.endsWith("guest");
    if (!guest && !/^[\p{L}\p{N}\p{M}_.-]{3,24}$/u.test(name.value.trim())) {
      error.textContent = t("signin.bad_name");
      return;
    }
    if (!guest && password.value.length < 8) {
      error.textContent = t("signin.bad_password");
      return;
    }
    try {
      await post(path, guest ? undefined : { name: name.value.trim(), password: password.value });
      await refreshUser();
      await onSignedIn();
    } catch (e) {
      error.textContent = explain(e);
    }
  };
  return h(
    "section.card.signin",
    { "aria-labelledby": "signin-title" },
    h(`${heading}#signin-title`, {}, t("signin.title")),
    h("p", {}, t("signin.intro")),
    h(
      "form",
      { onsubmit: (e) => { e.preventDefault(); submit("/api/auth/login"); } },
      h("div.field", {}, h("label", { for: "name" }, t("signin.name")), name),
      h("div.field", {}, h("label", { for: "password" }, t("signin.password")), password),
      error,
      h(
        "div.buttons",
        {},
        h("button.primary#login", { type: "submit" }, t("signin.login")),
        h("button#register", { type: "button", onclick: () => submit("/api/auth/register") }, t("signin.register")),
        h("button#guest", { type: "button", onclick: () => submit("/api/auth/guest") }, t("signin.guest")),
      ),
    ),
  );
}
