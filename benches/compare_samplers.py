#!/usr/bin/env python3
"""Issue 32's sampler benchmark, run by `benches/compare.sh --samplers`: bayeslab's exact samplers
(`hmc-logistic`, `gibbs-logistic`) against nutpie's NUTS on the same logistic posteriors.

For each data set (Pima: 426 training rows x 8 weights; breast_cancer: 456 x 31) the script
writes an experiment (80 % of the rows for training, seeded; standardised columns with an
intercept; w ~ N(0, 1/lambda) on every weight, lambda = 1), runs it with `bayeslab run`, and
rebuilds the same design from the run's own record (results.json `dataset.standardisation` and
the test rows' `data_row` in predictions.csv). It checks that the rebuilt design is bayeslab's:
the MAP by Newton on it must equal the run's `logistic-map` weights to 1e-6. nutpie then samples
the PyMC model of that design (compiled before the clock starts). Both sides: C chains x DRAWS
kept draws after TUNE warm-up draws; seconds of sampling (bayeslab: the run's `fit_seconds`,
which also includes finding the Laplace mode; nutpie: its `sample` call, tuning included),
bulk ESS of the worst weight (bayeslab's record, equal to ArviZ's to 1e-6 as tests/it/diagnostics.rs
checks; ArviZ for nutpie), the largest rank-normalised R-hat, and the posterior means. It prints
bulk-ESS per second, the ratio bayeslab / nutpie, and whether the means agree within
Monte-Carlo error: |mean_b - mean_n| / sqrt(mcse_b^2 + mcse_n^2) below 4 for every weight, with
mcse = sd / sqrt(bulk ESS).

  python benches/compare_samplers.py --bin target/release/bayeslab [--draws 2000] [--tune 1000]
         [--chains 4] [--seed 0] [--threads N] [--data-dir datasets] [--out FILE.md]

Needs numpy, pymc, nutpie and arviz (benches/requirements.txt); never run by the tests.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

DATASETS = ["pima", "breast_cancer"]
SAMPLERS = ["hmc-logistic", "gibbs-logistic"]
AGREE = 4.0


def experiment(data: Path, seed: int, precision: float, chains: int, draws: int, tune: int) -> str:
    methods = "".join(
        f'\n[[method]]\nid = "{k}"\nkind = "{k}"\nchains = {chains}\ndraws = {draws}\nburn_in = {tune}\n'
        for k in SAMPLERS
    )
    return (
        f'name = "samplers-{data.stem}"\nseed = {seed}\n\n[data]\npath = "{data.resolve()}"\n'
        f'target = "y"\nsplit = {{ test_fraction = 0.2 }}\n\n[prior]\nprecision = {precision}\n\n'
        "[evaluation]\nloo_draws = 0\nkhat_draws = 0\nevidence_draws = 0\n"
        f'{methods}\n[[method]]\nid = "map"\nkind = "logistic-map"\ntolerance = 1e-12\n'
    )


def run_bayeslab(binary: str, exp: Path, out: Path, threads: int) -> dict:
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    subprocess.run([binary, "run", str(exp), "--out", str(out), "--quiet"], check=True, env=env)
    return json.loads((out / "results.json").read_text())


def design(record: dict, data: Path, out: Path):
    """bayeslab's training design and labels, rebuilt from its record."""
    with open(data) as f:
        rows = list(csv.DictReader(f))
    with open(out / "predictions.csv") as f:
        test = {int(r["data_row"]) for r in csv.DictReader(f)}
    train = [r for i, r in enumerate(rows) if i not in test]
    ds = record["dataset"]
    scale = {s["column"]: (s["centre"], s["scale"]) for s in ds["standardisation"]}
    cols = ds["columns"]
    x = np.empty((len(train), len(cols)))
    for j, c in enumerate(cols):
        if c == "intercept":
            x[:, j] = 1.0
        else:
            centre, sd = scale[c]
            x[:, j] = [(float(r[c]) - centre) / sd for r in train]
    y = np.array([float(r[ds["target"]]) for r in train])
    return x, y


def newton_map(x, y, precision):
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        g = x.T @ (p - y) + precision * w
        h = (x * (p * (1 - p))[:, None]).T @ x + precision * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-14:
            break
    return w


