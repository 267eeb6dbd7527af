"""Strike Force One's shaping potential and search value (pure functions of a state).

Shaping (``reward="shaped"``, :mod:`fof_env.envs.shaping`), from the player's side::

    phi = 0.1 * (towns held by the Soviets) + 0.02 * (Soviet units - U.S. units)   # Soviet
    phi = -(the same)                                                                # U.S.

so taking a town is worth +0.1 to the Soviets (-0.1 to the U.S.), and each unit eliminated +0.02
to its destroyer. The whole-episode shaping is bounded by 0.3 + 0.2, below the +/-1 of the result.

:func:`position_value` (the search's cut-off value for player 0, in [-1, 1]; the Soviets win holding
two of the three towns at the end of turn 4): the towns the Soviets hold now, weighted more as the
end nears, and the units left on each side.
"""

from __future__ import annotations

import math

TOWN_WEIGHT = 0.1
UNIT_WEIGHT = 0.02


def potential(state, player: int) -> float:
    """The shaping potential of ``state`` for ``player`` (the module docstring's formula)."""
    score = state.score
    value = TOWN_WEIGHT * score["soviet_towns"] + UNIT_WEIGHT * (score["soviet_units"] - score["us_units"])
    return value if player == 0 else -value


def position_value(state) -> float:
    """The value in [-1, 1] of an unfinished game for player 0 (the module docstring)."""
    sc = state.game.scenario
    towns = state.soviet_towns()
    score = state.score
    progress = min(1.0, max(0.0, (state.turn - 1 + state.phase / 4.0) / sc.turns))
    town_term = math.tanh(1.5 * (towns - 1.5)) * (0.5 + 0.5 * progress)
    units = score["soviet_units"] / 6.0 - score["us_units"] / 4.0
    return max(-1.0, min(1.0, town_term + 0.4 * units))
