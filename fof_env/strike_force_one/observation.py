"""Observation encoder for Strike Force One (layout version ``OBS_VERSION``).

Everything is visible in Strike Force One (no hidden units), so both players see
the whole map; the encoding is *relative* to the observing player ("own" vs
"enemy") so one network can learn either side. A flat ``float32`` vector:

=========  ============================================================
offset     content (68 entries per plane, in hex order ``0101 ... 0808``)
=========  ============================================================
0          plane: town hexes
68         plane: woods hexes
136        plane: own units per hex / 2
204        plane: enemy units per hex / 2
272        plane: own units that already moved / attacked this phase / 2
340        plane: enemy units already attacked this turn / 2
408        plane: hexes adjacent to an enemy unit (zones of control)
476        plane: decision focus: the unit being moved / retreating
544        plane: the declared attack's target hex
612        plane: hexes already committed to the declared attack
680        per unit (10 global ids x 5): alive, column/8, row/9, acted, attacked
730        turn one-hot (4)
734        phase one-hot (4, absolute: soviet move, soviet combat, us move, us combat)
738        decision kind one-hot (6: select_unit, move_target, attack_target, attack_add,
           retreat_hex, advance)
744        observer side one-hot (soviet, us)
746        optional rules in force
747        observer is the phasing player
748        declared attack's combat differential / 5 (0 when none)
749        towns held by Soviet units / 3
=========  ============================================================
"""

from __future__ import annotations

import numpy as np

from fof_env.strike_force_one.data import NUM_UNITS, SIDE_UNITS, UNIT_SIDE

OBS_VERSION = 1
NUM_HEXES = 68
OBS_SIZE = 750
_UNIT_BASE = 680
_SCALARS = 730


def _static_planes(state) -> np.ndarray:
    sc = state.sc
    base = np.zeros(OBS_SIZE, dtype=np.float32)
    for t in sc.towns:
        base[t] = 1.0
    for h, w in enumerate(sc.woods):
        if w:
            base[NUM_HEXES + h] = 1.0
    return base


_BASE_CACHE: dict[int, np.ndarray] = {}


def encode(state, player: int) -> np.ndarray:
    """The observation of ``player`` (0 Soviet, 1 U.S.) in ``state``."""
    from fof_env.strike_force_one.state import ATTACK_ADD, MOVE_TARGET, RETREAT_HEX, TERMINAL

    key = id(state.sc)
    base = _BASE_CACHE.get(key)
    if base is None:
        base = _BASE_CACHE[key] = _static_planes(state)
    obs = base.copy()
    uh = state.unit_hex
    coords = state.sc.grid.coords
    for u in range(NUM_UNITS):
        h = uh[u]
        if h < 0:
            continue
        own = UNIT_SIDE[u] == player
        obs[(136 if own else 204) + h] += 0.5
        acted = (state.done >> u) & 1
        attacked = (state.attacked >> u) & 1
        if own and acted:
            obs[272 + h] += 0.5
        if not own and attacked:
            obs[340 + h] += 0.5
        c, r = coords[h]
        o = _UNIT_BASE + 5 * u
        obs[o] = 1.0
        obs[o + 1] = c / 8.0
        obs[o + 2] = r / 9.0
        obs[o + 3] = acted
        obs[o + 4] = attacked
    nb = state.sc.grid.neighbors
    for u in SIDE_UNITS[1 - player]:
        h = uh[u]
        if h >= 0:
            for n in nb[h]:
                obs[408 + n] = 1.0
    kind = state.kind
    if kind == MOVE_TARGET:
        obs[476 + uh[state.selected]] = 1.0
    elif kind == RETREAT_HEX:
        obs[476 + uh[state.retreat_queue[0]]] = 1.0
    if state.target >= 0:
        obs[544 + state.target] = 1.0
    for h in state.attack_hexes:
        obs[612 + h] = 1.0
    if kind != TERMINAL:
        obs[_SCALARS + state.turn - 1] = 1.0
        obs[_SCALARS + 4 + state.phase] = 1.0
        obs[_SCALARS + 8 + kind] = 1.0
    obs[_SCALARS + 14 + player] = 1.0
    obs[_SCALARS + 16] = float(state.optional)
    obs[_SCALARS + 17] = float((state.phase >> 1) == player)
    if kind == ATTACK_ADD and state.attack_units:
        obs[_SCALARS + 18] = state._differential(state.attack_units, state.target) / 5.0
    obs[_SCALARS + 19] = state.soviet_towns() / 3.0
    return obs
