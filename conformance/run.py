#!/usr/bin/env python3
"""Runs a conformance corpus against an implementation through its adapter.

    conformance/run.py [--corpus FILE] [--all] -- ADAPTER COMMAND...

The adapter is a long-running process: it reads one JSON request a line on
its standard input and writes one JSON answer a line on its standard
output, in order (conformance/README.md gives every request and answer).
For each rule tag the runner prints the first failing case: its id, the
request, what the corpus expects and what came back (with --all, every
failure). It ends with one summary line and exits 0 when every case
passes, 1 when one fails, 2 when the adapter breaks the protocol.

Python 3.8 or later, standard library only.
"""

import argparse
import json
import subprocess
import sys


class ProtocolError(Exception):
    pass


class Adapter:
    def __init__(self, command):
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, request):
        line = json.dumps(request, separators=(",", ":"))
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise ProtocolError("the adapter stopped reading") from None
        answer = self.process.stdout.readline()
        if not answer:
            raise ProtocolError(f"the adapter ended without answering {line}")
        try:
            return json.loads(answer)
        except json.JSONDecodeError:
            raise ProtocolError(f"not one JSON line: {answer.strip()[:200]}") from None

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Failure(Exception):
    def __init__(self, request, expected, answered):
        super().__init__()
        self.request = request
        self.expected = expected
        self.answered = answered


def expect(adapter, request, expected, pick):
    """Asks `request`; fails unless `pick(answer)` equals `expected`."""
    answer = adapter.ask(request)
    if isinstance(answer, dict) and "error" in answer:
        raise Failure(request, expected, answer)
    try:
        got = pick(answer)
    except (KeyError, TypeError, IndexError):
        got = answer
    if got != expected:
        raise Failure(request, expected, got)
    return answer


def standing(answer):
    return {
        "finished": answer["finished"],
        "winner": answer["winner"],
        "draw": answer["draw"],
        "score": {"white": answer["score"]["white"], "black": answer["score"]["black"]},
    }


def fields(answer, names):
    return {name: answer[name] for name in names}


RESULT = ["position", "captured", "finished", "winner", "draw", "score"]


def sorted_picks(answer):
    return {player: sorted(answer.get(player) or []) for player in ("U", "D")}


def run_tank_war_case(adapter, game, case):
    """A case of The Tank War: states, picks and answers as the service
    writes them."""
    kind = case["kind"]
    if kind == "legal":
        at = {"game": game, "state": case["state"]}
        expect(adapter, dict(at, op="score"), case["standing"], lambda a: a)
        expect(adapter, dict(at, op="legal_moves"), sorted_picks(case["moves"]), sorted_picks)
        for result in case["results"]:
            request = dict(at, op="apply", moves=result["moves"], elapsed_ms=result["elapsed_ms"])
            expect(adapter, request, result["answer"], lambda a: a)
    elif kind == "illegal":
        request = {"game": game, "op": "validate", "state": case["state"],
                   "player": case["player"], "pick": case["pick"]}
        expect(adapter, request, {"legal": False, "reason": case["reason"]},
               lambda a: {"legal": a["legal"], "reason": a.get("reason")})
    elif kind == "playthrough":
        play_rounds(adapter, game, case, ("finished", "winner", "draw", "reason"),
                    lambda state, step: {"state": state, "moves": step["moves"],
                                         "elapsed_ms": step["elapsed_ms"]})
    else:
        raise ProtocolError(f"case {case['id']}: unknown kind {kind}")


def play_rounds(adapter, game, case, end_fields, round_of):
    """A playthrough of a JSON game: each step's round (`round_of` the
    apply request's fields, from the state before it and the step) reaches
    the step's state with its events, the state scores as the step says,
    and the last round's answer ends the game as the case says."""
    state = case["start"]
    steps = case["steps"]
    for i, step in enumerate(steps):
        request = dict(round_of(state, step), game=game, op="apply")
        answer = expect(adapter, request, {"state": step["state"], "events": step["events"]},
                        lambda a: {"state": a["state"], "events": a["events"]})
        if i == len(steps) - 1:
            end = {k: case[k] for k in end_fields}
            got = {k: answer.get(k) for k in end}
            if got != end:
                raise Failure(request, end, got)
        expect(adapter, {"game": game, "op": "score", "state": step["state"]},
               step["score"], lambda a: a)
        state = step["state"]


def sorted_orders(answer):
    """Each vehicle's legal orders, in one order."""
    return {player: {vehicle: sorted(orders, key=lambda o: json.dumps(o, sort_keys=True))
                     for vehicle, orders in (answer.get(player) or {}).items()}
            for player in ("P1", "P2")}


