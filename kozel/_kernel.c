/*
 * kozel._kernel: the playout kernel for the computer players.
 *
 * It plays rounds of the layout games (Goat, Donkey, Draw, Block, Classic, Sea Goat, and the
 * games that score during play: All Fives, Telephone, All Threes, Threes and Fives, Bergen)
 * from a given (determinized) position to their end, exactly as kozel.layout.round.Round does: the
 * same legal moves in the same order, the same out / fish detection, the same counts, the same
 * points scored by each lay (kozel.layout.scoring.ends, kozel.layout.scoring.bergen); and it costs a finished
 * round as the game's scoring policy does (kozel.layout.scoring). A game it does not know is refused
 * (ValueError), never played with another game's scoring. tests/test_kernel.py and
 * tests/test_kernel_during_play.py play seeded rounds through both and compare every move,
 * every lay's points, every count and every round's cost.
 *
 * Tiles are 0..27 in the order 0-0, 0-1, ..., 0-6, 1-1, ..., 6-6; hands are 28-bit masks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define TILES 28
#define MAX_ARMS 4
#define MAX_MOVES 512

static int LOW[TILES], HIGH[TILES], PIPS[TILES], IS_DOUBLE[TILES];
static int OTHER[TILES][7];
static uint32_t SUIT[7];
static int DOUBLE_OF[7];
static uint32_t DOUBLES;

static void init_tables(void) {
    int t = 0;
    DOUBLES = 0;
    for (int v = 0; v < 7; v++) SUIT[v] = 0;
    for (int a = 0; a <= 6; a++) {
        for (int b = a; b <= 6; b++) {
            LOW[t] = a;
            HIGH[t] = b;
            PIPS[t] = a + b;
            IS_DOUBLE[t] = a == b;
            if (a == b) {
                DOUBLES |= 1u << t;
                DOUBLE_OF[a] = t;
            }
            for (int v = 0; v < 7; v++) OTHER[t][v] = v == a ? b : (v == b ? a : -1);
            SUIT[a] |= 1u << t;
            SUIT[b] |= 1u << t;
            t++;
        }
    }
}

/* --- random numbers: splitmix64, reproduced by kozel.layout.bots.kernel.SplitMix ------------- */

static inline uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* --- the round ------------------------------------------------------------------------- */

enum { PLAY = 0, DOUBLES_MOVE = 1, DRAW = 2, KNOCK = 3, HUNDRED = 4, DECLINE = 5 };
enum { END_NONE = 0, END_OUT = 1, END_FISH = 2, END_SORTIR = 3 };

typedef struct {
    uint8_t kind, n;
    int8_t tile[4], arm[4];
    uint8_t close[4];
} Move;

typedef struct {
    int players;
    int spinner_rule, closing, multi;
    uint32_t hands[4];
    int8_t bazaar[TILES];
    int drawable, drawn;
    uint32_t table, dead, lead_mask;
    int ends[MAX_ARMS], closed[MAX_ARMS];
    int spinner, first;
    int turn;
    int first_tile, last_tile;
    int end_kind, end_seat;
    int hundred_ok;      /* the leader may declare Sea Goat's hundred with his lead of 6-6 */
    int hundred_seat;    /* the seat that declared it this round, or -1 */
    int asking;          /* the record holder dealt 6-6, asked about the hundred before the
                          * regular leader (``leader``) leads: his turn, HUNDRED or DECLINE;
                          * -1 when nobody is asked (kozel.layout.round.Round.asking) */
    int close_both_fish; /* two doubles laid at once and both closed while no double is on
                          * the table end the round as a fish (Donkey) */
    uint32_t last_turn;  /* the tiles of the last lay (Sea Goat: what the out turn laid) */
    /* what the greedy opponent model tracks: values each seat was seen to lack (it knocked
     * or drew while they were open; kozel.layout.bots.sampling.lacked_values) and whether the seat
     * to move has drawn this turn */
    uint32_t lacks[4];
    int drew;
    /* the games that score during play: how a lay scores (POINTS_*), whether the spinner's
     * free cross arms count once it is covered, the last tile laid on each arm (the first
     * tile or the spinner while none is), the spinner's line sides still showing it (a bit per
     * arm), and the points each seat has scored from the position on */
    int points_mode, arms_count;
    int tips[MAX_ARMS];
    int spinner_line;
    int during[4];
    /* Bergen draws one tile a turn; Threes and Fives may draw although a tile fits */
    int one_draw, draw_when_able;
    /* Bykovo (kozel.layout.round.Round): a knock is legal on any turn after the lead and proves
     * nothing; after the first out the circle is played out up to the seat before the leader
     * (first_out, circle_left: the moves still to make); ``pass_limit`` consecutive knocks end
     * the round as a sortir won by the last seat to lay */
    int knock_any, out_circle, pass_limit, leader, passes, first_out, circle_left, last_layer;
} State;

enum { POINTS_NONE = 0, POINTS_FIVES, POINTS_TELEPHONE, POINTS_THREES, POINTS_THREES_FIVES,
       POINTS_BERGEN, POINTS_MODES };

static inline int n_arms(const State *s) { return s->spinner_rule ? 4 : 2; }

static inline int lowest(uint32_t m) { return __builtin_ctz(m); }

