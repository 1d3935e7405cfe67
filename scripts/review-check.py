#!/usr/bin/env python3
"""What `annotate` is measured by (issue 40), against a running server.

    cargo run --release &                       # a server on 127.0.0.1:8080
    scripts/review-check.py fit tank-battle 40  # the chance-to-win curve's slope
    scripts/review-check.py fit cobi-tank-wars 40
    scripts/review-check.py levels [game...]    # accuracy of strong vs weak levels
    scripts/review-check.py speed               # a 100-move review against its searches
    scripts/review-check.py tank-war 200        # whole reviews' times, random games
    SAVE=reviews.jsonl scripts/review-check.py levels tank-battle
    SEED_BASE=200 scripts/review-check.py levels tank-battle   # twenty other games
    scripts/review-check.py slopes reviews.jsonl 0.01 0.03   # the same reviews summed up on other curves
    scripts/review-check.py quality tank-battle 20   # the default judge against one at 10x its budget
    EQUAL=1 scripts/review-check.py quality tank-battle 20   # the same, games between equal levels
    scripts/review-check.py games 20 > games.jsonl   # quality's Tank Battle games, one a line
    scripts/review-check.py same-run http://127.0.0.1:8081 http://127.0.0.1:8082  # two builds' reviews, same run
    scripts/review-check.py long 1 8   # the longest games (400 plies at most) of level 1 and level 8 self-play reviewed

`quality` (issue 52) plays games between levels (fixed seeds, QUALITY_PLIES
moves at most, 80 by default; Tank Wars 30 rounds) and reviews each twice,
the game's default judge and a reference of the same engine at 10x its
positions a search (Tank Battle 2,000,000, Tank Wars 200,000); it prints,
over all games, how many of the reference's mistakes and blunders the
default review finds too (recall), how many of the default's are
confirmed by the reference (precision), the same counting inaccuracies
too, how often the two judges' best moves differ, and both reviews' times.
The reference's review takes longer than the server's default time cap:
start the server with `--annotate-max-time-ms 900000`. JUDGE_NODES puts
another judge in the default's place (e.g. 200000: twice its positions
everywhere); REFERENCE_NODES another reference. REFERENCE_CACHE=<file>
keeps the reference's reviews and reads them back in later runs.

`fit` plays games between AI levels through `ai-move` (fixed seeds),
reviews each with `annotate` at the judge's default budget, pairs every
judged position's `value` with the result its player reached (1 a win, 0.5 a
draw, 0 a loss; in Tank Wars, whose games between the AIs seldom end,
ahead or behind in material after 30 rounds), and prints the maximum-likelihood slope of the logistic
curve and the evaluation buckets against the score reached. BASE (the
server's address) comes from the environment, http://127.0.0.1:8080 by
default.
"""
import json
import math
import os
import statistics
import sys
import time
import urllib.error
import urllib.request

BASE = os.environ.get("BASE", "http://127.0.0.1:8080") + "/v1"
# The judge's budget a position for `levels` and `quality`
# (JUDGE_NODES=300000): the game's default when unset.
JUDGE_NODES = int(os.environ.get("JUDGE_NODES", "0"))
# Where `levels` keeps each game's review (JSON lines), when set: so that
# the summary can be studied again without replaying the games.
SAVE = os.environ.get("SAVE")
# The first game's seed for `levels` (the games are SEED_BASE, SEED_BASE +
# 1, ...): 100, issue 40's games, unless set, e.g. to see whether a
# figure holds on other games than those.
SEED_BASE = int(os.environ.get("SEED_BASE", "100"))
PAIRS = [(8, 2), (2, 8), (6, 3), (3, 6), (8, 5), (5, 8), (4, 4), (7, 7)]


def post(path, body, accept=None):
    headers = {"content-type": "application/json"}
    if accept:
        headers["accept"] = accept
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), headers=headers)
    try:
        return json.load(urllib.request.urlopen(request, timeout=300))
    except urllib.error.HTTPError as error:
        return json.load(error)


def get(path):
    return json.load(urllib.request.urlopen(BASE + path, timeout=60))


def tank_battle_game(levels, seed, max_plies=200):
    moves = []
    position = get("/tank-battle/initial")["position"]
    for ply in range(max_plies):
        answer = post("/tank-battle/ai-move",
                      {"position": position, "level": levels[ply % 2], "seed": seed * 1000 + ply})
        if "move" not in answer:
            break
        moves.append(answer["move"])
        position = post("/tank-battle/apply", {"position": position, "move": answer["move"]})["position"]
    return {"moves": moves}


