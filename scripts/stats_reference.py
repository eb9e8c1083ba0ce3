#!/usr/bin/env python3
"""Reference values for mf's statistics, from an independent implementation.

Prints Rust array entries for tests/integration/stats_reference.rs:
- WILSON: 95% Wilson score intervals computed with statsmodels'
  `proportion_confint(count, nobs, alpha=0.05, method="wilson")`. `n = 0` is written as `None`
  (statsmodels returns NaN there; mf reports the interval as null).
- PERCENTILE: nearest-rank percentiles computed with NumPy's
  `np.percentile(values, p, method="inverted_cdf")` (Hyndman & Fan type 1 = nearest rank).
- SIGN: exact two-sided sign-test p-values from SciPy's
  `binomtest(improved, n, 0.5, alternative="two-sided").pvalue` (n = improved + regressed),
  next to p and mid-p computed with exact integer arithmetic (`math.comb`, `fractions`):
      p     = min(1, 2·Σ_{i≤k} C(n, i) / 2ⁿ),                k = min(improved, regressed)
      mid_p = min(1, (2·Σ_{i≤k} C(n, i) − C(n, k)) / 2ⁿ)
  rounded once to the nearest double. The script asserts that SciPy's p equals the exact p
  (for p = ½ SciPy's "as or less likely" rule is exactly 2·P[X ≤ min(k, n − k)]). n = 0 is
  written with SciPy's value as `None` (binomtest needs n ≥ 1; mf defines p = mid-p = 1).
- HOLM: Holm–Bonferroni adjusted p-values from statsmodels'
  `multipletests(p, alpha=0.05, method="holm")[1]`.

- T975: Student's t quantiles `scipy.stats.t.ppf(0.975, df)`.
- PAIRED: the mean paired difference and its case-clustered 95% interval from statsmodels'
  intercept-only `OLS(d, 1).fit(cov_type="cluster", cov_kwds={"groups": case}, use_t=True)`
  (params, bse, conf_int), asserted equal to the CR1 formula with NumPy.
- CALIBRATED: per-case (base, again, head) counts; the unique-worst / unique-best counts in
  plain Python and the tails `scipy.stats.binom.sf(k − 1, m, 1/3)`.
- POWER: `scipy.stats.binom.sf(k − 1, n, drop)`, the first n reaching 80% by a plain loop,
  and the calibrated minimum fall `min k: 2·binom.sf(k − 1, k + f, 1/3) ≤ 0.05` by a loop.

Run once and paste the output into tests/integration/stats_reference.rs:

    pip install --user scipy statsmodels
    python3 scripts/stats_reference.py            # every section
    python3 scripts/stats_reference.py --new      # effect, calibration and power only
    python3 scripts/stats_reference.py --holm     # the Holm section only

The values are fixed in the test; this script is not run by CI. The exact sums for n = 10⁶
take a minute or two.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy.stats import binom, binomtest, t as student_t
from statsmodels.stats.multitest import multipletests
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

# (improved, regressed) pairs for the sign test: no pairs, tiny n (n ≤ 5 can never be
# significant, 6-0 is the first that can), even and near-even splits of odd and even n,
# splits near p = 0.05, large n (1000, 10⁵, 10⁶) where a naive C(n, k)/2ⁿ overflows, and
# extreme lopsided splits whose p is ~1e-301 (normal), subnormal, or below every double (0).
SIGN_PAIRS = [
    (0, 0),
    (1, 0), (0, 1), (1, 1), (2, 0), (2, 1),
    (3, 0), (4, 0), (5, 0), (0, 5), (4, 1),
    (6, 0), (0, 6), (5, 1), (3, 3), (4, 3), (3, 4),
    (7, 1), (8, 2), (2, 8), (9, 3), (10, 10),
    (12, 5), (13, 4), (15, 5), (20, 8), (30, 14),
    (40, 60), (55, 45), (100, 0),
    (520, 480), (480, 520), (531, 469), (600, 400),
    (0, 1000), (1000, 0), (1, 999), (999, 1), (10, 990), (300, 750),
    (0, 1060),
    (4900, 5100), (5050, 4950),
    (50500, 49500), (49000, 51000), (49690, 50310), (50000, 50000), (50001, 49999),
    (0, 100000), (45000, 55000),
    (499000, 501000), (500500, 499500),
]

# Vectors for the Holm adjustment: unsorted, ties, values above 1/m (capped at 1), a
# step-down where the running maximum matters, zeros and ones, tiny values, one test, and a
# longer deterministic vector.
HOLM_VECTORS = [
    [0.01, 0.04, 0.03, 0.005],
    [0.04, 0.04, 0.04],
    [0.2, 0.5, 0.9, 0.35],
    [0.001, 0.01, 0.01, 0.02, 0.3, 0.5],
    [0.012, 0.011, 0.013, 0.2],
    [0.0, 1.0, 0.05],
    [0.03],
    [1e-300, 0.5, 1e-10, 0.02, 0.02],
    [0.049, 0.051, 0.0125, 0.0126, 0.025],
    [round(((i * 0.6180339887) % 1.0) ** 3 * 0.25, 6) for i in range(1, 21)],
]


def _holm_random_vectors() -> list[list[float]]:
    """20 more vectors from a fixed linear congruential generator (no NumPy RNG, so the values
    do not depend on a library version): lengths 2..40, a mix of small and large p-values."""
    state = 20261201
    out = []
    for length in [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 5]:
        vector = []
        for _ in range(length):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            u = (state >> 11) / 2**53
            # Half the draws small (the interesting end of a Holm step-down), half anywhere.
            vector.append(round(u ** 4 if (state >> 7) & 1 else u, 9))
        out.append(vector)
    return out


HOLM_VECTORS += _holm_random_vectors()


def exact_sign(improved: int, regressed: int) -> tuple[float, float]:
    """p and mid-p of the two-sided sign test with exact integers, rounded once."""
    n = improved + regressed
    k = min(improved, regressed)
    if n == 0:
        return 1.0, 1.0
    # Σ_{i ≤ k} C(n, i) downwards with the exact ratio C(n, i−1) = C(n, i)·i/(n − i + 1).
    c_k = math.comb(n, k)
    c, total = c_k, c_k
    for i in range(k, 0, -1):
        c = c * i // (n - i + 1)
        total += c
    scale = 1 << n
    p = min(Fraction(2 * total, scale), Fraction(1))
    mid_p = min(Fraction(2 * total - c_k, scale), Fraction(1))
    return float(p), float(mid_p)


def lcg(seed):
    """A small deterministic generator so the inputs are reproducible without NumPy's RNG."""
    state = seed
    while True:
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        yield (state >> 11) / float(1 << 53)