static int generate(const State *s, Move *out) {
    if (s->end_kind != END_NONE) return 0;
    uint32_t hand = s->hands[s->turn];
    int n = 0;
    if (s->asking >= 0) { /* Sea Goat: the hundred, or no */
        out[0].kind = HUNDRED;
        out[0].n = 1;
        out[0].tile[0] = (int8_t)DOUBLE_OF[6];
        out[0].arm[0] = -1;
        out[0].close[0] = 0;
        out[1].kind = DECLINE;
        out[1].n = 0;
        return 2;
    }
    if (s->first < 0) {
        for (uint32_t m = s->lead_mask & hand; m; m &= m - 1) {
            Move *mv = &out[n++];
            mv->kind = PLAY;
            mv->n = 1;
            mv->tile[0] = (int8_t)lowest(m);
            mv->arm[0] = -1;
            mv->close[0] = 0;
        }
        if (s->hundred_ok && (s->lead_mask & hand) >> DOUBLE_OF[6] & 1) {
            Move *mv = &out[n++];
            mv->kind = HUNDRED;
            mv->n = 1;
            mv->tile[0] = (int8_t)DOUBLE_OF[6];
            mv->arm[0] = -1;
            mv->close[0] = 0;
        }
        return n;
    }
    int arms = n_arms(s);
    for (int k = 0; k < arms; k++) {
        int e = s->ends[k];
        if (e < 0 || s->closed[k]) continue;
        for (uint32_t m = hand & SUIT[e]; m; m &= m - 1) {
            int t = lowest(m);
            Move *mv = &out[n++];
            mv->kind = PLAY;
            mv->n = 1;
            mv->tile[0] = (int8_t)t;
            mv->arm[0] = (int8_t)k;
            mv->close[0] = 0;
            if (s->closing && IS_DOUBLE[t]) {
                Move *cl = &out[n++];
                *cl = *mv;
                cl->close[0] = 1;
            }
        }
    }
    if (n && s->multi) {
        int opt_arm[4], opt_tile[4], n_opt = 0;
        int both_orders = s->spinner_rule && s->spinner < 0;
        for (int k = 0; k < arms; k++) {
            int e = s->ends[k];
            if (e >= 0 && !s->closed[k] && (hand >> DOUBLE_OF[e] & 1)) {
                opt_arm[n_opt] = k;
                opt_tile[n_opt] = DOUBLE_OF[e];
                n_opt++;
            }
        }
        /* combinations of the options by size, in itertools order, then every closing */
        for (int size = 2; size <= n_opt; size++) {
            int idx[4];
            for (int i = 0; i < size; i++) idx[i] = i;
            for (;;) {
                uint32_t seen = 0;
                int distinct = 1;
                for (int i = 0; i < size; i++) {
                    uint32_t bit = 1u << opt_tile[idx[i]];
                    if (seen & bit) distinct = 0;
                    seen |= bit;
                }
                if (distinct) {
                    for (int c = 0; c < (s->closing ? 1 << size : 1); c++) {
                        Move *mv = &out[n++];
                        mv->kind = DOUBLES_MOVE;
                        mv->n = (uint8_t)size;
                        for (int i = 0; i < size; i++) {
                            mv->tile[i] = (int8_t)opt_tile[idx[i]];
                            mv->arm[i] = (int8_t)opt_arm[idx[i]];
                            mv->close[i] = (uint8_t)(c >> (size - 1 - i) & 1);
                        }
                        if (both_orders) { /* before the spinner: which double becomes it */
                            Move *rev = &out[n++];
                            rev->kind = DOUBLES_MOVE;
                            rev->n = (uint8_t)size;
                            for (int i = 0; i < size; i++) {
                                rev->tile[i] = mv->tile[size - 1 - i];
                                rev->arm[i] = mv->arm[size - 1 - i];
                                rev->close[i] = mv->close[size - 1 - i];
                            }
                        }
                    }
                }
                int i = size - 1;
                while (i >= 0 && idx[i] == i + n_opt - size) i--;
                if (i < 0) break;
                idx[i]++;
                for (int j = i + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
            }
        }
    }
    if (n == 0) {
        int may_draw = s->drawn < s->drawable && !(s->one_draw && s->drew);
        out[0].kind = may_draw ? DRAW : KNOCK;
        out[0].n = 0;
        n = 1;
    } else {
        if (s->draw_when_able && s->drawn < s->drawable) {
            out[n].kind = DRAW;
            out[n].n = 0;
            n++;
        }
        if (s->knock_any) { /* Bykovo: a pass is legal on any turn */
            out[n].kind = KNOCK;
            out[n].n = 0;
            n++;
        }
    }
    return n;
}

static inline void lay(State *s, int t, int arm, int close) {
    uint32_t bit = 1u << t;
    s->hands[s->turn] ^= bit;
    if (s->first < 0) {
        s->first = t;
        s->first_tile = t;
        s->table = bit;
        if (s->spinner_rule && IS_DOUBLE[t]) {
            s->spinner = t;
            for (int k = 0; k < 4; k++) s->ends[k] = LOW[t];
            for (int k = 0; k < 4; k++) s->tips[k] = t;
            s->spinner_line = 3;
        } else {
            s->ends[0] = LOW[t];
            s->ends[1] = HIGH[t];
            s->ends[2] = s->ends[3] = -1;
            s->tips[0] = s->tips[1] = t;
            s->tips[2] = s->tips[3] = -1;
        }
    } else {
        s->ends[arm] = OTHER[t][s->ends[arm]];
        s->table |= bit;
        s->tips[arm] = t;
        if (close) s->closed[arm] = 1;
        if (s->spinner_rule && s->spinner < 0 && IS_DOUBLE[t]) {
            s->spinner = t;
            s->ends[2] = s->ends[3] = LOW[t];
            s->tips[2] = s->tips[3] = t;
            s->spinner_line = 1 << arm; /* its other line side is the tile it was laid on */
        }
    }
    s->last_tile = t;
}

/* The layout as far as a lay's points need it: a copy is cheap, so the greedy policy can try
 * every move. */
typedef struct {
    int ends[MAX_ARMS], closed[MAX_ARMS], tips[MAX_ARMS];
    int spinner, first, spinner_line;
} Ends;

static inline void ends_of(const State *s, Ends *e) {
    memcpy(e->ends, s->ends, sizeof e->ends);
    memcpy(e->closed, s->closed, sizeof e->closed);
    memcpy(e->tips, s->tips, sizeof e->tips);
    e->spinner = s->spinner;
    e->first = s->first;
    e->spinner_line = s->spinner_line;
}

/* lay() on the copy: the same ends, tips and spinner */
static inline void ends_lay(Ends *e, int spinner_rule, int t, int arm, int close) {
    if (e->first < 0) {
        e->first = t;
        if (spinner_rule && IS_DOUBLE[t]) {
            e->spinner = t;
            for (int k = 0; k < 4; k++) e->ends[k] = LOW[t];
            for (int k = 0; k < 4; k++) e->tips[k] = t;
            e->spinner_line = 3;
        } else {
            e->ends[0] = LOW[t];
            e->ends[1] = HIGH[t];
            e->ends[2] = e->ends[3] = -1;
            e->tips[0] = e->tips[1] = t;
            e->tips[2] = e->tips[3] = -1;
        }
        return;
    }
    e->ends[arm] = OTHER[t][e->ends[arm]];
    e->tips[arm] = t;
    if (close) e->closed[arm] = 1;
    if (spinner_rule && e->spinner < 0 && IS_DOUBLE[t]) {
        e->spinner = t;
        e->ends[2] = e->ends[3] = LOW[t];
        e->tips[2] = e->tips[3] = t;
        e->spinner_line = 1 << arm;
    }
}

/* The end sum (kozel.layout.scoring.ends.end_sum): each open arm shows its value; an arm ending in a
 * double counts both halves (once, also when the double ends two arms); the spinner counts
 * both halves while a line side of it is free, then each free cross arm counts its value when
 * the spinner's arms count. */
static int end_sum(const Ends *e, int arms_count) {
    int hub = e->spinner, total = 0, covered = hub >= 0;
    uint32_t counted = 0;
    for (int k = 0; k < 2; k++)
        if ((e->spinner_line >> k & 1) && e->tips[k] == hub) covered = 0;
    for (int k = 0; k < MAX_ARMS; k++) {
        int end = e->ends[k], tip = e->tips[k];
        if (end < 0 || e->closed[k]) continue;
        if (hub >= 0 && tip == hub) {
            if (!covered) {
                if (!(counted >> hub & 1)) total += PIPS[hub];
                counted |= 1u << hub;
            } else if (k >= 2 && arms_count) {
                total += LOW[hub];
            }
        } else if (IS_DOUBLE[tip]) {
            if (!(counted >> tip & 1)) total += PIPS[tip];
            counted |= 1u << tip;
        } else {
            total += end;
        }
    }
    return total;
}

/* What the move just laid scores (after all its tiles), ``lead`` when it was the round's first
 * tile: the end-count games' lay scoring (kozel.layout.scoring.end_count), Bergen's lead of a double
 * and its double- and triple-headers (kozel.layout.scoring.bergen.header_points). */
static int lay_points(const Ends *e, int mode, int arms_count, int lead) {
    int total;
    switch (mode) {
    case POINTS_BERGEN:
        if (lead) return IS_DOUBLE[e->first] ? 2 : 0;
        if (e->ends[0] != e->ends[1]) return 0;
        return IS_DOUBLE[e->tips[0]] || IS_DOUBLE[e->tips[1]] ? 3 : 2;
    case POINTS_FIVES:
        total = end_sum(e, arms_count);
        return total % 5 == 0 ? total : 0;
    case POINTS_TELEPHONE:
        total = end_sum(e, arms_count);
        return total % 5 == 0 ? total / 5 : 0;
    case POINTS_THREES:
        total = end_sum(e, arms_count);
        return total % 3 == 0 ? total : 0;
    case POINTS_THREES_FIVES:
        total = end_sum(e, arms_count);
        return (total % 3 == 0 ? total : 0) + (total % 5 == 0 ? total : 0);
    default:
        return 0;
    }
}

/* The points ``mv`` would score for the seat to move (0 for a draw or a knock). */
static int move_points(const State *s, const Move *mv) {
    if (s->points_mode == POINTS_NONE || mv->n == 0) return 0;
    Ends e;
    ends_of(s, &e);
    int lead = e.first < 0;
    for (int i = 0; i < mv->n; i++)
        ends_lay(&e, s->spinner_rule, mv->tile[i], mv->arm[i], mv->close[i]);
    return lay_points(&e, s->points_mode, s->arms_count, lead);
}

static inline int blocked(const State *s) {
    uint32_t live = ~(s->table | s->dead);
    int arms = n_arms(s);
    for (int k = 0; k < arms; k++) {
        int e = s->ends[k];
        if (e >= 0 && !s->closed[k] && (live & SUIT[e])) return 0;
    }
    return 1;
}

static inline uint32_t open_values(const State *s) {
    uint32_t values = 0;
    for (int k = 0; k < MAX_ARMS; k++)
        if (s->ends[k] >= 0 && !s->closed[k]) values |= 1u << s->ends[k];
    return values;
}

/* After ``seat``'s move once a hand has emptied in a game whose out plays the circle out (or
 * as the first hand empties): the seats after the first out up to the one before the leader
 * move once each, then the round ends as his out (kozel.layout.round.Round._play_out_circle). */
static void circle_step(State *s, int seat) {
    int p = s->players;
    if (s->first_out < 0) {
        s->first_out = seat;
        s->circle_left = ((s->leader - 1 - seat) % p + p) % p;
    } else {
        s->circle_left--;
    }
    if (s->circle_left == 0) {
        s->end_kind = END_OUT;
        s->end_seat = s->first_out;
    } else {
        s->drew = 0;
        s->turn = (seat + 1) % p;
    }
}

/* A general fish ends the round only once no drawable tile is left where a player unable to
 * play draws one tile a turn (Bergen: ``one_draw``; kozel.layout.round.Round.bazaar_blocks). */
static inline int fished(const State *s) {
    return blocked(s) && !(s->one_draw && s->drawn < s->drawable);
}

static void apply(State *s, const Move *mv) {
    int seat = s->turn;
    switch (mv->kind) {
    case DECLINE:
        s->asking = -1;
        s->turn = s->leader;
        return;
    case DRAW:
        /* a draw in a new turn starts the seat's list again (kozel.layout.bots.sampling); where a
         * draw is legal although a tile fits it proves nothing */
        if (s->draw_when_able) {
            s->lacks[seat] = 0;
            s->drew = 1;
        } else if (s->drew) {
            s->lacks[seat] |= open_values(s);
        } else {
            s->lacks[seat] = open_values(s);
            s->drew = 1;
        }
        s->hands[seat] |= 1u << s->bazaar[s->drawn++];
        if (s->one_draw && s->drawn == s->drawable && blocked(s)) {
            s->end_kind = END_FISH;
            s->end_seat = s->last_layer;
        }
        return;
    case KNOCK:
        if (!s->knock_any) s->lacks[seat] |= open_values(s); /* a Bykovo pass proves nothing */
        s->drew = 0;
        s->passes++;
        if (s->first_out >= 0) {
            circle_step(s, seat);
        } else if (s->passes == s->pass_limit) {
            s->end_kind = END_SORTIR;
            s->end_seat = s->last_layer;
        } else {
            s->turn = (seat + 1) % s->players;
        }
        return;
    default:
        if (mv->kind == HUNDRED) s->hundred_seat = seat;
        if (s->asking >= 0) { /* he declared it: he leads */
            s->asking = -1;
            s->leader = seat;
        }
        s->last_turn = 0;
        int lead = s->first < 0;
        /* two doubles both closed while no double is on the table (Donkey) */
        int closes_both = s->close_both_fish && mv->kind == DOUBLES_MOVE && mv->n == 2 &&
                          mv->close[0] && mv->close[1] && !(s->table & DOUBLES);
        for (int i = 0; i < mv->n; i++) {
            lay(s, mv->tile[i], mv->arm[i], mv->close[i]);
            s->last_turn |= 1u << mv->tile[i];
        }
        if (s->points_mode) {
            Ends e;
            ends_of(s, &e);
            s->during[seat] += lay_points(&e, s->points_mode, s->arms_count, lead);
        }
        s->passes = 0;
        s->last_layer = seat;
        if (s->first_out >= 0 || (!s->hands[seat] && s->out_circle)) {
            circle_step(s, seat);
        } else if (!s->hands[seat]) {
            s->end_kind = END_OUT;
            s->end_seat = seat;
        } else if (closes_both || fished(s)) {
            s->end_kind = END_FISH;
            s->end_seat = seat;
        } else {
            s->drew = 0;
            s->turn = (seat + 1) % s->players;
        }
    }
}

/* --- counts and the sheet -------------------------------------------------------------- */

/* What a finished round costs each scoring unit. Goat's sheet (kind 0) charges counts under
 * the fish mode with remembered points and eggs (kozel.layout.scoring.goat.settle); the races (kind
 * 1) credit the hand's winner (kozel.layout.scoring.race, kozel.layout.scoring.sea_goat) and the cost is
 * minus the change of the unit's score. Becoming the Goat costs ``loss_penalty`` more;
 * winning a race gains it. */
enum { SHEET_GOAT = 0, SHEET_RACE = 1, SHEET_PLACES = 2 };
enum { COUNT_GOAT = 0, COUNT_PLAIN = 1, COUNT_CLASSIC = 2, COUNT_SEA_GOAT = 3 };

typedef struct {
    int kind, count_mode, subtract_own, open_at, sea, target;
    int teams, fish_mode, threshold, lone_zero, special, loss_limit, eggs;
    int account[4], open[4], remembered[4];
    double loss_penalty;
    /* the races: what the hand's winner is credited for the others' counts (CREDIT_*), and
     * All Fives' bonus divisor */
    int credit_mode, bonus_divisor;
} Scoring;

enum { CREDIT_PLAIN = 0, CREDIT_FIVES, CREDIT_TELEPHONE, CREDIT_THREES, CREDIT_THREES_FIVES,
       CREDIT_BERGEN, CREDIT_MODES };

/* ``value`` to the nearest multiple of ``step``, halves up (kozel.layout.scoring.end_count) */
static inline int nearest_multiple(int value, int step) {
    int twice = 2 * value + step, div = 2 * step;
    int q = twice / div - (twice % div != 0 && twice < 0);
    return q * step;
}

static int credit_for(const Scoring *sc, int raw) {
    switch (sc->credit_mode) {
    case CREDIT_FIVES:
        return nearest_multiple(raw, 5) / sc->bonus_divisor;
    case CREDIT_TELEPHONE:
        return raw >= 0 ? (raw + 4) / 5 : -((-raw) / 5);
    case CREDIT_THREES:
        return nearest_multiple(raw, 3) / 3;
    default:
        return raw;
    }
}

static int hand_count(uint32_t hand, const Scoring *sc) {
    uint32_t zero = 1u << DOUBLE_OF[0], six = 1u << DOUBLE_OF[6];
    int total = 0;
    for (uint32_t m = hand; m; m &= m - 1) total += PIPS[lowest(m)];
    switch (sc->count_mode) {
    case COUNT_GOAT:
        if (hand == zero) return sc->special ? 25 : sc->lone_zero;
        if (hand == six && sc->special) return 50;
        return total;
    case COUNT_CLASSIC:
        return total + ((hand & zero) ? 25 : 0) + ((hand & six) ? 38 : 0);
    case COUNT_SEA_GOAT:
        if (hand == zero) return 25;
        if (hand == six) return 50;
        if (hand == (zero | six)) return 75;
        return total;
    default:
        return total;
    }
}

static int special_bonus(int t) {
    if (t == DOUBLE_OF[6]) return 50;
    if (t == DOUBLE_OF[0]) return 25;
    return 0;
}

static inline int unit_of(const Scoring *sc, int seat) { return sc->teams ? seat % 2 : seat; }

/* Each unit's round count (a team's two hands together); the unit that went out counts 0.
 * Returns that unit, or -1 when nobody went out (a fish). */
static int unit_counts(const State *s, const Scoring *sc, const int *counts, int *out) {
    for (int u = 0; u < 4; u++) out[u] = 0;
    for (int seat = 0; seat < s->players; seat++) out[unit_of(sc, seat)] += counts[seat];
    if (s->end_kind != END_OUT) return -1;
    int out_unit = unit_of(sc, s->end_seat);
    out[out_unit] = 0;
    return out_unit;
}

static void goat_cost(const State *s, const Scoring *sc, const int *counts, double *cost) {
    int units = sc->teams ? 2 : s->players;
    int counted[4];
    int out_unit = unit_counts(s, sc, counts, counted);
    int bonus = sc->special ? special_bonus(s->first_tile) + special_bonus(s->last_tile) : 0;
    int charged[4] = {0, 0, 0, 0}, forget[4] = {0, 0, 0, 0}, apply_to[4] = {0, 0, 0, 0};
    /* the single highest count among the candidates, or -1 on a tie */
    int top = -1, best = -1, tie = 0;
    for (int u = 0; u < units; u++) {
        if (u == out_unit) continue;
        if (counted[u] > best) {
            best = counted[u];
            top = u;
            tie = 0;
        } else if (counted[u] == best) {
            tie = 1;
        }
    }
    int loser = tie ? -1 : top;
    int extra = sc->eggs + bonus;
    if (out_unit >= 0) { /* the Yard Goat extra goes to every unit but the one out */
        for (int u = 0; u < units; u++) {
            if (u == out_unit) {
                forget[u] = 1;
                continue;
            }
            charged[u] = counted[u] + bonus + (u == loser ? sc->eggs : 0);
            apply_to[u] = 1;
        }
    } else if (sc->fish_mode == 0) {
        for (int u = 0; u < units; u++) {
            charged[u] = counted[u] + (u == loser ? extra : 0);
            apply_to[u] = 1;
        }
    } else if (loser >= 0) {
        int total = 0;
        for (int u = 0; u < units; u++) total += counted[u];
        charged[loser] = (sc->fish_mode == 1 ? total : counted[loser]) + extra;
        apply_to[loser] = 1;
        if (sc->fish_mode == 1)
            for (int u = 0; u < units; u++)
                if (u != loser) forget[u] = 1;
    }
    for (int u = 0; u < units; u++) {
        int account = sc->account[u], remembered = sc->remembered[u];
        if (apply_to[u]) {
            if (sc->open[u]) {
                account += charged[u];
            } else if (charged[u] >= sc->threshold) {
                account = charged[u] + remembered;
                remembered = 0;
            } else {
                remembered += charged[u];
            }
        }
        if (forget[u]) remembered = 0;
        double c = (double)charged[u];
        if (account >= sc->loss_limit && sc->account[u] < sc->loss_limit) c += sc->loss_penalty;
        cost[u] = c;
    }
}

/* Sea Goat: the seat whose side the round decides the game for, and whether it won (-1: none) */
static int sea_decides(const State *s, const Scoring *sc, const int *counts, int *won) {
    int h = s->hundred_seat;
    if (h >= 0) {
        if (s->end_kind == END_OUT && s->end_seat == h) {
            *won = 1;
            return h;
        }
        if (counts[h] >= 25) {
            *won = 0;
            return h;
        }
    }
    if (s->end_kind != END_OUT) return -1;
    *won = 1;
    if (s->last_turn >> DOUBLE_OF[0] & 1) return s->end_seat;
    if (s->last_turn >> DOUBLE_OF[6] & 1) {
        int out_unit = unit_of(sc, s->end_seat);
        for (int seat = 0; seat < s->players; seat++)
            if (unit_of(sc, seat) != out_unit && counts[seat] > 25) return s->end_seat;
    }
    return -1;
}

/* Bergen's block (kozel.layout.scoring.bergen.block_winner): the unit of the only seat with no double
 * in hand, of several the lowest count among them (nobody when units share it), and when
 * every hand holds a double the holder of the lowest double; -1 for nobody. */
static int block_unit(const State *s, const Scoring *sc) {
    int unit = -1, low = INT32_MAX, any = 0;
    for (int seat = 0; seat < s->players; seat++) {
        uint32_t hand = s->hands[seat];
        if (hand & DOUBLES) continue;
        int pips = 0;
        for (uint32_t m = hand; m; m &= m - 1) pips += PIPS[lowest(m)];
        any = 1;
        if (pips < low) {
            low = pips;
            unit = unit_of(sc, seat);
        } else if (pips == low && unit != unit_of(sc, seat)) {
            unit = -2; /* shared by two units, unless a lower count comes */
        }
    }
    if (any) return unit < 0 ? -1 : unit;
    for (int v = 0; v < 7; v++)
        for (int seat = 0; seat < s->players; seat++)
            if (s->hands[seat] >> DOUBLE_OF[v] & 1) return unit_of(sc, seat);
    return -1;
}

static void race_cost(const State *s, const Scoring *sc, const int *counts, double *cost) {
    int units = sc->teams ? 2 : s->players;
    int counted[4];
    int winner = unit_counts(s, sc, counts, counted);
    if (sc->credit_mode == CREDIT_BERGEN) {
        if (winner < 0) winner = block_unit(s, sc);
    } else if (winner < 0) {
        int low = INT32_MAX, shared = 0;
        for (int u = 0; u < units; u++) {
            if (counted[u] < low) {
                low = counted[u];
                winner = u;
                shared = 0;
            } else if (counted[u] == low) {
                shared = 1;
            }
        }
        if (shared) winner = -1;
    }
    int after[4];
    for (int u = 0; u < units; u++) after[u] = sc->account[u];
    for (int seat = 0; seat < s->players; seat++) after[unit_of(sc, seat)] += s->during[seat];
    if (winner >= 0 && sc->credit_mode == CREDIT_BERGEN) {
        after[winner] += 2;
    } else if (winner >= 0) {
        int credit = 0;
        for (int u = 0; u < units; u++)
            if (u != winner) credit += counted[u];
        if (s->end_kind != END_OUT && sc->subtract_own) credit -= counted[winner];
        int has_record = sc->account[winner] > 0;
        if (!sc->open_at || has_record || credit >= sc->open_at) {
            int others = 0;
            for (int u = 0; u < units; u++)
                if (u != winner && sc->account[u] > 0) others = 1;
            if (sc->open_at && !has_record && others) {
                for (int u = 0; u < units; u++) after[u] = 0; /* every record written off */
            } else {
                after[winner] += credit_for(sc, credit);
            }
        }
    }
    int wins[4] = {0, 0, 0, 0}, any = 0;
    int won, decided = sc->sea ? sea_decides(s, sc, counts, &won) : -1;
    if (sc->sea && decided < 0 && s->hundred_seat >= 0) /* a failed hundred under 25 */
        after[unit_of(sc, s->hundred_seat)] = 0;
    if (decided >= 0) {
        int unit = unit_of(sc, decided);
        if (won) {
            wins[unit] = 1;
        } else {
            int top = INT32_MIN, tied = 0;
            for (int u = 0; u < units; u++)
                if (u != unit && after[u] > top) top = after[u];
            for (int u = 0; u < units; u++) {
                wins[u] = u != unit && after[u] == top;
                tied += wins[u];
            }
            if (tied > 1 && s->end_kind == END_OUT) { /* the tie goes to the unit that went out */
                int out_unit = unit_of(sc, s->end_seat);
                if (wins[out_unit])
                    for (int u = 0; u < units; u++) wins[u] = u == out_unit;
            }
        }
        any = 1;
    } else {
        int top = INT32_MIN;
        for (int u = 0; u < units; u++)
            if (after[u] >= sc->target && after[u] > top) top = after[u];
        for (int u = 0; u < units; u++) {
            wins[u] = after[u] >= sc->target && after[u] == top;
            any |= wins[u];
        }
    }
    for (int u = 0; u < units; u++) {
        cost[u] = (double)(sc->account[u] - after[u]);
        if (any && wins[u]) cost[u] -= sc->loss_penalty;
    }
}

static void round_cost(const State *s, const Scoring *sc, double *cost) {
    int counts[4] = {0, 0, 0, 0};
    for (int seat = 0; seat < s->players; seat++) counts[seat] = hand_count(s->hands[seat], sc);
    if (sc->kind == SHEET_PLACES) /* Bykovo: each seat's count is its cost, the winner's 0 */
        for (int seat = 0; seat < s->players; seat++)
            cost[seat] = seat == s->end_seat ? 0.0 : (double)counts[seat];
    else if (sc->kind == SHEET_RACE)
        race_cost(s, sc, counts, cost);
    else
        goat_cost(s, sc, counts, cost);
}

/* --- playout policy -------------------------------------------------------------------- */

/* policy 0: uniform. policy 1: like the greedy bot, one move in eight uniform: shed heavy
 * tiles and doubles, keep the hand's values varied and the open ends followable. */
static int move_score(const State *s, const Move *mv) {
    uint32_t rest = s->hands[s->turn];
    int ends[MAX_ARMS], closed[MAX_ARMS];
    memcpy(ends, s->ends, sizeof ends);
    memcpy(closed, s->closed, sizeof closed);
    int score = 0;
    for (int j = 0; j < mv->n; j++) {
        int t = mv->tile[j], arm = mv->arm[j];
        rest &= ~(1u << t);
        score += 10 * PIPS[t] + (IS_DOUBLE[t] ? 30 : 0);
        if (arm < 0) {
            ends[0] = LOW[t];
            ends[1] = HIGH[t];
        } else {
            ends[arm] = OTHER[t][ends[arm]];
            if (mv->close[j]) closed[arm] = 1;
        }
    }
    if (!rest) return 1 << 20;
    for (int v = 0; v < 7; v++)
        if (rest & SUIT[v]) score += 7;
    int arms = n_arms(s);
    for (int k = 0; k < arms; k++)
        if (ends[k] >= 0 && !closed[k] && (rest & SUIT[ends[k]])) score += 8;
    return score;
}

#define FEATURES 16
/* policy 2: the greedy bot's own heuristic (kozel/layout/bots/greedy.py), in tenths of its points:
 * it also offers the next seat values it lacks, avoids those its partner lacks and makes a
 * fish only with a light hand. tests/test_kernel.py compares the scores with the bot's. */
typedef struct {
    int me;                /* the seat whose decision is evaluated (-1: none) */
    int teams;             /* partners sit opposite */
    uint32_t ignore;       /* tiles the greedy bot leaves out of its fish test */
    int own_policy, own_noise;     /* the policy of seat ``me`` in playouts, and */
    int other_policy, other_noise; /* of the others; noise N: one move in N uniform */
    double weights[FEATURES];      /* policy 3: a move's score is these times its features */
    int partner_as_own;            /* the partner of ``me`` plays its policy and noise too */
} Model;

#define FULL ((1u << TILES) - 1)

static inline int pips_of(uint32_t m) {
    int total = 0;
    for (; m; m &= m - 1) total += PIPS[lowest(m)];
    return total;
}

/* In the games that score during play the greedy bot first takes the best immediate score
 * (going out first of all; a point is worth 1000 of its units) and never draws while a tile
 * fits. */
#define GREEDY_POINT 10000
#define GREEDY_OUT_SCORING 10000000

/* The greedy bot declares Sea Goat's hundred, asked, when the rest of its hand counts less
 * than this (kozel.layout.bots.greedy.HUNDRED_BELOW). */
#define GREEDY_HUNDRED_BELOW 15

/* The tiles ``mv`` lays, and the values on the open ends after it (a closed end none). */
static uint32_t open_after(const State *s, const Move *mv, uint32_t *laid) {
    int ends[MAX_ARMS + 4], n_ends = 0, index[MAX_ARMS];
    for (int k = 0; k < MAX_ARMS; k++) {
        index[k] = -1;
        if (s->first >= 0 && s->ends[k] >= 0) {
            index[k] = n_ends;
            ends[n_ends++] = s->closed[k] ? -1 : s->ends[k];
        }
    }
    *laid = 0;
    for (int j = 0; j < mv->n; j++) {
        int t = mv->tile[j], arm = mv->arm[j];
        *laid |= 1u << t;
        if (arm < 0) {
            ends[0] = LOW[t];
            ends[1] = HIGH[t];
            n_ends = 2;
        } else if (index[arm] >= 0) {
            int i = index[arm];
            ends[i] = mv->close[j] ? -1 : OTHER[t][ends[i]];
        } else { /* arms 2 and 3 opened by a spinner laid in the same turn */
            ends[n_ends++] = LOW[t];
        }
    }
    uint32_t open = 0;
    for (int i = 0; i < n_ends; i++)
        if (ends[i] >= 0) open |= 1u << ends[i];
    return open;
}

/* After a move that makes a fish, whether the mover's count ``rest`` looks light: less than a
 * typical hand (the mean of the unseen tiles) of the smallest opponent's size. */
static int light_fish(const State *s, const Model *md, uint32_t laid, uint32_t rest) {
    int seat = s->turn, players = s->players, partner = (seat + 2) % players;
    uint32_t unseen = FULL & ~(s->table | laid) & ~rest;
    int count = __builtin_popcount(unseen), pips = pips_of(unseen), mine = pips_of(rest);
    int have = 0, smallest = 0;
    for (int o = 0; o < players; o++) {
        if (o == seat || (md->teams && o == partner)) continue;
        int size = __builtin_popcount(s->hands[o]);
        if (!have || size < smallest) smallest = size;
        have = 1;
    }
    return have ? mine * (count > 1 ? count : 1) < smallest * pips : 0;
}

static int greedy_score(const State *s, const Model *md, const Move *mv) {
    int seat = s->turn;
    if (s->asking >= 0) {
        int light = pips_of(s->hands[seat] & ~(1u << DOUBLE_OF[6])) < GREEDY_HUNDRED_BELOW;
        return 10 * ((mv->kind == HUNDRED) == light); /* tenths, as the other scores */
    }
    if (mv->kind == DRAW) return -GREEDY_OUT_SCORING; /* offered beside plays: drawing when able */
    if (mv->kind == KNOCK) return -GREEDY_OUT_SCORING; /* offered beside plays: Bykovo's pass */
    int points = s->points_mode ? GREEDY_POINT * move_points(s, mv) : 0;
    uint32_t laid;
    uint32_t open = open_after(s, mv, &laid);
    int score = 0;
    for (int j = 0; j < mv->n; j++) {
        int t = mv->tile[j];
        score += 10 * PIPS[t] + (IS_DOUBLE[t] ? 30 : 0);
    }
    uint32_t rest = s->hands[seat] & ~laid;
    if (!rest) return s->points_mode ? GREEDY_OUT_SCORING + points : 10000;
    for (int v = 0; v < 7; v++)
        if (rest & SUIT[v]) score += 7;
    int players = s->players, nxt = (seat + 1) % players, partner = (seat + 2) % players;
    uint32_t live = FULL & ~(s->table | laid) & ~md->ignore;
    int fish = 1;
    for (int v = 0; v < 7; v++) {
        if (!(open >> v & 1)) continue;
        if (rest & SUIT[v]) score += 8;
        if (s->lacks[nxt] >> v & 1) score += 15;
        if (md->teams && (s->lacks[partner] >> v & 1)) score -= 10;
        if (live & SUIT[v]) fish = 0;
    }
    if (fish) score += light_fish(s, md, laid, rest) ? 60 : -20 * pips_of(rest);
    return score + points;
}

/* policy 3: a linear score of a move's features, the greedy heuristic's terms and a few more,
 * all read from the mover's hand and public facts. Returns 1 when the move goes out (then
 * the features are not filled). The greedy heuristic's terms in tenths are the weights
 * GREEDY_WEIGHTS (kozel.layout.bots.kernel), the others 0. */
static int move_features(const State *s, const Model *md, const Move *mv, double *f) {
    int seat = s->turn;
    uint32_t laid;
    uint32_t open = open_after(s, mv, &laid);
    for (int k = 0; k < FEATURES; k++) f[k] = 0;
    for (int j = 0; j < mv->n; j++) {
        f[0] += PIPS[mv->tile[j]];
        f[1] += IS_DOUBLE[mv->tile[j]];
    }
    uint32_t rest = s->hands[seat] & ~laid;
    if (!rest) return 1;
    int longest = 0;
    for (int v = 0; v < 7; v++) {
        uint32_t twin = 1u << DOUBLE_OF[v];
        int length = __builtin_popcount(rest & SUIT[v]);
        if (length) f[2] += 1;
        if (length > longest) longest = length;
        if (rest & twin) f[11] += 1;
        if (rest & twin && length == 1) f[15] += 1;
    }
    f[12] = longest;
    int players = s->players, nxt = (seat + 1) % players, partner = (seat + 2) % players;
    int prev = (seat + players - 1) % players;
    uint32_t live = FULL & ~(s->table | laid) & ~md->ignore;
    uint32_t fitting = 0, others_fit = 0;
    int fish = 1;
    for (int v = 0; v < 7; v++) {
        if (!(open >> v & 1)) continue;
        if (rest & SUIT[v]) f[3] += 1;
        if (s->lacks[nxt] >> v & 1) f[4] += 1;
        if (md->teams && (s->lacks[partner] >> v & 1)) f[5] += 1;
        if (prev != nxt && (s->lacks[prev] >> v & 1)) f[8] += 1;
        if (!md->teams && players == 4 && (s->lacks[partner] >> v & 1)) f[9] += 1;
        if (live & SUIT[v]) fish = 0;
        fitting |= rest & SUIT[v];
        others_fit |= live & ~rest & SUIT[v];
    }
    f[10] = __builtin_popcount(fitting);
    f[13] = __builtin_popcount(others_fit);
    if (fish) {
        f[14] = 1;
        if (light_fish(s, md, laid, rest)) f[6] = 1;
        else f[7] = pips_of(rest);
    }
    return 0;
}

static double linear_score(const State *s, const Model *md, const Move *mv) {
    if (s->asking >= 0 || s->points_mode || mv->kind == DRAW || mv->kind == KNOCK)
        return greedy_score(s, md, mv);
    double f[FEATURES];
    if (move_features(s, md, mv, f)) return 1e9;
    double score = 0;
    for (int k = 0; k < FEATURES; k++) score += md->weights[k] * f[k];
    return score;
}

static int choose(const State *s, const Move *moves, int n, const Model *md, uint64_t *rng) {
    if (n == 1) return 0;
    int own = s->turn == md->me ||
              (md->partner_as_own && md->me >= 0 && s->turn == (md->me + 2) % s->players);
    int policy = own ? md->own_policy : md->other_policy;
    uint64_t noise = (uint64_t)(own ? md->own_noise : md->other_noise);
    uint64_t r = next_random(rng);
    if (policy == 0) return (int)((r >> 3) % (uint64_t)n);
    if (noise && r % noise == 0) return (int)((r / noise) % (uint64_t)n);
    int best = 0, ties = 0;
    double best_score = -INFINITY;
    for (int i = 0; i < n; i++) {
        double score = policy == 3   ? linear_score(s, md, &moves[i])
                       : policy == 2 ? greedy_score(s, md, &moves[i])
                                     : move_score(s, &moves[i]);
        if (score > best_score) {
            best_score = score;
            best = i;
            ties = 1;
        } else if (score == best_score) {
            ties++;
            if ((next_random(rng) % (uint64_t)ties) == 0) best = i;
        }
    }
    return best;
}

static void play_out(State *s, const Model *md, uint64_t *rng) {
    Move moves[MAX_MOVES];
    while (s->end_kind == END_NONE) {
        int n = generate(s, moves);
        apply(s, &moves[choose(s, moves, n, md, rng)]);
    }
}

/* --- exact search of a determinized position ------------------------------------------- */

/* With every hand and the bazaar known (one sampled world), a position near the end of a round
 * can be searched exactly instead of played out: every seat plays its best move for its own
 * scoring unit, whose objective is its cost less ``weight`` times the mean of the other units'
 * (the expert's own objective). With two units and a weight of 1 the game is zero-sum and the
 * search is alpha-beta (exact, with the heavy-tiles-first order of policy 1); otherwise it is
 * max-n (the unit to move keeps the child whose leaf costs it least; ties to the first move).
 * A node budget bounds the work: a search that would pass it gives up (the expert then plays
 * that world out instead). */

#define SEARCH_DEPTH 192

typedef struct {
    const Scoring *sc;
    int units, zero_sum, root_unit;
    double weight;
    long nodes, limit;
    Move *buf; /* SEARCH_DEPTH * MAX_MOVES moves: one list per ply */
} Search;

/* unit ``u``'s cost less ``weight`` times the mean of the other units' */
static double unit_objective(int units, double weight, int u, const double *cost) {
    if (units < 2) return cost[u];
    double others = 0;
    for (int v = 0; v < units; v++)
        if (v != u) others += cost[v];
    return cost[u] - weight * others / (units - 1);
}

static double objective(const Search *se, int u, const double *cost) {
    return unit_objective(se->units, se->weight, u, cost);
}

/* max-n: the leaf's cost per unit in ``cost``; -1 when the budget ran out */
static int search_maxn(const State *s, Search *se, int depth, double *cost) {
    if (++se->nodes > se->limit || depth >= SEARCH_DEPTH) return -1;
    if (s->end_kind != END_NONE) {
        round_cost(s, se->sc, cost);
        return 0;
    }
    Move *moves = se->buf + (size_t)depth * MAX_MOVES;
    int n = generate(s, moves);
    int u = unit_of(se->sc, s->turn);
    double best = INFINITY;
    for (int i = 0; i < n; i++) {
        State c = *s;
        apply(&c, &moves[i]);
        double leaf[4] = {0, 0, 0, 0};
        if (search_maxn(&c, se, depth + 1, leaf) < 0) return -1;
        double obj = objective(se, u, leaf);
        if (obj < best) {
            best = obj;
            memcpy(cost, leaf, sizeof leaf);
        }
    }
    return 0;
}

/* two units, zero-sum: the value cost[root] - cost[other], which the root's unit minimizes
 * and the other unit maximizes; -1 when the budget ran out */
static int search_ab(const State *s, Search *se, int depth, double alpha, double beta,
                     double *value) {
    if (++se->nodes > se->limit || depth >= SEARCH_DEPTH) return -1;
    if (s->end_kind != END_NONE) {
        double cost[4] = {0, 0, 0, 0};
        round_cost(s, se->sc, cost);
        *value = cost[se->root_unit] - cost[1 - se->root_unit];
        return 0;
    }
    Move *moves = se->buf + (size_t)depth * MAX_MOVES;
    int n = generate(s, moves);
    if (n > 1 && n <= 64) { /* heavy tiles and doubles first: good moves early prune more */
        int keys[64];
        for (int i = 0; i < n; i++) keys[i] = move_score(s, &moves[i]);
        for (int i = 1; i < n; i++) {
            Move m = moves[i];
            int k = keys[i], j = i - 1;
            while (j >= 0 && keys[j] < k) {
                moves[j + 1] = moves[j];
                keys[j + 1] = keys[j];
                j--;
            }
            moves[j + 1] = m;
            keys[j + 1] = k;
        }
    }
    int minimizing = unit_of(se->sc, s->turn) == se->root_unit;
    double best = minimizing ? INFINITY : -INFINITY;
    for (int i = 0; i < n; i++) {
        State c = *s;
        apply(&c, &moves[i]);
        double v;
        if (search_ab(&c, se, depth + 1, alpha, beta, &v) < 0) return -1;
        if (minimizing) {
            if (v < best) best = v;
            if (best < beta) beta = best;
        } else {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        }
        if (alpha >= beta) break;
    }
    *value = best;
    return 0;
}

/* The root seat's objective after each move, searched exactly; -1 when the budget ran out. */
static int search_moves(const State *root, Search *se, const Move *mvs, int n, double *out) {
    for (int i = 0; i < n; i++) {
        State c = *root;
        apply(&c, &mvs[i]);
        if (se->zero_sum) {
            if (search_ab(&c, se, 1, -INFINITY, INFINITY, &out[i]) < 0) return -1;
        } else {
            double leaf[4] = {0, 0, 0, 0};
            if (search_maxn(&c, se, 1, leaf) < 0) return -1;
            out[i] = objective(se, se->root_unit, leaf);
        }
    }
    return 0;
}

/* --- Python glue ----------------------------------------------------------------------- */

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d values", what, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* state tuple: (players, spinner_rule, closing, multi, hands, bazaar, drawn, dead,
 *               lead_mask, ends, closed, spinner, first, table, turn, first_tile, last_tile,
 *               hundred_ok, hundred_seat, points_mode, arms_count, one_draw, draw_when_able,
 *               drew, tips, spinner_line, knock_any, out_circle, pass_limit, leader, passes,
 *               first_out, circle_left, last_layer, asking, close_both_fish) */
