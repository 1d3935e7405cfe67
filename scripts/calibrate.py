#!/usr/bin/env python3
"""The Tank Battle review's chance-to-win curve, fitted on self-play
(issue 72), against a running server.

    target/release/tank-rules --annotate-max-time-ms 900000 &
    scripts/calibrate.py play 200           # games 0-199, appended to the data
    scripts/calibrate.py judge              # the games judged again by this judge
    scripts/calibrate.py fit                # the slope and the calibration table

`play N` plays N games between two equal AIs at the judge's strength
(level 8 against level 8: full strength at 300,000 positions a move; the
judge searches 200,000, or 100,000 in a review longer than 100 moves),
each move's seed fixed (game n, ply p: seed n * 1000 + p), to its end or to
CAL_PLIES plies (300 unless set; then adjudicated by the score, as the
project's ladders are); reviews each with the default judge; and appends
one line per game to DATA (data/calibration/tank-battle.jsonl): its moves,
its result for White (1, 0.5, 0), and each judged position's `value` (to
the player to move, centipoints) and `win_chance` as served. Games already
in DATA are skipped, so an interrupted run goes on where it stopped.

`judge` reviews every game in DATA again with the server's judge and
keeps its values and chances (the games stay): run it, then `fit`,
whenever the judge or the evaluation changes.

`fit` reads DATA, finds the maximum-likelihood slope of the logistic curve
`chance = 1 / (1 + e^(-k * value))` over the positions that are not forced
results, and prints the calibration table of the chances as served and of
the fitted curve: for each 10-point bucket of predicted chance, the
positions in it, the mean predicted chance and the share of them whose
player went on to win (a draw counting half). The slope is the engine's
`CHANCE_PER_CENTIPOINT` (engines/src/games/tank_battle/judge.rs): refit whenever
the evaluation or the judge changes, with this script.
"""
import json
import math
import os
import sys
import urllib.error
import urllib.request

BASE = os.environ.get("BASE", "http://127.0.0.1:8080") + "/v1"
DATA = os.environ.get("DATA", "data/calibration/tank-battle.jsonl")
CAL_PLIES = int(os.environ.get("CAL_PLIES", "300"))
LEVEL = int(os.environ.get("LEVEL", "8"))
# A forced result's value (beyond WIN - 1000 in size) says nothing of the
# slope.
FORCED = 1_000_000 - 1_000


def post(path, body):
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        return json.load(urllib.request.urlopen(request, timeout=1800))
    except urllib.error.HTTPError as error:
        return json.load(error)


def get(path):
    return json.load(urllib.request.urlopen(BASE + path, timeout=60))


def play_one(n):
    moves = []
    position = get("/tank-battle/initial")["position"]
    for ply in range(CAL_PLIES):
        answer = post("/tank-battle/ai-move", {"position": position, "level": LEVEL, "seed": n * 1000 + ply})
        if "move" not in answer:
            break
        moves.append(answer["move"])
        position = post("/tank-battle/apply", {"position": position, "move": answer["move"]})["position"]
    review = reviewed(n, moves)
    final = review["final"]
    if final.get("winner"):
        white = 1.0 if final["winner"] == "white" else 0.0
    else:
        score = final["score"]
        white = 0.5 if score["white"] == score["black"] else float(score["white"] > score["black"])
    return {
        "game": n, "level": LEVEL, "plies": len(moves), "finished": final["finished"],
        "white": white, "moves": moves, "judged": judged(review),
    }


def reviewed(n, moves):
    """Game n's review by the default judge."""
    review = post("/tank-battle/annotate", {"moves": moves})
    if "plies" not in review:
        sys.exit(f"game {n}: the review failed: {str(review)[:300]}")
    return review


def judged(review):
    """Each judged position's player, value and chance as served."""
    return [[e["player"], e["value"], e["win_chance"]] for e in review["plies"]]


def judge_again():
    """Every game in DATA reviewed again by the server's judge (the games
    stay; their values and chances are the current judge's)."""
    games = read()
    for game in games:
        game["judged"] = judged(reviewed(game["game"], game["moves"]))
    with open(DATA + ".new", "w") as lines:
        lines.writelines(json.dumps(game) + "\n" for game in games)
    os.replace(DATA + ".new", DATA)
    print(f"{len(games)} games judged again")


def read():
    if not os.path.exists(DATA):
        return []
    with open(DATA) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def play(count):
    done = {game["game"] for game in read()}
    os.makedirs(os.path.dirname(DATA) or ".", exist_ok=True)
    for n in range(count):
        if n in done:
            continue
        game = play_one(n)
        with open(DATA, "a") as lines:
            lines.write(json.dumps(game) + "\n")
        print(f"game {n}: {game['plies']} plies, finished {game['finished']}, White {game['white']}",
              flush=True)


def logistic(x):
    return 1.0 / (1.0 + math.exp(-max(min(x, 700.0), -700.0)))


def samples(games):
    """(value, chance as served, result) for each judged position, to
    its player."""
    out = []
    for game in games:
        for player, value, chance in game["judged"]:
            result = game["white"] if player == "white" else 1.0 - game["white"]
            out.append((value, chance, result))
    return out


def table(rows, title):
    print(f"\n{title}\n")
    print("| predicted | positions | mean predicted | observed | off by |")
    print("|---|---:|---:|---:|---:|")
    worst = 0.0
    for low in range(0, 100, 10):
        bucket = [(p, r) for p, r in rows if low <= p < low + 10 or (low == 90 and p == 100)]
        if not bucket:
            continue
        predicted = sum(p for p, _ in bucket) / len(bucket)
        observed = 100.0 * sum(r for _, r in bucket) / len(bucket)
        off = observed - predicted
        if len(bucket) >= 100:
            worst = max(worst, abs(off))
        print(f"| {low}-{low + 10} | {len(bucket)} | {predicted:.1f} | {observed:.1f} | {off:+.1f} |")
    print(f"\nlargest gap in a bucket of 100 or more positions: {worst:.1f} points")


def fit():
    games = read()
    rows = [(v, c, r) for v, c, r in samples(games) if abs(v) < FORCED]

    def log_likelihood(k):
        total = 0.0
        for v, _, r in rows:
            p = min(max(logistic(k * v), 1e-9), 1 - 1e-9)
            total += r * math.log(p) + (1 - r) * math.log(1 - p)
        return total

    lo, hi = 1e-5, 0.2
    for _ in range(200):  # golden section on the concave log-likelihood
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if log_likelihood(a) < log_likelihood(b):
            lo = a
        else:
            hi = b
    k = (lo + hi) / 2
    decided = sum(g["finished"] for g in games)
    print(f"{len(games)} games ({decided} ended by the rules, the rest adjudicated at {CAL_PLIES} plies), "
          f"{len(rows)} positions not forced: slope {k:.5f} a centipoint "
          f"(one tank, 100, is {100 * logistic(100 * k):.0f} %)")
    table([(c, r) for _, c, r in rows], "The chances as served:")
    table([(100 * logistic(k * v), r) for v, _, r in rows], f"The fitted curve ({k:.5f}):")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "play":
        play(int(sys.argv[2]) if len(sys.argv) > 2 else 200)
    elif command == "judge":
        judge_again()
    elif command == "fit":
        fit()
    else:
        sys.exit(__doc__)
