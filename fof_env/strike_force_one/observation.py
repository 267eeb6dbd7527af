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

from array import array

import numpy as np

from fof_env.strike_force_one.constants import ATTACK_ADD, MOVE_TARGET, NUM_HEXES, RETREAT_HEX, TERMINAL
from fof_env.strike_force_one.data import NUM_UNITS, UNIT_SIDE

OBS_VERSION = 1
OBS_SIZE = 750
_UNIT_BASE = 680
_SCALARS = 730


def _static_planes(sc) -> array:
    base = array("f", bytes(4 * OBS_SIZE))
    for t in sc.towns:
        base[t] = 1.0
    for h, w in enumerate(sc.woods):
        if w:
            base[NUM_HEXES + h] = 1.0
    return base


_BASE_CACHE: dict[int, array] = {}
# _HEX_FEATURES[h][acted][attacked]: a unit block (alive, column/8, row/9, acted, attacked)
# for a unit on hex h, as ready-made arrays for slice assignment.
_HEX_FEATURES = tuple(
    tuple(tuple(array("f", (1.0, c / 8.0, r / 9.0, a, b)) for b in (0, 1)) for a in (0, 1))
    for c, r in ((c, r) for c in range(1, 9) for r in range(1, (9 if c % 2 else 8) + 1))
)


def encode(state, player: int) -> np.ndarray:
    """The observation of ``player`` (0 Soviet, 1 U.S.) in ``state``.

    Written item by item into a copy of a static ``array('f')`` template (cheap
    Python-level stores) and returned as a NumPy view of that buffer.
    """
    sc = state.sc
    base = _BASE_CACHE.get(id(sc))
    if base is None:
        base = _BASE_CACHE[id(sc)] = _static_planes(sc)
    obs = base[:]
    uh = state.unit_hex
    position = _HEX_FEATURES
    neighbor_bits = sc.neighbor_bits
    done = state.done
    attacked_bits = state.attacked
    zoc = 0
    soviet_hexes = 0
    for u in range(NUM_UNITS):
        h = uh[u]
        if h < 0:
            continue
        if UNIT_SIDE[u] == 0:
            soviet_hexes |= 1 << h  # for the Soviet town count (rule 6.0)
        acted = (done >> u) & 1
        attacked = (attacked_bits >> u) & 1
        if UNIT_SIDE[u] == player:
            obs[136 + h] += 0.5
            if acted:
                obs[272 + h] += 0.5
        else:
            obs[204 + h] += 0.5
            if attacked:
                obs[340 + h] += 0.5
            zoc |= neighbor_bits[h]
        o = _UNIT_BASE + 5 * u
        obs[o : o + 5] = position[h][acted][attacked]
    while zoc:
        low = zoc & -zoc
        obs[407 + low.bit_length()] = 1.0  # plane 408 + hex
        zoc ^= low
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
    obs[_SCALARS + 16] = state.optional
    obs[_SCALARS + 17] = (state.phase >> 1) == player
    if kind == ATTACK_ADD and state.attack_units:
        obs[_SCALARS + 18] = state._differential(state.attack_units, state.target) / 5.0
    obs[_SCALARS + 19] = sum((soviet_hexes >> t) & 1 for t in sc.towns) / 3.0
    return np.frombuffer(obs, dtype=np.float32)
