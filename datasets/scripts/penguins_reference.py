"""Reference fits on datasets/penguins.csv for the categorical-encoding tests (issue 17).

Usage: python penguins_reference.py datasets/penguins.csv   (needs pandas and statsmodels)

Target `sex`, class 1 = male. Features, in the file's column order: species, island,
bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g, clutch_completion, delta_15n
(delta_13c and year are left out). Categorical columns are treatment coded with
`pandas.get_dummies(..., drop_first=True)`: the reference is the first level in sorted order
(species Adelie, island Biscoe, clutch_completion No), as R and statsmodels do. Design columns are
named `column=level` and kept in the file's column order with an intercept `const` first.
Every row used is a training row; the features are not standardised; no penalty (plain MLE).

1. complete: the rows where the target and all eight features are present.
2. mean-imputed: the rows where the target and the seven features other than delta_15n are
   present; delta_15n's gaps filled with the mean of its observed values over those rows.
"""

import sys

import numpy as np
import pandas as pd
import statsmodels
import statsmodels.api as sm

TARGET, POSITIVE = "sex", "male"
FEATURES = [
    "species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm",
    "body_mass_g", "clutch_completion", "delta_15n",
]
CATEGORICAL = ["species", "island", "clutch_completion"]
IMPUTED = "delta_15n"


def design(rows):
    parts = [pd.Series(1.0, index=rows.index, name="const")]
    for c in FEATURES:
        if c in CATEGORICAL:
            levels = sorted(rows[c].unique())
            d = pd.get_dummies(pd.Categorical(rows[c], categories=levels), drop_first=True)
            d.index = rows.index
            d.columns = [f"{c}={l}" for l in d.columns]
            parts.append(d.astype(float))
        else:
            parts.append(rows[c].astype(float))
    return pd.concat(parts, axis=1)


def fit(name, rows):
    X, y = design(rows), (rows[TARGET] == POSITIVE).astype(float)
    # Newton stops when no weight moves by 1e-10; the score printed below shows how close it is.
    res = sm.Logit(y, X).fit(method="newton", tol=1e-10, maxiter=100, disp=False)
    g = np.abs(X.T.values @ (y.values - res.predict(X).values)).max()
    hits = ((res.predict(X) > 0.5) == (y == 1)).mean()
    print(f"## {name}: {len(rows)} rows ({int(y.sum())} male)")
    print(f"Newton: converged={res.mle_retvals['converged']} in {res.mle_retvals['iterations']} steps, max|score|={g:.3e}; training accuracy {hits:.4f}")
    print("data rows used (0-based, header excluded):", " ".join(map(str, rows.index)))
    print(f"log-likelihood = {res.llf:.17g}")
    for c, w in res.params.items():
        print(f"{c:24s} {w: .17g}   (se {res.bse[c]:.6g})")
    print()


df = pd.read_csv(sys.argv[1], keep_default_na=False, na_values=[""])
print(f"pandas {pd.__version__}, statsmodels {statsmodels.__version__}, numpy {np.__version__}\n")
known = df[df[TARGET].notna()]
fit("complete rows", known.dropna(subset=FEATURES))
rows = known.dropna(subset=[c for c in FEATURES if c != IMPUTED]).copy()
fill = rows[IMPUTED].mean()
print(f"{IMPUTED}: {int(rows[IMPUTED].isna().sum())} gaps among {len(rows)} rows, filled with {fill:.17g}")
rows[IMPUTED] = rows[IMPUTED].fillna(fill)
fit("delta_15n mean-imputed", rows)
