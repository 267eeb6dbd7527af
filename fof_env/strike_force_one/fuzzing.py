"""Strike Force One under the fuzzers: its position invariants and random positions.

:func:`check_position` (``python -m evaluation.fuzz``, at every decision): stacking limits, one side
per hex, no unit in woods under the basic rules, units on the map. :func:`random_position`
(``python -m evaluation.position_fuzz``): units on distinct hexes, mostly clear ones, any phase.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fof_env.strike_force_one.constants import NUM_HEXES, PHASES
from fof_env.strike_force_one.data import SIDES, UNIT_LETTERS, UNIT_NAMES, UNIT_SIDE


def check_position(state) -> None:
    """Stacking, woods and map invariants (AssertionError naming the first one broken)."""
    limit = state.stack_limit
    per_hex: dict[int, list[int]] = {}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            assert 0 <= h < NUM_HEXES, f"unit {u} off the map at {h}"
            per_hex.setdefault(h, []).append(u)
    for h, units in per_hex.items():
        sides = {UNIT_SIDE[u] for u in units}
        assert len(sides) == 1, f"hex {state.hex_name(h)} holds both sides"
        # Retreating/advancing units are placed one at a time; the limit holds after every action.
        assert len(units) <= limit, f"hex {state.hex_name(h)} holds {len(units)} units (limit {limit})"
        if not state.optional:
            assert not state.sc.woods[h], f"unit in woods hex {state.hex_name(h)} under the basic rules"


def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def random_position(rng: np.random.Generator, game) -> dict[str, Any]:
    """A random position (module docstring) drawn from ``rng``."""
    sc = game.scenario
    names = list(sc.grid.names)
    clear = [h for h in names if not sc.woods[sc.grid.hex(h)]]
    units: dict[str, dict[str, str]] = {}
    taken: set[str] = set()
    for side, side_name in enumerate(SIDES):
        units[side_name] = {}
        for letter in UNIT_LETTERS[side]:
            if rng.random() < 0.85:
                hexes = clear if rng.random() < 0.9 else names
                h = _pick(rng, [x for x in hexes if x not in taken] or hexes)
                taken.add(h)
                units[side_name][letter] = h
    phase = "game_over" if rng.random() < 0.05 else _pick(rng, PHASES)
    return {
        "turn": 4 if phase == "game_over" else int(rng.integers(1, 5)),
        "phase": phase,
        "units": units,
        "done": [u for u in UNIT_NAMES if rng.random() < 0.15],
        "attacked": [u for u in UNIT_NAMES if rng.random() < 0.15],
        "seed": int(rng.integers(2**32)),
    }