def cobi_game(levels, seed, max_rounds=30):
    rounds = []
    state = get("/cobi-tank-wars/initial")
    for round_ in range(max_rounds):
        orders = {}
        for player, level in zip(["P1", "P2"], levels):
            answer = post("/cobi-tank-wars/ai-move", {
                "state": state, "player": player, "level": level, "gunfire_tokens": 0,
                "seed": seed * 1000 + round_})
            if "orders" not in answer:
                return {"rounds": rounds}
            orders[player] = {vid: {"dir": o["dir"], "dist": o["dist"]} for vid, o in answer["orders"].items()}
        applied = post("/cobi-tank-wars/apply", {"state": state, "orders": orders, "seed": seed * 1000 + round_})
        if "state" not in applied:
            break
        rounds.append({"orders": orders, "seed": seed * 1000 + round_})
        state = applied["state"]
        if applied["state"].get("finished") or post("/cobi-tank-wars/score", {"state": state})["finished"]:
            break
    return {"rounds": rounds}


GAMES = {"tank-battle": tank_battle_game, "cobi-tank-wars": cobi_game}
WINNER_NAMES = {"tank-battle": ("white", "black"), "cobi-tank-wars": ("P1", "P2")}


def logistic(x):
    """1 / (1 + e^-x), without overflow far from 0."""
    return 1.0 / (1.0 + math.exp(-max(min(x, 700.0), -700.0)))


def fit(game, count):
    samples = []
    for n in range(count):
        levels = PAIRS[n % len(PAIRS)]
        played = GAMES[game](levels, n)
        review = post(f"/{game}/annotate", played)
        final = review["final"]
        winner = final.get("winner")
        if winner is None and game == "cobi-tank-wars" and not final.get("draw"):
            # Between the AIs a Tank Wars game seldom ends: the player
            # ahead in material after the last round (armor plus 3 a
            # vehicle, 2 a support card) counts as its winner.
            material = {p: final["armor"][p] + 3 * final["vehicles"][p] + 2 * final["support_cards"][p]
                        for p in ("P1", "P2")}
            if material["P1"] != material["P2"]:
                winner = max(material, key=material.get)
        for entry in review["plies"]:
            result = 0.5 if winner is None else (1.0 if winner == entry["player"] else 0.0)
            samples.append((entry["value"], result))
        steps = len(played.get("moves", played.get("rounds", [])))
        print(f"game {n}: levels {levels}, {steps} steps, winner {winner}", file=sys.stderr)
    # Forced wins and losses say nothing of the slope.
    samples = [(v, r) for v, r in samples if abs(v) < 50_000]

    def log_likelihood(k):
        total = 0.0
        for v, r in samples:
            p = min(max(logistic(k * v), 1e-9), 1 - 1e-9)
            total += r * math.log(p) + (1 - r) * math.log(1 - p)
        return total

    lo, hi = 1e-5, 2.0
    for _ in range(200):  # golden section on the concave log-likelihood
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if log_likelihood(a) < log_likelihood(b):
            lo = a
        else:
            hi = b
    k = (lo + hi) / 2
    print(f"{game}: {len(samples)} positions, slope {k:.6f} a point")
    print("| evaluation | positions | score reached | curve |")
    print("|---|---:|---:|---:|")
    scale = 1 / k
    edges = [-1e9] + [f * scale for f in (-3, -2, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 2, 3)] + [1e9]
    for low, high in zip(edges, edges[1:]):
        bucket = [(v, r) for v, r in samples if low <= v < high]
        if not bucket:
            continue
        mean_v = sum(v for v, _ in bucket) / len(bucket)
        score = sum(r for _, r in bucket) / len(bucket)
        curve = logistic(k * mean_v)
        shown = lambda x: "−∞" if x < -1e8 else ("∞" if x > 1e8 else f"{x:.0f}")
        print(f"| {shown(low)} to {shown(high)} | {len(bucket)} | {score:.2f} | {curve:.2f} |")


