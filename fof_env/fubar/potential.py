"""FUBAR's shaping potential (``reward="shaped"``, :mod:`fof_env.envs.shaping`), from the player's side:
the Force on Force formula on FUBAR's state (:mod:`fof_env.force_on_force.potential`)::

    phi = 0.3 * clip((my VP - enemy VP) / 20, -1, 1) + 0.2 * pilot_progress   # the pilot's rescuers
    phi = 0.3 * clip((my VP - enemy VP) / 20, -1, 1)                          # everyone else

``pilot_progress`` (:func:`fof_env.core.potentials.escort_progress`): 1 once he is off the table;
0.5 + 0.5 x the way home while a unit has him; before that 0.5 x how close the side's nearest unit on
the table is, over the table's diagonal.
"""

from __future__ import annotations

from fof_env.core.potentials import clipped_lead, escort_progress

VP_WEIGHT = 0.3
VP_SCALE = 20.0
PILOT_WEIGHT = 0.2


def potential(state, player: int) -> float:
    """The shaping potential of ``state`` for ``player`` (the module docstring's formula)."""
    phi = VP_WEIGHT * clipped_lead(state.victory_points(), player, VP_SCALE)
    rule = state.sc.scenario.pilot
    if rule is None or player != rule.side:
        return phi
    rescuers = (state.pos[u] for u in state.sc.side_units[rule.side] if state.carried[u] < 0 and state.live(u))
    progress = escort_progress(state.sc.table, state.sc.edges[rule.side], state.pilot_pos, state.pilot_unit >= 0,
                               bool(state.pilot_exit), rescuers)  # fmt: skip
    return phi + PILOT_WEIGHT * progress
