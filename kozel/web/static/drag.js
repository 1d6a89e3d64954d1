// Dragging a tile from the hand onto the layout (mouse or touch, through pointer events).
// A press that does not move is left to the click handler.

const THRESHOLD = 8; // pixels the pointer must travel before a press becomes a drag

/**
 * Follow a press on `source`: once it moves, call onStart(), show a copy of the tile under the
 * pointer, and on release call onDrop(element under the pointer). Returns nothing; the click
 * that a browser may send after the release is swallowed when a drag happened.
 */
export function follow(event, source, { onStart, onDrop }) {
  if (event.button !== 0) return;
  const x0 = event.clientX;
  const y0 = event.clientY;
  let ghost = null;
  const move = (e) => {
    if (!ghost) {
      if (Math.hypot(e.clientX - x0, e.clientY - y0) < THRESHOLD) return;
      ghost = source.cloneNode(true);
      ghost.classList.add("drag-ghost");
      ghost.removeAttribute("id");
      document.body.append(ghost);
      onStart();
    }
    ghost.style.left = `${e.clientX}px`;
    ghost.style.top = `${e.clientY}px`;
  };
  const up = (e) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (!ghost) return;
    ghost.remove();
    const swallow = (c) => {
      c.stopPropagation();
      c.preventDefault();
    };
    window.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
    onDrop(e.type === "pointerup" ? document.elementFromPoint(e.clientX, e.clientY) : null);
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
}
