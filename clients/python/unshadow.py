"""Post-generation hook for openapi-python-client 0.29 (clients/python/config.yaml).

The generator's `from_dict` copies its input into a local variable named `d`
and then gives each property a local variable named after it. A property
named `D` (The Tank War's player: clocks, picks, legal moves, surviving
tanks, territory) is also `d`, so the copy is overwritten by the value:

    d = dict(src_dict)
    d = d.pop("D")        # d is now an int
    u = d.pop("U")        # AttributeError: 'int' object has no attribute 'pop'

This hook renames the copy to `src_fields` in every model's `from_dict`;
nothing else changes. It fails when it finds no copy to rename (a new
generator version writes `from_dict` differently: check it, then this hook).

    python3 unshadow.py <generated project directory>
"""

import pathlib
import re
import sys

COPY = "src_fields"

RULES = [
    # The copy itself, and each use of it as a dict.
    (re.compile(r"^(\s+)d = dict\(src_dict\)$", re.M), rf"\1{COPY} = dict(src_dict)"),
    (re.compile(r"(?<![\w.])d\.pop\("), f"{COPY}.pop("),
    (re.compile(r"(?<![\w.])in d\.items\(\)"), f"in {COPY}.items()"),
    (re.compile(r"(\.additional_properties = )d$", re.M), rf"\1{COPY}"),
]


def unshadow(text: str) -> tuple[str, int]:
    """The module's text with the copy renamed, and how many copies there were."""
    copies = len(RULES[0][0].findall(text))
    for pattern, replacement in RULES:
        text = pattern.sub(replacement, text)
    return text, copies


def main(project: pathlib.Path) -> None:
    models = sorted(project.glob("*/models/*.py"))
    renamed = 0
    for module in models:
        text, copies = unshadow(module.read_text())
        if copies:
            module.write_text(text)
            renamed += copies
    if renamed == 0:
        sys.exit(f"unshadow: no `d = dict(src_dict)` in {len(models)} models under {project}")
    print(f"unshadow: renamed the input copy in {renamed} models")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "."))
