// The club's HTTP API (docs/protocol.md): JSON in and out, the CSRF header on every POST.
// A refusal names its case with a code and params, worded here in the player's language.
export class ApiError extends Error {
  constructor(status, detail, code = "", params = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

function cookie(name) {
  const found = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export async function get(path) {
  return call("GET", path);
}

export async function post(path, body) {
  return call("POST", path, body);
}

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = cookie("kozel_csrf");
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, (data && data.detail) || response.statusText, data?.code || "", data?.params || {});
  return data;
}

/** The signed-in player ({name, guest, rating, csrf}) or null. */
export async function me() {
  if (!cookie("kozel_csrf")) return null; // never signed in here: no need to ask (and log a 401)
  try {
    return await get("/api/me");
  } catch (error) {
    if (error.status === 401) return null;
    throw error;
  }
}