static int read_state(PyObject *t, State *s) {
    int hands[4], bazaar[TILES], ends[4], closed[4], tips[4] = {-1, -1, -1, -1};
    PyObject *ph, *pb, *pe, *pc, *pt = NULL;
    unsigned long dead, lead_mask, table;
    s->hundred_ok = 0;
    s->hundred_seat = -1;
    s->points_mode = s->arms_count = s->one_draw = s->draw_when_able = s->drew = 0;
    s->spinner_line = 0;
    s->knock_any = s->out_circle = s->pass_limit = s->passes = s->circle_left = 0;
    s->leader = s->first_out = s->last_layer = s->asking = -1;
    s->close_both_fish = 0;
    if (!PyArg_ParseTuple(t, "iiiiOOikkOOiikiii|iiiiiiiOiiiiiiiiiii", &s->players,
                          &s->spinner_rule, &s->closing, &s->multi, &ph, &pb, &s->drawn, &dead,
                          &lead_mask, &pe, &pc, &s->spinner, &s->first, &table, &s->turn,
                          &s->first_tile, &s->last_tile, &s->hundred_ok, &s->hundred_seat,
                          &s->points_mode, &s->arms_count, &s->one_draw, &s->draw_when_able,
                          &s->drew, &pt, &s->spinner_line, &s->knock_any, &s->out_circle,
                          &s->pass_limit, &s->leader, &s->passes, &s->first_out,
                          &s->circle_left, &s->last_layer, &s->asking, &s->close_both_fish))
        return -1;
    if (s->leader < 0) s->leader = s->turn;
    if (s->points_mode < 0 || s->points_mode >= POINTS_MODES) {
        PyErr_SetString(PyExc_ValueError, "the kernel does not know how this game's lays score");
        return -1;
    }
    if (pt && read_ints(pt, tips, 4, "tips") < 0) return -1;
    for (int k = 0; k < 4; k++) {
        if (tips[k] < -1 || tips[k] >= TILES) {
            PyErr_SetString(PyExc_ValueError, "tips must be tiles or -1");
            return -1;
        }
        s->tips[k] = tips[k];
        s->during[k] = 0;
    }
    if (s->players < 2 || s->players > 4) {
        PyErr_SetString(PyExc_ValueError, "players must be 2..4");
        return -1;
    }
    if (s->leader >= s->players || s->first_out < -1 || s->first_out >= s->players ||
        s->last_layer < -1 || s->last_layer >= s->players || s->passes < 0 ||
        s->circle_left < 0 || s->asking < -1 || s->asking >= s->players) {
        PyErr_SetString(PyExc_ValueError, "leader, first_out, last_layer or passes out of range");
        return -1;
    }
    if (read_ints(ph, hands, 4, "hands") != s->players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per player");
        return -1;
    }
    int nb = read_ints(pb, bazaar, TILES, "bazaar");
    if (nb < 0) return -1;
    if (read_ints(pe, ends, 4, "ends") != 4 || read_ints(pc, closed, 4, "closed") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "four ends and closed flags");
        return -1;
    }
    for (int i = 0; i < s->players; i++) s->hands[i] = (uint32_t)hands[i];
    for (int i = 0; i < nb; i++) s->bazaar[i] = (int8_t)bazaar[i];
    s->drawable = nb;
    if (s->drawn < 0 || s->drawn > nb || s->turn < 0 || s->turn >= s->players) {
        PyErr_SetString(PyExc_ValueError, "drawn or turn out of range");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        s->ends[k] = ends[k];
        s->closed[k] = closed[k];
    }
    s->dead = (uint32_t)dead;
    s->lead_mask = (uint32_t)lead_mask;
    s->table = (uint32_t)table;
    s->end_kind = END_NONE;
    s->end_seat = -1;
    s->last_turn = 0;
    if (s->hundred_seat < -1 || s->hundred_seat >= s->players) {
        PyErr_SetString(PyExc_ValueError, "hundred_seat out of range");
        return -1;
    }
    memset(s->lacks, 0, sizeof s->lacks);
    return 0;
}

