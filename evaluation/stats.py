"""Small statistics helpers for match results."""

from __future__ import annotations

import math


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default: 95 %, z = 1.96).

    Returns ``(low, high)`` within [0, 1]; ``(0.0, 1.0)`` when ``n == 0``. Draws
    may be counted as half a success (``successes`` may be fractional).

    >>> lo, hi = wilson_interval(45, 50)
    >>> round(lo, 3), round(hi, 3)
    (0.786, 0.957)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def format_rate(successes: float, n: int) -> str:
    """``"91.2% [88.4, 93.4]"``: a rate and its Wilson 95 % interval, in percent."""
    if n == 0:
        return "n/a"
    lo, hi = wilson_interval(successes, n)
    return f"{100 * successes / n:5.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]"
