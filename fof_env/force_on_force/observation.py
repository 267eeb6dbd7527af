"""Observation encoder for Force on Force (version 1): what one player may know, as floats in [-1, 1].

The observation is one flat float32 vector made of named pieces (as OpenSpiel's observers are),
sized from the scenario's :class:`~fof_env.force_on_force.layout.Layout` (``U`` units, ``P`` table
points; :func:`pieces` gives each piece's offset and size, :func:`describe` the table below for a
game). Always from the point of view of ``player``:

* **units** ``U x 28``, in the order: the player's own units, then the enemy's (each side in
  the scenario's unit order). Per unit: known, mine, on table, x / table width, y / table
  height, effective, light, down, serious, KIA, captured (each /10, at most 1: a position may
  field up to 12 figures), TQ/12, pinned, Overwatch, hidden, activated, reacted, failed
  interrupt, moved Tactical, moved Rapid, fires/5, reaction moves, In Cover, excellent
  position, firepower now/10, with the pilot, terrain cover dice / 4, Exposed.
  **A hidden enemy unit is all zeros except "hidden"**: its place, strength and flags are
  not the player's to know.
* **game** ``16``: turn / turns, I have the initiative, portion, must fire first, my VP/20,
  enemy VP/20, pilot on table, pilot x, y (as above), pilot with one of my units, contact
  made, pilot exited, amped up (mine, enemy's), set-up, terminal (the pilot entries are 0 in
  a scenario without the ``downed_pilot`` rule).
* **decision** ``19 (+ 2 with the wwii_first_aid rule: call_medic, walking_wounded) + 4 x U + 6 + 11``:
  kind one-hot; the acting unit (the unit making its first aid check), its target(s), the
  unit asked / moving / a card reserve its owner places (R70), the unit that fired on it or whose Overwatch fire it may interrupt (each a
  one-hot over the unit order above);
  window is a move, window is a fire, destination x, y, reaction move, Tactical only; Fog of
  War result one-hot.
* **board** ``6 x P`` (one value per table point): terrain cover dice / 4, woods, building,
  Exposed, my units, known enemy units.
The pieces after the board belong to rule modules: each is declared by its module
(:class:`~fof_env.force_on_force.rule_module.ObservationPiece`: its size in a layout, 0 where the layout lacks
the rule, and its encoder), in the order of the module list (:mod:`fof_env.force_on_force.modules`):

* **vehicles** ``U x 10``, only in a scenario with WWII AFVs (``layout.vehicles``), units in the
  order above: AFV, defence dice / 5, immobilised, main gun damaged, knocked out, bailed out,
  applied armour, buttoned up, cos and sin of its facing (rules/wwii_vehicles.py); zeros for a
  unit that is no AFV and for a hidden enemy unit.
* **first_aid** ``U x 2``, only with the ``wwii_first_aid`` rule module (``layout.extra_kinds``), after
  the vehicles (if any), units in the order above: may only react to fire this turn (rulings R44), a medic unit that may be called (R45);
  zeros for a unit not in play and a hidden enemy unit.
* **cards** ``2 x C + 13``, only in a scenario that draws the WWII Fog of War deck (``layout.fog_deck``,
  rules/wwii_fog.py; ``C`` = 22 card types in the deck file's order, :func:`card_keys`), last: per card
  type the number of it in **my** hand / 2; the enemy hand's size / 5 (at most 1), never its cards
  (rulings R61); cards left in the deck / 31; per card type the number of it in the discards / 2; then the
  lasting public effects: You're Grounded!, Friendly Gremlins dice lost (mine, enemy's; each at most 1),
  the Colonel's next initiative (mine, enemy's), features made Swiss Cheese / 2, buildings burning / 2,
  Watch Where You Step! markers my units keep away from, the enemy's units do (each at most 1), Give 'em
  Hell! on my units, on the enemy's (each at most 1). All zeros with the ``fog_of_war`` option off.

"Lost & Found" (8 units, 324 points) has 2,252 floats, as before scenarios became data; "Hedgerow
Hamlet" (11 units, 324 points, AFVs, first aid, the deck) has 2,539, its ``cards`` piece at [2482, 2539).
"""

from __future__ import annotations

import weakref

import numpy as np

from fof_env.core.identity_cache import by_identity
from fof_env.core.tabletop import MAX_COVER_DICE
from fof_env.force_on_force.constants import (
    BASE_KINDS,
    CAPTURED,
    D_DECLARE,
    D_DEPLOY,
    D_FOW_POINT,
    D_FOW_UNIT,
    D_MOVE,
    D_OW,
    D_RETURN,
    DOWN,
    EVAC_KIA,
    FOW_RESULTS,
    KIA,
    LIGHT,
    OK,
    SERIOUS,
    TERMINAL,
    W_FIRE,
    W_MOVE,
)
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.rules.wwii import FIRST_AID_FEATURES
from fof_env.force_on_force.rules.wwii_fog import CARD_EFFECTS, card_features, encode_cards
from fof_env.force_on_force.scenario_schema import MAX_FIGURES, MAX_UNITS

