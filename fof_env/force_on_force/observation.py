"""Observation encoder for Force on Force (version 1): what one player may know, as floats in [-1, 1].

Layout (``OBS_SIZE`` floats), always from the point of view of ``player``:

* **units** ``8 x 28``, in the order: the player's own units, then the enemy's
  (Taliban ``tal.1``-``tal.R``, USMC ``usmc.A``-``usmc.C`` within each side). Per
  unit: known, mine, on table, x/36, y/36, effective, light, down, serious, KIA,
  captured (each /10, at most 1: a position may field up to 12 figures), TQ/12, pinned, Overwatch, hidden, activated, reacted,
  failed interrupt, moved Tactical, moved Rapid, fires/5, reaction moves, In Cover,
  excellent position, firepower now/10, with the pilot, terrain cover dice / 4, Exposed.
  **A hidden enemy unit is all zeros except "hidden"**: its place, strength and
  flags are not the player's to know.
* **game** ``16``: turn/9, I have the initiative, portion, must fire first, my VP/20,
  enemy VP/20, pilot on table, pilot x/36, y/36, pilot with one of my units, contact
  made, pilot exited, amped up (mine, enemy's), setup, terminal.
* **decision** ``19 + 4 x 8 + 6 + 11``: kind one-hot; the acting unit, its
  target(s), the unit asked / moving, the unit that fired on it (each a one-hot over
  the unit order above); window is a move, window is a fire, destination x/36, y/36,
  reaction move, Tactical only; Fog of War result one-hot.
* **board** ``6 x 324`` (one value per table point): terrain cover dice / 4, woods,
  building, Exposed, my units, known enemy units.
"""

from __future__ import annotations

import weakref

import numpy as np

from fof_env.core.tabletop import MAX_COVER_DICE
from fof_env.force_on_force import state as st

OBS_VERSION = 1
UNIT_FEATURES = 28
N_UNITS = st.NUM_UNITS
GAME_FEATURES = 16
DECISION_FEATURES = len(st.KIND_NAMES) + 4 * N_UNITS + 6 + len(st.FOW_RESULTS)
BOARD_PLANES = 6
UNITS_AT = 0
GAME_AT = N_UNITS * UNIT_FEATURES
DECISION_AT = GAME_AT + GAME_FEATURES
BOARD_AT = DECISION_AT + DECISION_FEATURES
OBS_SIZE = BOARD_AT + BOARD_PLANES * st.NUM_POINTS

# unit order as seen by each player: own units first
ORDER = (
    st.SIDE_UNITS[st.TALIBAN] + st.SIDE_UNITS[st.USMC],
    st.SIDE_UNITS[st.USMC] + st.SIDE_UNITS[st.TALIBAN],
)
SLOT = tuple({u: i for i, u in enumerate(order)} for order in ORDER)  # unit -> its place in the order

_ABSENT = (0.0,) * UNIT_FEATURES  # a unit not in play
_HIDDEN = (0.0,) * 14 + (1.0,) + (0.0,) * (UNIT_FEATURES - 15)  # an enemy unit the player cannot see
_static_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> its static planes


def _static_board(table) -> np.ndarray:
    board = _static_cache.get(table)
    if board is None:
        n = st.NUM_POINTS
        board = np.zeros(BOARD_PLANES * n, dtype=np.float32)
        board[0:n] = np.asarray(table.terrain_cover[:n], dtype=np.float32) / MAX_COVER_DICE
        board[n : 2 * n] = np.asarray(table.in_woods[:n], dtype=np.float32)
        board[2 * n : 3 * n] = np.asarray([k == "building" for k in table.kind_at[:n]], dtype=np.float32)
        board[3 * n : 4 * n] = np.asarray(table.exposed[:n], dtype=np.float32)
        _static_cache[table] = board
    return board


