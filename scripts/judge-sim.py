#!/usr/bin/env python3
"""Tank Battle review verdicts simulated offline on `judge_probe`'s searches
(issue 52): which depth's value a judge takes and how it verifies, compared
without a server, on the same searches.

    scripts/review-check.py games 20 > games.jsonl        # the quality games (a server running)
    cargo run --release --bin judge_probe -- 100000 1000000 < games.jsonl > probe.jsonl
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 even
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 last
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 even --verify 1000000 --width 10
    scripts/judge-sim.py probe.jsonl games.jsonl 200000 1000000 even --stop --verify 1000000 --share 1 --pool 10e6 --chain

A judge at budget J against a reference at budget R, both taking a
position's value at `last` (the last depth the search finished) or `even`
(the deepest even depth, a forced result at any depth), both settled as
the server settles them (src/games/review/settle.rs) and labelled as it
labels (Label::of_chances). With --verify D, where the position's value
and the next position's disagree by more than --width chance points, both
are taken from the search at D instead (at most 1 + N / --every a review
when --every is given, or while the verifications searched at most
--share times the positions the judge's own searches may, (moves + 1) x
J, and at most --pool in all; with --chain, one whose position the
verification before searched needs only --pool, as the server's). With
--stop, every search (judge, verification, reference) stops
after an even depth when the next even one is not expected to finish
within its budget, as the judge's searches do (`search_even`,
src/games/tank_battle/ai/search.rs; its growth constants are restated
here): that needs a probe with each iteration's positions. A budget the
probe lacks is read from the next larger one's search cut at the budget
(near, not exact: the table's size differs). The reference does not
verify (nor does the server's judge at 1,000,000 positions or more: a
verification's searches get at most that, VERIFY_MAX_NODES). Prints recall
(the reference's mistakes and blunders the judge finds), precision (the
judge's confirmed by the reference), the same with inaccuracies, how
often the best moves differ and the judge's positions searched against a
judge of 100,000 positions a search without verification (each search
counted as the positions it searched). The reference's own verification
is not simulated: at `last` and 100,000 against
1,000,000 the simulation gives the server's settled figures of 63be2bd
exactly (59 %, 66 %; BENCHMARKS).
"""
import argparse
import collections
import json
import math

EVEN_GROWTH_MIN, EVEN_GROWTH_SHARE = 4.0, 0.5  # src/games/tank_battle/ai/search.rs

WIN = 1_000_000
CHANCE_PER_CENTIPOINT = 0.0202  # src/games/tank_battle/game.rs
BOUNDS = [2.0, 5.0, 10.0, 20.0]  # Label::BOUNDS
INACCURACY, MISTAKE = 3, 4  # labels as numbers: best 0 ... blunder 5


def forced(value):
    return abs(value) >= WIN - 1000


def chance(value):
    if forced(value):
        return 100.0 if value > 0 else 0.0
    return min(max(100 / (1 + math.exp(-CHANCE_PER_CENTIPOINT * value)), 0.1), 99.9)


def from_next(value):
    return -(value - math.copysign(1, value)) if forced(value) else -value


def label(before, after):
    loss = max(before - after, 0.0)
    number = 0 if loss <= 1e-9 else 1 + sum(loss >= bound for bound in BOUNDS)
    if after <= 1e-9 < before:
        return 5
    if before >= 100 - 1e-9 > after:
        return max(number, MISTAKE)
    return number


def stopped(row, budget, stop):
    """The iterations a search at `budget` finishes (`stop`: stopping
    after an even depth the next one of which is not expected to finish)
    and the positions it searches."""
    kept = []
    for depth, value, best, *nodes in row["iterations"]:
        kept.append((depth, value, best))
        if forced(value):
            return kept, nodes[0] if nodes else budget
        if stop and depth % 2 == 0:
            before = next((it[3] for it in row["iterations"] if it[0] == depth - 2), None)
            growth = EVEN_GROWTH_MIN if not before else max(EVEN_GROWTH_MIN, EVEN_GROWTH_SHARE * nodes[0] / before)
            if nodes[0] * growth > budget:
                return kept, nodes[0]
    return kept, budget


def judged(iterations, depth_rule):
    """(value, best) of one search's finished iterations as the judge takes it."""
    if not iterations:
        return 0, None
    last = iterations[-1]
    if depth_rule == "even" and not forced(last[1]):
        for depth, value, best in reversed(iterations):
            if depth % 2 == 0:
                return value, best
    return last[1], last[2]


def settled(raw):
    """src/games/review/settle.rs: each verdict settled with the next two."""
    def worth(entry, following):
        if following is not None and from_next(following[0]) > entry[0]:
            return from_next(following[0]), 100 - following[2]
        return entry[0], entry[2]
    labels = []
    for k, entry in enumerate(raw):
        following = raw[k + 1] if k + 1 < len(raw) else None
        after_that = raw[k + 2] if k + 2 < len(raw) else None
        value, before = worth(entry, following)
        if following is None:
            after = entry[3]
        else:
            kept, kept_chance = worth(following, after_that)
            after = entry[3] if from_next(kept) == entry[1] else 100 - kept_chance
        labels.append(label(before, after))
    return labels


