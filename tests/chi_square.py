"""A chi-square goodness-of-fit check for the dice-distribution tests (no SciPy needed)."""

from __future__ import annotations

import math

Z_0001 = 3.090232  # the standard normal's upper 0.1% point


def critical_value(dof: int, z: float = Z_0001) -> float:
    """The chi-square value exceeded with probability about 0.1% (Wilson-Hilferty; within 1% for dof >= 2)."""
    k = 2.0 / (9.0 * dof)
    return dof * (1.0 - k + z * math.sqrt(k)) ** 3


def statistic(observed: dict, expected_p: dict, n: int) -> tuple[float, int]:
    """(chi-square statistic, degrees of freedom) of ``observed`` counts against probabilities ``expected_p``
    over ``n`` trials; outcomes expected fewer than 5 times are pooled into one cell."""
    assert abs(sum(expected_p.values()) - 1.0) < 1e-9
    assert set(observed) <= set(expected_p), set(observed) - set(expected_p)
    cells, pool_o, pool_e = [], 0, 0.0
    for key, p in expected_p.items():
        e = n * p
        if e < 5:
            pool_o += observed.get(key, 0)
            pool_e += e
        else:
            cells.append((observed.get(key, 0), e))
    if pool_e > 0:
        cells.append((pool_o, pool_e))
    return sum((o - e) ** 2 / e for o, e in cells), len(cells) - 1
