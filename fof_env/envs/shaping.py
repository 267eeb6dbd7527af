"""Reward shaping potentials for ``reward="shaped"``.

Shaping is *potential based* (Ng, Harada & Russell 1999): after every learner
step the reward is ``win_reward + phi(s') - phi(s)``, where ``s`` is the state
at the learner's previous decision and ``s'`` the state now (after the
opponent's replies). ``win_reward`` is +1 / -1 / 0 at the end of the game, as
for ``reward="win"``. The shaping terms telescope: over a whole episode they add
up to exactly ``phi(final) - phi(start)``, so they can never outweigh the
result and do not change which policies are optimal (undiscounted).

Strike Force One (``strike_force_one_potential``), from the player's side::

    phi = 0.1 * (towns held by the Soviets) + 0.02 * (Soviet units - U.S. units)   # Soviet
    phi = -(the same)                                                                # U.S.

so taking a town is worth +0.1 to the Soviets (-0.1 to the U.S.), and each unit
eliminated +0.02 to its destroyer. The whole-episode shaping is bounded by
0.3 + 0.2, below the +/-1 of the result.
"""

from __future__ import annotations

TOWN_WEIGHT = 0.1
UNIT_WEIGHT = 0.02


def strike_force_one_potential(state, player: int) -> float:
    score = state.score
    value = TOWN_WEIGHT * score["soviet_towns"] + UNIT_WEIGHT * (score["soviet_units"] - score["us_units"])
    return value if player == 0 else -value
