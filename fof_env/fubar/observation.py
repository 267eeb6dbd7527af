"""Observation encoder for FUBAR (version 1): what one player may know, as floats in [-1, 1].

FUBAR has no hidden units: both players see the whole table; a player's observation is the position
seen from its side (its own units first) plus the decision being asked. Layout, for a scenario with
U units, M members per unit at most and P table points (``observation_size``):

* **units** ``U x 30``, the player's units then the enemy's, each side in scenario order: in play, mine,
  on the table, x / width, y / height, a vehicle (not destroyed), destroyed vehicle, standing / M,
  Suppressed / M, casualties / M, tried this turn, On Guard, reacted, Gone to Ground, Duck & Weave,
  in close combat, aboard a vehicle, above 50% casualties, left the table, Activation number / 6,
  Expertise / 6, Suppress limit / 4, crew stunned, immobilised, facing sine, facing cosine, cover level
  at its point / 3, with the pilot, figures able to fire / M, figures out of touch / M;
* **members** ``U x M x 5`` (same unit order): ok, Suppressed, casualty (or captured), the member's
  best Fire Points / 6, its longest range / 48";
* **game** ``16``: turn / turns, I won the initiative, I activate now, my VP / 20, enemy VP / 20 (each
  at most 1), pilot on the table, pilot x, y, pilot with my unit, contact made, pilot off the table,
  automatic victory mine, theirs, setting up, game over;
* **decision** ``23 + 4U + 2``: the kind one-hot; the acting unit, the unit asked, the firing unit, the
  moving unit (each one-hot over the unit order above); hits left to allocate / 10; close combat;
* **board** ``5 x P``: cover level / 3, blocks line of sight, my units, enemy units, the points of the
  move under way.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from fof_env.core.tabletop import BLOCKING_KINDS
from fof_env.fubar.constants import CAPT, CAS, D_ALLOCATE, FACING_WORDS, KIND_NAMES, LOST, OK, SUPP, TERMINAL
from fof_env.fubar.tables import MAX_FP

OBS_VERSION = 1
UNIT_FEATURES = 30
MEMBER_FEATURES = 5
GAME_FEATURES = 16
BOARD_PLANES = 5
_static: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_ABSENT = (0.0,) * UNIT_FEATURES  # a unit not in play (or not yet on the table)
_SIN_COS = tuple((math.sin(f * math.pi / 4), math.cos(f * math.pi / 4)) for f in range(len(FACING_WORDS)))


def _layout(sc) -> tuple[int, int, int, int, int]:
    """(members at, game at, decision at, board at, size)."""
    u, m, p = sc.n_units, sc.m, sc.n_points
    members = u * UNIT_FEATURES
    game = members + u * m * MEMBER_FEATURES
    decision = game + GAME_FEATURES
    board = decision + len(KIND_NAMES) + 4 * u + 2
    return members, game, decision, board, board + BOARD_PLANES * p


def observation_size(sc) -> int:
    return _layout(sc)[4]


def _statics(sc):
    got = _static.get(sc)
    if got is None:
        p = sc.n_points
        board = np.zeros(BOARD_PLANES * p, dtype=np.float32)
        board[:p] = np.asarray(sc.geo.level, dtype=np.float32) / 3.0
        board[p : 2 * p] = np.asarray([k in BLOCKING_KINDS for k in sc.table.kind_at], dtype=np.float32)
        fig_fp = [min(f.fire(0.0)[0], MAX_FP) / MAX_FP for f in sc.figs]
        fig_range = [min(f.max_range, 48.0) / 48.0 for f in sc.figs]
        orders = tuple(sc.side_units[pl] + sc.side_units[1 - pl] for pl in (0, 1))
        slots = tuple({u: i for i, u in enumerate(order)} for order in orders)
        # a figure's five member features, indexed by its status: ok, Suppressed, casualty (or captured)
        flags = [(0.0, 0.0, 0.0)] * (max(OK, SUPP, CAS, LOST, CAPT) + 1)  # LOST: no flag
        flags[OK], flags[SUPP], flags[CAS], flags[CAPT] = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 1.0)
        rows = [tuple(flag + (fp, rng) for flag in flags) for fp, rng in zip(fig_fp, fig_range, strict=True)]
        pads = tuple((0.0,) * (MEMBER_FEATURES * n) for n in range(sc.m + 1))
        got = (board, rows, pads, orders, slots)
        _static[sc] = got
    return got


def encode(s, player: int) -> np.ndarray:
    """The observation of ``player`` (see the module docstring)."""
    sc = s.sc
    m_at, g_at, d_at, b_at, size = _layout(sc)
    board, rows, pads, orders, slots = _statics(sc)
    obs = np.zeros(size, dtype=np.float32)
    obs[b_at:] = board
    p = sc.n_points
    table = sc.table
    width, height = table.width_in, table.height_in
    m = sc.m
    fs = s.fs
    order = orders[player]
    slot = slots[player]
    units: list[float] = []  # the unit block, written into ``obs`` at once
    mem: list[float] = []  # the member block, likewise
    pos, gone, attached, present, unit_side, vehicle = s.pos, s.gone, s.attached, sc.present, sc.unit_side, sc.vehicle
    members, wreck, facing, oot = s.members, s.wreck, s.facing, s.oot
    tried, guard, reacted, gtg, dw, engaged, carried = s.tried, s.guard, s.reacted, s.gtg, s.dw, s.engaged, s.carried
    stunned, immob, activation, lead, is_hmg = s.stunned, s.immob, sc.activation, sc.lead, sc.hmg
    expertise, suppress = sc.expertise, sc.suppress
    pilot_unit = s.pilot_unit
    setting_up = s.turn == 0
    xy = table.xy
    level = sc.geo.level
    no_members = pads[m]
    for u in order:
        here = pos[u]
        if not present[u] or (here < 0 and not gone[u] and attached[u] < 0 and setting_up):
            units += _ABSENT
            mem += no_members
            continue
        mine = unit_side[u] == player
        on = here >= 0 and not gone[u]
        if on:
            x, y = xy[here]
            obs[b_at + (2 if mine else 3) * p + here] = 1.0
        else:
            x = y = 0.0
        ok = supp = cas = 0
        ok_hmg = False  # an infantry HMG among the figures able to fire (then State.able decides)
        need = activation[u]  # State.activation_need: the unit's, or a standing leader's if better
        unit_members = members[u]
        n_members = len(unit_members)
        for f in unit_members[:m]:
            st = fs[f]
            mem += rows[f][st]
            if st == OK:
                ok += 1
                ok_hmg = ok_hmg or is_hmg[f]
            elif st == SUPP:
                supp += 1
            elif st != LOST:  # CAS or CAPT
                cas += 1
        mem += pads[max(m - n_members, 0)]  # the slots past the unit's members (none past m)
        standing = ok + supp
        for f in unit_members:
            if lead[f] and fs[f] <= SUPP and lead[f] < need:
                need = lead[f]
        wrecked = wreck[u]
        veh = vehicle[u] and not wrecked
        counted = n_members <= m  # every member seen by the loop above
        if veh:
            broken = False
        elif counted:  # State.broken from the casualties counted above
            broken = 2 * cas > n_members
        else:
            broken = s.broken(u)
        if not on or not s.live(u):
            able = 0.0
        elif counted and (veh or not ok_hmg):  # State.able: the figures OK
            able = ok / m
        else:
            able = len(s.able(u)) / m
        sin_face, cos_face = _SIN_COS[facing[u]] if vehicle[u] else (0.0, 0.0)
        units += (
            1.0, float(mine), float(on), x / width, y / height, float(veh), float(wrecked),
            standing / m, supp / m, cas / m, float(tried[u]), float(guard[u]), float(reacted[u]),
            float(gtg[u]), float(dw[u]), float(engaged[u] >= 0), float(carried[u] >= 0),
            float(broken), float(gone[u]), need / 6, expertise[u] / 6,
            suppress[u] / 4, float(stunned[u]), float(immob[u]), sin_face, cos_face,
            level[here] / 3 if on else 0.0, float(pilot_unit == u),
            able, min(oot[u], m) / m,
        )  # fmt: skip
    units += mem
    obs[:g_at] = np.fromiter(units, np.float32, g_at)  # faster than a list's slice assignment
    vp = s.victory_points()
    pilot_on = s.pilot_pos >= 0
    px, py = table.xy[s.pilot_pos] if pilot_on else (0.0, 0.0)
    turns = sc.scenario.turns
    obs[g_at : g_at + GAME_FEATURES] = (
        min(s.turn, turns) / turns, float(s.first == player and s.turn > 0), float(s.active == player and s.turn > 0),
        min(vp[player], 20) / 20, min(vp[1 - player], 20) / 20, float(pilot_on), px / width, py / height,
        float(s.pilot_unit >= 0 and sc.unit_side[s.pilot_unit] == player), float(s.contact), float(s.pilot_exit > 0),
        float(s.auto_win == player), float(s.auto_win == 1 - player), float(s.turn == 0), float(s.kind == TERMINAL),
        0.0,
    )  # fmt: skip
    k = s.kind
    if k < 0 or k == TERMINAL:
        return obs
    d = d_at
    obs[d + k] = 1.0
    d += len(KIND_NAMES)
    n = sc.n_units
    for j, u in enumerate((s.actor, s.ask, s.fshooter, s.mover)):
        if u >= 0:
            obs[d + j * n + slot[u]] = 1.0
    d += 4 * n
    if k == D_ALLOCATE:
        obs[d] = min(s.ahits, 10) / 10
        obs[d + 1] = float(s.acc)
    for q in s.path:
        if q >= 0:
            obs[b_at + 4 * p + q] = 1.0
    return obs
