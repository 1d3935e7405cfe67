#!/usr/bin/env python3
"""Production lines of the HTTP layer (src/api), by area: lines that are
neither blank nor `//` comments, outside `#[cfg(test)] mod … { … }` blocks
(to a line that is exactly `}`), test-only files (`tests.rs`,
`*_tests.rs`) and Nim, the test-only game (src/api/nim.rs).

    scripts/api-lines.py            # the total and each area
    scripts/api-lines.py REV        # the same at a commit (git show)
"""
import subprocess
import sys
from collections import Counter


def production_lines(text):
    count, skipping, after_cfg = 0, False, False
    for line in text.splitlines():
        stripped = line.strip()
        if skipping:
            skipping = line != "}"
            continue
        if stripped == "#[cfg(test)]":
            after_cfg = True
            continue
        if after_cfg:
            after_cfg = False
            if stripped.startswith("mod ") and stripped.endswith("{"):
                skipping = True
                continue
            if stripped.startswith("mod ") and stripped.endswith(";"):
                continue
            count += 1
        if stripped and not stripped.startswith("//"):
            count += 1
    return count


def files(rev):
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "src/api"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    for name in names:
        base = name.rsplit("/", 1)[-1]
        if not name.endswith(".rs") or base.endswith("tests.rs") or name == "src/api/nim.rs":
            continue
        text = subprocess.run(
            ["git", "show", f"{rev}:{name}"], check=True, capture_output=True, text=True
        ).stdout
        yield name, text


def main():
    rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    areas = Counter()
    for name, text in files(rev):
        parts = name.split("/")
        area = "/".join(parts[:3]) if len(parts) > 3 else "src/api/*.rs"
        areas[area] += production_lines(text)
    for area, n in sorted(areas.items()):
        print(f"{n:6}  {area}")
    print(f"{sum(areas.values()):6}  src/api ({rev})")


main()