def review(game, positions, budget, depth_rule, verify=None, width=5.0, every=None, share=None, stop=False,
           pool=None, chain=False):
    """Labels, best moves and positions searched of one game."""
    values, bests, searched = [], [], [0]
    def at(k, b):
        position = positions[k]
        if position["over"] is not None:
            return position["over"] * WIN, None
        row = next((r for r in position["rows"] if r["budget"] == b), None)
        if row is None:
            larger = min((r for r in position["rows"] if r["budget"] > b), key=lambda r: r["budget"])
            row = {"iterations": [it for it in larger["iterations"] if it[3] <= b]}
        iterations, nodes = stopped(row, b, stop)
        searched[0] += nodes
        return judged(iterations, depth_rule)
    for k in range(len(game["moves"]) + 1):
        value, best = at(k, budget)
        values.append(value)
        bests.append(best)
    deep, verifications, raw, verified = set(), 0, [], 0
    for k, played in enumerate(game["moves"]):
        apart = abs(chance(values[k]) - chance(from_next(values[k + 1])))
        allowed = every is None or verifications <= (k + 1) // every
        if share is not None:
            allowed = verified <= min(share * (k + 2) * budget, pool or math.inf)
            if chain and k in deep:
                allowed = verified <= (pool or math.inf)
        if verify and apart > width and positions[k + 1]["over"] is None and allowed:
            before = searched[0]
            for j in (k, k + 1):
                if j not in deep:
                    deep.add(j)
                    values[j], bests[j] = at(j, verify)
            verified += searched[0] - before
            verifications += 1
        value = values[k]
        kept = value if played == bests[k] else from_next(values[k + 1])
        raw.append((value, kept, chance(value), chance(kept)))
    return settled(raw), bests, searched[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("probe")
    parser.add_argument("games")
    parser.add_argument("judge", type=int)
    parser.add_argument("reference", type=int)
    parser.add_argument("depth", choices=["last", "even"])
    parser.add_argument("--verify", type=int)
    parser.add_argument("--width", type=float, default=5.0)
    parser.add_argument("--every", type=int)
    parser.add_argument("--share", type=float)
    parser.add_argument("--pool", type=float, help="with --share: at most this many positions in all")
    parser.add_argument("--chain", action="store_true",
                        help="with --share: a verification whose position a verification searched needs only --pool")
    parser.add_argument("--stop", action="store_true")
    parser.add_argument("--plain-reference", action="store_true",
                        help="with --stop: the reference's searches run every depth to the end of its budget")
    args = parser.parse_args()
    games = [json.loads(line) for line in open(args.games)]
    positions = collections.defaultdict(dict)
    for line in open(args.probe):
        position = json.loads(line)
        positions[position["game"]][position["k"]] = position
    tally = collections.Counter()
    for g, game in enumerate(games):
        mine, my_bests, searched = review(game, positions[g], args.judge, args.depth, args.verify, args.width,
                                          args.every, args.share, args.stop, args.pool, args.chain)
        theirs, their_bests, _ = review(game, positions[g], args.reference, args.depth,
                                        stop=args.stop and not args.plain_reference)
        tally["searched"] += searched
        tally["plain"] += (len(game["moves"]) + 1) * 100_000
        for k, (m, t) in enumerate(zip(mine, theirs)):
            tally["entries"] += 1
            tally["best differs"] += my_bests[k] != their_bests[k]
            for name, bound in (("faults", MISTAKE), ("flaws", INACCURACY)):
                tally[f"{name} ref"] += t >= bound
                tally[f"{name} own"] += m >= bound
                tally[f"{name} both"] += m >= bound and t >= bound
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "-"
    print(f"{args.judge} ({args.depth}{f', verifying at {args.verify} beyond {args.width}' if args.verify else ''}"
          f"{f', at most 1 + N / {args.every}' if args.every else ''}"
          f"{f', within {args.share}x the judge' if args.share is not None else ''}"
          f"{f' and {args.pool:.0f} positions' if args.pool else ''}{', continued' if args.chain else ''}"
          f"{', stopping at even depths' if args.stop else ''}) against {args.reference}"
          f"{' (every depth)' if args.plain_reference else ''}, "
          f"{len(games)} games, {tally['entries']} entries:")
    print(f"  mistakes and blunders: recall {pct(tally['faults both'], tally['faults ref'])} "
          f"({tally['faults both']} of {tally['faults ref']}), precision {pct(tally['faults both'], tally['faults own'])} "
          f"({tally['faults both']} of {tally['faults own']})")
    print(f"  with inaccuracies: recall {pct(tally['flaws both'], tally['flaws ref'])}, "
          f"precision {pct(tally['flaws both'], tally['flaws own'])}; best move differs at "
          f"{pct(tally['best differs'], tally['entries'])} of entries; positions searched "
          f"{tally['searched'] / tally['plain']:.2f}x a judge of 100,000")


if __name__ == "__main__":
    main()