def accuracy_gap(game, strong, weak, count):
    names = WINNER_NAMES[game]
    gaps = []
    for n in range(count):
        strong_first = n % 2 == 0
        levels = (strong, weak) if strong_first else (weak, strong)
        body = GAMES[game](levels, SEED_BASE + n)
        if JUDGE_NODES:
            body["limits"] = {"max_nodes": JUDGE_NODES}
        review = post(f"/{game}/annotate", body)
        if SAVE:
            with open(SAVE, "a") as saved:
                saved.write(json.dumps({"game": game, "n": n, "body": body, "review": review}) + "\n")
        by_player = {p["player"]: p["accuracy"] for p in review["players"]}
        strong_name, weak_name = names if strong_first else names[::-1]
        gap = by_player[strong_name] - by_player[weak_name]
        gaps.append(gap)
        print(f"| {n} | {strong_name} | {by_player[strong_name]:.1f} | {by_player[weak_name]:.1f} | {gap:+.1f} | {len(review['plies'])} |")
    print(f"{game}: level {strong} against level {weak}: gap min {min(gaps):+.1f}, mean {statistics.mean(gaps):+.1f}")
    return gaps


def levels(games):
    print("| game | level 8 plays | level 8 accuracy | weak level accuracy | gap | entries |")
    print("|---|---|---:|---:|---:|---:|")
    if "tank-battle" in games:
        accuracy_gap("tank-battle", 8, 2, 20)
    if "cobi-tank-wars" in games:
        accuracy_gap("cobi-tank-wars", 8, 1, 20)


# The Tank Battle judge's default budget a position (TankBattle::JUDGE_NODES).
TANK_BATTLE_JUDGE = 200_000


def speed():
    # The first game between levels that lasts 100 moves, cut there.
    for seed in range(100):
        played = tank_battle_game(PAIRS[seed % len(PAIRS)], 500 + seed, max_plies=100)
        if len(played["moves"]) == 100:
            break
    moves = played["moves"]
    print(f"a game of {len(moves)} moves")
    # The review, one answer (a fresh server keeps no verdicts).
    start = time.perf_counter()
    review = post("/tank-battle/annotate", played)
    whole = time.perf_counter() - start
    assert len(review["plies"]) == len(moves), review
    # The same review again: every position's verdicts from the cache.
    start = time.perf_counter()
    again = post("/tank-battle/annotate", played)
    cached = time.perf_counter() - start
    assert again == review, "a kept review differs"
    # Streamed: the first line.
    request = urllib.request.Request(
        BASE + "/tank-battle/annotate", data=json.dumps({**played, "limits": {"max_nodes": TANK_BATTLE_JUDGE + 1}}).encode(),
        headers={"content-type": "application/json", "accept": "application/x-ndjson"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as stream:
        stream.readline()
        first = time.perf_counter() - start
        lines = 1 + sum(1 for _ in stream)
    streamed = time.perf_counter() - start
    # The N + 1 searches as ai-move calls at the same budget (another seed:
    # nothing from the cache).
    positions = [get("/tank-battle/initial")["position"]]
    for move in moves:
        positions.append(post("/tank-battle/apply", {"position": positions[-1], "move": move})["position"])
    start = time.perf_counter()
    searched = 0
    for position in positions:
        answer = post("/tank-battle/ai-move", {"position": position, "limits": {"max_nodes": TANK_BATTLE_JUDGE}, "seed": 99})
        searched += "move" in answer
    searches = time.perf_counter() - start
    print(f"annotate {whole:.2f} s, again (from the cache) {cached * 1000:.0f} ms; streamed: first line {first * 1000:.0f} ms, {lines} lines in {streamed:.2f} s; "
          f"{searched} ai-move searches {searches:.2f} s; ratio {whole / searches:.3f}")


def long_reviews(levels):
    """A game of up to 400 plies (the server's --annotate-max-plies) of
    each level's self-play (seed 900), reviewed at the default judge on
    a default server (its time cap): the answer's status and time."""
    for level in levels:
        played = tank_battle_game((level, level), 900, max_plies=400)
        start = time.perf_counter()
        request = urllib.request.Request(BASE + "/tank-battle/annotate", data=json.dumps(played).encode(),
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300) as answer:
                status, body = answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            status, body = error.code, json.load(error)
        took = time.perf_counter() - start
        verified = body.get("verifications", "-")
        print(f"level {level} self-play, {len(played['moves'])} moves: {status} in {took:.1f} s, "
              f"{verified} verifications")


def tank_war(count):
    import random
    rng = random.Random(40)
    times = []
    for _ in range(count):
        state = get("/tank-war/initial")
        rounds = []
        while True:
            legal = post("/tank-war/legal-moves", {"state": state})
            picks = legal
            if not picks.get("U") or not picks.get("D"):
                break
            pick = {p: rng.choice(picks[p]) for p in ("U", "D")}
            applied = post("/tank-war/apply", {"state": state, "moves": pick})
            if "state" not in applied:
                break
            rounds.append(pick)
            state = applied["state"]
        start = time.perf_counter()
        review = post("/tank-war/annotate", {"rounds": rounds})
        times.append((time.perf_counter() - start) * 1000)
        assert all(e["exact"] for e in review["plies"]), review
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"tank-war: {count} reviews, median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {times[-1]:.1f} ms")


def lichess_accuracy(loss):
    if loss <= 1e-9:
        return 100.0
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * loss) - 3.1669))


