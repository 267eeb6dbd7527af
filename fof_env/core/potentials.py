"""Terms the rulesets' shaping potentials and search values share (pure arithmetic on plain data).

* :func:`clipped_lead`: a side's victory-point lead over ``scale``, clipped to [-1, 1];
* :func:`escort_progress`: how far a side has brought a figure it must rescue (a downed pilot)
  towards leaving by its own table edge, in [0, 1];
* :func:`margin_value`: a victory-point margin squashed into (-1, 1) for a search cut-off.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def clipped_lead(vp: tuple[int, int], player: int, scale: float) -> float:
    """``(vp[player] - vp[other]) / scale`` clipped to [-1, 1]."""
    return max(-1.0, min(1.0, (vp[player] - vp[1 - player]) / scale))


def escort_progress(table, edge: str, here: int, escorted: bool, exited: bool, rescuers: Iterable[int]) -> float:
    """The rescuing side's progress in [0, 1] with a figure at table point ``here`` (-1: off the table):

    * 1 once the figure has left by the side's table edge (``exited``);
    * ``0.5 + 0.5 * (1 - d_edge / D)`` while a unit of the side has it (``escorted``), ``d_edge`` the
      inches from it to ``edge`` and ``D`` the table's width across that edge;
    * otherwise ``0.5 * (1 - d / diag)``, ``d`` the inches from it to the nearest of the table points
      ``rescuers`` (the side's units that could reach it) and ``diag`` the table's diagonal; 0 with no
      rescuer, or with the figure off the table and not exited.
    """
    if exited:
        return 1.0
    if here < 0:
        return 0.0
    if escorted:
        across = table.width_in if edge in ("west", "east") else table.height_in
        d_edge = min(max(table.distance_to_edge(here, edge), 0.0), across)
        return 0.5 + 0.5 * (1.0 - d_edge / across)
    dist = table.dist[here]
    near = [dist[p] for p in rescuers]
    if not near:
        return 0.0
    diag = math.hypot(table.width_in, table.height_in)
    return 0.5 * (1.0 - min(min(near), diag) / diag)


def margin_value(vp0: int, vp1: int, extra: float = 0.0) -> float:
    """``tanh((vp0 - vp1) / 6 + extra)``: player 0's VP margin as a value in (-1, 1)."""
    return math.tanh((vp0 - vp1) / 6.0 + extra)
