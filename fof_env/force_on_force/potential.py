"""Force on Force's shaping potentials and search value (pure functions of a state).

Shaping (``reward="shaped"``, :mod:`fof_env.envs.shaping`), from the player's side, using only what
the player may know:

"Lost & Found" (:func:`lost_and_found_potential`): victory points, the pilot, the Marines' own units,
never a hidden Taliban unit::

    vp    = clip((Taliban VP - USMC VP) / 20, -1, 1)
    phi   = 0.3 * vp                                   # Taliban
    phi   = -0.3 * vp + 0.2 * pilot_progress           # USMC

``pilot_progress`` in [0, 1] measures the rescuers' mission, find the pilot and take him off their
(west) table edge (:func:`fof_env.core.potentials.escort_progress`): 1 once he has been escorted off
the table; ``0.5 + 0.5 * (1 - d_edge / D)`` while a Marine unit has him, ``d_edge`` the inches from
the pilot to the USMC table edge and ``D`` the table's width across that edge (so walking him home
pays, and the contact itself is worth 0.5); before that (or after his escort was wiped out)
``0.5 * (1 - d / diag)``, ``d`` the inches from the nearest effective Marine unit on the table to the
pilot and ``diag`` the table diagonal; 0 with no Marine unit on the table.

So a point of VP is worth 0.015 to its side and the whole rescue 0.2 to the USMC. ``phi`` is 0 at the
start of the scenario and lies in [-0.3, 0.3] for the Taliban and [-0.3, 0.5] for the USMC: the
whole-episode shaping stays below the +/-1 of the result. (The Taliban's automatic victory is not a
VP matter: it only counts through the result.)

Any other scenario ("Compound Raid": :func:`force_on_force_potential`)::

    vp    = clip((my VP - enemy VP) / 20, -1, 1)
    lost  = figures of a side that can no longer fight (not "ok" or lightly wounded: down,
            wounded, killed, captured or gone off the table) over all the figures of its units
            in play; an enemy unit hidden from the player counts as unhurt
    phi   = 0.3 * vp + 0.1 * (lost(enemy) - lost(mine))

so a VP is worth 0.015 and each enemy figure put out of the fight 0.1 / (the enemy's figures);
``phi`` lies in [-0.4, 0.4], below the +/-1 of the result.

:func:`position_value` (the search's cut-off value for player 0): the victory-point margin squashed by
``tanh``; with the downed-pilot rule the pilot still on the table counts for his hunters, more as the
deadline nears (they win outright if he is still there at its end), and a pilot escorted off is
already in the VP.
"""

from __future__ import annotations

from fof_env.core.potentials import clipped_lead, escort_progress, margin_value

VP_WEIGHT = 0.3
VP_SCALE = 20.0
PILOT_WEIGHT = 0.2
LOSS_WEIGHT = 0.1


def pilot_progress(state) -> float:
    """The rescuing side's progress with the pilot in [0, 1] (the module docstring; 0 in a scenario
    without the ``downed_pilot`` rule)."""
    rule = state.sc.pilot
    if rule is None:
        return 0.0
    rescuers = (state.pos[u] for u in state.SIDE_UNITS[rule.side] if state.active(u))
    return escort_progress(state.sc.table, state.sc.edges[rule.side], state.pilot_pos, state.pilot_unit >= 0,
                           bool(state.pilot_exit), rescuers)  # fmt: skip


def lost_and_found_potential(state, player: int) -> float:
    """0.3 x the clipped VP lead of ``player`` over 20, plus, for the side that rescues a downed pilot,
    0.2 x its progress with him (the module docstring's "Lost & Found" formula)."""
    phi = VP_WEIGHT * clipped_lead(state.victory_points(), player, VP_SCALE)
    rule = state.sc.pilot
    if rule is not None and player == rule.side:
        phi += PILOT_WEIGHT * pilot_progress(state)
    return phi


def losses(state, side: int, viewer: int) -> float:
    """The share of ``side``'s figures that can no longer fight (not "ok" or lightly wounded: down,
    wounded, killed, captured, or gone off the table), as ``viewer`` may know it (a unit hidden from
    ``viewer`` counts as unhurt; units not in play, with no figure, are left out)."""
    total = lost = 0
    for u in state.SIDE_UNITS[side]:
        figures = sum(state.figs[u])  # every figure of the unit, whatever its state
        if not figures:
            continue
        total += figures
        if state.visible_to(u, viewer):
            lost += figures - state.effective(u)
    return lost / total if total else 0.0


def force_on_force_potential(state, player: int) -> float:
    """0.3 x the clipped VP lead of ``player`` over 20 plus 0.1 x the difference of the shares of
    figures out of the fight (the module docstring's formula)."""
    lead = clipped_lead(state.victory_points(), player, VP_SCALE)
    lost = losses(state, 1 - player, player) - losses(state, player, player)
    return VP_WEIGHT * lead + LOSS_WEIGHT * lost


def position_value(state) -> float:
    """The value in (-1, 1) of an unfinished game for player 0 (the module docstring)."""
    vp0, vp1 = state.victory_points()
    pilot = state.sc.pilot
    pressure = 0.0
    if pilot is not None and state.pilot_pos >= 0 and not state.pilot_exit:
        hunters = 1 - pilot.side
        pressure = 1.5 * min(1.0, state.turn / max(1, pilot.deadline_turn))
        pressure = pressure if hunters == 0 else -pressure
    return margin_value(vp0, vp1, pressure)
