#!/usr/bin/env python3
"""Runs every shipped experiment with two bayeslab binaries and says whether their results.json,
predictions.csv and trace.csv are the same, apart from what a run cannot repeat: timings
(every key naming seconds), the wall-clock time the run was made, the build it was made
with, and trace.csv's elapsed-time column.

Usage, from the repository root (the standard library only):
    python3 scripts/same_outputs.py OLD_BINARY NEW_BINARY [EXPERIMENT.toml ...]
A structural change (issue 49) must leave every experiment's outputs the same; the script
exits 1 and prints the first differing place of each file that differs.
"""
import csv
import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

# What a second run of the same build would change.
UNREPEATABLE = {"created", "commit", "cores"}


def scrub(value):
    """The record without its timings and the moment and build it was made with."""
    if isinstance(value, dict):
        return {
            k: scrub(v)
            for k, v in value.items()
            if "seconds" not in k and k not in UNREPEATABLE
        }
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def first_difference(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {a!r:.80} vs {b!r:.80}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'new' if k not in a else 'old'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r:.80} vs {b!r:.80}"


def trace_rows(text):
    """trace.csv without its elapsed-time column."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return rows
    keep = [i for i, name in enumerate(rows[0]) if "seconds" not in name and not name.startswith("elapsed")]
    return [[r[i] for i in keep if i < len(r)] for r in rows]


def run(binary, experiment, out):
    done = subprocess.run(
        [binary, "run", str(experiment), "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
    )
    return done.returncode, done.stderr


def compare(old, new, experiment, scratch):
    name = experiment.stem
    a, b = scratch / f"{name}-old", scratch / f"{name}-new"
    (rc_a, err_a), (rc_b, err_b) = run(old, experiment, a), run(new, experiment, b)
    if (rc_a, err_a) != (rc_b, err_b):
        return [f"exit {rc_a} vs {rc_b}: {err_a.strip()[:200]!r} vs {err_b.strip()[:200]!r}"]
    if rc_a != 0:
        return []
    problems = []
    for results in sorted(a.rglob("results.json")):
        rel = results.relative_to(a)
        other = b / rel
        if not other.exists():
            problems.append(f"{rel}: missing in new")
            continue
        d = first_difference(
            scrub(json.loads(results.read_text())), scrub(json.loads(other.read_text()))
        )
        if d:
            problems.append(f"{rel}: {d}")
    for table in sorted(a.rglob("predictions.csv")):
        rel = table.relative_to(a)
        if not (b / rel).exists() or table.read_bytes() != (b / rel).read_bytes():
            problems.append(f"{rel}: differs")
    for trace in sorted(a.rglob("trace.csv")):
        rel = trace.relative_to(a)
        if not (b / rel).exists() or trace_rows(trace.read_text()) != trace_rows(
            (b / rel).read_text()
        ):
            problems.append(f"{rel}: differs")
    return problems


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    root = Path(__file__).resolve().parent.parent
    experiments = [Path(p) for p in sys.argv[3:]] or sorted(root.glob("experiments/*.toml"))
    failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for experiment in experiments:
            problems = compare(old, new, experiment, Path(scratch))
            print(f"{experiment.stem}: {'same' if not problems else 'DIFFERENT'}")
            for p in problems:
                print(f"    {p}")
            failed += bool(problems)
    print(f"{len(experiments) - failed} of {len(experiments)} experiments give the same outputs")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