/* model tuple: (me, teams, ignore, lacks, drew, own_policy, own_noise, other_policy,
 *               other_noise); lacks and drew describe the position (State.lacks) */
static int read_model(PyObject *t, Model *md, State *s) {
    PyObject *pl;
    unsigned long ignore;
    int lacks[4] = {0, 0, 0, 0};
    PyObject *pw = NULL;
    md->partner_as_own = 0;
    if (!PyArg_ParseTuple(t, "iikOiiiii|Oi", &md->me, &md->teams, &ignore, &pl, &s->drew,
                          &md->own_policy, &md->own_noise, &md->other_policy, &md->other_noise,
                          &pw, &md->partner_as_own))
        return -1;
    md->partner_as_own = md->partner_as_own && md->teams;
    for (int k = 0; k < FEATURES; k++) md->weights[k] = 0;
    if (pw && pw != Py_None) {
        PyObject *fast = PySequence_Fast(pw, "weights");
        if (!fast) return -1;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
        for (Py_ssize_t k = 0; k < n && k < FEATURES; k++)
            md->weights[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
        Py_DECREF(fast);
        if (n != FEATURES) {
            PyErr_SetString(PyExc_ValueError, "a model needs one weight for each feature");
            return -1;
        }
        if (PyErr_Occurred()) return -1;
    }
    if (read_ints(pl, lacks, 4, "lacks") < 0) return -1;
    if (md->own_noise < 0 || md->other_noise < 0) {
        PyErr_SetString(PyExc_ValueError, "noise must be >= 0");
        return -1;
    }
    md->ignore = (uint32_t)ignore;
    for (int i = 0; i < 4; i++) s->lacks[i] = (uint32_t)lacks[i];
    return 0;
}

static void plain_model(Model *md, int policy) {
    memset(md, 0, sizeof *md);
    md->me = -1;
    md->teams = 0;
    md->ignore = 0;
    md->own_policy = md->other_policy = policy;
    md->own_noise = md->other_noise = policy == 1 ? 8 : 0;
}

/* scoring tuple: (kind, count_mode, subtract_own, open_at, sea, target, teams, fish_mode,
 *                 threshold, lone_zero, special, loss_limit, eggs, accounts (or scores),
 *                 opens, remembered, loss_penalty) */
static int read_scoring(PyObject *t, Scoring *sc) {
    PyObject *pa, *po, *pr;
    memset(sc, 0, sizeof *sc);
    sc->bonus_divisor = 1;
    if (!PyArg_ParseTuple(t, "iiiiiiiiiiiiiOOOd|ii", &sc->kind, &sc->count_mode,
                          &sc->subtract_own, &sc->open_at, &sc->sea, &sc->target, &sc->teams,
                          &sc->fish_mode, &sc->threshold, &sc->lone_zero, &sc->special,
                          &sc->loss_limit, &sc->eggs, &pa, &po, &pr, &sc->loss_penalty,
                          &sc->credit_mode, &sc->bonus_divisor))
        return -1;
    if (sc->kind < SHEET_GOAT || sc->kind > SHEET_PLACES || sc->count_mode < COUNT_GOAT ||
        sc->count_mode > COUNT_SEA_GOAT || sc->fish_mode < 0 || sc->fish_mode > 2 ||
        sc->credit_mode < 0 || sc->credit_mode >= CREDIT_MODES || sc->bonus_divisor < 1 ||
        (sc->credit_mode != CREDIT_PLAIN && sc->kind != SHEET_RACE)) {
        PyErr_SetString(PyExc_ValueError, "the kernel does not know this game's scoring");
        return -1;
    }
    if (read_ints(pa, sc->account, 4, "accounts") < 0 || read_ints(po, sc->open, 4, "opens") < 0 ||
        read_ints(pr, sc->remembered, 4, "remembered") < 0)
        return -1;
    return 0;
}

static int read_move(PyObject *t, Move *mv) {
    /* (kind, ((tile, arm, close), ...)) */
    int kind;
    PyObject *plays;
    if (!PyArg_ParseTuple(t, "iO", &kind, &plays)) return -1;
    mv->kind = (uint8_t)kind;
    PyObject *fast = PySequence_Fast(plays, "plays");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > 4) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "at most four plays in a move");
        return -1;
    }
    mv->n = (uint8_t)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int tile, arm, close;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "iii", &tile, &arm, &close)) {
            Py_DECREF(fast);
            return -1;
        }
        mv->tile[i] = (int8_t)tile;
        mv->arm[i] = (int8_t)arm;
        mv->close[i] = (uint8_t)close;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *move_to_tuple(const Move *mv) {
    PyObject *plays = PyTuple_New(mv->n);
    if (!plays) return NULL;
    for (int i = 0; i < mv->n; i++)
        PyTuple_SET_ITEM(plays, i, Py_BuildValue("(iii)", mv->tile[i], mv->arm[i], mv->close[i]));
    return Py_BuildValue("(iN)", mv->kind, plays);
}

