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

Force on Force "Lost & Found" (``lost_and_found_potential``), from the player's
side, using only what both players know (victory points, the pilot, the
Marines' own units; never a hidden Taliban unit)::

    vp    = clip((Taliban VP - USMC VP) / 20, -1, 1)
    phi   = 0.3 * vp                                   # Taliban
    phi   = -0.3 * vp + 0.2 * pilot_progress           # USMC

``pilot_progress`` in [0, 1] measures the USMC's mission, find the pilot and
take him off their (west) table edge:

* 1 once the pilot has been escorted off the table;
* ``0.5 + 0.5 * (1 - d_edge / D)`` while a Marine unit has him, ``d_edge`` the
  inches from the pilot to the USMC table edge, ``D`` the table's width across
  that edge (so walking him home pays, and the contact itself is worth 0.5);
* before that (or after his escort was wiped out) ``0.5 * (1 - d / diag)``,
  ``d`` the inches from the nearest effective Marine unit on the table to the
  pilot, ``diag`` the table diagonal; 0 with no Marine unit on the table.

So a point of VP is worth 0.015 to its side and the whole rescue 0.2 to the
USMC. ``phi`` is 0 at the start of the scenario and lies in [-0.3, 0.3] for the
Taliban and [-0.3, 0.5] for the USMC: the whole-episode shaping stays below the
+/-1 of the result. (The Taliban's automatic victory is not a VP matter: it
only counts through the result.)

Any other Force on Force scenario ("Compound Raid": ``force_on_force_potential``), from the
player's side, with what the player may know::

    vp    = clip((my VP - enemy VP) / 20, -1, 1)
    lost  = figures of a side that can no longer fight (not "ok" or lightly wounded: down,
            wounded, killed, captured or gone off the table) over all the figures of its units
            in play; an enemy unit hidden from the player counts as unhurt
    phi   = 0.3 * vp + 0.1 * (lost(enemy) - lost(mine))

so a VP is worth 0.015 and each enemy figure put out of the fight 0.1 / (the enemy's figures);
``phi`` lies in [-0.4, 0.4], below the +/-1 of the result.
"""

from __future__ import annotations

import math

TOWN_WEIGHT = 0.1
UNIT_WEIGHT = 0.02

LAF_VP_WEIGHT = 0.3
LAF_VP_SCALE = 20.0
LAF_PILOT_WEIGHT = 0.2


def strike_force_one_potential(state, player: int) -> float:
    score = state.score
    value = TOWN_WEIGHT * score["soviet_towns"] + UNIT_WEIGHT * (score["soviet_units"] - score["us_units"])
    return value if player == 0 else -value


def lost_and_found_pilot_progress(state) -> float:
    """The rescuing side's progress with the pilot in [0, 1] (see the module docstring; 0 in a
    scenario without the ``downed_pilot`` rule)."""
    rule = state.sc.pilot
    if rule is None:
        return 0.0
    if state.pilot_exit:
        return 1.0
    here = state.pilot_pos
    if here < 0:  # not on the table and not escorted off: nothing to measure
        return 0.0
    sc = state.sc
    table = sc.table
    if state.pilot_unit >= 0:
        edge = sc.edges[rule.side]
        across = table.width_in if edge in ("west", "east") else table.height_in
        d_edge = min(max(table.distance_to_edge(here, edge), 0.0), across)
        return 0.5 + 0.5 * (1.0 - d_edge / across)
    dist = table.dist[here]
    near = [dist[state.pos[u]] for u in state.SIDE_UNITS[rule.side] if state.active(u)]
    if not near:
        return 0.0
    diag = math.hypot(table.width_in, table.height_in)
    return 0.5 * (1.0 - min(min(near), diag) / diag)


def lost_and_found_potential(state, player: int) -> float:
    """Any Force on Force scenario: 0.3 x the clipped VP lead of ``player`` over 20, plus, for the
    side that rescues a downed pilot, 0.2 x its progress with him (the module docstring's
    "Lost & Found" formula, where the Taliban's VP lead is the USMC's deficit)."""
    vp = state.victory_points()
    lead = max(-1.0, min(1.0, (vp[player] - vp[1 - player]) / LAF_VP_SCALE))
    phi = LAF_VP_WEIGHT * lead
    rule = state.sc.pilot
    if rule is not None and player == rule.side:
        phi += LAF_PILOT_WEIGHT * lost_and_found_pilot_progress(state)
    return phi


FOF_LOSS_WEIGHT = 0.1


def force_on_force_losses(state, side: int, viewer: int) -> float:
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
    """Any Force on Force scenario: 0.3 x the clipped VP lead of ``player`` over 20 plus 0.1 x the
    difference of the shares of figures out of the fight (the module docstring's formula)."""
    vp = state.victory_points()
    lead = max(-1.0, min(1.0, (vp[player] - vp[1 - player]) / LAF_VP_SCALE))
    losses = force_on_force_losses(state, 1 - player, player) - force_on_force_losses(state, player, player)
    return LAF_VP_WEIGHT * lead + FOF_LOSS_WEIGHT * losses


def fubar_potential(state, player: int) -> float:
    """Any FUBAR scenario: the Force on Force formula above on FUBAR's state, 0.3 x the clipped VP lead
    of ``player`` over 20, plus, for the side that rescues a downed pilot, 0.2 x its progress with him
    (1 once he is off the table; 0.5 + 0.5 x the way home while a unit has him; before that 0.5 x how
    close its nearest unit on the table is, over the table's diagonal)."""
    vp = state.victory_points()
    phi = LAF_VP_WEIGHT * max(-1.0, min(1.0, (vp[player] - vp[1 - player]) / LAF_VP_SCALE))
    rule = state.sc.scenario.pilot
    if rule is None or player != rule.side:
        return phi
    if state.pilot_exit:
        return phi + LAF_PILOT_WEIGHT
    here = state.pilot_pos
    if here < 0:
        return phi
    table = state.sc.table
    if state.pilot_unit >= 0:
        edge = state.sc.edges[rule.side]
        across = table.width_in if edge in ("west", "east") else table.height_in
        d_edge = min(max(table.distance_to_edge(here, edge), 0.0), across)
        return phi + LAF_PILOT_WEIGHT * (0.5 + 0.5 * (1.0 - d_edge / across))
    near = [table.dist[here][state.pos[u]] for u in state.sc.side_units[rule.side]
            if state.carried[u] < 0 and state.live(u)]  # fmt: skip
    if not near:
        return phi
    diag = math.hypot(table.width_in, table.height_in)
    return phi + LAF_PILOT_WEIGHT * 0.5 * (1.0 - min(min(near), diag) / diag)
