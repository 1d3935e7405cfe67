#!/usr/bin/env python3
"""The logistic curve of a review's chance to win, fitted on self-play games.

Plays Tank Battle games between AI levels through a running server's
`ai-move` (fixed seeds), reviews each with `annotate` at the judge's default
budget, and pairs every judged position's `value` (centipoints for the side
to move) with the result the side to move reached (1 a win, 0.5 a draw, 0 a
loss). Prints the slope per centipoint that maximises the likelihood of
those results, then the buckets of evaluations against the score reached
(BENCHMARKS, "Reviewing a game").

    cargo run --release &   # a server on 127.0.0.1:8080
    scripts/fit-review-curve.py [BASE_URL] [GAMES]
"""
import json
import math
import sys
import urllib.error
import urllib.request

BASE = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080") + "/v1/tank-battle"
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 40
PAIRS = [(8, 2), (2, 8), (6, 3), (3, 6), (8, 5), (5, 8), (4, 4), (7, 7)]
MAX_PLIES = 200


def post(path, body):
    request = urllib.request.Request(
        BASE + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        return json.load(urllib.request.urlopen(request, timeout=120))
    except urllib.error.HTTPError as error:
        return json.load(error)


def play(levels, seed):
    moves = []
    position = json.load(urllib.request.urlopen(BASE + "/initial"))["position"]
    for ply in range(MAX_PLIES):
        answer = post("/ai-move", {"position": position, "level": levels[ply % 2], "seed": seed * 1000 + ply})
        if "move" not in answer:
            break
        moves.append(answer["move"])
        position = post("/apply", {"position": position, "move": answer["move"]})["position"]
    return moves


def main():
    samples = []
    for game in range(GAMES):
        levels = PAIRS[game % len(PAIRS)]
        moves = play(levels, game)
        review = post("/annotate", {"moves": moves})
        final = review["final"]
        winner = final.get("winner")
        for entry in review["plies"]:
            result = 0.5 if winner is None else (1.0 if winner == entry["player"] else 0.0)
            samples.append((entry["value"], result))
        print(f"game {game}: levels {levels}, {len(moves)} moves, winner {winner}", file=sys.stderr)
    # Forced wins and losses say nothing of the curve's slope.
    samples = [(v, r) for v, r in samples if abs(v) < 50_000]

    def log_likelihood(k):
        total = 0.0
        for v, r in samples:
            p = min(max(1.0 / (1.0 + math.exp(-k * v)), 1e-9), 1 - 1e-9)
            total += r * math.log(p) + (1 - r) * math.log(1 - p)
        return total

    lo, hi = 1e-5, 0.1
    for _ in range(100):  # golden section on the concave log-likelihood
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if log_likelihood(a) < log_likelihood(b):
            lo = a
        else:
            hi = b
    k = (lo + hi) / 2
    print(f"positions {len(samples)}, slope {k:.6f} per centipoint")
    print("| evaluation (centipoints) | positions | score reached | curve |")
    print("|---|---:|---:|---:|")
    edges = [-100000, -800, -400, -200, -100, -50, 0, 50, 100, 200, 400, 800, 100000]
    for low, high in zip(edges, edges[1:]):
        bucket = [(v, r) for v, r in samples if low <= v < high]
        if not bucket:
            continue
        mean_v = sum(v for v, _ in bucket) / len(bucket)
        score = sum(r for _, r in bucket) / len(bucket)
        curve = 1.0 / (1.0 + math.exp(-k * mean_v))
        print(f"| {low} to {high} | {len(bucket)} | {score:.2f} | {curve:.2f} |")


if __name__ == "__main__":
    main()
