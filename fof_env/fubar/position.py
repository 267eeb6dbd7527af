"""The FUBAR position format: a human-writable JSON dict (like FEN). Every key is optional but ``stage``.

::

    {
      "stage": "activation",        # setup | turn_start | activation | game_over
      "turn": 2,                    # the turn being played (turn_start: the turn about to start)
      "initiative": "usmc",         # the side that won this turn's initiative
      "active": "taliban",          # the side activating next (default: the initiative side)
      "units": {                    # units left out are not on the table (not deployed)
        "usmc.A": {
          "at": "x05y11",           # a point, or null: off the table
          "figures": ["ok", "suppressed", "casualty", "ok", "ok"],   # per member (default: all ok)
          "tried": false,           # has tried to activate this turn
          "status": ["on_guard"],   # any of on_guard, reacted, gone_to_ground, duck_weave, stunned,
                                    # immobilised, destroyed (a vehicle knocked out: figures = its crew)
          "engaged": "tal.1",       # in close combat with
          "in": "pat.V",            # aboard that vehicle (its point)
          "facing": "east",         # a vehicle's facing (default: the scenario's)
          "out_of_touch": 0,        # figures out of the 3" cohesion (-1 each on the next activation)
          "damaged": [],            # damage-table effects a vehicle suffered this turn (crew_stunned,
                                    # weapon_destroyed, immobilised): a repeat takes the next one up
          "deployed_at": "x01y11",  # its deployment point (default: "at"), for Withdraw
          "exited": false           # left the table by its edge
        },
        "usmc.L": {"attached_to": "usmc.A"}   # an attachable leader: his figures join that unit (last)
      },
      "pilot": {"at": "x21y17", "with": null, "contact": false, "exited_turn": 0},
      "auto_victory": "taliban",    # game_over only: the side that won automatically
      "seed": 7
    }

``setup`` is the scenario before deployment (no other keys but ``seed``). ``turn_start`` starts the
turn (initiative roll, close combats going on). ``activation`` is a moment between two activations:
the ``active`` side selects a unit. ``game_over`` is a finished game. Anything else (a fire being
resolved, a move under way) is reached by applying actions from such a position.
"""

from __future__ import annotations

import copy
from typing import Any

from fof_env.core.dice import check_seed
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.game import State
from fof_env.core.position import check_header
from fof_env.fubar.constants import (
    AUTO,
    D_SELECT,
    FACING_WORDS,
    OP_END_TURN,
    OP_SELECT,
    OP_SETUP,
    OP_TURN,
    STATUS_NAMES,
    TERMINAL,
)
from fof_env.fubar.tables import EFFECT_NAMES

_KEYS = {"game", "options", "stage", "turn", "initiative", "active", "units", "pilot", "auto_victory", "seed"}
_UNIT_KEYS = {"at", "figures", "tried", "status", "engaged", "in", "facing", "out_of_touch", "deployed_at", "exited",
              "attached_to", "damaged"}  # fmt: skip
STATUS_FLAGS = ("on_guard", "reacted", "gone_to_ground", "duck_weave", "stunned", "immobilised", "destroyed")
_FLAG_SLOTS = ("guard", "reacted", "gtg", "dw", "stunned", "immob", "wreck")
STAGES = ("setup", "turn_start", "activation", "game_over")