def run_cobi_tank_wars_case(adapter, game, case):
    """A case of Tank Wars: states, orders and answers as the service
    writes them; each round gives its supply drop's square."""
    kind = case["kind"]
    if kind == "legal":
        at = {"game": game, "state": case["state"]}
        expect(adapter, dict(at, op="score"), case["standing"], lambda a: a)
        expect(adapter, dict(at, op="legal_moves"), sorted_orders(case["moves"]), sorted_orders)
        for result in case["results"]:
            request = dict(at, op="apply", orders=result["orders"], seed=result["seed"],
                           supply_drop=result["supply_drop"])
            expect(adapter, request, result["answer"], lambda a: a)
    elif kind == "illegal":
        request = {"game": game, "op": "validate", "state": case["state"], "orders": case["orders"]}
        expect(adapter, request, {"legal": False, "reasons": case["reasons"]},
               lambda a: {"legal": a["legal"], "reasons": a.get("reasons")})
    elif kind == "playthrough":
        # Each step places its gunfire tokens on the state first.
        play_rounds(adapter, game, case, ("finished", "winner", "draw"),
                    lambda state, step: {"state": dict(state, gunfire=step["gunfire"]),
                                         "orders": step["orders"], "seed": step["seed"],
                                         "supply_drop": step["supply_drop"]})
    else:
        raise ProtocolError(f"case {case['id']}: unknown kind {kind}")


def run_case(adapter, game, case):
    if game == "tank-war":
        return run_tank_war_case(adapter, game, case)
    if game == "cobi-tank-wars":
        return run_cobi_tank_wars_case(adapter, game, case)
    at = {"game": game, "position": case.get("position"), "layout": case["layout"]}
    # The end-policy corpus (end-policy.jsonl): each case under `rules`,
    # each standing with its `reason`.
    if "rules" in case:
        at["rules"] = case["rules"]
    kind = case["kind"]
    if kind == "legal":
        expected = case["standing"]
        expect(adapter, dict(at, op="score"), expected, lambda a: dict(standing(a), **fields(a, expected.keys() - {"score"})))
        moves = sorted(case["moves"])
        expect(adapter, dict(at, op="legal_moves"), moves, lambda a: sorted(a["moves"]))
        for result in case["results"]:
            request = dict(at, op="apply", move=result["move"])
            names = [name for name in result if name != "move"] if "rules" in case else RESULT
            expect(adapter, request, fields(result, names), lambda a: fields(a, names))
    elif kind == "illegal":
        request = dict(at, op="validate", move=case["move"])
        expected = {"legal": False, "reason": case["reason"], "square": case["square"]}
        expect(adapter, request, expected,
               lambda a: {"legal": a["legal"], "reason": a.get("reason"), "square": a.get("square")})
    elif kind == "perft":
        request = dict(at, op="perft", depth=case["depth"])
        expect(adapter, request, case["nodes"], lambda a: a["nodes"])
    elif kind == "playthrough":
        position = case["start"]
        steps = case["steps"]
        for i, step in enumerate(steps):
            request = dict(at, op="apply", position=position, move=step["move"])
            expected = {"position": step["position"], "score": step["score"]}
            answer = expect(adapter, request, expected,
                            lambda a: {"position": a["position"], "score": a["score"]})
            if i == len(steps) - 1:
                names = ["finished", "winner", "draw"] + (["reason"] if "reason" in case else [])
                end = fields(case, names)
                got = {k: answer.get(k) for k in end}
                if got != end:
                    raise Failure(request, end, got)
            position = step["position"]
    elif kind == "replay":
        request = dict(at, op="replay", start=case["start"], moves=case["moves"])
        del request["position"]
        names = ["finished", "winner", "draw", "reason", "score"]
        expect(adapter, request, fields(case, names), lambda a: fields(a, names))
    else:
        raise ProtocolError(f"case {case['id']}: unknown kind {kind}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default="conformance/tank-battle/corpus.jsonl")
    parser.add_argument("--all", action="store_true", help="print every failure")
    parser.add_argument("adapter", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = [a for a in args.adapter if a != "--"] if args.adapter[:1] == ["--"] else args.adapter
    if not command:
        parser.error("give the adapter's command after --")
    with open(args.corpus, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f if line.strip()]
    header = lines[0]["header"]
    game = header["game"]
    tags = [t["tag"] for t in header["tags"]]
    cases = lines[1:]
    adapter = Adapter(command)
    failed_tags = {}
    failures = 0
    try:
        for case in cases:
            try:
                run_case(adapter, game, case)
            except Failure as failure:
                failures += 1
                first = [t for t in case["tags"] if t not in failed_tags]
                for tag in case["tags"]:
                    failed_tags.setdefault(tag, case["id"])
                if first or args.all:
                    print(f"FAIL {case['id']} (tags: {', '.join(case['tags'])})")
                    print(f"  request:  {json.dumps(failure.request)}")
                    print(f"  expected: {json.dumps(failure.expected)}")
                    print(f"  answered: {json.dumps(failure.answered)}")
    except ProtocolError as error:
        print(f"conformance: the adapter broke the protocol: {error}")
        adapter.close()
        return 2
    adapter.close()
    passed = len(cases) - failures
    broken = [t for t in tags if t in failed_tags]
    kinds = {}
    for case in cases:
        kinds[case["kind"]] = kinds.get(case["kind"], 0) + 1
    counts = ", ".join(f"{kind} {n}" for kind, n in kinds.items())
    summary = (f"conformance {game} (rules_version {header['rules_version']}): "
               f"{passed} of {len(cases)} cases passed ({counts})")
    if broken:
        summary += "; failing tags: " + ", ".join(f"{t} (first: {failed_tags[t]})" for t in broken)
    print(summary)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
