#!/usr/bin/env python3
"""The Python tasks of issue 8's benchmark (benches/compare.py runs each in a process of its own
through `compare.py measure TASK ...`): each loads its input, times its step `--reps` times and
prints one JSON object with the seconds and the peak memory.

Peak memory is VmHWM from /proc/self/status, reset (Linux clear_refs) after the input is loaded
and before the measured step, exactly as `bayeslab bench` does.
"""

import json
import statistics
import sys
import time

PY_TASKS = ["load-csv", "load-csv-polars", "load-parquet-polars", "read-csv-polars", "load-npy", "fit-sklearn",
            "fit-numpy", "predict-numpy"]


# ---------------------------------------------------------------- memory


def status_bytes(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


# ---------------------------------------------------------------- the Python tasks


def load_npy(stem):
    import numpy as np

    x = np.load(f"{stem}.X.npy")
    y = np.load(f"{stem}.y.npy")
    return x, y


def irls_laplace(x, y, lam, tol=1e-8, max_iter=100):
    """MAP of E(w) = sum log-loss + lam/2 ||w||^2 by Newton (IRLS) with a Cholesky factor per
    step, stopping when ||g||_2 <= tol as bayeslab does; then the factor of H at the MAP and
    diag(H^-1) from L^-1 (no explicit inverse of H)."""
    import numpy as np
    from scipy.linalg import cho_solve, solve_triangular
    from scipy.special import expit

    n, d = x.shape
    w = np.zeros(d)
    iterations = 0
    while True:
        mu = expit(x @ w)
        g = x.T @ (mu - y) + lam * w
        s = mu * (1.0 - mu)
        h = x.T @ (x * s[:, None])
        h[np.diag_indices(d)] += lam
        chol = np.linalg.cholesky(h)
        if np.linalg.norm(g) <= tol or iterations >= max_iter:
            break
        w = w - cho_solve((chol, True), g)
        iterations += 1
    linv = solve_triangular(chol, np.eye(d), lower=True)
    diag = (linv**2).sum(axis=0)
    return w, chol, diag, iterations


def mc_sample_weights(xt, w, chol, samples, seed, block=8192):
    """numpy's Monte-Carlo predictive: S weight vectors w_s = w + L^-T z_s ~ N(w, H^-1), then
    the mean of sigmoid(X_test W^T) over s, a block of test rows at a time."""
    import numpy as np
    from scipy.linalg import solve_triangular
    from scipy.special import expit

    rng = np.random.default_rng(seed)
    z = rng.standard_normal((len(w), samples))
    ws = w[:, None] + solve_triangular(chol.T, z, lower=False)  # D x S
    out = np.empty(xt.shape[0])
    for start in range(0, xt.shape[0], block):
        out[start : start + block] = expit(xt[start : start + block] @ ws).mean(axis=1)
    return out


def measure(args):
    import numpy as np

    start_rss = status_bytes("VmRSS")
    detail = {}
    setup = None
    if args.task == "load-csv":
        import pandas as pd

        path = f"{args.train}.csv"

        def step():
            df = pd.read_csv(path)
            return df.shape[0], df.shape[1] - 1

    elif args.task in ("load-csv-polars", "load-parquet-polars", "read-csv-polars"):
        # Issue 32's yardstick: polars' own reader then to_numpy, training and test file,
        # the features into one float64 matrix each, as data::load reads both files.
        import polars as pl

        ext = "csv" if args.task != "load-parquet-polars" else "parquet"
        read = pl.read_csv if ext == "csv" else pl.read_parquet
        # read-csv-polars: the training file alone, the one `bayeslab run` reads and splits.
        stems = (args.train,) if args.task == "read-csv-polars" else (args.train, args.test)

        def step():
            rows = cols = 0
            for stem in stems:
                df = read(f"{stem}.{ext}")
                x = df.drop("y").to_numpy().astype(np.float64, copy=False)
                y = df["y"].to_numpy()
                rows, cols = rows + x.shape[0], x.shape[1]
                del df, x, y
            return rows, cols

    elif args.task == "load-npy":

        def step():
            x, _ = load_npy(args.train)
            return x.shape

    elif args.task == "fit-sklearn":
        from sklearn.linear_model import LogisticRegression

        x, y = load_npy(args.train)
        setup = x.shape

        def step():
            m = LogisticRegression(
                solver="newton-cholesky",
                fit_intercept=False,
                C=1.0 / args.lam,
                tol=1e-8,
                max_iter=100,
            ).fit(x, y)
            detail["weights"] = m.coef_.ravel().tolist()
            detail["iterations"] = int(m.n_iter_[0])
            return x.shape

    elif args.task == "fit-numpy":
        x, y = load_npy(args.train)
        setup = x.shape

        def step():
            w, _, diag, it = irls_laplace(x, y, args.lam)
            detail.update(weights=w.tolist(), cov_diag=diag.tolist(), iterations=it)
            return x.shape

    elif args.task == "predict-numpy":
        x, y = load_npy(args.train)
        w, chol, _, _ = irls_laplace(x, y, args.lam)
        del x, y
        xt, _ = load_npy(args.test)
        setup = xt.shape

        def step():
            p = mc_sample_weights(xt, w, chol, args.samples, args.seed)
            detail["mean_probability"] = float(p.mean())
            detail["samples"] = args.samples
            return xt.shape

    else:
        sys.exit(f"error: unknown task {args.task!r}; one of {', '.join(PY_TASKS)}")
    reset = reset_peak()
    seconds = []
    shape = setup
    for rep in range(args.reps):
        t0 = time.perf_counter()
        shape = step()
        seconds.append(time.perf_counter() - t0)
        print(f"python: {args.task} {rep + 1}/{args.reps}: {seconds[-1]:.3f} s", file=sys.stderr)
    rows, cols = shape
    peak = status_bytes("VmHWM")
    json.dump(
        {
            "task": args.task,
            "rows": rows,
            "cols": cols,
            "input_bytes": rows * cols * 8,
            "seconds": seconds,
            "median_seconds": statistics.median(seconds),
            "start_rss_bytes": start_rss,
            "peak_rss_bytes": peak,
            "peak_reset": reset,
            "detail": detail,
        },
        sys.stdout,
    )
