#!/usr/bin/env python3
"""A hostile client for tank-rules, loopback only, bounded in count and time.

Reproduces each way a client once took the service down or blew its memory
(issue 12; unfinished maximal heads, issue 50; answers built before they are
refused, bodies and answers the memory budget did not see, echoes of what was
sent, static assets compressed on every request, issue 71) and checks that it
no longer does. Run by scripts/hostile-test.sh, which starts a release build
with default flags and an admin port; alone:

    python3 scripts/hostile.py --port 8080 --admin-port 9090 --pid <server pid>

Every check prints its figures and PASS or FAIL; the exit status is the
number of failures. Each attack's peak RSS (sampled every 50 ms) must stay
under 200 MB and the admin port's /healthz under 1 s at p99 meanwhile
(`Watch`); the server's VmHWM over the whole run too; and idle RSS after the
run within 20 MB of idle at start (after a warm-up of each kind of request).
"""

import argparse
import asyncio
import json
import os
import re
import resource
import socket
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HOST = "127.0.0.1"
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
# An open middle game: 5 KB of legal moves.
OPEN = "ctttt6/t1t8/t10/1t9/t2t4T2/11/2t7T/10T/10T/8T1T/TT6TTC b 19"
# The pod's memory, less room: every attack's peak RSS stays under it.
RSS_LIMIT_KB = 200 * 1024
# The position of issue 71: 596 legal moves on an open custom layout, a
# 33 KB `legal-moves` answer from 260 B of request.
WIDE_LAYOUT = "B" + "." * 10 + "/" + "/".join(["." * 11] * 9) + "/" + "." * 10 + "W"
WIDE = "1TTTTTTT1TT/T7T2/T5T1t1T/T7T2/T8T1/T4T3T1/T8T1/T8T1/T6T3/T9T/TTTTTTTTT1T w 0"
WIDE_ITEM = {"op": "legal-moves", "position": WIDE, "layout": WIDE_LAYOUT}
failures = []


def check(name, ok, figures):
    print(f"{'PASS' if ok else 'FAIL'} {name}: {figures}", flush=True)
    if not ok:
        failures.append(name)


def rss_kb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def request_bytes(method, path, body=None, headers=None):
    """A request's bytes: `body` (bytes, or a value sent as JSON) with its
    length, `Connection: close`, JSON unless `headers` name a type."""
    data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: close"]
    if body is not None:
        if not any(k.lower() == "content-type" for k in (headers or {})):
            head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(data)}")
    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + data


async def request(port, method, path, body=None, headers=None, timeout=30.0, raw=None):
    """One request on its own connection: (status, headers, body bytes)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        if raw is None:
            raw = request_bytes(method, path, body, headers)
        writer.write(raw)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    return parse_answer(answer)


def request_blocking(port, method, path, body=None, headers=None, timeout=30.0):
    """`request` with a blocking socket, for a thread: a server that answers
    before the whole body is in and closes (resetting the connection) has
    its answer read all the same (asyncio's streams drop what they hold
    at a reset)."""
    with socket.create_connection((HOST, port), timeout=timeout) as conn:
        try:
            conn.sendall(request_bytes(method, path, body, headers))
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = b""
        try:
            while chunk := conn.recv(65536):
                answer += chunk
        except ConnectionResetError:
            if not answer:
                raise
    return parse_answer(answer)


def parse_answer(answer):
    """(status, headers, body) of an HTTP/1.1 answer, a chunked body joined."""
    head, _, rest = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and len(lines[0].split()) > 1 else 0
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    if hdrs.get("transfer-encoding") == "chunked":
        parts, at = [], 0
        while at < len(rest):
            end = rest.find(b"\r\n", at)
            end = len(rest) if end < 0 else end
            size = int(rest[at:end].split(b";")[0] or b"0", 16)
            if size == 0:
                break
            parts.append(rest[end + 2:end + 2 + size])
            at = end + 2 + size + 2
        rest = b"".join(parts)
    return status, hdrs, rest


async def healthz_probe(port, stop, latencies):
    """`/healthz` every 20 ms until `stop` is set, each on its own
    connection: its latency and status into `latencies`. The probe runs on
    a thread of its own with blocking sockets, so what it measures is the
    server, not this client's event loop busy with the attack's thousands
    of connections (on the loop, the 2,000 slow bodies' 408s made its p99
    swing from 5 to 105 ms on the same build)."""
    await asyncio.to_thread(probe_blocking, port, stop, latencies)


def probe_blocking(port, stop, latencies):
    request = b"GET /healthz HTTP/1.1\r\nHost: " + HOST.encode() + b"\r\nConnection: close\r\n\r\n"
    while not stop.is_set():
        t = time.monotonic()
        try:
            with socket.create_connection((HOST, port), timeout=10) as conn:
                conn.sendall(request)
                answer = b""
                while chunk := conn.recv(65536):
                    answer += chunk
            status_line = answer.split(b"\r\n", 1)[0].split()
            status = int(status_line[1]) if len(status_line) > 1 else 0
            latencies.append((time.monotonic() - t, status))
        except (OSError, ValueError):
            latencies.append((10.0, 0))
        time.sleep(0.02)


def p99(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * 0.99))] if values else 0.0


def cpu_s(pid):
    """The server's CPU time so far (user + system), seconds."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Watch:
    """What an attack costs the server, for every attack alike (issue 71):
    its resident memory sampled every 50 ms (the attack's peak), and the
    admin port's /healthz probed throughout (the liveness probe's port,
    which no client load may slow past 1 s at p99). Both run on threads
    of their own with blocking calls, so what they measure is the server,
    not this client's busy event loop.

        async with Watch(args) as watch:
            await attack()
        watch.report("attack")
    """

    def __init__(self, args):
        self.pid, self.admin_port = args.pid, args.admin_port

    async def __aenter__(self):
        self.stop = threading.Event()
        self.start_kb = self.peak_kb = rss_kb(self.pid)
        self.latencies = []
        self.threads = [threading.Thread(target=self._sample, daemon=True)]
        if self.admin_port:
            self.threads.append(threading.Thread(
                target=probe_blocking, args=(self.admin_port, self.stop, self.latencies), daemon=True))
        for thread in self.threads:
            thread.start()
        self.started = time.monotonic()
        return self

    async def __aexit__(self, *_):
        self.took = time.monotonic() - self.started
        # An attack shorter than a few probes still gets them.
        deadline = time.monotonic() + 2.0
        while self.admin_port and len(self.latencies) < 3 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        self.stop.set()
        for thread in self.threads:
            await asyncio.to_thread(thread.join)
        return False

    def _sample(self):
        while not self.stop.is_set():
            try:
                self.peak_kb = max(self.peak_kb, rss_kb(self.pid))
            except OSError:
                return
            time.sleep(0.05)

    def report(self, name):
        """Two checks: the attack's peak RSS under 200 MB, the admin
        /healthz under 1 s at p99 (a probe that failed or answered other
        than 200 counts as 10 s)."""
        check(f"{name}: peak RSS under {RSS_LIMIT_KB // 1024} MB",
              self.peak_kb < RSS_LIMIT_KB,
              f"RSS {self.start_kb // 1024} -> peak {self.peak_kb // 1024} MB ({self.peak_kb} kB) "
              f"over {self.took:.1f} s")
        if not self.admin_port:
            print(f"info: {name}: no admin port given, its /healthz not probed", flush=True)
            return
        seconds = [s if status == 200 else 10.0 for s, status in self.latencies]
        bad = [status for _, status in self.latencies if status != 200]
        check(f"{name}: admin /healthz p99 under 1 s",
              len(seconds) >= 3 and p99(seconds) < 1.0,
              f"{len(seconds)} probes, p99 {p99(seconds) * 1000:.1f} ms, max {max(seconds or [0]) * 1000:.1f} ms, "
              f"failed {len(bad)}")


def tally(counts, key):
    counts[key] = counts.get(key, 0) + 1