def blank_state(game) -> State:
    """A state with every slot at its default: nobody on the table, turn 0."""
    sc = game.setup
    s = game.state_class.__new__(game.state_class)
    s.game = game
    s.sc = sc
    n = sc.n_units
    s.fs = [0] * len(sc.figs)
    s.members = [list(f) for f in sc.unit_figs]
    s.up = [len(m) for m in s.members]
    for name in ("tried", "guard", "reacted", "gtg", "dw", "wreck", "stunned", "immob", "effects", "oot", "gone"):
        setattr(s, name, [0] * n)
    s.pos = [-1] * n
    s.carried = [-1] * n
    s.engaged = [-1] * n
    s.home = [-1] * n
    s.attached = [-1] * n
    s.facing = [u.vehicle.facing if u.vehicle else 0 for u in sc.scenario.units]
    s.turn = 0
    s.first = s.active = 0
    s.kind = AUTO
    s.stack = []
    s.ask = -1
    s.choices = []
    s.pending = ""
    s.actor = -1
    s.mover = -1
    s.mmode = 0
    s.mdest = -1
    s.path = ()
    s.mexit = 0
    s.fire_idx = -1
    s.reacts = []
    s.rqueue = []
    s.path_of_overrun = ()
    s.ovehicle = -1
    s.otarget = -1
    s._clear_fire()
    s.aunit = -1
    s.ahits = 0
    s.about = []
    s.acc = 0
    s.aallowed = ()
    s.cca = s.ccb = -1
    s.ccchosen = []
    s.ccstage = 0
    pilot = sc.scenario.pilot
    s.pilot_pos = pilot.start if pilot is not None else -1
    s.pilot_unit = -1
    s.contact = 0
    s.pilot_exit = 0
    s.auto_win = -1
    s.airstrike = 0
    return s


def _point(s, name: Any, where: str) -> int:
    if name is None:
        return -1
    try:
        return s.sc.table.index(name)
    except (ValueError, TypeError) as exc:
        raise PositionError(f"{where}: {exc}") from None


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{where} must be true or false, got {value!r}")
    return value


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise PositionError(f"{where} must be an integer {lo}..{hi}, got {value!r}")
    return value


def _side(s, value: Any, where: str) -> int:
    names = s.game.player_names
    if not isinstance(value, str) or value not in names:
        raise PositionError(f"{where} must be one of {', '.join(names)}, got {value!r}")
    return names.index(value)


def _unit(s, value: Any, where: str) -> int:
    ids = s.sc.unit_ids
    if not isinstance(value, str) or value not in ids:
        raise PositionError(f"{where} must be a unit id ({', '.join(ids)}), got {value!r}")
    return ids.index(value)


def state_from_position(game, position: dict[str, Any], dice=None) -> State:
    """Build a state from ``position`` (copied: the copy is the record's start); ``dice`` replaces the
    position's seeded dice. :class:`PositionError` says what is wrong in one line."""
    check_header(game, position, _KEYS, "fof_env.fubar.position")
    position = copy.deepcopy(position)
    try:
        seed = check_seed(position.get("seed"), "position['seed']")
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    s = blank_state(game)
    stage = position.get("stage", "activation")
    if not isinstance(stage, str) or stage not in STAGES:
        raise PositionError(f"stage must be one of {', '.join(STAGES)}, got {stage!r}")
    if stage == "setup":
        if set(position) - {"stage", "seed", "game", "options"}:
            raise PositionError("a 'setup' position takes only 'stage' and 'seed'")
        s.stack = [(OP_SETUP, 0)]
    else:
        _read_board(s, position, stage)
    s._init_bookkeeping(seed, position, dice)
    if stage == "game_over":
        auto = position.get("auto_victory")
        s.auto_win = -1 if auto is None else _side(s, auto, "auto_victory")
        s.kind = TERMINAL
    else:
        s._run()
    return s