PyDoc_STRVAR(evaluate_doc,
             "evaluate(state, scoring, moves, playouts, policy, seed, model=None) -> list of cost "
             "lists\n\n"
             "For each candidate move of the seat to move: apply it, play the round out "
             "``playouts`` times, and return the summed cost per scoring unit. Without a model "
             "every seat plays ``policy``; a model tuple sets each seat's policy.");

static PyObject *evaluate(PyObject *self, PyObject *args) {
    PyObject *pstate, *pscoring, *pmoves, *pmodel = NULL;
    int playouts, policy;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOiiK|O", &pstate, &pscoring, &pmoves, &playouts, &policy,
                          &seed, &pmodel))
        return NULL;
    State root;
    Scoring sc;
    Model md;
    if (read_state(pstate, &root) < 0 || read_scoring(pscoring, &sc) < 0) return NULL;
    plain_model(&md, policy);
    if (pmodel && pmodel != Py_None && read_model(pmodel, &md, &root) < 0) return NULL;
    PyObject *fast = PySequence_Fast(pmoves, "moves");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int units = sc.teams ? 2 : root.players;
    PyObject *result = PyList_New(n);
    if (!result) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* every move meets the same playout randomness: differences between moves are
         * then measured with much less noise (common random numbers) */
        uint64_t rng = seed;
        Move mv;
        if (read_move(PySequence_Fast_GET_ITEM(fast, i), &mv) < 0) {
            Py_DECREF(fast);
            Py_DECREF(result);
            return NULL;
        }
        double total[4] = {0, 0, 0, 0};
        Py_BEGIN_ALLOW_THREADS
        for (int p = 0; p < playouts; p++) {
            State s = root;
            apply(&s, &mv);
            play_out(&s, &md, &rng);
            double cost[4];
            round_cost(&s, &sc, cost);
            for (int u = 0; u < units; u++) total[u] += cost[u];
        }
        Py_END_ALLOW_THREADS
        PyObject *costs = PyList_New(units);
        for (int u = 0; u < units; u++) PyList_SET_ITEM(costs, u, PyFloat_FromDouble(total[u]));
        PyList_SET_ITEM(result, i, costs);
    }
    Py_DECREF(fast);
    return result;
}

