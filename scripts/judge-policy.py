#!/usr/bin/env python3
"""Tank Battle's verification policy replayed over probed games.

    cargo run --release -p tank-rules-engines --bin judge_probe -- --games 20 > levels.jsonl
    cargo run --release -p tank-rules-engines --bin judge_probe -- --games 20 --equal > equal.jsonl
    scripts/judge-policy.py levels.jsonl equal.jsonl

Each line of a probe file is one position of `review-check.py quality`'s
games, searched by the judge at its budget (`base`) and at ten times it
(`reference`, which is also what a verification reads). The script walks
each game as the judge does (engines/src/games/tank_battle/judge.rs): a
move whose doubt (its larger loss at the two depths read) is a mistake or
worse is verified while the faults' share lasts, one whose doubt is an
inaccuracy while the inaccuracies' share does, and a forced win seemingly
given up is searched after the move from the faults' share. It prints what `review-check.py quality` would
(the review's mistakes and blunders the reference confirms, the
reference's the review finds, moves equal to the reference's best
labelled inaccuracy or worse) and the searches' time: an estimate, to
choose a policy by; the figures that count are measured over HTTP.
`former` replays the policy before (every doubt of an inaccuracy or worse
from one share of one budget a move, at most 40).
"""
import collections
import json
import sys

WIN = 1_000_000
# engines/src/games/tank_battle/judge.rs
VERIFY_SHARE, VERIFY_MAX = 2, 200
VERIFY_NEAR_SHARE, VERIFY_NEAR_MAX = 2, 200
JUDGE_NODES = 200_000
MISTAKE_WIDTH = 10.0


def label(chance, played):
    """Label::of_chances: 0 best .. 3 inaccuracy, 4 mistake, 5 blunder."""
    loss = max(chance - played, 0.0)
    bounds = [1e-9, 2.0, 5.0, 10.0, 20.0]
    level = sum(loss >= b for b in bounds[1:]) + (loss > bounds[0])
    if played <= 1e-9 < chance:
        return 5
    if chance >= 100 - 1e-9 > played:
        return max(level, 4)
    return level


def games(path):
    by_game = collections.defaultdict(list)
    for line in open(path):
        if line.strip():
            entry = json.loads(line)
            by_game[entry["game"]].append(entry)
    return [sorted(g, key=lambda e: e["ply"]) for _, g in sorted(by_game.items())]


def share(moves, per_move, most):
    return min(moves * per_move, most) * JUDGE_NODES


def tiered(entry, spent, moves):
    """The share a position's verification is drawn from, if any."""
    base = entry["base"]
    doubt = label(*base["doubted_chances"])
    if base["further"]:
        if doubt >= 4 and spent["faults"] <= share(moves, VERIFY_SHARE, VERIFY_MAX):
            return "faults", True
        if doubt == 3 and spent["near"] <= share(moves, VERIFY_NEAR_SHARE, VERIFY_NEAR_MAX):
            return "near", True
        return None, False
    won = lambda v: v >= WIN - 1000
    if won(base["numbers"][0]) and not won(base["numbers"][1]) and spent["faults"] <= share(moves, VERIFY_SHARE, VERIFY_MAX):
        return "faults", False
    return None, False


def former(entry, spent, moves):
    base = entry["base"]
    allowed = spent["faults"] <= share(moves, 1, 40)
    if base["further"]:
        return ("faults", True) if label(*base["doubted_chances"]) >= 3 and allowed else (None, False)
    won = lambda v: v >= WIN - 1000
    if won(base["numbers"][0]) and not won(base["numbers"][1]) and allowed:
        return "faults", False
    return None, False


def replay(path, policy):
    t = collections.Counter()
    for game in games(path):
        spent = {"faults": 0, "near": 0}
        for entry in game:
            base, reference = entry["base"], entry["reference"]
            t["ms"] += base["ms"]
            pool, whole = policy(entry, spent, len(game))
            final = base["chances"]
            if pool:
                # A verification reads what the reference reads; a forced
                # win's position after the move is searched at its budget
                # too (its cost counted as the reference's whole search).
                spent[pool] += reference["nodes"]
                t["ms"] += reference["ms"]
                t["verifications"] += 1
                final = reference["chances"] if whole else [base["chances"][0], reference["chances"][1]]
            own, theirs = label(*final), label(*reference["chances"])
            lost = reference["chances"][0] - reference["chances"][1]
            t["entries"] += 1
            t["own"] += own >= 4
            t["confirmed"] += own >= 4 and lost >= MISTAKE_WIDTH
            t["reference"] += theirs >= 4
            t["found"] += theirs >= 4 and own >= 4
            t["best"] += lost <= 1e-9
            t["best_flawed"] += lost <= 1e-9 and own >= 3
    return t


def main():
    pct = lambda a, b: 100.0 * a / b if b else float("nan")
    for path in sys.argv[1:] or sys.exit(__doc__):
        for name, policy in (("former", former), ("tiered", tiered)):
            t = replay(path, policy)
            print(f"{path} {name}: {t['entries']} entries, {t['verifications']} verifications, "
                  f"{t['ms'] / 1000:.1f} s; mistakes and blunders confirmed {t['confirmed']} of {t['own']} "
                  f"({pct(t['confirmed'], t['own']):.0f} %), the reference's found {t['found']} of "
                  f"{t['reference']} ({pct(t['found'], t['reference']):.0f} %); moves equal to its best "
                  f"labelled inaccuracy or worse {t['best_flawed']} of {t['best']}")


if __name__ == "__main__":
    main()
