#!/usr/bin/env python3
"""A conformance adapter backed by the tank-rules service over HTTP.

    conformance/run.py -- conformance/adapters/service.py [BASE]

BASE is the service's address (default http://127.0.0.1:8080). Reads one
request a line on stdin, answers one line on stdout (conformance/README.md).
Standard library only; one keep-alive connection.
"""

import http.client
import json
import sys
import urllib.parse


def tank_war(post, request):
    """The Tank War: the service's own state and answers."""
    op, state = request["op"], request["state"]
    answer = None
    if op == "legal_moves":
        status, body = post("tank-war", "legal-moves", {"state": state})
        answer = body if status == 200 else None
    elif op == "score":
        status, body = post("tank-war", "score", {"state": state})
        answer = body if status == 200 else None
    elif op == "apply":
        status, body = post("tank-war", "apply", {"state": state, "moves": request["moves"],
                                                  "elapsed_ms": request["elapsed_ms"]})
        answer = body if status == 200 else None
    elif op == "validate":
        player = request["player"]
        status, body = post("tank-war", "validate", {"state": state, "moves": {player: request["pick"]}})
        if status == 200:
            reason = (body.get("reasons") or {}).get(player)
            answer = {"legal": body["legal"], "reason": reason["code"] if reason else None}
    else:
        status, body = 0, None
    return answer if answer is not None else {"error": {"op": op, "status": status, "body": body}}


def cobi_tank_wars(post, request):
    """Tank Wars: the service's own state and answers; a round's supply
    drop comes from its seed (the corpus gives both)."""
    op, state = request["op"], request["state"]
    game = "cobi-tank-wars"
    answer = None
    if op in ("legal_moves", "score"):
        status, body = post(game, "legal-moves" if op == "legal_moves" else "score", {"state": state})
        answer = body if status == 200 else None
    elif op == "apply":
        status, body = post(game, "apply", {"state": state, "orders": request["orders"],
                                            "seed": request["seed"]})
        answer = body if status == 200 else None
    elif op == "validate":
        status, body = post(game, "validate", {"state": state, "orders": request["orders"]})
        if status == 200:
            reasons = [{"player": r.get("player"), "vehicle": r.get("vehicle"), "code": r["code"]}
                       for r in body["reasons"]]
            answer = {"legal": body["legal"], "reasons": reasons}
    else:
        status, body = 0, None
    return answer if answer is not None else {"error": {"op": op, "status": status, "body": body}}


def main():
    base = urllib.parse.urlsplit(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080")
    connection = http.client.HTTPConnection(base.hostname, base.port or 80, timeout=60)

    def post(game, endpoint, body):
        data = json.dumps(body).encode()
        connection.request("POST", f"/v1/{game}/{endpoint}", data,
                           {"Content-Type": "application/json"})
        reply = connection.getresponse()
        return reply.status, json.loads(reply.read() or b"null")

    for line in sys.stdin:
        request = json.loads(line)
        game, op = request["game"], request["op"]
        if game in ("tank-war", "cobi-tank-wars"):
            answer = (tank_war if game == "tank-war" else cobi_tank_wars)(post, request)
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
            continue
        at = {"position": request.get("position"), "layout": request["layout"]}
        if "rules" in request:
            at["rules"] = request["rules"]
        if op == "legal_moves":
            status, body = post(game, "legal-moves", at)
            answer = {"moves": [m["move"] for m in body["moves"]]} if status == 200 else None
        elif op == "apply":
            status, body = post(game, "apply", dict(at, move=request["move"]))
            answer = None
            if status == 200:
                answer = {k: body[k] for k in ["position", "captured", "finished", "winner", "draw", "reason"]}
                answer["score"] = {"white": body["score"]["white"], "black": body["score"]["black"]}
        elif op == "validate":
            status, body = post(game, "validate", dict(at, move=request["move"]))
            answer = None
            if status == 200 and body["legal"]:
                answer = {"legal": True}
            elif status == 200:
                reason = body["reason"]
                answer = {"legal": False, "reason": reason["code"], "square": reason.get("square")}
        elif op == "score":
            status, body = post(game, "score", at)
            answer = None
            if status == 200:
                answer = {k: body[k] for k in ["finished", "winner", "draw", "reason"]}
                answer["score"] = {"white": body["score"]["white"], "black": body["score"]["black"]}
        elif op == "replay":
            body = {"start": request["start"], "layout": request["layout"], "moves": request["moves"]}
            if "rules" in request:
                body["rules"] = request["rules"]
            status, body = post(game, "replay", body)
            answer = None
            if status == 200:
                final = body["final"]
                answer = {k: final[k] for k in ["finished", "winner", "draw", "reason"]}
                answer["score"] = {"white": final["score"]["white"], "black": final["score"]["black"]}
        elif op == "perft":
            status, body = post(game, "perft", dict(at, depth=request["depth"]))
            answer = {"nodes": body["nodes"]} if status == 200 else None
        else:
            status, body, answer = 0, None, None
        if answer is None:
            answer = {"error": {"op": op, "status": status, "body": body}}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