def paired_inputs():
    """Per-case lists of per-trial differences head − base in {−1, 0, 1}."""
    fixed = [
        [[-1] * 5] * 7 + [[0] * 5] * 2 + [[1] * 5],
        [[-1] * 5] * 6 + [[0] * 5] * 18,
        [[0, 0], [0, 0]],
        [[1], [-1]],
        [[1, 0, 0], [0], [-1, -1], [0, 1, 1, 1]],
        [[-1, 0, 0, 0, 0]] * 10 + [[0] * 5] * 10,
    ]
    rng = lcg(7)
    out = list(fixed)
    for i in range(34):
        cases = 2 + int(next(rng) * 49)
        cell = []
        for _ in range(cases):
            repeats = 1 + int(next(rng) * 8) if i % 3 == 0 else 5
            drift = next(rng)
            trials = []
            for _ in range(repeats):
                u = next(rng)
                trials.append(-1 if u < 0.3 * drift else (1 if u > 1 - 0.1 * drift else 0))
            cell.append(trials)
        out.append(cell)
    return out


def paired_reference(cases):
    d = np.array([x for c in cases for x in c], dtype=float)
    g = np.array([i for i, c in enumerate(cases) for _ in c])
    fit = sm.OLS(d, np.ones(len(d))).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=True)
    mean, se = float(fit.params[0]), float(fit.bse[0])
    lo, hi = (float(v) for v in fit.conf_int(0.05)[0])
    # The CR1 formula by hand must agree.
    big_g, n = len(cases), len(d)
    meat = sum((np.array(c, dtype=float) - d.mean()).sum() ** 2 for c in cases)
    se2 = math.sqrt(big_g / (big_g - 1) * meat / n**2)
    assert abs(se2 - se) <= 1e-12, (se, se2)
    tq = float(student_t.ppf(0.975, big_g - 1))
    assert abs((mean - tq * se) - lo) <= 1e-12
    return mean, se, lo, hi


def calibrated_inputs():
    fixed = [
        [(5, 5, 0)] * 7 + [(5, 5, 5), (0, 0, 0), (3, 3, 3)],
        [(5, 5, 0)] * 6 + [(5, 5, 5)] * 18,
        [(5, 0, 0), (0, 5, 0), (5, 5, 5), (2, 2, 2)],
        [(5, 5, 5)] * 10,
        [(0, 0, 5)] * 5 + [(5, 5, 0)],
    ]
    rng = lcg(11)
    out = list(fixed)
    for _ in range(30):
        cases = 4 + int(next(rng) * 47)
        drift, broken = next(rng) * 0.5, next(rng) * 0.4
        cell = []
        for _ in range(cases):
            stable = 5 if next(rng) < 0.7 else 0
            runs = [stable if next(rng) >= drift else (5 if next(rng) < 0.6 else 0) for _ in range(3)]
            if runs[2] == 5 and next(rng) < broken:
                runs[2] = int(next(rng) * 3)
            cell.append(tuple(runs))
        out.append(cell)
    return out


