// The table's sounds, made by the Web Audio API as they play (no sound files): a tile laid, a
// draw from the bazaar, a knock, chips into the pot, your turn, a round's end. Quiet by default; a switch turns
// them off, and the choice is remembered in this browser (localStorage "kozel.sound").
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "kozel.sound";
const VOLUME = 0.12; // quiet: a table is often played in company

let context = null; // one AudioContext, made at the first sound (browsers limit how many)

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSoundOn(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  // off at once: whatever is still sounding stops with the context
  if (!on && context && context.state === "running") context.suspend();
}

// Each sound (named not to look like a game id: the client names no game): notes of [start s, frequency Hz, length s, wave, frequency at the end or null].
const SOUNDS = {
  laid: [[0, 900, 0.07, "triangle", 260]],
  drew: [[0, 520, 0.05, "square", 380], [0.09, 560, 0.05, "square", 400]],
  knocked: [[0, 170, 0.09, "sine", 90], [0.16, 170, 0.09, "sine", 90]],
  chips: [[0, 2300, 0.035, "triangle", 1700], [0.06, 2600, 0.035, "triangle", 1900]],
  turn: [[0, 660, 0.14, "sine", null], [0.13, 880, 0.2, "sine", null]],
  round_end: [[0, 523, 0.16, "sine", null], [0.15, 659, 0.16, "sine", null], [0.3, 784, 0.3, "sine", null]],
};

/** Play one of SOUNDS by name, unless the sounds are off (then no audio is started at all). */
export function play(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    context = context || new Context();
    if (context.state === "suspended") context.resume();
    const now = context.currentTime + 0.01;
    for (const [at, frequency, length, wave, glide] of notes) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = wave;
      tone.frequency.setValueAtTime(frequency, now + at);
      if (glide) tone.frequency.exponentialRampToValueAtTime(glide, now + at + length);
      // a soft attack and an exponential fade, so no click at either end
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(VOLUME, now + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      tone.connect(gain).connect(context.destination);
      tone.start(now + at);
      tone.stop(now + at + length + 0.02);
    }
  } catch {
    /* no audio here (a locked-down browser): the game goes on silently */
  }
}

/** A speaker, with waves when the sounds are on and struck through when they are off (drawn:
 * an emoji may be missing from the player's fonts). */
function speaker(on) {
  return s(
    "svg",
    { class: "sound-icon", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    s("path", { d: "M2 6h3l4-3v10l-4-3H2z", fill: "currentColor" }),
    on
      ? s("path", { d: "M11 5.5q1.5 2.5 0 5M12.8 3.8q3 4.2 0 8.4", fill: "none", stroke: "currentColor", "stroke-width": 1.3 })
      : s("path", { d: "M11 5l4 6M15 5l-4 6", fill: "none", stroke: "currentColor", "stroke-width": 1.4 }),
  );
}

/** The switch: a speaker that says whether the sounds are on; `changed(on)` after a press. */
export function soundSwitch(changed = () => {}) {
  const on = soundOn();
  return h(
    "button.sound-switch",
    {
      type: "button",
      "aria-pressed": on ? "true" : "false",
      title: t(on ? "sound.turn_off" : "sound.turn_on"),
      onclick: (e) => {
        setSoundOn(!soundOn());
        const now = soundOn();
        e.currentTarget.setAttribute("aria-pressed", now ? "true" : "false");
        e.currentTarget.title = t(now ? "sound.turn_off" : "sound.turn_on");
        e.currentTarget.querySelector(".sound-icon").replaceWith(speaker(now));
        changed(now);
      },
    },
    speaker(on),
    h("span.sound-label", {}, t("sound.label")),
  );
}