__all__ = ["OBS_VERSION", "pieces", "piece", "observation_size", "describe", "encode", "unit_row", "card_features",
           "encode_cards", "CARD_EFFECTS", "FIRST_AID_FEATURES"]  # fmt: skip

OBS_VERSION = 1
UNIT_FEATURES = 28
GAME_FEATURES = 16
BOARD_PLANES = 6
_ABSENT = (0.0,) * UNIT_FEATURES  # a unit not in play
_HIDDEN = (0.0,) * 14 + (1.0,) + (0.0,) * (UNIT_FEATURES - 15)  # an enemy unit the player cannot see
_static_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> its static planes
# min(count, 10) / 10 for every figure count a unit can hold (a merged unit: a whole side's figures)
_TENTHS_SIZE = MAX_UNITS * MAX_FIGURES + 1
_TENTHS = tuple(min(i, 10) / 10 for i in range(_TENTHS_SIZE))
_MODULE_PIECES = {p.name: p for m in MODULES for p in m.pieces}  # in module order: the order after the board


def pieces(layout) -> list[tuple[str, int, int]]:
    """``(name, offset, size)`` of each piece of the observation of ``layout``, in order."""
    n = layout.num_units
    sizes = [
        ("units", n * UNIT_FEATURES),
        ("game", GAME_FEATURES),
        ("decision", BASE_KINDS + layout.extra_kinds + 4 * n + 6 + len(FOW_RESULTS)),
        ("board", BOARD_PLANES * layout.num_points),
    ]
    for p in _MODULE_PIECES.values():  # the rule modules' pieces: after the board, so other layouts keep theirs
        size = p.size(layout)
        if size:
            sizes.append((p.name, size))
    out, at = [], 0
    for name, size in sizes:
        out.append((name, at, size))
        at += size
    return out


# a layout is a frozen dataclass whose hash (all its fields) costs more than the encoding asks of it,
# several times per observation
_pieces = by_identity(32)(pieces)


def observation_size(layout) -> int:
    """Floats in an observation of ``layout``."""
    name, at, size = _pieces(layout)[-1]
    return at + size


def piece(layout, name: str) -> tuple[int, int]:
    """``(offset, size)`` of the piece ``name`` ("units", "game", "decision", "board"; "vehicles",
    "first_aid", "cards" where the layout has them); KeyError for a piece the layout lacks."""
    for n, at, size in _pieces(layout):
        if n == name:
            return at, size
    raise KeyError(
        f"no observation piece {name!r}; pieces: units, game, decision, board (, vehicles, first_aid, cards)"
    )


def unit_row(layout, player: int, u: int) -> int:
    """Offset of unit ``u``'s 28 features in ``player``'s observation (own units come first)."""
    return piece(layout, "units")[0] + _order(layout)[player][1][u] * UNIT_FEATURES


def describe(layout) -> str:
    """The observation layout of ``layout`` as a text table (for a scenario's card)."""
    return "\n".join(f"{name:9} [{at}, {at + size})" for name, at, size in pieces(layout))


@by_identity(32)
def _order(layout) -> tuple[tuple[tuple[int, ...], dict[int, int]], ...]:
    """Per player: the unit order it sees (own units first) and each unit's place in it."""
    own = layout.side_units
    out = []
    for player in (0, 1):
        order = own[player] + own[1 - player]
        out.append((order, {u: i for i, u in enumerate(order)}))
    return tuple(out)


def _static_board(table, n: int) -> np.ndarray:
    board = _static_cache.get(table)
    if board is None:
        board = np.zeros(BOARD_PLANES * n, dtype=np.float32)
        board[0:n] = np.asarray(table.terrain_cover[:n], dtype=np.float32) / MAX_COVER_DICE
        board[n : 2 * n] = np.asarray(table.in_woods[:n], dtype=np.float32)
        board[2 * n : 3 * n] = np.asarray([k == "building" for k in table.kind_at[:n]], dtype=np.float32)
        board[3 * n : 4 * n] = np.asarray(table.exposed[:n], dtype=np.float32)
        _static_cache[table] = board
    return board