def encode(s: st.ForceOnForceState, player: int) -> np.ndarray:
    """The observation of ``player`` (0 Taliban, 1 USMC); see the module docstring."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    table = s.sc.table
    n = st.NUM_POINTS
    obs[BOARD_AT:] = _static_board(table)
    order = ORDER[player]
    slot = SLOT[player]
    xy = table.xy
    units: list[float] = []  # the whole unit block, written into ``obs`` at once
    for u in order:
        f = s.figs[u]
        mine = st.UNIT_SIDE[u] == player
        if not any(f):
            units += _ABSENT
            continue
        if not mine and s.hidden[u]:
            units += _HIDDEN
            continue
        p = s.pos[u]
        if p >= 0:
            x, y = xy[p]
            on, x, y, fp = 1.0, x / 36, y / 36, min(s.fire_capacity(u), 10) / 10
            cover, exposed = table.terrain_cover[p] / MAX_COVER_DICE, float(table.exposed[p])
            obs[BOARD_AT + (4 if mine else 5) * n + p] = 1.0
        else:
            on = x = y = fp = cover = exposed = 0.0
        moved = s.moved[u]
        units += (
            1.0, float(mine), on, x, y,
            min(f[st.OK], 10) / 10, min(f[st.LIGHT], 10) / 10, min(f[st.DOWN], 10) / 10,
            min(f[st.SERIOUS], 10) / 10, min(f[st.KIA] + f[st.EVAC_KIA], 10) / 10, min(f[st.CAPTURED], 10) / 10,
            s.tq[u] / 12,
            s.pinned[u], s.overwatch[u], s.hidden[u], s.activated[u], s.reacted[u], s.failed[u],
            float(moved == 1), float(moved == 2), min(s.fires[u], 5) / 5, min(s.rmoves[u], 1),
            s.in_cover[u], s.excellent[u], fp, float(s.pilot_unit == u), cover, exposed,
        )  # fmt: skip
    obs[UNITS_AT:GAME_AT] = units
    tal, usmc = s.victory_points()
    vp = (tal, usmc)
    g = GAME_AT
    pilot_on = s.pilot_pos >= 0
    obs[g : g + GAME_FEATURES] = [
        min(s.turn, 9) / 9, float(s.initiative == player), s.portion, s.first_fire,
        min(vp[player], 20) / 20, min(vp[1 - player], 20) / 20, float(pilot_on),
        xy[s.pilot_pos][0] / 36 if pilot_on else 0.0, xy[s.pilot_pos][1] / 36 if pilot_on else 0.0,
        float(s.pilot_unit >= 0 and st.UNIT_SIDE[s.pilot_unit] == player), s.contact, float(s.pilot_exit > 0),
        s.amped[player], s.amped[1 - player], float(s.setup_stage < 4), float(s.kind == st.TERMINAL),
    ]  # fmt: skip
    d = DECISION_AT
    k = s.kind
    if k == st.TERMINAL or k < 0:
        return obs
    obs[d + k] = 1.0
    d += len(st.KIND_NAMES)
    if s.actor >= 0:
        obs[d + slot[s.actor]] = 1.0
    for t in s.targets:
        obs[d + N_UNITS + slot[t]] = 1.0
    asked = -1
    if k in (st.D_DEPLOY, st.D_DECLARE, st.D_OW) and s.queue:
        asked = s.queue[0]
    elif k == st.D_MOVE:
        asked = s.mover
    elif k == st.D_RETURN:
        asked = s.ret_queue[0][1]
        obs[d + 3 * N_UNITS + slot[s.ret_queue[0][0]]] = 1.0
    if asked >= 0:
        obs[d + 2 * N_UNITS + slot[asked]] = 1.0
    d += 4 * N_UNITS
    obs[d] = float(s.win_kind == st.W_MOVE)
    obs[d + 1] = float(s.win_kind == st.W_FIRE)
    if s.win_kind == st.W_MOVE and s.win_dest >= 0:
        obs[d + 2] = xy[s.win_dest][0] / 36
        obs[d + 3] = xy[s.win_dest][1] / 36
    obs[d + 4] = s.move_reaction
    obs[d + 5] = s.tactical_only
    d += 6
    if s.fow_queue and k in (st.D_FOW_UNIT, st.D_FOW_POINT):
        obs[d + s.fow_queue[0][0]] = 1.0
    return obs