def calibrated_reference(triples):
    mw = sum(1 for t in triples if sorted(t)[0] < sorted(t)[1])
    kw = sum(1 for a, b, h in triples if h < min(a, b))
    mb = sum(1 for t in triples if sorted(t)[2] > sorted(t)[1])
    kb = sum(1 for a, b, h in triples if h > max(a, b))
    flipped = sum(1 for a, b, _ in triples if a != b)
    tail = lambda m, k: 1.0 if k == 0 else float(binom.sf(k - 1, m, 1 / 3))
    pw, pb = tail(mw, kw), tail(mb, kb)
    return flipped, mw, kw, mb, kb, pw, pb, min(1.0, 2 * min(pw, pb))


POWER_INPUTS = [
    (n, drop, k)
    for n in (4, 10, 20, 24, 50, 100)
    for drop in (0.05, 0.15, 0.3, 0.6)
    for k in (4, 6)
] + [(10, 0.7, 6), (1000, 0.01, 6), (5, 0.5, 6), (6, 0.5, 6)]


def cases_for_80(drop, k):
    n = max(k, 1)
    while binom.sf(k - 1, n, drop) < 0.8:
        n += 1
    return n


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
    print("// SIGN")
    for improved, regressed in SIGN_PAIRS:
        n = improved + regressed
        p, mid_p = exact_sign(improved, regressed)
        if n == 0:
            print(f"    ({improved}, {regressed}, None, {p!r}, {mid_p!r}),")
            continue
        scipy_p = float(binomtest(improved, n, 0.5, alternative="two-sided").pvalue)
        # SciPy must agree with the exact value (relative 1e-12, or both below 1e-300).
        assert abs(scipy_p - p) <= max(1e-12 * p, 1e-300), (improved, regressed, scipy_p, p)
        print(f"    ({improved}, {regressed}, Some({scipy_p!r}), {p!r}, {mid_p!r}),")
    main_holm()
    main_new()


def main_holm() -> None:
    print("// HOLM")
    for vector in HOLM_VECTORS:
        _, adjusted, _, _ = multipletests(np.array(vector), alpha=0.05, method="holm")
        raw = ", ".join(repr(float(v)) for v in vector)
        adj = ", ".join(repr(float(v)) for v in adjusted)
        print(f"    (&[{raw}], &[{adj}]),")


def main_new() -> None:
    print("// T975")
    for df in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 19, 23, 29, 30, 39, 49, 60, 99, 120, 199, 500, 1000, 10000, 100000]:
        print(f"    ({df}, {float(student_t.ppf(0.975, df))!r}),")
    print("// PAIRED")
    for cases in paired_inputs():
        mean, se, lo, hi = paired_reference(cases)
        cells = ", ".join("&[" + ", ".join(str(x) for x in c) + "]" for c in cases)
        print(f"    (&[{cells}], {mean!r}, {se!r}, {lo!r}, {hi!r}),")
    print("// CALIBRATED")
    for triples in calibrated_inputs():
        f, mw, kw, mb, kb, pw, pb, p = calibrated_reference(triples)
        cells = ", ".join(f"({a}, {b}, {h})" for a, b, h in triples)
        print(f"    (&[{cells}], [{f}, {mw}, {kw}, {mb}, {kb}], {pw!r}, {pb!r}, {p!r}),")
    print("// POWER")
    for n, drop, k in POWER_INPUTS:
        print(f"    ({n}, {drop!r}, {k}, {float(binom.sf(k - 1, n, drop))!r}, {cases_for_80(drop, k)}),")
    print("// CALIBRATED_MIN_FALL")
    for f in range(0, 21):
        k = 1
        while 2 * binom.sf(k - 1, k + f, 1 / 3) > 0.05:
            k += 1
        print(f"    ({f}, {k}),")


if __name__ == "__main__":
    import sys
    # --new: only the effect, calibration and power sections (seconds, not minutes).
    if "--new" in sys.argv:
        main_new()
        raise SystemExit
    # --holm: only the Holm section.
    if "--holm" in sys.argv:
        print(f"// statsmodels {statsmodels.__version__}, numpy {np.__version__}")
        main_holm()
        raise SystemExit
    main()