def answer_key(status, hdrs, body):
    """`400 LIMIT_EXCEEDED problem+json`: an answer's status, code and
    media type, to count answers by."""
    key = str(status)
    if status >= 400 and body.startswith(b"{"):
        try:
            # The first JSON value: a server that answers twice on one
            # connection leaves the second answer after it.
            code = json.JSONDecoder().raw_decode(body.decode("utf-8", "replace"))[0].get("code")
        except (ValueError, AttributeError):
            code = None
        if code:
            key += f" {code}"
    if "problem+json" in hdrs.get("content-type", ""):
        key += " problem+json"
    return key


async def slow_bodies(port, count, timeout_s, max_connections):
    """1. Heads that promise 60000 bytes, send a few, then nothing (run
    through the proxy when there is one: a slow client is the proxy's to
    hold). Past the connection cap they wait in the listen backlog, and
    are taken as the ones before them are answered: each round of them is
    answered at its body deadline."""
    stop = asyncio.Event()
    latencies = []
    probe = asyncio.create_task(healthz_probe(port, stop, latencies))
    opened, statuses, answered_in, closed_in = 0, {}, [], []

    async def one():
        nonlocal opened
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            statuses["connect failed"] = statuses.get("connect failed", 0) + 1
            return
        opened += 1
        t = time.monotonic()
        writer.write(b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"pos")
        try:
            await writer.drain()
            rounds = -(-count // max(1, max_connections))
            data = await asyncio.wait_for(reader.read(65536), timeout_s * rounds + 10)
            answered_in.append(time.monotonic() - t)
            while True:
                more = await asyncio.wait_for(reader.read(65536), 10)
                if not more:
                    break
                data += more
            line = data.split(b"\r\n", 1)[0].decode("latin-1")
            key = line.split()[1] if len(line.split()) > 1 else "closed"
            ctype = b"application/problem+json" in data
            statuses[f"{key}{' problem+json' if ctype else ''}"] = statuses.get(f"{key}{' problem+json' if ctype else ''}", 0) + 1
            closed_in.append(time.monotonic() - t)
        except (asyncio.TimeoutError, OSError):
            statuses["still open"] = statuses.get("still open", 0) + 1
        finally:
            writer.close()

    await asyncio.gather(*(one() for _ in range(count)))
    stop.set()
    await probe
    slow = [s for s, st in latencies if st == 200]
    bad = [st for _, st in latencies if st != 200]
    worst = max(answered_in) if answered_in else 0
    rounds = -(-count // max(1, max_connections))
    check(
        f"slow bodies ({count} connections) get 408 within the deadline",
        statuses.get("408 problem+json", 0) == count and worst < timeout_s * rounds + 0.5,
        f"answers {statuses}; 408 after {min(answered_in or [0]):.2f}-{worst:.2f} s "
        f"({rounds} round(s) of at most {max_connections} connections), "
        f"closed after {min(closed_in or [0]):.2f}-{max(closed_in or [0]):.2f} s",
    )
    check(
        "healthz stays fast meanwhile",
        not bad and p99(slow) < 0.1,
        f"{len(latencies)} probes, p99 {p99(slow) * 1000:.1f} ms, max {max(slow or [0]) * 1000:.1f} ms, failed {len(bad)}",
    )


async def maximal_heads(port, pid, count, max_head, head_timeout, max_connections):
    """8. Unfinished heads of 100 KB on the bare server (issue 50; issue
    74: actix-http's own bounds, no proxy in front): each connection sends
    all but the last byte of its head and waits. They hold at most
    actix-http's head buffer each, are answered 408 (actix-http's own, no
    body) at the first head's deadline, and /healthz answers throughout
    (its connections wait in the listen backlog only when the server is at
    its connection cap: said below, from the figures)."""
    stop = asyncio.Event()
    latencies = []
    before = rss_kb(pid)
    peak = [before]
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "
    head += b"a" * (max_head - 1 - len(head))
    opened, statuses, writers = 0, {}, []

    async def one():
        nonlocal opened
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            statuses["connect failed"] = statuses.get("connect failed", 0) + 1
            return
        opened += 1
        writers.append(writer)
        try:
            writer.write(head)
            await writer.drain()
            # Past the cap it waits in the backlog for the rounds before it.
            rounds = -(-(count + 1) // max(1, max_connections))
            data = await asyncio.wait_for(reader.read(65536), head_timeout * rounds + 15)
            while len(data) < 4096:
                more = await asyncio.wait_for(reader.read(65536), 5)
                if not more:
                    break
                data += more
            line = data.split(b"\r\n", 1)[0].decode("latin-1")
            key = line.split()[1] if len(line.split()) > 1 else "closed"
            if b"application/problem+json" in data:
                key += " problem+json"
            statuses[key] = statuses.get(key, 0) + 1
        except (asyncio.TimeoutError, OSError):
            statuses["no answer"] = statuses.get("no answer", 0) + 1
        finally:
            writer.close()

    async def watch_rss():
        while not stop.is_set():
            peak[0] = max(peak[0], rss_kb(pid))
            await asyncio.sleep(0.05)

    watcher = asyncio.create_task(watch_rss())
    t = time.monotonic()
    clients = [asyncio.create_task(one()) for _ in range(count)]
    # The probe starts once every connection is open (it then competes
    # with all of them).
    for _ in range(200):
        if opened + statuses.get("connect failed", 0) >= count:
            break
        await asyncio.sleep(0.05)
    held = opened
    probe = asyncio.create_task(healthz_probe(port, stop, latencies))
    await asyncio.gather(*clients)
    stop.set()
    await probe
    await watcher
    took = time.monotonic() - t
    ok = [s for s, st in latencies if st == 200]
    bad = [st for _, st in latencies if st != 200]
    # The server holds at most its cap; the rest wait in the listen
    # backlog (the kernel's memory, not the process's) and are answered
    # in the rounds after.
    served = min(held, max_connections)
    per = (peak[0] - before) / max(1, served)
    waited = max(0, count + 1 - max_connections)
    check(
        f"{count} unfinished maximal heads ({max_head - 1} B each) cost a bounded amount",
        peak[0] <= 200 * 1024 and statuses.get("408", 0) == count,
        f"{held} connected at once, {served} held by the server; RSS {before // 1024} -> peak "
        f"{peak[0] // 1024} MB ({per:.1f} kB a connection held); answers {statuses} after {took:.1f} s",
    )
    # On the bare server the heads take its every connection: the probe
    # waits its round in the listen backlog (keeping it available is the
    # proxy's, checked through it below).
    print(
        "info: healthz on the bare server throughout the maximal heads: "
        f"{len(latencies)} probes, p99 {p99(ok) * 1000:.1f} ms, max {max(ok or [0]) * 1000:.1f} ms, failed {len(bad)}; "
        f"{count} heads + the probe against --max-connections {max_connections}: "
        + ("none waited in the listen backlog" if waited == 0 else f"{waited} waited in the listen backlog"),
        flush=True,
    )


def bouncing_track(length):
    """A track that goes back and forth between two squares."""
    return ["a1" if i % 2 == 0 else "a2" for i in range(length)]


async def replay_amplification(port, answer_cap):
    """2. A 64 KiB replay may not become a 60 MB answer."""
    # 32 KB of state: long tracks bouncing between two squares of a wide board.
    cols = 26
    track = [f"{chr(97 + i % 2)}1" for i in range(676)]
    state = {"rows": 2, "cols": cols, "territory": ["U" * cols, "D" * cols],
             "tanks": [{"owner": "U", "name": "LA", "type": "A", "track": track[:676], "at": 0},
                       {"owner": "D", "name": "LA", "type": "A", "track": [f"{chr(97 + 2 + i % 2)}2" for i in range(676)], "at": 0}]}
    body = {"start": state, "rounds": [{"U": "LA", "D": "LA"}] * 1840}
    data = json.dumps(body).encode()
    t = time.monotonic()
    status, hdrs, answer = await request(port, "POST", "/v1/tank-war/replay", data, timeout=60)
    took = time.monotonic() - t
    code = json.loads(answer).get("code") if answer.startswith(b"{") else None
    check(
        "tank-war replay cannot amplify",
        status == 400 and code == "LIMIT_EXCEEDED" and len(answer) < answer_cap,
        f"{len(data)} B in -> {status} {code}, {len(answer)} B out in {took * 1000:.0f} ms",
    )
    cobi = json.loads((await request(port, "GET", "/v1/cobi-tank-wars/initial"))[2])
    cobi["cols"], cobi["rows"] = 26, 26
    cobi["artillery"] = [f"{chr(97 + c)}{r}" for c in range(26) for r in range(10, 17)]
    orders = {"P1": {"P1-1": {"dir": "N", "dist": 1}, "P1-2": {"dir": "S", "dist": 1}, "P1-3": {"dir": "N", "dist": 1}},
              "P2": {"P2-1": {"dir": "S", "dist": 1}, "P2-2": {"dir": "N", "dist": 1}, "P2-3": {"dir": "S", "dist": 1}}}
    rounds = [{"orders": orders}] * 200
    data = json.dumps({"start": cobi, "rounds": rounds}).encode()
    status, _, answer = await request(port, "POST", "/v1/cobi-tank-wars/replay", data, timeout=60)
    check(
        "cobi-tank-wars replay cannot amplify",
        len(answer) <= answer_cap and status in (200, 400, 422),
        f"{len(data)} B in -> {status}, {len(answer)} B out (cap {answer_cap})",
    )


async def cache_bytes(port, pid, count):
    """3. Distinct ai-move answers for a big state fill bytes, not RSS."""
    cols = 26
    tanks = []
    for owner, rows in (("D", (1, 2, 3)), ("U", (26, 25, 24))):
        squares = [f"{chr(97 + c)}{r}" for r in rows for c in range(cols)][:64]
        for n, square in enumerate(squares):
            tanks.append({"owner": owner, "name": f"T{n}", "type": "ABC"[n % 3], "track": [square], "at": 0})
    # One tank a side can still move (l3 -> l4, l24 -> l23): the game goes on.
    tanks[63]["track"].append("l4")
    tanks[127]["track"].append("l23")
    state = {"rows": 26, "cols": cols, "territory": ["U" * cols] * 13 + ["D" * cols] * 13, "tanks": tanks}
    before = rss_kb(pid)
    sem = asyncio.Semaphore(16)
    statuses = {}

    async def one(seed):
        async with sem:
            body = {"state": state, "player": "U", "limits": {"max_nodes": 1}, "seed": seed}
            status, _, _ = await request(port, "POST", "/v1/tank-war/ai-move", body)
            statuses[status] = statuses.get(status, 0) + 1

    t = time.monotonic()
    await asyncio.gather(*(one(seed) for seed in range(count)))
    after = rss_kb(pid)
    check(
        f"{count} distinct ai-move answers of a 128-tank state",
        after - before < 80_000 and set(statuses) <= {200, 503},
        f"statuses {statuses} in {time.monotonic() - t:.1f} s; RSS {before // 1024} -> {after // 1024} MB",
    )


async def abandoned_searches(port, slots):
    """4. Searches whose clients hang up free their slots at once."""
    body = json.dumps({"position": START, "limits": {"max_time_ms": 5000}, "seed": 0}).encode()

    async def abandon(seed):
        reader, writer = await asyncio.open_connection(HOST, port)
        data = body.replace(b'"seed": 0', f'"seed": {seed}'.encode())
        writer.write(b"POST /v1/tank-battle/ai-move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.close()

    seed0 = int(time.time())
    await asyncio.gather(*(abandon(seed0 + i) for i in range(slots + 2)))
    await asyncio.sleep(0.1)
    t = time.monotonic()
    status, _, answer = await request(
        port, "POST", "/v1/tank-battle/ai-move",
        {"position": START, "limits": {"max_depth": 2}, "seed": seed0 + 999})
    check(
        "an ai-move right after abandoned searches",
        status == 200,
        f"{slots + 2} searches of 5 s abandoned after 50 ms; next ai-move {status} in {(time.monotonic() - t) * 1000:.0f} ms",
    )


async def batch_budget(port, cap_s):
    """5. Four 5-second searches in one batch share one budget."""
    seed = int(time.time()) * 10
    requests = [{"op": "ai-move", "position": START, "limits": {"max_time_ms": 5000}, "seed": seed + i} for i in range(4)]
    t = time.monotonic()
    status, _, answer = await request(port, "POST", "/v1/tank-battle/batch", {"requests": requests}, timeout=60)
    took = time.monotonic() - t
    results = json.loads(answer).get("results", []) if status == 200 else []
    kinds = [r.get("code", "move") for r in results]
    check(
        "a batch of four 5 s searches",
        status == 200 and took < cap_s + 0.5,
        f"{status} in {took:.2f} s (cap {cap_s:.1f} s); results {kinds}",
    )


async def maximal_reviews(port, slots, review_cap_s):
    """6. The largest review a client may ask: as many moves as a review
    takes, each position searched to the server's caps. It ends at the
    review's time cap (503 SERVICE_BUSY, Retry-After), one streamed and abandoned frees its
    slot at once, and more of them than slots are refused, not queued."""
    moves = ["i3-i7", "c9-e9", "i7-i3", "e9-c9"] * 100
    body = {"moves": moves, "limits": {"max_time_ms": 5000, "max_nodes": 20_000_000}}
    # As many maximal reviews as the long pool has slots, and while they
    # hold them two more reviews: those are refused at once, not queued.
    t = time.monotonic()
    maximal = [asyncio.ensure_future(request(port, "POST", "/v1/tank-battle/annotate", body,
                                             timeout=review_cap_s + 30)) for _ in range(slots)]
    await asyncio.sleep(1.0)
    u = time.monotonic()
    extra = await asyncio.gather(*(
        request(port, "POST", "/v1/tank-battle/annotate",
                {"moves": moves[:4], "limits": {"max_time_ms": 2000, "max_nodes": 20_000_000}}, timeout=review_cap_s + 30)
        for _ in range(2)))
    refused_in = time.monotonic() - u
    replies = await asyncio.gather(*maximal)
    took = time.monotonic() - t
    codes = [json.loads(answer).get("code") if answer.startswith(b"{") else None for _, _, answer in replies]
    check(
        "a maximal review ends at its time cap",
        all(status == 503 for status, _, _ in replies) and set(codes) == {"SERVICE_BUSY"}
        and took < review_cap_s + 1.0,
        f"{slots} x {len(moves)} moves at 5 s a search: {[r[0] for r in replies]} {sorted(set(codes))} "
        f"in {took:.2f} s (cap {review_cap_s:.0f} s)",
    )
    check(
        f"reviews beyond the long pool's {slots} slots are refused",
        [r[0] for r in extra] == [503, 503],
        f"2 more reviews while the maximal ones run: {[r[0] for r in extra]} in {refused_in:.1f} s",
    )
    # Streamed, abandoned after its first line: the slot is free at once.
    reader, writer = await asyncio.open_connection(HOST, port)
    data = json.dumps(body).encode()
    writer.write(b"POST /v1/tank-battle/annotate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 + b"Accept: application/x-ndjson\r\n"
                 + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    await writer.drain()
    # Its first line is the first entry settled with the next two (and
    # their verifications), up to the review's whole time cap when each
    # search takes its 5 s (as in the test profile's build, CI's).
    first = await asyncio.wait_for(reader.readuntil(b"\n\r\n"), review_cap_s + 5)
    line = await asyncio.wait_for(reader.readline(), review_cap_s + 5)  # the first chunk's size
    writer.close()
    # Another review needs a slot of the same (long) pool, which the one
    # left behind would hold for up to its time cap.
    t = time.monotonic()
    status, _, _ = await request(port, "POST", "/v1/tank-battle/annotate",
                                 {"moves": moves[:2], "limits": {"max_depth": 1}})
    check(
        "a review right after an abandoned streamed review",
        first.startswith(b"HTTP/1.1 200") and status == 200,
        f"streamed review left after {len(line)} B; next review {status} in {(time.monotonic() - t) * 1000:.0f} ms",
    )
    # The puzzles of the same maximal game (issue 77): a review and the
    # finder over it, within the review's time cap.
    t = time.monotonic()
    status, _, answer = await request(port, "POST", "/v1/tank-battle/puzzles",
                                            dict(body, max_puzzles=50), timeout=review_cap_s + 30)
    took = time.monotonic() - t
    code = json.loads(answer).get("code") if answer.startswith(b"{") else None
    check(
        "a maximal game's puzzles end at the review's time cap",
        status == 503 and code == "SERVICE_BUSY" and took < review_cap_s + 1.0,
        f"{len(moves)} moves, 50 puzzles asked: {status} {code} in {took:.2f} s (cap {review_cap_s:.0f} s)",
    )


async def languages(port):
    """7. Accept-Language (issue 41): hostile values choose English or Czech
    and never fail; a maximal Czech answer is written again in bounded
    time."""
    hostile = {
        "long": "cs;q=0.1, " * 600,
        "nan": "cs;q=NaN, en;q=inf",
        "huge q": "cs;q=1e309",
        "negative q": "cs;q=-1",
        "empty": "",
        "commas": ",,,;;;q=",
        "star": "*;q=0.5, cs;q=0.4",
    }
    answers = []
    for name, value in hostile.items():
        status, hdrs, body = await request(port, "POST", "/v1/tank-battle/validate",
                                           {"position": START, "move": "e5-e6"},
                                           headers={"Accept-Language": value})
        answers.append((name, status, hdrs.get("content-language")))
    raw = (b"POST /v1/tank-battle/validate HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
           b"Accept-Language: \xff\xfe cs\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    status, hdrs, _ = await request(port, None, None, raw=raw)
    answers.append(("not UTF-8", status, hdrs.get("content-language")))
    check("hostile Accept-Language values answer English or Czech, never 5xx",
          all(s < 500 and lang in ("en", "cs") for _, s, lang in answers),
          ", ".join(f"{n}: {s} {lang}" for n, s, lang in answers))
    requests = [{"op": "apply", "position": START, "move": "a11-a10"}] * 256
    t = time.monotonic()
    status, hdrs, body = await request(port, "POST", "/v1/tank-battle/batch", {"requests": requests},
                                       headers={"Accept-Language": "cs"})
    elapsed = time.monotonic() - t
    results = json.loads(body).get("results", []) if status == 200 else []
    czech = sum("patří soupeři" in r.get("detail", "") for r in results)
    check("a maximal batch answered in Czech",
          status == 200 and czech == 256 and elapsed < 5 and hdrs.get("content-language") == "cs",
          f"{status}, {czech} of 256 problems in Czech, {len(body)} B in {elapsed * 1000:.0f} ms")


async def large_batches(port, connections=8, seconds=10.0):
    """9. Large batches on every worker (issue 51): eight connections each
    sending batches of 256 items (224 legal-moves of an open position, 32
    refused moves, whose problems carry texts: 1.2 MB), half in Czech, half in English, for `seconds`;
    the public /healthz answers within 100 ms at p99 meanwhile, as the
    Kubernetes probe needs (a batch yields its worker between items and
    writes a large answer on the blocking pool)."""
    items = [{"op": "legal-moves", "position": OPEN} if i % 8 else
             {"op": "apply", "position": START, "move": "a11-a10"} for i in range(256)]
    stop = asyncio.Event()
    latencies = []
    probe = asyncio.create_task(healthz_probe(port, stop, latencies))
    answered = {"en": 0, "cs": 0}
    statuses, sizes = {}, []
    deadline = time.monotonic() + seconds

    async def client(lang):
        while time.monotonic() < deadline:
            status, hdrs, body = await request(port, "POST", "/v1/tank-battle/batch", {"requests": items},
                                               headers={"Accept-Language": lang}, timeout=30)
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200 and hdrs.get("content-language") == lang:
                answered[lang] += 1
                sizes.append(len(body))

    await asyncio.gather(*(client("cs" if i % 2 else "en") for i in range(connections)))
    stop.set()
    await probe
    fast = [s for s, st in latencies if st == 200]
    bad = [st for _, st in latencies if st != 200]
    check(
        f"healthz under {connections} connections of large batches (Czech and English)",
        not bad and answered["en"] > 0 and answered["cs"] > 0 and p99(fast) < 0.1,
        f"batches {statuses}, {answered['en']} English and {answered['cs']} Czech of "
        f"{max(sizes or [0]) // 1024} KB; {len(latencies)} probes, p99 {p99(fast) * 1000:.1f} ms, "
        f"max {max(fast or [0]) * 1000:.1f} ms, failed {len(bad)}",
    )


async def protocol(port):
    """6. The smaller ones."""
    # Pipelined requests after `Connection: close`: only the first answered.
    reader, writer = await asyncio.open_connection(HOST, port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                 b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    t = time.monotonic()
    data = await asyncio.wait_for(reader.read(-1), 10)
    writer.close()
    statuses = [line.split()[1] for line in data.decode("latin-1").split("\r\n") if line.startswith("HTTP/1.1 ")]
    check("Connection: close is honoured with pipelining",
          statuses[:1] == ["200"] and all(s == "400" for s in statuses[1:]) and time.monotonic() - t < 1,
          f"answers {statuses} (the pipelined one refused, not processed), closed after {(time.monotonic() - t) * 1000:.0f} ms")
    for path in ["/healthz", "/v1/tank-battle/render.svg", "/swagger-ui/", "/v1/games"]:
        status, hdrs, body = await request(port, "HEAD", path)
        check(f"HEAD {path}", status == 200 and not body, f"{status}, {len(body)} B body, length {hdrs.get('content-length')}")
    status, hdrs, _ = await request(port, "POST", "/v1/tank-battle/score", {"position": START},
                                    headers={"Content-Encoding": "br"})
    check("Content-Encoding: br is 415", status == 415 and "problem+json" in hdrs.get("content-type", ""),
          f"{status} {hdrs.get('content-type')}")
    status, hdrs, _ = await request(port, "GET", "/swagger-ui/missing.js")
    check("Swagger UI's 404 is problem+json", status == 404 and "problem+json" in hdrs.get("content-type", ""),
          f"{status} {hdrs.get('content-type')}")
    status, hdrs, _ = await request(port, "OPTIONS", "/v1/tank-battle/score",
                                    headers={"Origin": "https://a.example", "Access-Control-Request-Method": "DELETE"})
    check("a refused CORS preflight is problem+json", status >= 400 and "problem+json" in hdrs.get("content-type", ""),
          f"{status} {hdrs.get('content-type')}")
    body = json.dumps({"position": START}).encode()
    raw = (b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
    status, hdrs, _ = await request(port, None, None, raw=raw)
    print(f"info: Transfer-Encoding with Content-Length: {status} {hdrs.get('content-type')} (actix answers before the app)")


async def warm_up(port):
    """One request of each kind, before idle is measured (issue 71): every
    operation in the OpenAPI document with its own example body, and the
    pages and assets a browser fetches."""
    _, _, body = await request(port, "GET", "/openapi.json")
    doc = json.loads(body)
    schemas = doc.get("components", {}).get("schemas", {})
    statuses = {}
    for path, operations in doc.get("paths", {}).items():
        for method, operation in operations.items():
            if method == "get" and "{" not in path:
                status, _, _ = await request(port, "GET", path)
            elif method == "post":
                content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                example = content.get("example")
                if example is None and content.get("examples"):
                    values = [e.get("value") for e in content["examples"].values() if "value" in e]
                    example = min(values, key=lambda v: len(json.dumps(v))) if values else None
                if example is None:
                    name = content.get("schema", {}).get("$ref", "").rpartition("/")[2]
                    example = schemas.get(name, {}).get("example")
                if example is None:
                    continue
                status, _, _ = await request(port, "POST", path, example, timeout=60)
            else:
                continue
            tally(statuses, status)
    for path in ("/swagger-ui/", "/swagger-ui/swagger-ui-bundle.js", "/board/", "/board/board.js"):
        status, _, _ = await request(port, "GET", path, headers={"Accept-Encoding": "gzip"})
        tally(statuses, status)
    return statuses


def wide_tank_war_state():
    """A tank-war state of two tanks on 676-square tracks (7 KB): each
    round of its replay answers a state of that size."""
    cols = 26
    return {"rows": 2, "cols": cols, "territory": ["U" * cols, "D" * cols],
            "tanks": [{"owner": "U", "name": "LA", "type": "A", "track": [f"{chr(97 + i % 2)}1" for i in range(676)], "at": 0},
                      {"owner": "D", "name": "LA", "type": "A", "track": [f"{chr(99 + i % 2)}2" for i in range(676)], "at": 0}]}


def batch_bodies(items, body_limit):
    """The same items as a JSON batch and as NDJSON (one item a line), each
    as many of them as the body limit takes (at most 256)."""
    as_json = lambda n: json.dumps({"requests": items[:n]}).encode()
    as_ndjson = lambda n: "\n".join(json.dumps(item) for item in items[:n]).encode()
    bodies = []
    for make, ctype in ((as_json, "application/json"), (as_ndjson, "application/x-ndjson")):
        low, high = 1, len(items)
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if len(make(mid)) <= body_limit else (low, mid - 1)
        bodies.append((make(low), ctype, low))
    return bodies


async def over_cap_batch_round(port, path, data, ctype, count):
    """`count` copies of one batch at once, each on a thread of its own
    (`request_blocking`: an answer before the body is in is read too):
    their answers counted by key, the largest answer, the slowest."""
    loop = asyncio.get_running_loop()
    threads = ThreadPoolExecutor(max_workers=count)

    async def one():
        t = time.monotonic()
        try:
            status, hdrs, body = await loop.run_in_executor(threads, lambda: request_blocking(
                port, "POST", path, data, headers={"Content-Type": ctype}, timeout=60))
        except socket.timeout:
            return "no answer in 60 s", 0, time.monotonic() - t, None
        except OSError as error:
            return f"no answer ({type(error).__name__})", 0, time.monotonic() - t, None
        results = None
        if status == 200:
            try:
                parsed = (json.loads(body).get("results", []) if ctype == "application/json"
                          else [json.loads(line) for line in body.splitlines() if line.strip()])
                results = [r.get("code", r.get("op", "?")) for r in parsed]
            except (ValueError, AttributeError):
                results = ["not JSON"]
        return answer_key(status, hdrs, body), len(body), time.monotonic() - t, results

    answers = await asyncio.gather(*(one() for _ in range(count)))
    threads.shutdown()
    keys = {}
    for key, _, _, _ in answers:
        tally(keys, key)
    return keys, max(a[1] for a in answers), max(a[2] for a in answers), [a[3] for a in answers if a[3]]


REFUSED = ("400 LIMIT_EXCEEDED problem+json", "503 SERVICE_BUSY problem+json")


async def over_cap_batches(args):
    """Issue 71, finding 1: a batch whose answer would pass the answer cap
    is refused before its answer is built (400 LIMIT_EXCEEDED) or, when
    the server is out of room, 503 SERVICE_BUSY; 24 then 40 at once from
    one client; as JSON and as NDJSON; Tank Battle's `legal-moves` of the
    issue's 596-move position, and Tank War's `replay` of 7 KB states,
    each item's answer 1.75 MB (under the cap alone, four over it). Each
    variant's peak RSS and admin /healthz are checked too."""
    rounds = [{"U": "LA", "D": "LA"}] * 250
    variants = [("tank-battle", "legal-moves", [WIDE_ITEM] * 256),
                ("tank-war", "replay", [{"op": "replay", "start": wide_tank_war_state(), "rounds": rounds}] * 256)]
    for game, op, items in variants:
        for data, ctype, count in batch_bodies(items, args.body_limit):
            kind = "NDJSON" if "ndjson" in ctype else "JSON"
            name = f"over-cap {game} batch of {count} {op} ({kind}, {len(data)} B)"
            figures, ok = [], True
            async with Watch(args) as watch:
                for at_once in (24, 40):
                    keys, largest, slowest, results = await over_cap_batch_round(
                        args.port, f"/v1/{game}/batch", data, ctype, at_once)
                    # 400 or 503, small; Tank War's replays may instead each
                    # be refused as they would pass what is left of the cap
                    # (a 200 within the cap whose items that did not run are
                    # LIMIT_EXCEEDED or SERVICE_BUSY: no answer over the cap
                    # is built).
                    item_codes = {}
                    for codes in results:
                        for code in codes:
                            tally(item_codes, code)
                    itemwise = (op == "replay" and set(keys) <= set(REFUSED) | {"200"}
                                and largest <= args.answer_cap
                                and all(set(codes) - {op} <= {"LIMIT_EXCEEDED", "SERVICE_BUSY"}
                                        and len(codes) > codes.count(op) for codes in results))
                    refused = set(keys) <= set(REFUSED) and largest < 4096
                    ok = ok and (refused or itemwise)
                    shown = f" (the 200s' items: {item_codes})" if item_codes else ""
                    figures.append(f"{at_once} at once: {keys}, largest {largest} B, slowest {slowest:.2f} s{shown}")
            check(f"{name}: refused, never built", ok, "; ".join(figures))
            watch.report(name)


async def proxied_heads(proxy_port, pid, count, head_timeout):
    """8b. The same attack through the shipped proxy (deploy/haproxy): its
    head cap and its deadline for every head are the proxy's. `count`
    connections each send all but the last byte of a 30 KB head (within
    the proxy's 31 KiB) and wait: each is answered 408 at the proxy's
    deadline (`timeout http-request`), also a second head on a kept-alive
    connection; a head over the proxy's cap is answered 400 at once; the
    server's memory does not move (none of it reaches the server)."""
    before = rss_kb(pid)
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 30_000
    statuses, times, latencies = {}, [], []
    stop = asyncio.Event()
    probe = asyncio.create_task(healthz_probe(proxy_port, stop, latencies))
    await asyncio.gather(*(stalled(proxy_port, head, head_timeout + 15, statuses, times) for _ in range(count)))
    stop.set()
    await probe
    peak = rss_kb(pid, "VmHWM")
    ok = [s for s, st in latencies if st == 200]
    bad = [st for _, st in latencies if st != 200]
    check("through the proxy: healthz answers throughout the unfinished heads",
          not bad and len(ok) >= 10,
          f"{len(latencies)} probes, p99 {p99(ok) * 1000:.1f} ms, max {max(ok or [0]) * 1000:.1f} ms, failed {len(bad)}")
    check(f"through the proxy: {count} unfinished 30 KB heads answered 408 at its deadline",
          statuses.get("408", 0) == count and max(times or [0]) < head_timeout + 1.0,
          f"answers {summary(statuses, times)} (deadline {head_timeout:.0f} s); server RSS {before // 1024} MB, "
          f"peak over the run {peak // 1024} MB")
    # A later head of a kept-alive connection gets the deadline too.
    reader, writer = await asyncio.open_connection(HOST, proxy_port)
    t = time.monotonic()
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHo")
        await writer.drain()
        got = b""
        while got.count(b"HTTP/1.1 ") < 2:
            more = await asyncio.wait_for(reader.read(65536), head_timeout + 15)
            if not more:
                break
            got += more
    except (asyncio.TimeoutError, OSError):
        got = b""
    finally:
        writer.close()
    took = time.monotonic() - t
    lines = [line.split()[1] for line in got.decode("latin-1").split("\r\n") if line.startswith("HTTP/1.1 ")]
    # HAProxy closes a kept-alive connection whose next head is late, with
    # or without a 408.
    check("through the proxy: a kept-alive connection's second head has the deadline too",
          lines in (["200", "408"], ["200"]) and took < head_timeout + 1.0,
          f"answers {lines}, closed after {took:.1f} s")
    over = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 40_000 + b"\r\n\r\n"
    statuses, times = {}, []
    await stalled(proxy_port, over, 10, statuses, times)
    check("through the proxy: a 40 KB head is refused at once",
          statuses.get("400", 0) == 1 and max(times or [9]) < 1.0, summary(statuses, times))


async def hold_unread(port, pid, data, count, settle_s=15.0):
    """`count` connections each send `data` (a request) and never read:
    their receive windows small (4 KB, as a slow client's), so the answer
    waits in the server. They are held until the server's CPU settles
    (every answer built; at most `settle_s`) and 2 s more, then what
    reached each is peeked (its status line, when any came) and all are
    closed. Returns (held, peeked statuses, seconds held)."""
    loop = asyncio.get_running_loop()
    socks, statuses = [], {}

    async def one():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, (HOST, port))
            await loop.sock_sendall(sock, data)
            socks.append(sock)
        except OSError:
            tally(statuses, "connect failed")
            sock.close()

    t = time.monotonic()
    await asyncio.gather(*(one() for _ in range(count)))
    last = cpu_s(pid)
    while time.monotonic() - t < settle_s:
        await asyncio.sleep(0.5)
        now = cpu_s(pid)
        if now - last < 0.05:
            break
        last = now
    await asyncio.sleep(2)
    held = time.monotonic() - t
    for sock in socks:
        try:
            head = sock.recv(64)
            line = head.split(b"\r\n", 1)[0].split()
            tally(statuses, line[1].decode("latin-1") if len(line) > 1 else "closed")
        except BlockingIOError:
            tally(statuses, "nothing yet")
        except OSError:
            tally(statuses, "reset")
        sock.close()
    return len(socks), statuses, held


def stalled_reader_body(sizes):
    """A batch of the issue's legal-moves items whose answer is ~1.9 MB
    (under the 2 MiB cap), given the answer sizes of batches of one and
    two."""
    one, two = sizes
    per = two - one
    count = max(1, (1_900_000 - (one - per)) // per)
    return {"requests": [WIDE_ITEM] * count}, count, (one - per) + count * per


async def reader_body(port):
    """The stalled readers' request, its items and its answer's size."""
    sizes = []
    for n in (1, 2):
        status, _, body = await request(port, "POST", "/v1/tank-battle/batch", {"requests": [WIDE_ITEM] * n})
        sizes.append(len(body) if status == 200 else 0)
    if not 0 < sizes[0] < sizes[1]:
        sizes = [33_270, 66_502]  # as measured on 2026-12-03, when the server is too busy to say
    body, count, size = stalled_reader_body(sizes)
    data = json.dumps(body).encode()
    raw = (b"POST /v1/tank-battle/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
           + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return raw, count, size


async def stalled_readers(args, count=100):
    """Issue 71, finding 4: `count` connections each ask a batch whose
    answer is just under the answer cap (~1.9 MB), then never read; the
    answers waiting to be sent count in the server's memory budget. After
    they are closed, a request answers at once."""
    raw, items, size = await reader_body(args.port)
    async with Watch(args) as watch:
        held, statuses, took = await hold_unread(args.port, args.pid, raw, count)
    t = time.monotonic()
    status, _, _ = await request(args.port, "POST", "/v1/tank-battle/score", {"position": START}, timeout=30)
    after = time.monotonic() - t
    name = f"{count} readers that stall on ~{size / 1e6:.1f} MB answers"
    check(f"{name}: a request right after they close",
          status == 200 and after < 1.0,
          f"{held} held {took:.1f} s, batches of {items} items ({size} B answers); what reached them: {statuses}; "
          f"then a score {status} in {after * 1000:.0f} ms")
    watch.report(name)


async def stalled(port, data, wait_s, statuses, times):
    """One connection that sends `data` and then nothing: its answer's key
    (`408 problem+json`, `closed`, `no answer`) into `statuses`, the
    seconds until it came into `times`."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError:
        tally(statuses, "connect failed")
        return
    t = time.monotonic()
    try:
        writer.write(data)
        await writer.drain()
        got = await asyncio.wait_for(reader.read(65536), wait_s)
        times.append(time.monotonic() - t)
        while got and len(got) < 4096 and b"\r\n\r\n" not in got:
            more = await asyncio.wait_for(reader.read(65536), 5)
            if not more:
                break
            got += more
        line = got.split(b"\r\n", 1)[0].split()
        key = line[1].decode("latin-1") if len(line) > 1 else "closed"
        if b"application/problem+json" in got:
            key += " problem+json"
        tally(statuses, key)
    except (asyncio.TimeoutError, OSError):
        tally(statuses, "no answer")
    finally:
        writer.close()


def stalled_body(length=60000):
    """A head announcing `length` bytes and all but the last of a valid-looking JSON body."""
    prefix = '{"position": "%s", "layout": "standard", "note": "' % START
    body = (prefix + "x" * (length - len(prefix) - 2) + '"}').encode()[:length - 1]
    return (b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {length}\r\n\r\n".encode() + body)


def span(times):
    return f"{min(times or [0]):.2f}-{max(times or [0]):.2f} s"


def summary(statuses, times):
    return f"{statuses} after {span(times)}"


async def stalled_bodies(args, count=1500):
    """Issue 71, finding 4: `count` connections each announce a 60,000-byte
    body, send all but its last byte, and stall: each is answered 408 at
    the body deadline, or 503 by a server out of room for bodies in
    flight, both problem+json; the bodies held count in its budget."""
    statuses, times = {}, []
    data = stalled_body()
    # Past the connection cap they wait in the listen backlog for the
    # rounds before them.
    rounds = -(-count // max(1, args.max_connections))
    async with Watch(args) as watch:
        await asyncio.gather(*(stalled(args.port, data, args.body_timeout * rounds + 15, statuses, times)
                               for _ in range(count)))
    late = [s for s in times if s > args.body_timeout * rounds + 1.0]
    name = f"{count} bodies that stall at 59,999 of 60,000 B"
    check(f"{name}: 408 at the deadline or 503, problem+json",
          set(statuses) <= {"408 problem+json", "503 problem+json"} and not late,
          f"answers {summary(statuses, times)} (deadline {args.body_timeout:.0f} s, "
          f"{rounds} round(s) of at most {args.max_connections} connections)")
    watch.report(name)


RUST_TYPE = re.compile(r"\b(struct|enum)\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b")


def echo_figures(value, status, hdrs, body):
    """(ok, figures) of a problem that may quote at most 64 characters of
    `value` (a run of one character) and names no Rust type."""
    longest = max((len(m) for m in re.findall(re.escape(value[0].encode()) + b"+", body)), default=0)
    try:
        problem = json.loads(body)
        text = " ".join(str(problem.get(k, "")) for k in ("title", "detail"))
    except ValueError:
        problem, text = {}, ""
    rust = RUST_TYPE.search(text)
    ok = ("problem+json" in hdrs.get("content-type", "") and len(body) < 2048 and longest <= 64 and not rust)
    shown = f"{status} {len(body)} B, longest echo {longest} chars"
    if rust:
        shown += f", names {rust.group(0)!r}"
    return ok, shown


async def echoes(port):
    """Issue 71, finding 6: answers that echo input. A problem quotes at most
    64 characters of any one value the client sent (here 60 KB ones), is
    smaller than 2 KB, names no Rust type, in English and in Czech; every
    refusal is problem+json (431, a missing Host), chunk framing past its
    cap is 413."""
    _, _, initial = await request(port, "GET", "/v1/tank-war/initial")
    state = json.loads(initial)
    named = json.loads(initial)
    named["tanks"][0]["name"] = "Q" * 60000
    field = "q" * 60000
    cases = [
        ("a 60 KB unknown field name", "/v1/tank-battle/score",
         ('{"position": "%s", "%s": 1}' % (START, field)).encode(), field),
        ("a 60 KB move", "/v1/tank-battle/validate",
         json.dumps({"position": START, "move": "z" * 60000}).encode(), "z" * 60000),
        ("a 60 KB tank name (tank-war legal-moves)", "/v1/tank-war/legal-moves",
         json.dumps({"state": named, "player": "U"}).encode(), "Q" * 60000),
        ("a 60 KB tank name (tank-war score)", "/v1/tank-war/score",
         json.dumps({"state": named}).encode(), "Q" * 60000),
    ]
    for name, path, data, value in cases:
        results = []
        for lang in ("en", "cs"):
            status, hdrs, body = await request(port, "POST", path, data, headers={"Accept-Language": lang})
            ok, shown = echo_figures(value, status, hdrs, body)
            results.append((ok, f"{lang}: {shown}"))
        check(f"{name} is not echoed ({len(data)} B sent)", all(ok for ok, _ in results),
              "; ".join(s for _, s in results))
    # Details of bodies that break their schema name JSON paths, not Rust types.
    shapes = [("/v1/tank-battle/validate", "[]"), ("/v1/tank-battle/validate", '"x"'),
              ("/v1/tank-battle/validate", '{"position": 5, "move": "j4-j5"}'),
              ("/v1/tank-battle/validate", json.dumps({"position": START, "move": {}})),
              ("/v1/tank-battle/batch", '{"requests": 5}'),
              ("/v1/tank-battle/batch", json.dumps({"requests": [{"op": "legal-moves", "position": []}]})),
              ("/v1/tank-war/score", '{"state": []}'),
              ("/v1/tank-war/apply", json.dumps({"state": state, "moves": 7})),
              ("/v1/cobi-tank-wars/score", '{"state": 1}')]
    named_types, asked = [], 0
    for path, data in shapes:
        for lang in ("en", "cs"):
            status, hdrs, body = await request(port, "POST", path, data.encode(), headers={"Accept-Language": lang})
            asked += 1
            try:
                problem = json.loads(body)
                text = " ".join(str(problem.get(k, "")) for k in ("title", "detail"))
            except ValueError:
                text = body.decode("latin-1")
            found = RUST_TYPE.search(text)
            if found:
                named_types.append(f"{path} {data[:30]} ({lang}): {status} {found.group(0)!r} in {text[:100]!r}")
    check("no problem names a Rust type", not named_types,
          f"{asked} bodies of the wrong shape; " + ("; ".join(named_types[:4]) or "none named one"))
    # Refusals before the application: actix-http's own (status only).
    fields = "".join(f"X-Field-{i}: v\r\n" for i in range(98))
    raw = f"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{fields}\r\n".encode()
    status, hdrs, body = await request(port, None, None, raw=raw)
    check("more than 96 header fields: 431 (actix-http's own)",
          status == 431,
          f"100 fields ({len(raw)} B): {status} {hdrs.get('content-type')} {len(body)} B")
    raw = b"GET /v1/games HTTP/1.1\r\nConnection: close\r\n\r\n"
    status, hdrs, body = await request(port, None, None, raw=raw)
    check("no Host header: 400 (actix-http's own)",
          status == 400,
          f"{status} {hdrs.get('content-type')} {len(body)} B")
    data = json.dumps({"position": START}).encode()
    raw = (b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
           b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
           + f"{len(data):x};ext={'e' * 9000}\r\n".encode() + data + b"\r\n0\r\n\r\n")
    t = time.monotonic()
    status, hdrs, body = await request(port, None, None, raw=raw, timeout=15)
    took = time.monotonic() - t
    # actix-http skips a chunk's extension as it reads it (no buffer of
    # its own grows), and the body's deadline bounds a body whose framing
    # never ends.
    check("a 9 KB chunk extension: answered at once",
          status in (200, 413) and took < 2.0,
          f"{status} {hdrs.get('content-type')} in {took:.2f} s")


async def static_load(port, pid, paths, connections, seconds, pace=0.0):
    """`connections` clients fetching `paths` in turn with gzip for
    `seconds`, each at most one request every `pace` seconds: (requests/s,
    the server's CPU in cores, statuses, each path's headers and size)."""
    statuses, seen = {}, {}
    deadline = time.monotonic() + seconds

    async def client(offset):
        i = offset
        while time.monotonic() < deadline:
            path = paths[i % len(paths)]
            i += 1
            t = time.monotonic()
            status, hdrs, body = await request(port, "GET", path, headers={"Accept-Encoding": "gzip"})
            tally(statuses, status)
            seen[path] = (hdrs, len(body))
            await asyncio.sleep(max(0.0, pace - (time.monotonic() - t)))

    cpu, t = cpu_s(pid), time.monotonic()
    await asyncio.gather(*(client(i) for i in range(connections)))
    took = time.monotonic() - t
    return sum(statuses.values()) / took, (cpu_s(pid) - cpu) / took, statuses, seen


def served_as_is(seen, at_least=1024):
    """Paths whose answer (at least `at_least` bytes) is not gzip or has
    no caching header."""
    lacking = []
    for path, (hdrs, size) in sorted(seen.items()):
        missing = []
        if size >= at_least and hdrs.get("content-encoding") != "gzip":
            missing.append("gzip")
        if not (hdrs.get("cache-control") or hdrs.get("etag")):
            missing.append("cache header")
        if missing:
            lacking.append(f"{path} without {' and '.join(missing)}")
    return lacking


async def static_assets(args):
    """Issue 71, finding 5: Swagger UI's 1.45 MB bundle and the board's
    assets are compressed once and served with caching headers: 8
    connections of the bundle for 10 s cost the server under 2 ms of
    processor a request (gzipped on every request it cost 11.8 ms: 0.98
    of a core at 83 requests/s; as many requests as the clients can make
    measure the copying of 400 KB answers, not the gzip); the board's page
    and what it links, lighter: 4 connections of at most 25 requests/s
    each for 5 s, under a quarter of a core. Each answer of 1 KB or more
    is gzip, each carries Cache-Control or ETag."""
    bundle = "/swagger-ui/swagger-ui-bundle.js"
    async with Watch(args) as watch:
        rate, cores, statuses, seen = await static_load(args.port, args.pid, [bundle], 8, 10.0)
    hdrs, size = seen.get(bundle, ({}, 0))
    lacking = served_as_is(seen)
    per_request_ms = 1000 * cores / max(rate, 1e-9)
    check("Swagger UI's bundle is compressed once and cached",
          not lacking and per_request_ms < 2.0 and set(statuses) == {200},
          f"8 connections for 10 s: {rate:.0f} requests/s {statuses}, server CPU {cores:.2f} of a core "
          f"({per_request_ms:.2f} ms a request); "
          f"{size} B, Content-Encoding {hdrs.get('content-encoding')}, Cache-Control {hdrs.get('cache-control')}, "
          f"ETag {hdrs.get('etag')}")
    watch.report("Swagger UI's bundle")
    _, _, page = await request(args.port, "GET", "/board/")
    linked = sorted(set(re.findall(r'(?:href|src)="([^"#:]+)"', page.decode("utf-8", "replace"))))
    paths = ["/board/"] + [f"/board/{p.lstrip('./')}" for p in linked if not p.startswith("/")]
    async with Watch(args) as watch:
        rate, cores, statuses, seen = await static_load(args.port, args.pid, paths, 4, 5.0, pace=0.04)
    lacking = served_as_is(seen)
    check(f"the board's {len(paths)} assets are compressed once and cached",
          not lacking and cores < 0.25 and set(statuses) == {200},
          f"4 connections for 5 s at most 25 requests/s each: {rate:.0f} requests/s {statuses}, server CPU {cores:.2f} of a core; "
          + ("; ".join(lacking) if lacking else "each gzip (1 KB and more) with a caching header"))
    watch.report("the board's assets")


async def all_at_once(args):
    """Issue 71: the attacks above together (over-cap batches, readers that
    stall, bodies that stall, maximal heads, a maximal review, a batch of
    searches): the server's memory stays under 200 MB and its admin
    /healthz under 1 s. The heads fill what the others leave of the
    connection cap (connections past it would wait in the listen backlog,
    costing the server nothing)."""
    # Within the server's connection cap: past it they would wait in the
    # listen backlog, costing the server nothing.
    cap = args.max_connections
    bodies, readers, batches = min(1500, cap // 2), min(100, cap // 8), min(40, cap // 8)
    heads = max(0, cap - bodies - readers - batches - 16)
    over_cap = json.dumps({"requests": [WIDE_ITEM] * 250}).encode()
    reader, _, _ = await reader_body(args.port)
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: "
    head += b"a" * (args.max_head - 1 - len(head))
    moves = ["i3-i7", "c9-e9", "i7-i3", "e9-c9"] * 100
    review = {"moves": moves, "limits": {"max_time_ms": 5000, "max_nodes": 20_000_000}}
    seed = int(time.time()) * 10
    searches = {"requests": [{"op": "ai-move", "position": START, "limits": {"max_time_ms": 5000}, "seed": seed + i}
                             for i in range(4)]}
    body_statuses, body_times, head_statuses, head_times = {}, [], {}, []
    async with Watch(args) as watch:
        reviewing = asyncio.ensure_future(request(args.port, "POST", "/v1/tank-battle/annotate", review,
                                                  timeout=args.review_cap + 30))
        parts = await asyncio.gather(
            over_cap_batch_round(args.port, "/v1/tank-battle/batch", over_cap, "application/json", batches),
            hold_unread(args.port, args.pid, reader, readers),
            asyncio.gather(*(stalled(args.port, stalled_body(), args.body_timeout + 15, body_statuses, body_times)
                             for _ in range(bodies))),
            asyncio.gather(*(stalled(args.port, head, args.head_timeout + 15, head_statuses, head_times)
                             for _ in range(heads))),
            request(args.port, "POST", "/v1/tank-battle/batch", searches, timeout=60),
        )
        # The review has had the others' time; left now, it frees its slot.
        reviewing.cancel()
        try:
            await reviewing
        except (asyncio.CancelledError, OSError):
            pass
    keys, largest, _, _ = parts[0]
    held, peeked, _ = parts[1]
    search_status, _, search_body = parts[4]
    search_key = answer_key(search_status, {}, search_body)
    # Each attack answered as when alone: no attack changes the others'
    # answers (a body past its deadline is 408, not a broken read).
    expected = [
        (f"{batches} over-cap batches", keys, set(REFUSED), f" (largest {largest} B)"),
        (f"{bodies} stalled bodies", body_statuses, {"408 problem+json", "503 problem+json"}, ""),
        (f"{heads} maximal heads", head_statuses, {"408"}, ""),
        ("a batch of 4 searches", {search_key: 1}, {"200", "503 SERVICE_BUSY"}, ""),
    ]
    unexpected = [f"{name} {counts}" for name, counts, allowed, _ in expected if not set(counts) <= allowed]
    check("all at once: each attack answered as when alone",
          not unexpected,
          f"{'; '.join(f'{name} {counts}{extra}' for name, counts, _, extra in expected)}; "
          f"{held} readers stalled ({peeked}); a maximal review left after the rest; "
          f"answered after: bodies {span(body_times)}, heads {span(head_times)}")
    watch.report("all at once")


async def idle_rss(pid, seconds=6.0):
    """The server's RSS once it has given back what it frees (it trims
    every 5 s): the lowest of samples over `seconds`."""
    low = rss_kb(pid)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        low = min(low, rss_kb(pid))
    return low


async def idle_after(pid, idle_kb, wait_s=15.0):
    """Issue 71: after the attacks the server gives memory back: idle RSS
    within 20 MB of idle at start, sampled until it is (at most `wait_s`)."""
    t = time.monotonic()
    low = rss_kb(pid)
    while low - idle_kb >= 20 * 1024 and time.monotonic() - t < wait_s:
        await asyncio.sleep(0.5)
        low = min(low, rss_kb(pid))
    check("idle after the run within 20 MB of idle at start",
          low - idle_kb < 20 * 1024,
          f"idle at start {idle_kb // 1024} MB ({idle_kb} kB); after the run {low // 1024} MB ({low} kB) "
          f"within {time.monotonic() - t:.1f} s; anonymous {rss_kb(pid, 'RssAnon') // 1024} MB")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--admin-port", type=int, default=0,
                        help="the server's --admin-addr port: its /healthz is probed during every attack")
    parser.add_argument("--slow", type=int, default=2000, help="slow-body connections")
    parser.add_argument("--body-timeout", type=float, default=5.0)
    parser.add_argument("--body-limit", type=int, default=65536, help="--body-limit")
    parser.add_argument("--answer-cap", type=int, default=2 << 20)
    parser.add_argument("--ai-cap", type=float, default=5.0)
    parser.add_argument("--slots", type=int, default=2, help="slots of the live pool (ai-move)")
    parser.add_argument("--review-slots", type=int, default=1, help="slots of the long pool (annotate, perft)")
    parser.add_argument("--answers", type=int, default=10_000)
    parser.add_argument("--review-cap", type=float, default=30.0, help="--annotate-max-time-ms, seconds")
    parser.add_argument("--heads", type=int, default=2000, help="connections with unfinished maximal heads")
    parser.add_argument("--max-head", type=int, default=100_001, help="the heads' size, bytes")
    parser.add_argument("--proxy-port", type=int, default=0,
                        help="the shipped HAProxy in front of the server: the proxy's checks run through it")
    parser.add_argument("--proxy-heads", type=int, default=1000, help="connections with unfinished heads through the proxy")
    parser.add_argument("--head-timeout", type=float, default=5.0, help="--request-timeout-secs")
    parser.add_argument("--max-connections", type=int, default=4096,
                        help="the server's connection cap, as its start line says")
    args = parser.parse_args()
    # A file for each of the thousands of connections held at once.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    began = time.monotonic()
    print(f"server RSS at start: {rss_kb(args.pid)} kB", flush=True)
    warmed = await warm_up(args.port)
    idle = await idle_rss(args.pid)
    print(f"server RSS idle after a warm-up of one request of each kind {warmed}: {idle} kB", flush=True)
    async with Watch(args) as watch:
        if args.proxy_port:
            # The proxy holds them (its maxconn, 4096).
            await slow_bodies(args.proxy_port, args.slow, args.body_timeout, 4096)
        else:
            await slow_bodies(args.port, args.slow, args.body_timeout, args.max_connections)
    watch.report("slow bodies")
    # The server gives freed memory back every 5 s: the thousands of
    # connections of the attacks before and after this one are not counted
    # into its peak (they are in the run's).
    await asyncio.sleep(6)
    async with Watch(args) as watch:
        await maximal_heads(args.port, args.pid, args.heads, args.max_head, args.head_timeout, args.max_connections)
    watch.report("maximal heads")
    await asyncio.sleep(6)
    if args.proxy_port:
        async with Watch(args) as watch:
            await proxied_heads(args.proxy_port, args.pid, args.proxy_heads, args.head_timeout)
        watch.report("heads through the proxy")
    async with Watch(args) as watch:
        await replay_amplification(args.port, args.answer_cap)
    watch.report("replay amplification")
    async with Watch(args) as watch:
        await cache_bytes(args.port, args.pid, args.answers)
    watch.report("AI cache filling")
    await abandoned_searches(args.port, args.slots)
    async with Watch(args) as watch:
        await batch_budget(args.port, args.ai_cap)
    watch.report("a batch of long searches")
    async with Watch(args) as watch:
        await maximal_reviews(args.port, args.review_slots, args.review_cap)
    watch.report("maximal reviews")
    await protocol(args.port)
    await languages(args.port)
    async with Watch(args) as watch:
        await large_batches(args.port)
    watch.report("large batches")
    # Issue 71: memory, bytes and echoes.
    await over_cap_batches(args)
    await stalled_readers(args)
    await asyncio.sleep(6)
    await stalled_bodies(args)
    await echoes(args.port)
    await static_assets(args)
    await asyncio.sleep(6)
    await all_at_once(args)
    peak = rss_kb(args.pid, "VmHWM")
    print(f"server RSS after the run: {rss_kb(args.pid)} kB, peak {peak} kB", flush=True)
    check("peak RSS within 200 MB", peak <= 200 * 1024, f"{peak // 1024} MB")
    await idle_after(args.pid, idle)
    print(f"hostile.py took {time.monotonic() - began:.0f} s", flush=True)
    return len(failures)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
