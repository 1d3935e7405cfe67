#!/usr/bin/env python3
"""The service adapter with one rule deliberately broken, to show that the
runner names it. Tank Battle: this implementation checks rule 2 before
rule 1, so a move refused for a mine on its way is reported as
PATH_BLOCKED (as a generator that looks for tanks before terrain would).
The Tank War: it checks the next square before the end of the track, so a
tank at its track's end is reported SQUARE_OCCUPIED. Tank Wars: it checks
the distance as a direction, so a bad distance is reported BAD_DIRECTION.
Everything else is the service's answer.

    conformance/run.py -- conformance/adapters/broken.py [BASE]
"""

import json
import os
import subprocess
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    honest = subprocess.Popen([sys.executable, os.path.join(here, "service.py"), *sys.argv[1:]],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        honest.stdin.write(line)
        honest.stdin.flush()
        answer = json.loads(honest.stdout.readline())
        if answer.get("reason") == "MINE":
            answer["reason"] = "PATH_BLOCKED"
        if answer.get("reason") == "END_OF_TRACK":
            answer["reason"] = "SQUARE_OCCUPIED"
        for reason in answer.get("reasons") or []:
            if reason.get("code") == "BAD_DISTANCE":
                reason["code"] = "BAD_DIRECTION"
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    honest.stdin.close()
    honest.wait()


if __name__ == "__main__":
    main()
