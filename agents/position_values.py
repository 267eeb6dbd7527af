"""Position evaluations for search cut-offs: ``position_value(state) -> float`` in [-1, 1], the
value of an unfinished game for player 0 (player 1's value is its negation; zero-sum).

Used by :class:`agents.mcts.MCTSAgent` with ``evaluation=score`` where a rollout stops at
``rollout_limit``. The search only ever evaluates *determinized* worlds (``state.determinize``
from the searching player's view), so reading the whole state here leaks nothing: every fact
the searching player may not know has already been re-sampled. A terminal state is worth its
``returns()``.

* Strike Force One (the Soviets win holding two of the three towns at the end of turn 4):
  the towns the Soviets hold now (weighted more as the end nears) and the units left on each
  side.
* Games with ``victory_points()`` (Force on Force family, FUBAR): the victory-point margin,
  squashed by ``tanh``; with the downed-pilot rule ("Lost & Found") the pilot still on the
  table counts for his hunters, more as the deadline nears (they win outright if he is still
  there at its end), and a pilot escorted off is already in the VP.
"""

from __future__ import annotations

import math


def has_position_value(game) -> bool:
    """Whether :func:`position_value` knows how to score ``game``'s states."""
    if game.name == "strike_force_one":
        return True
    state_cls = type(game.new_initial_state(seed=0))
    return hasattr(state_cls, "victory_points")


def position_value(state) -> float:
    """Value in [-1, 1] of ``state`` for player 0 (see the module docstring)."""
    if state.is_terminal:
        return state.returns()[0]
    if state.game.name == "strike_force_one":
        return _strike_force_one(state)
    return _victory_points(state)


def _strike_force_one(state) -> float:
    sc = state.game.scenario
    towns = state.soviet_towns()
    score = state.score
    progress = min(1.0, max(0.0, (state.turn - 1 + state.phase / 4.0) / sc.turns))
    town_term = math.tanh(1.5 * (towns - 1.5)) * (0.5 + 0.5 * progress)
    units = score["soviet_units"] / 6.0 - score["us_units"] / 4.0
    return max(-1.0, min(1.0, town_term + 0.4 * units))


def _victory_points(state) -> float:
    vp0, vp1 = state.victory_points()
    margin = (vp0 - vp1) / 6.0
    sc = state.sc
    pilot = getattr(sc, "pilot", None)
    if pilot is not None and getattr(state, "pilot_pos", -1) >= 0 and not getattr(state, "pilot_exit", 0):
        hunters = 1 - pilot.side
        pressure = 1.5 * min(1.0, state.turn / max(1, pilot.deadline_turn))
        margin += pressure if hunters == 0 else -pressure
    return math.tanh(margin)
