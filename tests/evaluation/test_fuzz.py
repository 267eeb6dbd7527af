"""A small version of ``make fuzz``: random games with invariants at every step."""

import pytest

from evaluation.fuzz import fuzz


@pytest.mark.parametrize("optional", [False, True])
def test_random_games_keep_every_invariant(optional):
    report = fuzz("strike_force_one", {"optional_rules": optional}, games=60, seed=7)
    assert report.games == 60 and report.decisions > 60 * 20