PyDoc_STRVAR(trace_doc,
             "trace(state, seed, scoring=None) -> (moves, end_kind, end_seat, hands, costs)\n\n"
             "Play one round out choosing uniformly with splitmix64 (index = next %% n) and "
             "return every move as (seat, legal moves, move, points it scored), how it ended (1 out, 2 fish, 3 sortir), the hands left and, given a "
             "scoring tuple, the round's cost to each scoring unit (else an empty list).");

static PyObject *trace(PyObject *self, PyObject *args) {
    PyObject *pstate, *pscoring = NULL;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OK|O", &pstate, &seed, &pscoring)) return NULL;
    State s;
    Scoring sc;
    if (read_state(pstate, &s) < 0) return NULL;
    int scored = pscoring && pscoring != Py_None;
    if (scored && read_scoring(pscoring, &sc) < 0) return NULL;
    uint64_t rng = seed;
    PyObject *log = PyList_New(0);
    if (!log) return NULL;
    Move moves[MAX_MOVES];
    while (s.end_kind == END_NONE) {
        int n = generate(&s, moves);
        int pick = (int)(next_random(&rng) % (uint64_t)n);
        int seat = s.turn, before = s.during[seat];
        PyObject *step = move_to_tuple(&moves[pick]);
        apply(&s, &moves[pick]);
        PyObject *entry = Py_BuildValue("(iiNi)", seat, n, step, s.during[seat] - before);
        if (!entry || PyList_Append(log, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(log);
            return NULL;
        }
        Py_DECREF(entry);
    }
    PyObject *hands = PyTuple_New(s.players);
    for (int i = 0; i < s.players; i++)
        PyTuple_SET_ITEM(hands, i, PyLong_FromUnsignedLong(s.hands[i]));
    PyObject *costs = PyList_New(0);
    if (scored) {
        double cost[4];
        round_cost(&s, &sc, cost);
        int units = sc.teams ? 2 : s.players;
        for (int u = 0; u < units; u++) {
            PyObject *c = PyFloat_FromDouble(cost[u]);
            PyList_Append(costs, c);
            Py_DECREF(c);
        }
    }
    return Py_BuildValue("(NiiNN)", log, s.end_kind, s.end_seat, hands, costs);
}

PyDoc_STRVAR(model_trace_doc,
             "model_trace(state, model, seed) -> list of (turn, moves, move, lacks, scores)\n\n"
             "Play one round out with the model's policies and log, before each move, the "
             "values each seat is known to lack and every legal move's greedy score.");

static PyObject *model_trace(PyObject *self, PyObject *args) {
    PyObject *pstate, *pmodel;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOK", &pstate, &pmodel, &seed)) return NULL;
    State s;
    Model md;
    if (read_state(pstate, &s) < 0 || read_model(pmodel, &md, &s) < 0) return NULL;
    uint64_t rng = seed;
    PyObject *log = PyList_New(0);
    if (!log) return NULL;
    Move moves[MAX_MOVES];
    while (s.end_kind == END_NONE) {
        int n = generate(&s, moves);
        PyObject *scores = PyList_New(n);
        PyObject *lacks = PyTuple_New(s.players);
        if (!scores || !lacks) {
            Py_XDECREF(scores);
            Py_XDECREF(lacks);
            Py_DECREF(log);
            return NULL;
        }
        for (int i = 0; i < n; i++)
            PyList_SET_ITEM(scores, i, PyLong_FromLong(greedy_score(&s, &md, &moves[i])));
        for (int i = 0; i < s.players; i++)
            PyTuple_SET_ITEM(lacks, i, PyLong_FromUnsignedLong(s.lacks[i]));
        int pick = choose(&s, moves, n, &md, &rng);
        PyObject *entry =
            Py_BuildValue("(iiNNN)", s.turn, n, move_to_tuple(&moves[pick]), lacks, scores);
        if (!entry || PyList_Append(log, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(log);
            return NULL;
        }
        Py_DECREF(entry);
        apply(&s, &moves[pick]);
    }
    return log;
}

/* --- inference: how well a world explains the other seats' plays ------------------------ */

typedef struct {
    State before; /* the position before the play; hands[seat] gets the world's hand */
    uint32_t laid_since;
    Move move;
} Decision;

static int same_move(const Move *a, const Move *b) {
    if (a->kind != b->kind || a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (a->tile[i] != b->tile[i] || a->arm[i] != b->arm[i] || a->close[i] != b->close[i])
            return 0;
    return 1;
}

/* decision tuple: (seat, ends, closed, spinner, first, table, lacks, sizes, laid_since, move,
 *                  tips, spinner_line); the last two for the games that score during play */
static int read_decision(PyObject *t, const State *rules, Decision *d) {
    PyObject *pe, *pc, *pl, *ps, *pm, *pt = NULL;
    int seat, spinner, first, line = 0;
    unsigned long table, laid;
    if (!PyArg_ParseTuple(t, "iOOiikOOkO|Oi", &seat, &pe, &pc, &spinner, &first, &table, &pl,
                          &ps, &laid, &pm, &pt, &line))
        return -1;
    State *s = &d->before;
    *s = *rules;
    int tips[4] = {-1, -1, -1, -1};
    if (pt && read_ints(pt, tips, 4, "tips") < 0) return -1;
    for (int k = 0; k < 4; k++) s->tips[k] = tips[k] < -1 || tips[k] >= TILES ? -1 : tips[k];
    s->spinner_line = line;
    int ends[4], closed[4], lacks[4] = {0, 0, 0, 0}, sizes[4] = {0, 0, 0, 0};
    if (read_ints(pe, ends, 4, "ends") != 4 || read_ints(pc, closed, 4, "closed") != 4 ||
        read_ints(pl, lacks, 4, "lacks") < 0 || read_ints(ps, sizes, 4, "sizes") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "four ends and closed flags");
        return -1;
    }
    if (seat < 0 || seat >= s->players) {
        PyErr_SetString(PyExc_ValueError, "seat out of range");
        return -1;
    }
    for (int k = 0; k < 4; k++) {
        s->ends[k] = ends[k];
        s->closed[k] = closed[k];
    }
    /* the greedy score reads only the sizes of the other hands */
    for (int i = 0; i < s->players; i++) {
        s->hands[i] = sizes[i] > 0 ? (1u << (sizes[i] > TILES ? TILES : sizes[i])) - 1 : 0;
        s->lacks[i] = (uint32_t)lacks[i];
    }
    s->spinner = spinner;
    s->first = first;
    s->table = (uint32_t)table;
    s->turn = seat;
    s->drawn = s->drawable = 0;
    s->end_kind = END_NONE;
    d->laid_since = (uint32_t)laid;
    return read_move(pm, &d->move);
}

PyDoc_STRVAR(explain_doc,
             "explain(state, model, decisions, worlds, noise) -> log-likelihoods per world\n\n"
             "For each world (a tuple of hands) and each seat, the log of the probability "
             "that the seat made its decisions (kozel.layout.bots.inference.past_decisions) if it "
             "plays the model's greedy policy with a chance ``noise`` of a uniform move, and "
             "if it plays uniformly: [greedy_0, uniform_0, greedy_1, uniform_1, ...]. "
             "``state`` gives the rules.");

static PyObject *explain(PyObject *self, PyObject *args) {
    PyObject *pstate, *pmodel, *pdecisions, *pworlds;
    double noise;
    if (!PyArg_ParseTuple(args, "OOOOd", &pstate, &pmodel, &pdecisions, &pworlds, &noise))
        return NULL;
    State rules;
    Model md;
    if (read_state(pstate, &rules) < 0 || read_model(pmodel, &md, &rules) < 0) return NULL;
    if (noise < 0 || noise > 1) {
        PyErr_SetString(PyExc_ValueError, "noise is a probability");
        return NULL;
    }
    PyObject *fd = PySequence_Fast(pdecisions, "decisions");
    if (!fd) return NULL;
    Py_ssize_t nd = PySequence_Fast_GET_SIZE(fd);
    Decision *ds = PyMem_Malloc(sizeof(Decision) * (size_t)(nd ? nd : 1));
    if (!ds) {
        Py_DECREF(fd);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (read_decision(PySequence_Fast_GET_ITEM(fd, i), &rules, &ds[i]) < 0) {
            PyMem_Free(ds);
            Py_DECREF(fd);
            return NULL;
        }
    }
    Py_DECREF(fd);
    PyObject *fw = PySequence_Fast(pworlds, "worlds");
    if (!fw) {
        PyMem_Free(ds);
        return NULL;
    }
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(fw);
    PyObject *result = PyList_New(nw);
    Move moves[MAX_MOVES];
    for (Py_ssize_t w = 0; result && w < nw; w++) {
        int hands[4];
        if (read_ints(PySequence_Fast_GET_ITEM(fw, w), hands, 4, "hands") != rules.players) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one hand per player");
            Py_CLEAR(result);
            break;
        }
        double greedy[4] = {0, 0, 0, 0}, uniform[4] = {0, 0, 0, 0};
        for (Py_ssize_t i = 0; i < nd; i++) {
            State s = ds[i].before;
            int seat = s.turn;
            s.hands[seat] = (uint32_t)hands[seat] | ds[i].laid_since;
            int n = generate(&s, moves);
            int chosen = -1, best = INT32_MIN, ties = 0;
            for (int k = 0; k < n; k++) {
                int score = greedy_score(&s, &md, &moves[k]);
                if (score > best) {
                    best = score;
                    ties = 0;
                }
                if (score == best) ties++;
                if (chosen < 0 && same_move(&moves[k], &ds[i].move)) chosen = k;
            }
            if (chosen < 0) { /* the world cannot have made the move */
                greedy[seat] = uniform[seat] = -INFINITY;
                continue;
            }
            double p = noise / n;
            if (greedy_score(&s, &md, &moves[chosen]) == best) p += (1 - noise) / ties;
            greedy[seat] += log(p);
            uniform[seat] -= log(n);
        }
        PyObject *logs = PyList_New(2 * rules.players);
        if (!logs) {
            Py_CLEAR(result);
            break;
        }
        for (int i = 0; i < rules.players; i++) {
            PyList_SET_ITEM(logs, 2 * i, PyFloat_FromDouble(greedy[i]));
            PyList_SET_ITEM(logs, 2 * i + 1, PyFloat_FromDouble(uniform[i]));
        }
        PyList_SET_ITEM(result, w, logs);
    }
    Py_DECREF(fw);
    PyMem_Free(ds);
    return result;
}

PyDoc_STRVAR(exact_doc,
             "exact(state, scoring, moves, weight, node_limit) -> (values or None, nodes)\n\n"
             "Search the known position exactly after each candidate move of the seat to move: "
             "every seat plays its best for its scoring unit, whose objective is its cost less "
             "``weight`` times the mean of the other units' costs (alpha-beta when two units "
             "and a weight of 1 make it zero-sum, else max-n). The values are the seat to "
             "move's objective after each move, or None when the search would visit more than "
             "``node_limit`` positions; ``nodes`` is how many it visited.");

static PyObject *exact(PyObject *self, PyObject *args) {
    PyObject *pstate, *pscoring, *pmoves;
    double weight;
    long limit;
    if (!PyArg_ParseTuple(args, "OOOdl", &pstate, &pscoring, &pmoves, &weight, &limit))
        return NULL;
    State root;
    Scoring sc;
    if (read_state(pstate, &root) < 0 || read_scoring(pscoring, &sc) < 0) return NULL;
    PyObject *fast = PySequence_Fast(pmoves, "moves");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_MOVES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many moves");
        return NULL;
    }
    Move mvs[MAX_MOVES];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_move(PySequence_Fast_GET_ITEM(fast, i), &mvs[i]) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    Search se;
    se.sc = &sc;
    se.units = sc.teams ? 2 : root.players;
    se.weight = weight;
    se.zero_sum = se.units == 2 && weight == 1.0;
    se.root_unit = unit_of(&sc, root.turn);
    se.nodes = 0;
    se.limit = limit;
    se.buf = PyMem_RawMalloc(sizeof(Move) * (size_t)SEARCH_DEPTH * MAX_MOVES);
    if (!se.buf) return PyErr_NoMemory();
    double values[MAX_MOVES];
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = search_moves(&root, &se, mvs, (int)n, values);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(se.buf);
    long nodes = se.nodes;
    if (status < 0) return Py_BuildValue("(Ol)", Py_None, nodes);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyFloat_FromDouble(values[i]));
    return Py_BuildValue("(Nl)", list, nodes);
}