def _read_board(s, position: dict[str, Any], stage: str) -> None:
    sc = s.sc
    turns = sc.scenario.turns
    turn = _int(position.get("turn", 1), "turn", 1, turns)
    first = _side(s, position.get("initiative", s.game.player_names[0]), "initiative")
    active = _side(s, position.get("active", s.game.player_names[first]), "active")
    units = position.get("units", {})
    if not isinstance(units, dict):
        raise PositionError("position['units'] must map unit ids to unit dicts")
    for uid, spec in units.items():  # attachments first: they change the hosts' members
        u = _unit(s, uid, "position['units'] key")
        if not isinstance(spec, dict):
            raise PositionError(f"unit {uid}: expected a dict")
        unknown = set(spec) - _UNIT_KEYS
        if unknown:
            raise PositionError(f"unit {uid}: unknown keys {sorted(unknown)}; allowed: {sorted(_UNIT_KEYS)}")
        if not sc.present[u]:
            raise PositionError(f"unit {uid} is not in this game's order of battle (see the game's options)")
        if "attached_to" in spec:
            if not sc.attachable[u] or set(spec) != {"attached_to"}:
                raise PositionError(f"unit {uid}: only an attachable leader takes 'attached_to', and nothing else")
            t = _unit(s, spec["attached_to"], f"unit {uid}.attached_to")
            if sc.unit_side[t] != sc.unit_side[u] or sc.vehicle[t] or sc.attachable[t]:
                raise PositionError(f"unit {uid}.attached_to: {sc.unit_ids[t]} is not an infantry unit of its side")
            s.members[t] = s.members[t] + s.members[u]
            s.members[u] = []
            s.recount(t)
            s.recount(u)
            s.attached[u] = t
        elif sc.attachable[u]:
            raise PositionError(f"unit {uid}: an attachable leader is given as {{'attached_to': UNIT}}")
    for uid, spec in units.items():
        if "attached_to" not in spec:
            _read_unit(s, sc.unit_ids.index(uid), spec)
    for u in range(sc.n_units):  # links between units, once every unit is read
        spec = units.get(sc.unit_ids[u], {})
        if "engaged" in spec:
            t = _unit(s, spec["engaged"], f"unit {sc.unit_ids[u]}.engaged")
            if sc.unit_side[t] == sc.unit_side[u]:
                raise PositionError(f"unit {sc.unit_ids[u]}.engaged: {sc.unit_ids[t]} is on its own side")
            s.engaged[u] = t
        if "in" in spec:
            v = _unit(s, spec["in"], f"unit {sc.unit_ids[u]}.in")
            if not sc.vehicle[v] or s.wreck[v] or sc.unit_side[v] != sc.unit_side[u] or s.pos[v] < 0:
                raise PositionError(f"unit {sc.unit_ids[u]}.in: {sc.unit_ids[v]} is not a vehicle of its side on the table")
            if sc.vehicle[u] or s.standing(u) > sc.capacity[v]:
                raise PositionError(f"unit {sc.unit_ids[u]}.in: does not fit in {sc.unit_ids[v]} "
                                    f"(capacity {sc.capacity[v]} figures)")  # fmt: skip
            s.carried[u] = v
            s.pos[u] = s.pos[v]
    for u, t in enumerate(s.engaged):
        if t >= 0 and s.engaged[t] != u:
            raise PositionError(f"unit {sc.unit_ids[u]}.engaged: {sc.unit_ids[t]} must be engaged with it too")
        if t >= 0 and (sc.vehicle[u] and not s.wreck[u] or s.carried[u] >= 0):
            raise PositionError(f"unit {sc.unit_ids[u]}.engaged: vehicles and passengers are not in close combat")
    for v in range(sc.n_units):
        aboard = [u for u in range(sc.n_units) if s.carried[u] == v]
        if len(aboard) > 1:
            raise PositionError(f"{sc.unit_ids[v]} carries {len(aboard)} units; one at most")
    seen: dict[int, int] = {}
    for u in range(sc.n_units):
        if s.pos[u] >= 0 and s.carried[u] < 0 and s.live(u):
            if s.pos[u] in seen:
                raise PositionError(f"units {sc.unit_ids[seen[s.pos[u]]]} and {sc.unit_ids[u]} both stand on "
                                    f"{sc.table.name(s.pos[u])}")  # fmt: skip
            seen[s.pos[u]] = u
    _read_pilot(s, position.get("pilot"), turn)
    s.turn = turn
    s.first = first
    s.active = active
    if stage == "turn_start":
        s.turn = turn - 1
        s.stack = [(OP_TURN,)]
    else:
        s.stack = [(OP_END_TURN,), (OP_SELECT,)]
    if "auto_victory" in position and stage != "game_over":
        raise PositionError("auto_victory belongs to a 'game_over' position")


