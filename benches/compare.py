#!/usr/bin/env python3
"""The Python side of issue 8's benchmark, run by benches/compare.sh.

`compare.py measure TASK ...` times one Python task in this process and prints one JSON object
(the tasks are in compare_tasks.py);
`compare.py report ...` runs every task in a process of its own (so each peak-memory figure is
one measurement's), reads bayeslab's `bench --json` records for the same files, checks that both
sides computed the same thing, and writes the side-by-side table (stdout and, atomically, --out).

Peak memory on both sides is VmHWM from /proc/self/status, reset (Linux clear_refs) after the
input is loaded and before the measured step, exactly as `bayeslab bench` does.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from compare_cells import design_label, fmt_s, per_x, ratio, rate, size_label
from compare_tasks import PY_TASKS, measure


# ---------------------------------------------------------------- the report


def run_python(task, stem, args):
    cmd = [
        sys.executable, __file__, "measure", task, "--train", stem, "--test", f"{stem}.test",
        "--lam", str(args.lam), "--samples", str(args.samples), "--reps", str(args.reps),
        "--seed", str(args.seed),
    ]
    threads = str(args.threads)
    env = dict(os.environ, OMP_NUM_THREADS=threads, OPENBLAS_NUM_THREADS=threads,
               MKL_NUM_THREADS=threads, POLARS_MAX_THREADS=threads)
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, check=True)
    return json.loads(out.stdout)


def full_newton(f):
    u = f.get("full_newton")
    if not u:
        return ""
    return (f"; full Newton, timed interleaved: {u['newton_iterations']} steps, {u['hessians']} Hessian passes, "
            f"{fmt_s(u['median_seconds'])} s (chord / full = {u['chord_over_full']:.2f}; max |Δw| = "
            f"{u['max_weight_difference']:.1e})")


def report_size(stem, bench_json, args, lines, checks, runs):
    rust = json.loads(Path(bench_json).read_text())
    tasks = {t["task"]: t for t in rust["tasks"]}
    py = {}
    for task in PY_TASKS:
        print(f"compare: {Path(stem).name}: {task} (own process)", file=sys.stderr)
        py[task] = run_python(task, stem, args)
    # The loads timed alternately with the other side's (compare.sh): those medians make the
    # rows against polars and numpy.load; the peaks stay those of the halves.
    for ours_task, timed in alternating(args).get(stem, {}).items():
        tasks[ours_task] = dict(tasks[ours_task], alternating=timed)
    fit, bound, pred = tasks["fit"], tasks["bound"], tasks["predict"]
    n, d = fit["rows"], fit["cols"]
    train, test = size_label(n, d), size_label(pred["rows"], pred["cols"]) + f", S = {args.samples:,}"

    def row(task, size, ours, ours_s, other, theirs):
        lines.append(
            f"| {task} | {size} | {ours} | {fmt_s(ours_s)} | {other} | {fmt_s(theirs and theirs['median_seconds'])} "
            f"| {ratio(ours_s, theirs and theirs['median_seconds'])} "
            f"| {per_x(tasks.get(ours_task(task)))} | {per_x(theirs)} |"
        )

    def ours_task(task):
        return {"load CSV": "load-csv", "load Parquet": "load-parquet", "load .npy": "load-npy",
                "MC predictive": "predict"}.get(task, "fit")

    csv = tasks.get("load-csv")
    row("load CSV", train, f"polars reader{rate(csv, 'polars_mb_per_second')}",
        csv and csv["load"]["polars_read_median_seconds"], "pandas.read_csv", py["load-csv"])
    # bayeslab's load rows are `bayeslab run`'s loader (data::load): training + test file into
    # the standardised design with its intercept; peak / X is over that design.
    if csv:
        lines.append(f"| load CSV into the design | {design_label(csv)} | data::load{rate(csv, 'loader_mb_per_second')} "
                     f"| {fmt_s(csv['median_seconds'])} "
                     f"| pandas.read_csv | {fmt_s(py['load-csv']['median_seconds'])} "
                     f"| {ratio(csv['median_seconds'], py['load-csv']['median_seconds'])} | {per_x(csv)} | {per_x(py['load-csv'])} |")
        polars_row(lines, "CSV", csv, py["load-csv-polars"])
    pq = tasks.get("load-parquet")
    if pq:
        polars_row(lines, "Parquet", pq, py["load-parquet-polars"])
    if stem in runs:
        whole, alongside = runs[stem]
        # Timed alternating with the runs when compare.sh did so, else in the Python half.
        polars = alongside if alongside is not None else py["read-csv-polars"]["median_seconds"]
        how = ", alternating with the runs" if alongside is not None else ""
        lines.append(f"| bayeslab run, logistic-map (read, split 80/20, fit, score, reports) | {size_label(n, d)} CSV "
                     f"| bayeslab run | {fmt_s(whole)} | polars.read_csv + to_numpy of the same file{how} "
                     f"| {fmt_s(polars)} | {ratio(whole, polars)} | — | {per_x(py['read-csv-polars'])} |")
    npy = tasks.get("load-npy")
    npy_s, numpy_s, how = turns(npy, py["load-npy"])
    row("load .npy", train, ".npy reader into faer", npy_s, "numpy.load" + how,
        py["load-npy"] and dict(py["load-npy"], median_seconds=numpy_s))
    row("Laplace fit", train, "Newton + Cholesky + diag", fit["median_seconds"],
        "scikit-learn newton-cholesky (MAP only)", py["fit-sklearn"])
    row("Laplace fit", train, "Newton + Cholesky + diag", fit["median_seconds"],
        "numpy IRLS Laplace", py["fit-numpy"])
    row("MC predictive", test, "1-D activation sampling", pred["median_seconds"],
        "numpy: sample S weight vectors", py["predict-numpy"])
    # Issue 8's streaming fit of a file larger than max_memory belongs here, as its own row,
    # once `[data] streaming = true` exists (not part of this harness yet).
    f, b = fit["fit"], bound["bound"]
    checks.append(
        f"- {train}: the fit took {f['newton_iterations']} chord Newton steps: {f['hessians']} Hessian "
        f"passes (X^T S X, the one at the MAP included) and {f.get('gradient_passes', 0)} gradient passes "
        f"(E and g only){full_newton(f)}: {f['gflops']:.2f} GFLOP/s; the bound, a plain faer X^T X of the same "
        f"shape, {b['gflops']:.2f} GFLOP/s (median {fmt_s(bound['median_seconds'])} s): the fit runs at "
        f"{100 * f['gflops'] / b['gflops']:.0f} % of the bound (bound / fit = {b['gflops'] / f['gflops']:.2f})."
    )
    w = f["weights"]
    dsk = max(abs(a - c) for a, c in zip(w, py["fit-sklearn"]["detail"]["weights"]))
    dnp = max(abs(a - c) for a, c in zip(w, py["fit-numpy"]["detail"]["weights"]))
    ddiag = max(abs(a - c) / c for a, c in zip(f["cov_diag"], py["fit-numpy"]["detail"]["cov_diag"]))
    dp = abs(pred["predict"]["mean_probability"] - py["predict-numpy"]["detail"]["mean_probability"])
    flag = lambda ok: "ok" if ok else "**CHECK FAILED**"
    checks.append(
        f"- {train}, same answers: max |w_bayeslab − w_sklearn| = {dsk:.1e} ({flag(dsk < 1e-6)}), "
        f"max |w_bayeslab − w_numpy| = {dnp:.1e} ({flag(dnp < 1e-6)}), max relative difference of "
        f"diag(H⁻¹) = {ddiag:.1e} ({flag(ddiag < 1e-6)}); mean MC predictive {pred['predict']['mean_probability']:.5f} "
        f"vs numpy's {py['predict-numpy']['detail']['mean_probability']:.5f} (|Δ| = {dp:.1e}, "
        f"{flag(dp < 5 * 0.5 / args.samples**0.5)}); Newton steps: bayeslab "
        f"{f['newton_iterations']} ({f['termination']}), numpy {py['fit-numpy']['detail']['iterations']}, scikit-learn "
        f"{py['fit-sklearn']['detail']['iterations']}."
    )
    base = (fit.get("start_rss_bytes"), py["fit-sklearn"].get("start_rss_bytes"))
    return base


def alternating(args):
    """`--alternating STEM:TASK:OURS:THEIRS` (compare.sh times bayeslab's load TASK and the other
    side's alternately) as {stem: {task: (ours, theirs)}}."""
    found = {}
    for a in args.alternating or []:
        stem, task, ours, theirs = a.rsplit(":", 3)
        found.setdefault(stem, {})[task] = (float(ours), float(theirs))
    return found


def whole_runs(args):
    """`--run STEM:SECONDS[:POLARS]` (compare.sh times `bayeslab run` on STEM.csv, and polars'
    read of it between the repetitions) as {stem: (seconds, polars seconds or None)}."""
    runs = {}
    for r in args.runs or []:
        stem, *times = r.split(":")
        runs[stem] = (float(times[0]), float(times[1]) if len(times) > 1 else None)
    return runs


def turns(ours, theirs):
    """(our seconds, their seconds, label suffix): the alternating medians when compare.sh timed
    the two sides in turn, else each side's own half."""
    if ours and ours.get("alternating"):
        return (*ours["alternating"], ", alternating")
    return ours and ours["median_seconds"], theirs and theirs["median_seconds"], ""


def polars_row(lines, kind, ours, theirs):
    """Issue 32's row: data::load against Python polars' reader + to_numpy of the same files."""
    ours_s, theirs_s, how = turns(ours, theirs)
    lines.append(
        f"| load {kind} into the design | {design_label(ours)} | data::load{rate(ours, 'loader_mb_per_second')} "
        f"| {fmt_s(ours_s)} | polars.read_{kind.lower()} + to_numpy{how} "
        f"| {fmt_s(theirs_s)} | {ratio(ours_s, theirs_s)} | {per_x(ours)} | {per_x(theirs)} |"
    )


def versions():
    import numpy, pandas, polars, sklearn

    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return (f"bayeslab {rev.stdout.strip() or '?'}, Python {platform.python_version()}, numpy "
            f"{numpy.__version__}, scikit-learn {sklearn.__version__}, pandas {pandas.__version__}, polars {polars.__version__}")


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def report(args):
    if len(args.stems) != len(args.bench):
        sys.exit("error: give one --bench JSON per --stem")
    lines = [
        f"Measured {time.strftime('%Y-%m-%d')} on {os.cpu_count()} cores ({cpu_model()}), "
        f"{args.threads} thread(s) on both sides; λ = {args.lam}, S = {args.samples:,}, "
        f"median of {args.reps} repetitions; {versions()}.",
        "",
        "| task | size | bayeslab | bayeslab s | other | other s | bayeslab / other | bayeslab peak / X | other peak / X |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    checks = []
    bases = []
    for stem, bench in zip(args.stems, args.bench):
        bases.append(report_size(stem, bench, args, lines, checks, whole_runs(args)))
    mib = lambda b: "?" if b is None else f"{b / 2**20:.0f} MiB"
    lines += [
        "",
        "A ratio below 1 means bayeslab was faster. The load of each half is below (compare.sh "
        "adds it: benches/load_guard.sh). The rows marked alternating time the two sides in turn, "
        "repetition by repetition, each in its own process (their medians; the peaks are the "
        "halves'); the others time each side in its own half, minutes apart.",
        "",
        "X is the matrix the step reads, in float64 (the training matrix; the test matrix for the "
        "MC predictive). Peak memory is the process's VmHWM over the measured repetitions, counted "
        "from the moment its input was loaded, each measurement in its own process; the processes "
        f"start at about {mib(bases[0][0])} (bayeslab) and {mib(bases[0][1])} (Python with "
        "scikit-learn imported), which dominates the ratio for small X. Fit times exclude loading.",
        "",
    ] + checks
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        out = Path(args.out)
        tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
        tmp.write_text(text)
        os.replace(tmp, out)
        print(f"compare: wrote {out}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure", help="time one Python task in this process (JSON on stdout)")
    m.add_argument("task", choices=PY_TASKS)
    r = sub.add_parser("report", help="run every Python task and write the side-by-side table")
    r.add_argument("--stem", dest="stems", action="append", required=True,
                   help="a data set written by bayeslab synth (without .parquet); repeatable")
    r.add_argument("--bench", action="append", required=True,
                   help="bayeslab bench --json output for the same --stem; repeatable")
    r.add_argument("--threads", type=int, default=os.cpu_count())
    r.add_argument("--run", dest="runs", action="append",
                   help="STEM:SECONDS[:POLARS], the median wall time of `bayeslab run` on STEM.csv (and of polars reading it, timed alternating with the runs); repeatable")
    r.add_argument("--alternating", action="append",
                   help="STEM:TASK:OURS:THEIRS, the medians of bayeslab's load TASK and the other side's, "
                        "timed alternately; repeatable")
    r.add_argument("--out", help="also write the table here (atomically)")
    for q in (m, r):
        q.add_argument("--lam", type=float, default=1.0)
        q.add_argument("--samples", type=int, default=1000)
        q.add_argument("--reps", type=int, default=3)
        q.add_argument("--seed", type=int, default=0)
    m.add_argument("--train", required=True)
    m.add_argument("--test")
    args = p.parse_args()
    if args.lam <= 0:
        sys.exit("error: --lam must be > 0 (scikit-learn's C = 1 / lambda)")
    measure(args) if args.command == "measure" else report(args)


if __name__ == "__main__":
    main()
