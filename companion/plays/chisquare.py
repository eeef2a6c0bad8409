"""Pearson's chi-square test of a fair die, and how many rolls it needs to see
a given bias (docs/plays.md writes the calculation down).

Plain ``math``: the chi-square survival function is the regularized upper
incomplete gamma function Q(df/2, x/2), computed by its series or its
continued fraction (Numerical Recipes' ``gammq``, to double precision); the
noncentral chi-square used for the power is a Poisson mixture of central ones.
``scipy`` is a test dependency only: the tests hold these to scipy.stats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPS = 1e-16
MAX_ITER = 10_000
TINY = 1e-300


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, modified Lentz (for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / TINY
    d = 1.0 / b
    h = d
    for i in range(1, MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = TINY if abs(d) < TINY else d
        c = b + an / c
        c = TINY if abs(c) < TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < EPS:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gammaincc(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if a <= 0 or x < 0:
        raise ValueError(f"gammaincc: expected a > 0 and x >= 0, got a={a}, x={x}")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return 1.0 - _lower_series(a, x)
    return _upper_fraction(a, x)


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for X chi-square with ``df`` degrees of freedom."""
    return gammaincc(df / 2.0, max(x, 0.0) / 2.0)


def chisquare(counts: Sequence[int]) -> tuple[float, float]:
    """Pearson's statistic and p-value against equal chances for every face
    (what ``scipy.stats.chisquare(counts)`` returns)."""
    n = sum(counts)
    k = len(counts)
    if k < 2 or n == 0:
        return 0.0, 1.0
    e = n / k
    stat = sum((c - e) ** 2 for c in counts) / e
    return stat, chi2_sf(stat, k - 1)


def chi2_isf(alpha: float, df: int) -> float:
    """The critical value: the x with P(X > x) = alpha (bisection, to double precision)."""
    lo, hi = 0.0, max(1.0, float(df))
    while chi2_sf(hi, df) > alpha:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    return (lo + hi) / 2.0


def ncx2_sf(x: float, df: int, nc: float) -> float:
    """P(X > x) for X noncentral chi-square (df, noncentrality nc): the Poisson(nc/2)
    mixture of central chi-squares with df + 2j degrees of freedom."""
    if nc <= 0:
        return chi2_sf(x, df)
    m = nc / 2.0
    top = int(m + 12.0 * math.sqrt(m) + 60)
    total = 0.0
    for j in range(top + 1):
        weight = math.exp(-m + j * math.log(m) - math.lgamma(j + 1.0))
        total += weight * gammaincc(df / 2.0 + j, x / 2.0)
    return min(1.0, total)


def effect_w2(faces: int, bias: float) -> float:
    """Cohen's w² for one face coming up ``bias`` more often than 1/faces (the others
    equally less often): sum over faces of (p1 - p0)² / p0 = faces² bias² / (faces - 1)."""
    return faces * faces * bias * bias / (faces - 1)


def noncentrality_needed(df: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The noncentrality λ at which the test at level ``alpha`` rejects with probability ``power``."""
    crit = chi2_isf(alpha, df)
    lo, hi = 0.0, 1.0
    while ncx2_sf(crit, df, hi) < power:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if ncx2_sf(crit, df, mid) < power:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return hi


def rolls_needed(faces: int, bias: float = 0.05, alpha: float = 0.05, power: float = 0.8) -> int:
    """Rolls for the chi-square test to find a die biased by ``bias`` (one face at
    1/faces + bias) with probability ``power`` at level ``alpha``: λ = n w²."""
    if faces < 2:
        raise ValueError(f"rolls_needed: expected a die of 2 or more faces, got {faces}")
    return math.ceil(noncentrality_needed(faces - 1, alpha, power) / effect_w2(faces, bias))