PyDoc_STRVAR(rounds_doc,
             "random_rounds(state, count, seed, hand_size=7, reserve=0, ignore=-1) -> total "
             "moves\n\n"
             "Play ``count`` uniformly random rounds from the same position's rules, each from a "
             "fresh deal of ``hand_size`` tiles a hand whose last ``reserve`` bazaar tiles are "
             "never drawn (a benchmark; the lays score as the game's do). ``ignore`` replaces "
             "the position's tiles that never hold a fish open (-1: keep them).");

static PyObject *random_rounds(PyObject *self, PyObject *args) {
    PyObject *pstate;
    long count, ignore = -1;
    int hand_size = 7, reserve = 0;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OlK|iil", &pstate, &count, &seed, &hand_size, &reserve,
                          &ignore))
        return NULL;
    State root;
    if (read_state(pstate, &root) < 0) return NULL;
    if (hand_size < 1 || hand_size * root.players > TILES || reserve < 0 ||
        reserve > TILES - hand_size * root.players) {
        PyErr_SetString(PyExc_ValueError, "hand_size or reserve out of range");
        return NULL;
    }
    uint64_t rng = seed;
    long moves = 0;
    Py_BEGIN_ALLOW_THREADS
    Move list[MAX_MOVES];
    for (long i = 0; i < count; i++) {
        State s = root;
        /* a fresh deal each round: shuffle all 28 tiles into the hands and bazaar */
        int8_t tiles[TILES];
        for (int t = 0; t < TILES; t++) tiles[t] = (int8_t)t;
        for (int t = TILES - 1; t > 0; t--) {
            int j = (int)(next_random(&rng) % (uint64_t)(t + 1));
            int8_t x = tiles[t];
            tiles[t] = tiles[j];
            tiles[j] = x;
        }
        int at = 0;
        for (int p = 0; p < s.players; p++) {
            s.hands[p] = 0;
            for (int k = 0; k < hand_size; k++) s.hands[p] |= 1u << tiles[at++];
        }
        s.drawable = TILES - at - reserve;
        for (int k = 0; k < s.drawable; k++) s.bazaar[k] = tiles[at + k];
        if (ignore >= 0) {
            s.dead = (uint32_t)ignore;
            for (int k = s.drawable; k < TILES - at; k++) s.dead |= 1u << tiles[at + k];
        }
        s.lead_mask = s.hands[s.turn];
        while (s.end_kind == END_NONE) {
            int n = generate(&s, list);
            apply(&s, &list[(int)(next_random(&rng) % (uint64_t)n)]);
            moves++;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(moves);
}

/* --- information-set search of the seat's own later choices ----------------------------- */

/* Flat playouts judge a move by what follows when our seat plays its later turns by the greedy
 * heuristic (with noise); searching those turns inside each sampled world instead would let
 * them use what only that world knows. Here they are searched across the worlds: a node is one
 * of our later decisions as our seat sees it — the root move, then every move seen since
 * (another seat's draw as a draw, our own with its tile) — so every world that reaches it shares
 * its statistics, and its move is chosen by UCB1 (the least mean objective less ``exploration``
 * times the spread of the objectives seen, times sqrt(ln N / n)). A playout walks the tree until
 * it reaches a decision the tree has not met, adds it (its move then chosen by the playout
 * policy), and plays the round out; the other seats play the model throughout. Every root move
 * meets the same worlds and playout seeds. */

typedef struct {
    uint64_t key; /* 0: an empty slot */
    int first;    /* the index of its first move's statistics */
    int n;        /* its legal moves */
    int visits;
} TreeNode;

typedef struct {
    TreeNode *slots;
    size_t mask, count, limit;
    int *visits;
    double *sums;
    size_t used, cap;
} Tree;

static inline uint64_t mix(uint64_t h, uint64_t x) {
    uint64_t z = h ^ (x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) | 1; /* never 0, the empty slot's key */
}

/* what our seat sees of a move about to be made: another seat's draw hides its tile */
static uint64_t seen_move(const State *s, const Move *mv, int me) {
    uint64_t code = (uint64_t)mv->kind | (uint64_t)s->turn << 3 | (uint64_t)mv->n << 5;
    if (mv->kind == DRAW)
        return s->turn == me ? code | (uint64_t)(s->bazaar[s->drawn] + 1) << 8 : code;
    for (int j = 0; j < mv->n; j++)
        code |= (uint64_t)(mv->tile[j] | (mv->arm[j] + 1) << 5 | mv->close[j] << 8) << (8 + 9 * j);
    return code;
}

/* the node of ``key``, added with ``n`` moves when absent and the tree has room; NULL when
 * absent and full (or out of memory) */
static TreeNode *tree_node(Tree *t, uint64_t key, int n, int *added) {
    size_t i = (size_t)key & t->mask;
    while (t->slots[i].key && t->slots[i].key != key) i = (i + 1) & t->mask;
    *added = 0;
    if (t->slots[i].key) return &t->slots[i];
    if (t->count >= t->limit) return NULL;
    if (t->used + (size_t)n > t->cap) {
        size_t cap = 2 * (t->used + (size_t)n) + 1024;
        int *v = PyMem_RawRealloc(t->visits, cap * sizeof(int));
        if (!v) return NULL;
        t->visits = v;
        double *s = PyMem_RawRealloc(t->sums, cap * sizeof(double));
        if (!s) return NULL;
        t->sums = s;
        t->cap = cap;
    }
    TreeNode *node = &t->slots[i];
    node->key = key;
    node->first = (int)t->used;
    node->n = n;
    node->visits = 0;
    memset(t->visits + t->used, 0, (size_t)n * sizeof(int));
    memset(t->sums + t->used, 0, (size_t)n * sizeof(double));
    t->used += (size_t)n;
    t->count++;
    *added = 1;
    return node;
}

static int ucb(const Tree *t, const TreeNode *node, double spread) {
    const int *v = t->visits + node->first;
    const double *s = t->sums + node->first;
    double log_n = log((double)node->visits), best = INFINITY;
    int choice = 0;
    for (int j = 0; j < node->n; j++) {
        if (!v[j]) return j;
        double score = s[j] / v[j] - spread * sqrt(log_n / v[j]);
        if (score < best) {
            best = score;
            choice = j;
        }
    }
    return choice;
}

#define TREE_PATH 64

typedef struct {
    const Scoring *sc;
    const Model *md;
    int units, unit, patience;
    double weight, exploration;
    double n, sum, squares; /* the objectives seen so far, for the exploration's scale */
} TreeSearch;

/* One playout of root move ``index`` in a world: its cost per unit in ``cost`` */
static void tree_playout(Tree *t, TreeSearch *ts, const State *world, const Move *root,
                         int index, uint64_t seed, double *cost) {
    Move moves[MAX_MOVES];
    TreeNode *path[TREE_PATH];
    int chosen[TREE_PATH], depth = 0, in_tree = 1, me = ts->md->me;
    uint64_t rng = seed, key = mix(0x6b6f7a656cull, (uint64_t)index);
    double var = ts->n > 1 ? (ts->squares - ts->sum * ts->sum / ts->n) / (ts->n - 1) : 0;
    double spread = ts->exploration * (var > 0 ? sqrt(var) : 1.0);
    State s = *world;
    apply(&s, root);
    while (s.end_kind == END_NONE) {
        int n = generate(&s, moves), c = -1;
        if (in_tree && s.turn == me && n > 1) {
            int added;
            TreeNode *node = depth < TREE_PATH ? tree_node(t, key, n, &added) : NULL;
            if (!node || node->n != n) {
                in_tree = 0; /* full (or, never expected, not the decision it was) */
            } else {
                /* a new node, or one seen fewer than ``patience`` times: the playout
                 * policy chooses (and its statistics start there) */
                c = added || node->visits < ts->patience ? choose(&s, moves, n, ts->md, &rng)
                                                        : ucb(t, node, spread);
                path[depth] = node;
                chosen[depth++] = c;
                in_tree = !added;
            }
        }
        if (c < 0) c = choose(&s, moves, n, ts->md, &rng);
        if (in_tree) key = mix(key, seen_move(&s, &moves[c], me));
        apply(&s, &moves[c]);
    }
    round_cost(&s, ts->sc, cost);
    double obj = unit_objective(ts->units, ts->weight, ts->unit, cost);
    ts->n += 1;
    ts->sum += obj;
    ts->squares += obj * obj;
    for (int d = 0; d < depth; d++) {
        path[d]->visits++;
        t->visits[path[d]->first + chosen[d]]++;
        t->sums[path[d]->first + chosen[d]] += obj;
    }
}

PyDoc_STRVAR(tree_doc,
             "tree_search(states, scoring, moves, playouts, seed, model, weight, exploration, "
             "patience=0) -> (costs, nodes)\n\n"
             "Play each move ``playouts`` times in every world of ``states`` (sampled worlds of "
             "one decision: the same view, the hidden tiles dealt differently), searching the "
             "model's own seat's later decisions in one tree shared by the worlds (a node is a "
             "decision as that seat sees it; UCB1 on its cost less ``weight`` times the mean "
             "of the other units', scaled by ``exploration`` times the spread of the costs "
             "seen) once it has been visited ``patience`` times (the playout policy before). "
             "``costs``: per move, the summed cost of each scoring unit, as evaluate's; "
             "``nodes``: the decisions the tree holds.");

static PyObject *tree_search(PyObject *self, PyObject *args) {
    PyObject *pstates, *pscoring, *pmoves, *pmodel;
    int playouts;
    unsigned long long seed;
    double weight, exploration;
    int patience = 0;
    if (!PyArg_ParseTuple(args, "OOOiKOdd|i", &pstates, &pscoring, &pmoves, &playouts, &seed,
                          &pmodel, &weight, &exploration, &patience))
        return NULL;
    Scoring sc;
    if (read_scoring(pscoring, &sc) < 0) return NULL;
    PyObject *fs = PySequence_Fast(pstates, "states");
    if (!fs) return NULL;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(fs);
    PyObject *fm = PySequence_Fast(pmoves, "moves");
    if (!fm) {
        Py_DECREF(fs);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fm);
    State *worlds = PyMem_RawMalloc(sizeof(State) * (size_t)(nw ? nw : 1));
    Move mvs[MAX_MOVES];
    Model md;
    int ok = worlds != NULL && n <= MAX_MOVES && playouts >= 0 && nw > 0;
    if (!worlds) PyErr_NoMemory();
    else if (!ok) PyErr_SetString(PyExc_ValueError, "no worlds, too many moves or playouts < 0");
    for (Py_ssize_t w = 0; ok && w < nw; w++) {
        ok = read_state(PySequence_Fast_GET_ITEM(fs, w), &worlds[w]) == 0;
        plain_model(&md, 2);
        ok = ok && read_model(pmodel, &md, &worlds[w]) == 0;
    }
    for (Py_ssize_t i = 0; ok && i < n; i++) ok = read_move(PySequence_Fast_GET_ITEM(fm, i), &mvs[i]) == 0;
    Py_DECREF(fs);
    Py_DECREF(fm);
    if (ok && md.me != worlds[0].turn) {
        PyErr_SetString(PyExc_ValueError, "the model's seat is not the seat to move");
        ok = 0;
    }
    if (!ok) {
        PyMem_RawFree(worlds);
        return NULL;
    }
    size_t iterations = (size_t)nw * (size_t)playouts * (size_t)n, cap = 1024;
    size_t limit = iterations < (1u << 19) ? iterations : (1u << 19);
    while (cap < 2 * limit) cap *= 2;
    Tree t = {PyMem_RawCalloc(cap, sizeof(TreeNode)), cap - 1, 0, limit, NULL, NULL, 0, 0};
    if (!t.slots) {
        PyMem_RawFree(worlds);
        return PyErr_NoMemory();
    }
    TreeSearch ts = {&sc, &md, sc.teams ? 2 : worlds[0].players, unit_of(&sc, md.me), patience,
                     weight, exploration, 0, 0, 0};
    double total[MAX_MOVES][4];
    memset(total, 0, sizeof total);
    Py_BEGIN_ALLOW_THREADS
    for (int p = 0; p < playouts; p++) {
        for (Py_ssize_t w = 0; w < nw; w++) {
            uint64_t draw = seed ^ ((uint64_t)p << 32 | (uint64_t)w);
            uint64_t playout_seed = next_random(&draw);
            for (Py_ssize_t i = 0; i < n; i++) {
                double cost[4] = {0, 0, 0, 0};
                tree_playout(&t, &ts, &worlds[w], &mvs[i], (int)i, playout_seed, cost);
                for (int u = 0; u < ts.units; u++) total[i][u] += cost[u];
            }
        }
    }
    Py_END_ALLOW_THREADS
    size_t nodes = t.count;
    PyMem_RawFree(t.slots);
    PyMem_RawFree(t.visits);
    PyMem_RawFree(t.sums);
    PyMem_RawFree(worlds);
    PyObject *result = PyList_New(n);
    if (!result) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *costs = PyList_New(ts.units);
        if (!costs) {
            Py_DECREF(result);
            return NULL;
        }
        for (int u = 0; u < ts.units; u++) PyList_SET_ITEM(costs, u, PyFloat_FromDouble(total[i][u]));
        PyList_SET_ITEM(result, i, costs);
    }
    return Py_BuildValue("(Nn)", result, (Py_ssize_t)nodes);
}