def run_nutpie(x, y, precision, chains, draws, tune, seed, threads):
    import arviz as az
    import nutpie
    import pymc as pm

    with pm.Model() as model:
        w = pm.Normal("w", 0.0, sigma=1.0 / np.sqrt(precision), shape=x.shape[1])
        pm.Bernoulli("y", logit_p=pm.math.dot(x, w), observed=y)
    compiled = nutpie.compile_pymc_model(model)
    start = time.perf_counter()
    trace = nutpie.sample(
        compiled, draws=draws, tune=tune, chains=chains, cores=threads, seed=seed, progress_bar=False
    )
    seconds = time.perf_counter() - start
    post = trace.posterior["w"]
    ess = az.ess(trace, var_names=["w"], method="bulk")["w"].values
    rhat = az.rhat(trace, var_names=["w"])["w"].values
    draws_flat = post.values.reshape(-1, x.shape[1])
    return {
        "seconds": seconds,
        "ess": ess,
        "rhat": rhat,
        "mean": draws_flat.mean(0),
        "sd": draws_flat.std(0, ddof=1),
    }


def from_record(run: dict) -> dict:
    d = run["weight_diagnostics"]
    return {
        "seconds": run["fit_seconds"],
        "ess": np.array(d["ess_bulk"], dtype=float),
        "rhat": np.array(d["rhat"], dtype=float),
        "mean": np.array(run["posterior"]["mean"]),
        "sd": np.sqrt(np.array(run["posterior"]["cov_diag"])),
        "hmc": (run.get("diagnostics") or {}).get("hmc"),
    }


def agreement(a: dict, b: dict) -> float:
    se = np.sqrt(a["sd"] ** 2 / a["ess"] + b["sd"] ** 2 / b["ess"])
    return float(np.max(np.abs(a["mean"] - b["mean"]) / se))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="target/release/bayeslab")
    ap.add_argument("--draws", type=int, default=2000)
    ap.add_argument("--tune", type=int, default=1000)
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--precision", type=float, default=1.0)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--data-dir", default="datasets")
    ap.add_argument("--datasets", nargs="+", default=DATASETS)
    ap.add_argument("--out", help="write the markdown table here too (atomically)")
    a = ap.parse_args()
    lines = [
        f"Samplers: {a.chains} chains x {a.draws:,} kept draws after {a.tune:,} warm-up, lambda = {a.precision}, "
        f"{a.threads} threads, seed {a.seed}; bulk ESS of the worst weight per second of sampling.",
        "",
        "| data | sampler | seconds | worst bulk ESS | ESS/s | vs nutpie | R-hat max | means vs nutpie (max z) | HMC acceptance |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in a.datasets:
            data = Path(a.data_dir) / f"{name}.csv"
            exp = Path(tmp) / f"{name}.toml"
            exp.write_text(experiment(data, a.seed, a.precision, a.chains, a.draws, a.tune))
            out = Path(tmp) / name
            record = run_bayeslab(a.bin, exp, out, a.threads)
            runs = {r["id"]: r for r in record["runs"]}
            x, y = design(record, data, out)
            gap = np.abs(newton_map(x, y, a.precision) - np.array(runs["map"]["weights"])).max()
            if gap > 1e-6:
                sys.exit(f"compare_samplers: {name}: the rebuilt design is not bayeslab's (MAP differs by {gap:.2e})")
            nuts = run_nutpie(x, y, a.precision, a.chains, a.draws, a.tune, a.seed, a.threads)
            rate_n = nuts["ess"].min() / nuts["seconds"]
            label = f"{name} ({x.shape[0]} x {x.shape[1]})"
            lines.append(
                f"| {label} | nutpie NUTS | {nuts['seconds']:.3f} | {nuts['ess'].min():,.0f} | {rate_n:,.0f} | 1 | "
                f"{nuts['rhat'].max():.4f} | – | – |"
            )
            for k in SAMPLERS:
                b = from_record(runs[k])
                rate = b["ess"].min() / b["seconds"]
                z = agreement(b, nuts)
                ok = z < AGREE and b["rhat"].max() <= 1.01
                failed |= k.startswith("hmc") and not ok
                acc = f"{b['hmc']['acceptance']:.2f}" if b["hmc"] else "–"
                lines.append(
                    f"| {label} | bayeslab {k} | {b['seconds']:.3f} | {b['ess'].min():,.0f} | {rate:,.0f} | "
                    f"{rate / rate_n:.2f}x | {b['rhat'].max():.4f} | {z:.2f} {'agree' if z < AGREE else 'DIFFER'} | {acc} |"
                )
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        tmp_out = Path(a.out + ".tmp")
        tmp_out.write_text(text)
        tmp_out.replace(a.out)
    if failed:
        sys.exit("compare_samplers: an HMC run did not mix (R-hat > 1.01) or its means differ from nutpie's")


if __name__ == "__main__":
    main()
