// Patches of the state the table socket sends after every event (docs/protocol.md §6.4):
// a list of operations, [pointer, value] to set (a pointer ending in "-" appends to an
// array) and [pointer] to remove, each pointer a JSON Pointer ("/view/hand_sizes/2"). The
// patch names what changed; it knows no rule of any game.

const unescape = (token) => token.replaceAll("~1", "/").replaceAll("~0", "~");

const copy = (value) => {
  if (Array.isArray(value)) return value.slice();
  if (value !== null && typeof value === "object") return { ...value };
  throw new Error("a patch goes through a member that is not an object or an array");
};

const index = (array, token) => {
  if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= array.length) throw new Error(`no element ${token}`);
  return Number(token);
};

/** The document with the patch applied, as a new document: the containers on each
 * operation's path are copied, the rest is shared, and `doc` itself is not changed (the
 * table compares the state before and after an event). Throws on an operation that does
 * not fit. */
export function applyPatch(doc, ops) {
  let root = doc;
  for (const op of ops) {
    const [pointer] = op;
    if (pointer === "") {
      root = op[1];
      continue;
    }
    const tokens = pointer.slice(1).split("/").map(unescape);
    root = copy(root);
    let parent = root;
    for (const token of tokens.slice(0, -1)) {
      const key = Array.isArray(parent) ? index(parent, token) : token;
      if (!(key in parent)) throw new Error(`no member ${token} on the way to ${pointer}`);
      parent[key] = copy(parent[key]);
      parent = parent[key];
    }
    const last = tokens[tokens.length - 1];
    if (op.length === 1) delete parent[last];
    else if (Array.isArray(parent) && last === "-") parent.push(op[1]);
    else parent[Array.isArray(parent) ? index(parent, last) : last] = op[1];
  }
  return root;
}