def encode(s, player: int) -> np.ndarray:
    """The observation of ``player``; see the module docstring."""
    layout = s.LAYOUT
    (_, units_at, _), (_, game_at, _), (_, decision_at, _), (_, board_at, _) = _pieces(layout)[:4]
    size = observation_size(layout)
    obs = np.zeros(size, dtype=np.float32)
    table = s.sc.table
    n = s.NUM_POINTS
    n_units = s.NUM_UNITS
    obs[board_at : board_at + BOARD_PLANES * n] = _static_board(table, n)
    order, slot = _order(layout)[player]
    unit_side = s.UNIT_SIDE
    xy = table.xy
    width, height = table.width_in, table.height_in
    cover_at, exposed_at = table.terrain_cover, table.exposed
    tenth = _TENTHS  # min(count, 10) / 10 of a figure count
    figs, hidden, pos, tq, moved_by = s.figs, s.hidden, s.pos, s.tq, s.moved
    pinned, overwatch, activated, reacted, failed = s.pinned, s.overwatch, s.activated, s.reacted, s.failed
    fires, rmoves, in_cover, excellent = s.fires, s.rmoves, s.in_cover, s.excellent
    pilot_unit = s.pilot_unit
    mine_plane, enemy_plane = board_at + 4 * n, board_at + 5 * n
    units: list[float] = []  # the whole unit block, written into ``obs`` at once
    for u in order:
        f = figs[u]
        mine = unit_side[u] == player
        if not any(f):
            units += _ABSENT
            continue
        if not mine and hidden[u]:
            units += _HIDDEN
            continue
        p = pos[u]
        if p >= 0:
            x, y = xy[p]
            capacity = s.fire_capacity(u)
            on, x, y, fp = 1.0, x / width, y / height, (tenth[capacity] if capacity < _TENTHS_SIZE else 1.0)
            cover, exposed = cover_at[p] / MAX_COVER_DICE, float(exposed_at[p])
            obs[(mine_plane if mine else enemy_plane) + p] = 1.0
        else:
            on = x = y = fp = cover = exposed = 0.0
        moved = moved_by[u]
        units += (
            1.0, float(mine), on, x, y,
            tenth[f[OK]], tenth[f[LIGHT]], tenth[f[DOWN]], tenth[f[SERIOUS]], tenth[f[KIA] + f[EVAC_KIA]],
            tenth[f[CAPTURED]], tq[u] / 12,
            pinned[u], overwatch[u], hidden[u], activated[u], reacted[u], failed[u],
            float(moved == 1), float(moved == 2), min(fires[u], 5) / 5, min(rmoves[u], 1),
            in_cover[u], excellent[u], fp, float(pilot_unit == u), cover, exposed,
        )  # fmt: skip
    obs[units_at:game_at] = units
    for name, at, size in _pieces(layout)[4:]:  # the rule modules' pieces, units in the same order
        values = _MODULE_PIECES[name].encode(s, player, order)
        if values is not None:
            obs[at : at + size] = values
    vp = s.victory_points()
    turns = s.sc.turns
    pilot_on = s.pilot_pos >= 0
    obs[game_at : game_at + GAME_FEATURES] = [
        min(s.turn, turns) / turns, float(s.initiative == player), s.portion, s.first_fire,
        min(vp[player], 20) / 20, min(vp[1 - player], 20) / 20, float(pilot_on),
        xy[s.pilot_pos][0] / width if pilot_on else 0.0, xy[s.pilot_pos][1] / height if pilot_on else 0.0,
        float(s.pilot_unit >= 0 and unit_side[s.pilot_unit] == player), s.contact, float(s.pilot_exit > 0),
        s.amped[player], s.amped[1 - player], float(s.setup_stage < len(s.sc.deployment)),
        float(s.kind == TERMINAL),
    ]  # fmt: skip
    d = decision_at
    k = s.kind
    if k == TERMINAL or k < 0:
        return obs
    kinds = BASE_KINDS + s.LAYOUT.extra_kinds
    if k < kinds:  # a rule module's kind beyond the layout's one-hot shows only in the mask
        obs[d + k] = 1.0
    d += kinds
    if s.actor >= 0:
        obs[d + slot[s.actor]] = 1.0
    for t in s.targets:
        obs[d + n_units + slot[t]] = 1.0
    asked = -1
    if k in (D_DEPLOY, D_DECLARE, D_OW) and s.queue:
        asked = s.queue[0]
        if k == D_DECLARE and s.interrupted >= 0:  # the Overwatch unit whose fire it may interrupt
            obs[d + 3 * n_units + slot[s.interrupted]] = 1.0
    elif k == D_MOVE:
        asked = s.mover
    elif k == D_FOW_POINT and s.cards is not None:  # the card reserve this player places (rules R70)
        asked = s.reserve_being_placed(player)
    elif k == D_RETURN:
        asked = s.ret_queue[0][1]
        obs[d + 3 * n_units + slot[s.ret_queue[0][0]]] = 1.0
    if asked >= 0:
        obs[d + 2 * n_units + slot[asked]] = 1.0
    d += 4 * n_units
    obs[d] = float(s.win_kind == W_MOVE)
    obs[d + 1] = float(s.win_kind == W_FIRE)
    if s.win_kind == W_MOVE and s.win_dest >= 0:
        obs[d + 2] = xy[s.win_dest][0] / width
        obs[d + 3] = xy[s.win_dest][1] / height
    obs[d + 4] = s.move_reaction
    obs[d + 5] = s.tactical_only
    d += 6
    if s.fow_queue and k in (D_FOW_UNIT, D_FOW_POINT):
        # the D10 result; with the WWII deck only the holder's own card offer, as its D10 look-alike
        obs[d + (s._card_obs_slot(player) if s.cards is not None else s.fow_queue[0][0])] = 1.0
    return obs
