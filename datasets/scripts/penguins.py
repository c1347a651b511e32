"""Write datasets/penguins.csv from the palmerpenguins package (Horst, Hill & Gorman 2020, CC0).

Usage: python penguins.py OUT.csv   (needs palmerpenguins and pandas; see datasets/README.md)

The rows and their order are the package's `load_penguins()` (344 penguins, Palmer Station LTER,
2007-2009), with three columns of `load_penguins_raw()` added by row (the two tables are the same
344 rows in the same order; checked below): `clutch_completion` (Yes/No), and the blood isotope
ratios `delta_15n` and `delta_13c` (per mil), which have gaps. Missing values are empty cells.
"""

import sys

import palmerpenguins
import pandas as pd

simple = palmerpenguins.load_penguins()
raw = palmerpenguins.load_penguins_raw()
assert len(simple) == len(raw) == 344
assert (simple["island"].values == raw["Island"].values).all()
same = simple["bill_length_mm"].fillna(-1).values == raw["Culmen Length (mm)"].fillna(-1).values
assert same.all()

out = pd.DataFrame(
    {
        "species": simple["species"],
        "island": simple["island"],
        "bill_length_mm": simple["bill_length_mm"],
        "bill_depth_mm": simple["bill_depth_mm"],
        # Whole grams and millimetres in the source; kept as integers (empty when missing).
        "flipper_length_mm": simple["flipper_length_mm"].astype("Int64"),
        "body_mass_g": simple["body_mass_g"].astype("Int64"),
        "clutch_completion": raw["Clutch Completion"],
        "delta_15n": raw["Delta 15 N (o/oo)"],
        "delta_13c": raw["Delta 13 C (o/oo)"],
        "sex": simple["sex"],
        "year": simple["year"],
    }
)
# float_format=None writes Python's shortest round-trip repr; na_rep="" leaves gaps empty.
out.to_csv(sys.argv[1], index=False, na_rep="", lineterminator="\n", encoding="utf-8")
