// Replaying a kozel-record/1 round move by move (the review page): every hand, the bazaar and
// the layout after each move, in the same shape as the table's view.layout.
import { halves } from "./tiles.js";

const SPINNER_GAMES = new Set(["donkey"]);

function attach(layout, tile, arm, close, spinnerGame) {
  const [a, b] = halves(tile);
  const double = a === b;
  if (arm === undefined || arm === null) {
    layout.first = tile;
    layout.arms = [
      { arm: 0, shows: a, closed: false, tiles: [] },
      { arm: 1, shows: b, closed: false, tiles: [] },
    ];
    if (spinnerGame && double) {
      layout.spinner = tile;
      layout.arms.push({ arm: 2, shows: a, closed: false, tiles: [] }, { arm: 3, shows: a, closed: false, tiles: [] });
    }
    return;
  }
  const target = layout.arms.find((x) => x.arm === arm);
  target.tiles.push(tile);
  target.shows = target.shows === a ? b : a;
  if (close) target.closed = true;
  if (spinnerGame && double && !layout.spinner) {
    layout.spinner = tile;
    layout.arms.push({ arm: 2, shows: a, closed: false, tiles: [] }, { arm: 3, shows: a, closed: false, tiles: [] });
  }
}

/** Every position of a round: [{hands, bazaarLeft, layout, move, last}], position 0 = the deal. */
export function positions(game, round) {
  const spinnerGame = SPINNER_GAMES.has(game);
  const hands = round.deal.hands.map((hand) => [...hand]);
  let drawn = 0;
  const layout = { first: null, spinner: null, arms: [] };
  const snapshot = (move, last) => ({
    hands: hands.map((hand) => [...hand]),
    bazaarLeft: round.deal.bazaar.length - drawn,
    layout: JSON.parse(JSON.stringify(layout)),
    move,
    last,
  });
  const out = [snapshot(null, null)];
  for (const move of round.moves) {
    const hand = hands[move.seat];
    let last = null;
    if (move.play) {
      hand.splice(hand.indexOf(move.play), 1);
      attach(layout, move.play, move.arm, move.close, spinnerGame);
      last = move.play;
    } else if (move.doubles) {
      for (const d of move.doubles) {
        hand.splice(hand.indexOf(d.tile), 1);
        attach(layout, d.tile, d.arm, d.close, spinnerGame);
        last = d.tile;
      }
    } else if (move.draw) {
      hand.push(move.draw);
      drawn += 1;
    }
    out.push(snapshot(move, last));
  }
  return out;
}