PyDoc_STRVAR(features_doc,
             "features(state, model, moves) -> list of feature lists (None: the move goes out)\n\n"
             "The linear policy's features of each move of the seat to move.");

static PyObject *features(PyObject *self, PyObject *args) {
    PyObject *pstate, *pmodel, *pmoves;
    if (!PyArg_ParseTuple(args, "OOO", &pstate, &pmodel, &pmoves)) return NULL;
    State s;
    Model md;
    if (read_state(pstate, &s) < 0 || read_model(pmodel, &md, &s) < 0) return NULL;
    PyObject *fast = PySequence_Fast(pmoves, "moves");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *result = PyList_New(n);
    if (!result) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Move mv;
        double f[FEATURES];
        if (read_move(PySequence_Fast_GET_ITEM(fast, i), &mv) < 0) {
            Py_DECREF(fast);
            Py_DECREF(result);
            return NULL;
        }
        PyObject *item;
        if (move_features(&s, &md, &mv, f)) {
            item = Py_NewRef(Py_None);
        } else {
            item = PyList_New(FEATURES);
            for (int k = 0; item && k < FEATURES; k++)
                PyList_SET_ITEM(item, k, PyFloat_FromDouble(f[k]));
        }
        if (!item) {
            Py_DECREF(fast);
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, item);
    }
    Py_DECREF(fast);
    return result;
}

static PyMethodDef methods[] = {
    {"evaluate", evaluate, METH_VARARGS, evaluate_doc},
    {"trace", trace, METH_VARARGS, trace_doc},
    {"model_trace", model_trace, METH_VARARGS, model_trace_doc},
    {"explain", explain, METH_VARARGS, explain_doc},
    {"random_rounds", random_rounds, METH_VARARGS, rounds_doc},
    {"exact", exact, METH_VARARGS, exact_doc},
    {"tree_search", tree_search, METH_VARARGS, tree_doc},
    {"features", features, METH_VARARGS, features_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kozel._kernel",
    .m_doc = "The compiled playout kernel of Kozel's computer players.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    return PyModule_Create(&module);
}