def _read_unit(s, u: int, spec: dict[str, Any]) -> None:
    sc = s.sc
    uid = sc.unit_ids[u]
    status = spec.get("status", [])
    if not isinstance(status, list) or not all(isinstance(x, str) and x in STATUS_FLAGS for x in status):
        raise PositionError(f"unit {uid}.status must be a list of names from {STATUS_FLAGS}, got {status!r}")
    for flag, slot in zip(STATUS_FLAGS, _FLAG_SLOTS, strict=True):
        if flag in status:
            getattr(s, slot)[u] = 1
    vehicle_flags = {"stunned", "immobilised", "destroyed"} & set(status)
    if vehicle_flags and not sc.vehicle[u]:
        raise PositionError(f"unit {uid}.status: {sorted(vehicle_flags)} are for vehicles")
    if s.wreck[u]:
        s.members[u] = list(sc.crew_figs[u])
        s.recount(u)
        if s.stunned[u]:  # a bail-out ends the stun; an immobilised vehicle destroyed later stays immobilised
            raise PositionError(f"unit {uid}.status: a destroyed vehicle is not stunned")
    members = s.members[u]
    figures = spec.get("figures")
    allowed = ("ok", "destroyed") if sc.vehicle[u] and not s.wreck[u] else ("ok", "suppressed", "casualty", "captured")
    if figures is not None:
        if not isinstance(figures, list) or len(figures) != len(members) or not all(
            isinstance(x, str) and x in allowed for x in figures
        ):
            raise PositionError(f"unit {uid}.figures must list {len(members)} statuses from {allowed}, got {figures!r}")
        for f, name in zip(members, figures, strict=True):
            s.fs[f] = STATUS_NAMES.index(name)
    s.recount(u)
    supp = s.suppressed(u)
    if supp > sc.suppress[u]:
        raise PositionError(f"unit {uid}.figures: {supp} Suppressed; its Suppress limit is {sc.suppress[u]}")
    s.pos[u] = _point(s, spec.get("at"), f"unit {uid}.at")
    exited = _flag(spec.get("exited", False), f"unit {uid}.exited")
    if exited:
        if s.pos[u] >= 0:
            raise PositionError(f"unit {uid}: an exited unit is off the table ('at': null)")
        s.gone[u] = 1
    s.home[u] = _point(s, spec.get("deployed_at", spec.get("at")), f"unit {uid}.deployed_at")
    s.tried[u] = 1 if _flag(spec.get("tried", False), f"unit {uid}.tried") else 0
    if "facing" in spec:
        if not sc.vehicle[u] or spec["facing"] not in FACING_WORDS:
            raise PositionError(f"unit {uid}.facing: a vehicle's facing, one of {FACING_WORDS}")
        s.facing[u] = FACING_WORDS.index(spec["facing"])
    s.oot[u] = _int(spec.get("out_of_touch", 0), f"unit {uid}.out_of_touch", 0, max(0, len(members) - 1))
    damaged = spec.get("damaged", [])
    if damaged and not sc.vehicle[u]:
        raise PositionError(f"unit {uid}.damaged: only a vehicle suffers damage-table effects")
    lasting = EFFECT_NAMES[1:4]  # "destroyed" is the status of a wreck, not an effect it goes on having
    if not isinstance(damaged, list) or not all(isinstance(x, str) and x in lasting for x in damaged):
        raise PositionError(f"unit {uid}.damaged must be a list of names from {lasting}, got {damaged!r}")
    s.effects[u] = sum(1 << EFFECT_NAMES.index(x) for x in set(damaged))


