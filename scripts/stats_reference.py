#!/usr/bin/env python3
"""Reference values for mf's statistics, from an independent implementation.

Prints Rust array entries for tests/stats_reference.rs:
- WILSON: 95% Wilson score intervals computed with statsmodels'
  `proportion_confint(count, nobs, alpha=0.05, method="wilson")`. `n = 0` is written as `None`
  (statsmodels returns NaN there; mf reports the interval as null).
- PERCENTILE: nearest-rank percentiles computed with NumPy's
  `np.percentile(values, p, method="inverted_cdf")` (Hyndman & Fan type 1 = nearest rank).

Run once and paste the output into tests/stats_reference.rs:

    pip install --user scipy statsmodels
    python3 scripts/stats_reference.py

The values are fixed in the test; this script is not run by CI.
"""

import math
import warnings

import numpy as np
import scipy
import statsmodels
from statsmodels.stats.proportion import proportion_confint

# (k, n) pairs: empty, tiny, the repeat counts mf uses (5, 6), boundaries (k = 0, k = n),
# and large n where cancellation would show.
PAIRS = [
    (0, 0),
    (0, 1), (1, 1),
    (0, 2), (1, 2), (2, 2),
    (1, 3), (2, 3),
    (0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 5),
    (0, 6), (1, 6), (3, 6), (5, 6), (6, 6),
    (3, 7),
    (0, 10), (7, 10), (10, 10),
    (1, 20), (19, 20),
    (17, 30), (29, 30),
    (50, 100), (95, 100),
    (123, 456),
    (0, 1000), (1, 1000), (500, 1000), (999, 1000), (1000, 1000),
    (0, 100000), (1, 100000), (12345, 100000), (50000, 100000), (99999, 100000),
    (100000, 100000),
]


# (values, p) for the percentile check; values are latencies in milliseconds.
PERCENTILE_SETS = [
    [15, 20, 35, 40, 50],
    list(range(1, 21)),
    [7],
    [3, 3, 3, 9],
    [120, 180, 210, 250, 260, 300, 420, 900, 1500, 8000, 12000],
]
PERCENTILE_PS = [0.0, 1.0, 5.0, 25.0, 50.0, 90.0, 95.0, 99.0, 100.0]


def main() -> None:
    print(f"// statsmodels {statsmodels.__version__}, scipy {scipy.__version__}, numpy {np.__version__}")
    print("// WILSON")
    for k, n in PAIRS:
        if n == 0:
            print(f"    ({k}, {n}, None),")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        lo, hi = float(lo), float(hi)
        assert not (math.isnan(lo) or math.isnan(hi))
        print(f"    ({k}, {n}, Some(({lo!r}, {hi!r}))),")
    print("// PERCENTILE")
    for values in PERCENTILE_SETS:
        pairs = ", ".join(
            f"({p!r}, {int(np.percentile(np.array(values), p, method='inverted_cdf'))})"
            for p in PERCENTILE_PS
        )
        print(f"    (&{values!r}, &[{pairs}]),")


if __name__ == "__main__":
    main()