def summaries(plies, chance_of):
    """Each player's accuracy as the server sums a game up (engines/src/games/review/mod.rs:
    volatility-weighted mean and harmonic mean, averaged), from
    `chance_of(entry) -> (chance, chance_played)`."""
    players = []
    for entry in plies:
        if entry["player"] not in players:
            players.append(entry["player"])
    steps = plies[-1]["ply"] + 1
    series = [[None] * (steps + 1) for _ in range(2)]
    judged = [(e, *chance_of(e)) for e in plies]
    for i, (entry, chance, played) in enumerate(judged):
        p = players.index(entry["player"])
        alone = not any(j != i and other["ply"] == entry["ply"] for j, (other, _, _) in enumerate(judged))
        for at, value in [(entry["ply"], chance)] + ([(steps, played)] if entry["ply"] + 1 == steps else []):
            series[p][at] = value
            if alone:
                series[1 - p][at] = 100 - value
    first, last = series[0], 50.0
    for i, v in enumerate(first):
        first[i] = last if v is None else v
        last = first[i]
    size = min(max(len(first) // 10, 2), 8)
    windows = [first[:size]] * (size - 2) + [first[i:i + size] for i in range(len(first) - size + 1)]
    weights = []
    for window in windows:
        mean = sum(window) / len(window)
        weights.append(min(max(math.sqrt(sum((x - mean) ** 2 for x in window) / len(window)), 0.5), 12.0))
    result = {}
    for player in players:
        weighted = weight = inverse = 0.0
        own = [(e, c, cp) for e, c, cp in judged if e["player"] == player]
        for entry, chance, played in own:
            accuracy = lichess_accuracy(max(0.0, chance - played))
            w = weights[entry["ply"]] if entry["ply"] < len(weights) else 0.5
            weighted += w * accuracy
            weight += w
            inverse += 1 / max(accuracy, 1.0)
        result[player] = (weighted / weight + len(own) / inverse) / 2
    return result


def slopes(path, ks):
    """The saved reviews of `levels` summed up again on logistic curves of
    other slopes (a point's worth on the chance to win), after checking
    that at the server's own chances the sum is the server's."""
    rows = [json.loads(line) for line in open(path)]
    for row in rows:
        served = {p["player"]: p["accuracy"] for p in row["review"]["players"]}
        ours = summaries(row["review"]["plies"], lambda e: (e["win_chance"], e["win_chance_played"]))
        assert all(abs(ours[p] - served[p]) < 1e-6 for p in served), (row["n"], ours, served)

    def chance(value, k):
        if abs(value) >= 50_000:
            return 100.0 if value > 0 else 0.0
        return 100 * logistic(k * value)

    for k in ks:
        gaps = []
        for row in rows:
            names = WINNER_NAMES[row["game"]]
            strong = names[0] if row["n"] % 2 == 0 else names[1]
            weak = names[1] if strong == names[0] else names[0]
            acc = summaries(row["review"]["plies"],
                            lambda e: (chance(e["value"], k), chance(e["value_played"], k)))
            gaps.append(acc[strong] - acc[weak])
        print(f"slope {k}: gap min {min(gaps):+.1f}, mean {statistics.mean(gaps):+.1f}, "
              f"{sum(g < 10 for g in gaps)} of {len(gaps)} under 10")


QUALITY_PLIES = int(os.environ.get("QUALITY_PLIES", "80"))
REFERENCE_NODES = {"tank-battle": 2_000_000, "cobi-tank-wars": 200_000}
if os.environ.get("REFERENCE_NODES"):
    REFERENCE_NODES = {game: int(os.environ["REFERENCE_NODES"]) for game in REFERENCE_NODES}
# Where `quality` keeps its games and the reference's reviews (JSON lines,
# with each review's time), when set: a later run with the same games and
# reference reads them back instead of playing and reviewing again, so
# that judges can be compared without paying for the reference each time
# (kept reviews are of the build that made them: another build's judge is
# compared with that build's reference).
REFERENCE_CACHE = os.environ.get("REFERENCE_CACHE")
FAULTS = ("mistake", "blunder")
# The chance a mistake loses at least (the label's lower bound).
MISTAKE_WIDTH = 10.0
# `quality` between equal levels (EQUAL=1) instead of PAIRS.
EQUAL = os.environ.get("EQUAL") == "1"
EQUAL_PAIRS = [(8, 8), (7, 7), (6, 6), (5, 5)]


def kept(key, make):
    """What REFERENCE_CACHE holds under `key`, else `make()` (kept there
    when it is a whole answer)."""
    key = json.dumps(key, sort_keys=True)
    if REFERENCE_CACHE and os.path.exists(REFERENCE_CACHE):
        with open(REFERENCE_CACHE) as lines:
            for line in lines:
                entry = json.loads(line)
                if entry["key"] == key:
                    return entry["value"]
    value = make()
    if REFERENCE_CACHE and "error" not in value:
        with open(REFERENCE_CACHE, "a") as lines:
            lines.write(json.dumps({"key": key, "value": value}) + "\n")
    return value


def cached_reference(game, body, nodes):
    """The reference's review of `body` and its time, kept in
    REFERENCE_CACHE when it is set."""
    def review():
        start = time.perf_counter()
        answer = post(f"/{game}/annotate", {**body, "limits": {"max_nodes": nodes, "max_time_ms": 900_000}})
        if "plies" not in answer:
            return {"error": answer}
        return {"review": answer, "seconds": time.perf_counter() - start}
    value = kept(["reference", game, body, nodes], review)
    return value.get("review", value.get("error")), value.get("seconds", 0.0)
FLAWS = ("inaccuracy", "mistake", "blunder")


def quality(game, count):
    found = {"ref": 0, "ref_found": 0, "own": 0, "own_confirmed": 0}
    loose = {"ref": 0, "ref_found": 0, "own": 0, "own_confirmed": 0}
    entries = best_differs = 0
    default_time = reference_time = 0.0
    print("| game | levels | entries | default faults | reference faults | both | default s | reference s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    pairs = EQUAL_PAIRS if EQUAL else PAIRS
    best_kept = best_faulted = 0
    for n in range(count):
        pair = pairs[n % len(pairs)]
        if game == "tank-battle":
            body = kept(["game", game, pair, 700 + n, QUALITY_PLIES],
                        lambda: tank_battle_game(pair, 700 + n, max_plies=QUALITY_PLIES))
        else:
            body = kept(["game", game, pair, 700 + n],
                        lambda: cobi_game((min(pair[0], 8), min(pair[1], 8)), 700 + n))
        start = time.perf_counter()
        judged = {**body, "limits": {"max_nodes": JUDGE_NODES, "max_time_ms": 900_000}} if JUDGE_NODES else body
        default = post(f"/{game}/annotate", judged)
        default_s = time.perf_counter() - start
        reference, reference_s = cached_reference(game, body, REFERENCE_NODES[game])
        if "plies" not in default or "plies" not in reference:
            sys.exit(f"game {n}: a review failed: {str(default)[:300]} / {str(reference)[:300]}")
        default_time += default_s
        reference_time += reference_s
        both = 0
        for mine, theirs in zip(default["plies"], reference["plies"]):
            entries += 1
            best_differs += mine.get("best") != theirs.get("best")
            for tally, kinds in ((found, FAULTS), (loose, FLAWS)):
                m, t = mine["label"] in kinds, theirs["label"] in kinds
                tally["ref"] += t
                tally["own"] += m
                tally["ref_found"] += t and mine["label"] in (FAULTS if kinds is FAULTS else FLAWS)
                tally["own_confirmed"] += m and t
            both += mine["label"] in FAULTS and theirs["label"] in FAULTS
            # The reference's own loss confirms a fault (at least the
            # mistake width), and a move equal to its best is no fault.
            confirmed = theirs["win_chance_loss"] >= MISTAKE_WIDTH
            if mine["label"] in FAULTS:
                found["own_lost"] = found.get("own_lost", 0) + confirmed
            if mine["played"] in theirs.get("best", [])[:1]:
                best_kept += 1
                best_faulted += mine["label"] in FLAWS
        faults = lambda review: sum(e["label"] in FAULTS for e in review["plies"])
        print(f"| {n} | {pair[0]}-{pair[1]} | {len(default['plies'])} | {faults(default)} | "
              f"{faults(reference)} | {both} | {default_s:.1f} | {reference_s:.1f} |", flush=True)
    pct = lambda a, b: 100.0 * a / b if b else float("nan")
    print(f"{game}, {count} games, {entries} entries: mistakes and blunders: the reference's "
          f"{found['ref']}, found by the default {found['ref_found']} (recall {pct(found['ref_found'], found['ref']):.0f} %); "
          f"the default's {found['own']}, confirmed {found['own_confirmed']} (precision "
          f"{pct(found['own_confirmed'], found['own']):.0f} %)")
    print(f"  counting inaccuracies too: recall {pct(loose['ref_found'], loose['ref']):.0f} % "
          f"({loose['ref_found']} of {loose['ref']}), precision {pct(loose['own_confirmed'], loose['own']):.0f} % "
          f"({loose['own_confirmed']} of {loose['own']}); best move differs at {pct(best_differs, entries):.0f} % of entries")
    print(f"  the default's mistakes and blunders where the reference's own loss is at least "
          f"{MISTAKE_WIDTH}: {found.get('own_lost', 0)} of {found['own']} "
          f"({pct(found.get('own_lost', 0), found['own']):.0f} %); of the {best_kept} moves equal to the "
          f"reference's best, {best_faulted} labelled inaccuracy or worse ({pct(best_faulted, best_kept):.1f} %)")
    print(f"  time: default reviews {default_time:.1f} s, reference reviews {reference_time:.1f} s "
          f"({reference_time / default_time:.1f}x)")


def same_run(first, second, count=20):
    """The quality games' default Tank Battle reviews on two servers
    (`first`, `second`: their addresses, fresh), alternating which goes
    first game by game: the same run's time of two builds' judges."""
    def review(base, body):
        request = urllib.request.Request(base + "/v1/tank-battle/annotate", data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=900) as answer:
            json.load(answer)
        return time.perf_counter() - start
    totals = [0.0, 0.0]
    for n in range(count):
        pair = PAIRS[n % len(PAIRS)]
        body = kept(["game", "tank-battle", pair, 700 + n, QUALITY_PLIES],
                    lambda: tank_battle_game(pair, 700 + n, max_plies=QUALITY_PLIES))
        order = (0, 1) if n % 2 == 0 else (1, 0)
        took = {side: review((first, second)[side], body) for side in order}
        totals[0] += took[0]
        totals[1] += took[1]
        print(f"game {n}: {len(body['moves'])} moves, {took[0]:.2f} s / {took[1]:.2f} s", flush=True)
    print(f"{count} games: {totals[0]:.1f} s / {totals[1]:.1f} s, ratio {totals[1] / totals[0]:.2f}")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "levels"
    if command == "fit":
        fit(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 40)
    elif command == "levels":
        levels(sys.argv[2:] or ["tank-battle", "cobi-tank-wars"])
    elif command == "slopes":
        slopes(sys.argv[2], [float(k) for k in sys.argv[3:]])
    elif command == "speed":
        speed()
    elif command == "quality":
        quality(sys.argv[2] if len(sys.argv) > 2 else "tank-battle", int(sys.argv[3]) if len(sys.argv) > 3 else 20)
    elif command == "games":
        for n in range(int(sys.argv[2]) if len(sys.argv) > 2 else 20):
            pair = PAIRS[n % len(PAIRS)]
            print(json.dumps(tank_battle_game(pair, 700 + n, max_plies=QUALITY_PLIES)), flush=True)
    elif command == "same-run":
        same_run(sys.argv[2], sys.argv[3])
    elif command == "long":
        long_reviews([int(level) for level in sys.argv[2:]] or [1, 8])
    elif command == "tank-war":
        tank_war(int(sys.argv[2]) if len(sys.argv) > 2 else 200)
    else:
        sys.exit(__doc__)