def _read_pilot(s, pilot: Any, turn: int) -> None:
    sc = s.sc
    rule = sc.scenario.pilot
    if rule is None:
        if pilot is not None:
            raise PositionError("position['pilot']: this scenario has no downed pilot")
        return
    pilot = {} if pilot is None else pilot
    if not isinstance(pilot, dict) or set(pilot) - {"at", "with", "contact", "exited_turn"}:
        raise PositionError("position['pilot'] takes 'at', 'with', 'contact', 'exited_turn'")
    s.pilot_exit = _int(pilot.get("exited_turn", 0), "pilot.exited_turn", 0, turn)
    s.pilot_pos = -1 if s.pilot_exit else _point(s, pilot.get("at", sc.table.name(rule.start)), "pilot.at")
    with_unit = pilot.get("with")
    if with_unit is not None:
        u = _unit(s, with_unit, "pilot.with")
        if sc.unit_side[u] != rule.side or s.pilot_exit or s.pos[u] < 0:
            raise PositionError(f"pilot.with: {with_unit} is not a unit of his side on the table")
        s.pilot_unit = u
        s.pilot_pos = s.pos[u]
    s.contact = 1 if _flag(pilot.get("contact", with_unit is not None or bool(s.pilot_exit)), "pilot.contact") else 0


def to_position(s) -> dict[str, Any]:
    """The position of ``s``: between activations, at the start of a turn, or finished."""
    sc = s.sc
    names = s.game.player_names
    if s.kind == TERMINAL:
        stage = "game_over"
    elif s.kind == D_SELECT and s.stack == [(OP_END_TURN,)]:
        stage = "activation"
    elif s.turn == 0 and not s.history and s._start.get("stage") == "setup":
        return {"stage": "setup"}
    else:
        raise PositionError(
            f"a {s.decision_kind} decision cannot be written as a position; positions describe the moments "
            "between activations (reach this one by applying actions)"
        )
    units: dict[str, Any] = {}
    for u in range(sc.n_units):
        uid = sc.unit_ids[u]
        if s.attached[u] >= 0:
            units[uid] = {"attached_to": sc.unit_ids[s.attached[u]]}
            continue
        if s.pos[u] < 0 and not s.gone[u]:
            continue
        spec: dict[str, Any] = {"at": sc.table.name(s.pos[u]) if s.pos[u] >= 0 else None}
        statuses = [STATUS_NAMES[s.fs[f]] for f in s.members[u]]
        if any(x != "ok" for x in statuses):
            spec["figures"] = statuses
        if s.tried[u]:
            spec["tried"] = True
        flags = [flag for flag, slot in zip(STATUS_FLAGS, _FLAG_SLOTS, strict=True) if getattr(s, slot)[u]]
        if flags:
            spec["status"] = flags
        if s.engaged[u] >= 0:
            spec["engaged"] = sc.unit_ids[s.engaged[u]]
        if s.carried[u] >= 0:
            spec["in"] = sc.unit_ids[s.carried[u]]
        if sc.vehicle[u]:
            spec["facing"] = FACING_WORDS[s.facing[u]]
        if s.oot[u]:
            spec["out_of_touch"] = s.oot[u]
        if s.effects[u]:
            spec["damaged"] = [name for k, name in enumerate(EFFECT_NAMES[:4]) if k and s.effects[u] >> k & 1]
        if s.home[u] >= 0 and s.home[u] != s.pos[u]:
            spec["deployed_at"] = sc.table.name(s.home[u])
        if s.gone[u]:
            spec["exited"] = True
            spec["at"] = None
        units[uid] = spec
    pos: dict[str, Any] = {"stage": stage, "turn": max(1, s.turn), "initiative": names[s.first],
                           "active": names[s.active], "units": units}  # fmt: skip
    if sc.scenario.pilot is not None:
        pos["pilot"] = {
            "at": sc.table.name(s.pilot_pos) if s.pilot_pos >= 0 else None,
            "with": sc.unit_ids[s.pilot_unit] if s.pilot_unit >= 0 else None,
            "contact": bool(s.contact),
            "exited_turn": s.pilot_exit,
        }
    if stage == "game_over" and s.auto_win >= 0:
        pos["auto_victory"] = names[s.auto_win]
    return pos
