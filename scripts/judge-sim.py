#!/usr/bin/env python3
"""Tank Battle review verdicts simulated offline on `judge_probe`'s searches
(issue 52): which depth's value a judge takes and how it verifies, compared
without a server, on the same searches.

    scripts/review-check.py games 20 > games.jsonl        # the quality games (a server running)
    cargo run --release --bin judge_probe -- 100000 200000 1000000 2000000 < games.jsonl > probe.jsonl
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 even
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 last
    scripts/judge-sim.py probe.jsonl games.jsonl 100000 1000000 even --verify 1000000 --width 10

A judge at budget J against a reference at budget R, both taking a
position's value at `last` (the last depth the search finished) or `even`
(the deepest even depth, a forced result at any depth), both settled as
the server settles them (src/games/review/settle.rs) and labelled as it
labels (Label::of_chances). With --verify D, where the position's value
and the next position's disagree by more than --width chance points, both
are taken from the search at D instead (at most 1 + N / --every a review
when --every is given); the reference does not verify. Prints recall
(the reference's mistakes and blunders the judge finds), precision (the
judge's confirmed by the reference), the same with inaccuracies, how
often the best moves differ and the judge's positions searched against a
judge of 100,000 positions a search without verification. The server's
own verification (4x) is not simulated: at `last` and 100,000 against
1,000,000 the simulation gives the server's settled figures of 63be2bd
exactly (59 %, 66 %; BENCHMARKS).
"""
import argparse
import collections
import json
import math

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


def judged(row, depth_rule):
    """(value, best) of one search as the judge takes it."""
    iterations = row["iterations"]
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


def review(game, positions, budget, depth_rule, verify=None, width=5.0, every=None):
    """Labels, best moves and positions searched (in units of `budget`'s
    searches and deeper ones) of one game."""
    values, bests = [], []
    def at(k, b):
        position = positions[k]
        if position["over"] is not None:
            return position["over"] * WIN, None
        return judged(next(r for r in position["rows"] if r["budget"] == b), depth_rule)
    for k in range(len(game["moves"]) + 1):
        value, best = at(k, budget)
        values.append(value)
        bests.append(best)
    deep, verifications, raw = set(), 0, []
    for k, played in enumerate(game["moves"]):
        apart = abs(chance(values[k]) - chance(from_next(values[k + 1])))
        allowed = every is None or verifications <= (k + 1) // every
        if verify and apart > width and positions[k + 1]["over"] is None and allowed:
            for j in (k, k + 1):
                if j not in deep:
                    deep.add(j)
                    values[j], bests[j] = at(j, verify)
            verifications += 1
        value = values[k]
        kept = value if played == bests[k] else from_next(values[k + 1])
        raw.append((value, kept, chance(value), chance(kept)))
    searched = len(values) * budget + len(deep) * (verify or 0)
    return settled(raw), bests, searched


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
    args = parser.parse_args()
    games = [json.loads(line) for line in open(args.games)]
    positions = collections.defaultdict(dict)
    for line in open(args.probe):
        position = json.loads(line)
        positions[position["game"]][position["k"]] = position
    tally = collections.Counter()
    for g, game in enumerate(games):
        mine, my_bests, searched = review(game, positions[g], args.judge, args.depth, args.verify, args.width, args.every)
        theirs, their_bests, _ = review(game, positions[g], args.reference, args.depth)
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
          f"{f', at most 1 + N / {args.every}' if args.every else ''}) against {args.reference}, "
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
