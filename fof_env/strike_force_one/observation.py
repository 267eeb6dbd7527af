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

from fof_env.strike_force_one.data import NUM_UNITS, UNIT_SIDE
from fof_env.strike_force_one.movement import bits_to_list
from fof_env.strike_force_one.state import ATTACK_ADD, MOVE_TARGET, RETREAT_HEX, TERMINAL

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
    key = id(state.sc)
    base = _BASE_CACHE.get(key)
    if base is None:
        base = _BASE_CACHE[key] = _static_planes(state)
    idx: list[int] = []
    val: list[float] = []
    counts: dict[int, float] = {}  # stacked units add up in the count planes
    uh = state.unit_hex
    coords = state.sc.grid.coords
    done = state.done
    attacked_bits = state.attacked
    zoc = 0
    neighbor_bits = state.sc.neighbor_bits
    for u in range(NUM_UNITS):
        h = uh[u]
        if h < 0:
            continue
        acted = (done >> u) & 1
        attacked = (attacked_bits >> u) & 1
        if UNIT_SIDE[u] == player:
            counts[136 + h] = counts.get(136 + h, 0.0) + 0.5
            if acted:
                counts[272 + h] = counts.get(272 + h, 0.0) + 0.5
        else:
            counts[204 + h] = counts.get(204 + h, 0.0) + 0.5
            if attacked:
                counts[340 + h] = counts.get(340 + h, 0.0) + 0.5
            zoc |= neighbor_bits[h]
        c, r = coords[h]
        o = _UNIT_BASE + 5 * u
        idx += (o, o + 1, o + 2, o + 3, o + 4)
        val += (1.0, c / 8.0, r / 9.0, acted, attacked)
    for h in bits_to_list(zoc):
        idx.append(408 + h)
        val.append(1.0)
    kind = state.kind
    if kind == MOVE_TARGET:
        idx.append(476 + uh[state.selected])
        val.append(1.0)
    elif kind == RETREAT_HEX:
        idx.append(476 + uh[state.retreat_queue[0]])
        val.append(1.0)
    if state.target >= 0:
        idx.append(544 + state.target)
        val.append(1.0)
    for h in state.attack_hexes:
        idx.append(612 + h)
        val.append(1.0)
    if kind != TERMINAL:
        idx += (_SCALARS + state.turn - 1, _SCALARS + 4 + state.phase, _SCALARS + 8 + kind)
        val += (1.0, 1.0, 1.0)
    idx += (_SCALARS + 14 + player, _SCALARS + 16, _SCALARS + 17, _SCALARS + 19)
    val += (1.0, float(state.optional), float((state.phase >> 1) == player), state.soviet_towns() / 3.0)
    if kind == ATTACK_ADD and state.attack_units:
        idx.append(_SCALARS + 18)
        val.append(state._differential(state.attack_units, state.target) / 5.0)
    idx += counts.keys()
    val += counts.values()
    obs = base.copy()
    obs[idx] = val
    return obs
