"""The Force on Force position format: a human-writable JSON dict (like FEN).

Example (every key optional except where said)::

    {
      "stage": "activation",          # setup | overwatch | activation | game_over
      "turn": 2, "initiative": "usmc",
      "portion": "initiative",        # initiative | non_initiative (activation stage)
      "units": {                      # units not listed are not in play
        "usmc.A": {
          "at": "x05y11",             # a point name, or null: off the table
          "figures": {"ok": 4, "light": 0, "down": 0, "serious": 0, "kia": 0, "captured": 0},
          "tq": 8, "morale": 10, "armor": 1, "supply": "high",   # defaults: the scenario's unit
          "support": ["light", "light"],
          "moved": "none",            # none | tactical | rapid (this turn)
          "fires": 0,                 # fires already made this turn
          "reaction_moves": 0,
          "status": ["overwatch"]     # any of STATUS_FLAGS
        },
        "tal.2": {"at": "x25y09", "status": ["hidden"]}
      },
      "pilot": {"at": "x21y17", "with": null, "contact": false, "exited_turn": 0},
      "amped_up": [],                 # sides with Fog of War result 5
      "table": {...},                 # optional: a custom table (scenario "table" + "features" keys)
      "seed": 7
    }

A position describes a state between activations (``activation``: the player of
``portion`` selects a unit), the initiative player's Overwatch declaration
(``overwatch``), the scenario before set-up (``setup``), or a finished game
(``game_over``). Reaction windows are reached by applying actions.
"""

from __future__ import annotations

import json
from typing import Any

from fof_env.core.errors import PositionError
from fof_env.core.position import check_header
from fof_env.force_on_force import combat
from fof_env.force_on_force.state import (
    AUTO,
    D_OVERWATCH,
    D_SELECT,
    FIGURE_STATES,
    NUM_UNITS,
    SIDE_UNITS,
    SIDES,
    ST_OVERWATCH,
    ST_SELECT,
    ST_SETUP,
    TALIBAN,
    TERMINAL,
    UNIT_NAMES,
    USMC,
    ForceOnForceState,
)

_KEYS = {"game", "options", "stage", "turn", "initiative", "portion", "units", "pilot", "amped_up", "table",
         "seed", "leader", "must_fire_first", "auto_victory"}  # fmt: skip
_UNIT_KEYS = {"at", "figures", "tq", "morale", "armor", "supply", "support", "moved", "fires", "reaction_moves",
              "status"}  # fmt: skip
STATUS_FLAGS = (
    "pinned", "overwatch", "hidden", "activated", "reacted", "failed_interrupt", "in_cover",
    "excellent_position", "medic", "ammunition_short", "tougher", "mad_minute",
)  # fmt: skip
_FLAG_SLOTS = ("pinned", "overwatch", "hidden", "activated", "reacted", "failed", "in_cover", "excellent",
               "medic", "ammo", "tough", "mad")  # fmt: skip
STAGES = ("setup", "overwatch", "activation", "game_over")
MOVED = ("none", "tactical", "rapid")
SUPPLY_NAMES = {-1: "poor", 0: "normal", 1: "high"}
_SUPPLY = {"poor": -1, "low": -1, "normal": 0, "high": 1}


def blank_state(game, setup) -> ForceOnForceState:
    """A state with every slot at its default (no units on the table, turn 0)."""
    s = ForceOnForceState.__new__(ForceOnForceState)
    s.game = game
    s.sc = setup
    s.full = game.rules == "full"
    s.fow_on = game.fog_of_war
    s.capture_on = game.capture
    s.ambush_on = game.ambush
    prof = setup.profiles
    s.pos = [-1] * NUM_UNITS
    s.figs = [[0] * len(FIGURE_STATES) for _ in range(NUM_UNITS)]
    s.tq = [p.tq for p in prof]
    s.morale = [p.morale for p in prof]
    s.armor = [p.armor for p in prof]
    s.support = tuple(p.support for p in prof)
    s.supply = [p.supply for p in prof]
    for name in ("excellent", "medic", "ammo", "tough", "activated", "moved", "fires", "rmoves", "failed",
                 "reacted", "pinned", "overwatch", "hidden", "in_cover", "mad"):  # fmt: skip
        setattr(s, name, [0] * NUM_UNITS)
    s.amped = [0, 0]
    s.turn = 0
    s.initiative = TALIBAN
    s.portion = 0
    s.first_fire = 0
    s.pilot_pos = setup.pilot_start
    s.pilot_unit = -1
    s.contact = 0
    s.pilot_exit = 0
    s.leader_unit = -1
    s.kind = AUTO
    s.step = ST_SETUP
    s.setup_stage = 0
    s.auto_win = 0
    s.airstrike = 0
    s.queue = []
    s.ret_queue = []
    s.fow_queue = []
    s._clear_context()
    return s


def _point(setup, name: Any, where: str) -> int:
    if name is None:
        return -1
    try:
        return setup.table.index(name)
    except (ValueError, TypeError) as exc:
        raise PositionError(f"{where}: {exc}") from None


def _setup_for_table(game, spec: Any):
    """The game's setup on a custom table (built once per distinct table spec)."""
    from dataclasses import replace

    from fof_env.force_on_force.scenario import _table

    if not isinstance(spec, dict):
        raise PositionError("position['table'] must be a dict with 'table' and 'features' keys")
    key = json.dumps(spec, sort_keys=True)
    if key not in game._tables:
        table = _table(spec)
        game._tables[key] = replace(
            game.setup, table=table, usmc_entry_points=tuple(table.edge_points(game.setup.usmc_edge))
        )
    return game._tables[key]


def state_from_position(game, position: dict[str, Any]) -> ForceOnForceState:
    """Build a state from ``position``; :class:`PositionError` says what is wrong."""
    check_header(game, position, _KEYS, "fof_env.force_on_force.position")
    setup = _setup_for_table(game, position["table"]) if "table" in position else game.setup
    s = blank_state(game, setup)
    stage = position.get("stage", "activation")
    if stage not in STAGES:
        raise PositionError(f"stage must be one of {STAGES}, got {stage!r}")
    if stage == "setup":
        if set(position) - {"stage", "seed", "game", "options", "table"}:
            raise PositionError("a 'setup' position takes only 'stage', 'seed' and 'table'")
        for u in range(NUM_UNITS):
            s.figs[u][0] = setup.profiles[u].figures
        s.queue = [u for u in SIDE_UNITS[TALIBAN] if s.figs[u][0]]
    else:
        _read_board(s, setup, position, stage)
    s._init_bookkeeping(position.get("seed"), dict(position))
    if stage == "game_over":
        s.auto_win = 1 if position.get("auto_victory") else 0
        s.kind = TERMINAL
    else:
        s._run()
    return s


def _read_board(s: ForceOnForceState, setup, position: dict[str, Any], stage: str) -> None:
    turn = position.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or not 1 <= turn <= setup.turns:
        raise PositionError(f"turn must be 1..{setup.turns}, got {turn!r}")
    s.turn = turn
    s.setup_stage = 4
    init = position.get("initiative", "taliban")
    if init not in SIDES:
        raise PositionError(f"initiative must be one of {SIDES}, got {init!r}")
    s.initiative = SIDES.index(init)
    portion = position.get("portion", "initiative")
    if portion not in ("initiative", "non_initiative"):
        raise PositionError(f"portion must be 'initiative' or 'non_initiative', got {portion!r}")
    s.portion = 0 if portion == "initiative" else 1
    units = position.get("units", {})
    if not isinstance(units, dict):
        raise PositionError("position['units'] must map unit names to unit dicts")
    for name, spec in units.items():
        if name not in UNIT_NAMES:
            raise PositionError(f"unknown unit {name!r}; units are {', '.join(UNIT_NAMES)}")
        _read_unit(s, setup, UNIT_NAMES.index(name), spec or {})
    pilot = position.get("pilot", {})
    if not isinstance(pilot, dict) or set(pilot) - {"at", "with", "contact", "exited_turn"}:
        raise PositionError("position['pilot'] takes 'at', 'with', 'contact', 'exited_turn'")
    s.pilot_exit = int(pilot.get("exited_turn", 0))
    s.pilot_pos = (
        -1
        if s.pilot_exit
        else _point(setup, pilot.get("at", setup.table.name(setup.pilot_start)), "pilot.at")
    )
    with_unit = pilot.get("with")
    if with_unit is not None:
        if with_unit not in UNIT_NAMES[5:]:
            raise PositionError(f"pilot.with must be a USMC unit, got {with_unit!r}")
        s.pilot_unit = UNIT_NAMES.index(with_unit)
        if s.pos[s.pilot_unit] < 0:
            raise PositionError(f"pilot.with: {with_unit} is not on the table")
        s.pilot_pos = s.pos[s.pilot_unit]
    s.contact = 1 if pilot.get("contact", with_unit is not None) else 0
    amped = position.get("amped_up", [])
    if not isinstance(amped, list) or set(amped) - set(SIDES):
        raise PositionError(f"amped_up must be a list of sides {SIDES}")
    s.amped = [1 if side in amped else 0 for side in SIDES]
    s.first_fire = 1 if position.get("must_fire_first") else 0
    leader = position.get("leader")
    s.leader_unit = UNIT_NAMES.index(leader) if leader in UNIT_NAMES else -1
    if stage == "overwatch":
        s.step = ST_OVERWATCH
    else:
        s.step = ST_SELECT
    s.kind = AUTO


def _read_unit(s: ForceOnForceState, setup, u: int, spec: dict[str, Any]) -> None:
    name = UNIT_NAMES[u]
    if not isinstance(spec, dict):
        raise PositionError(f"unit {name}: expected a dict")
    unknown = set(spec) - _UNIT_KEYS
    if unknown:
        raise PositionError(f"unit {name}: unknown keys {sorted(unknown)}; allowed: {sorted(_UNIT_KEYS)}")
    s.pos[u] = _point(setup, spec.get("at"), f"unit {name}.at")
    figures = spec.get("figures", {"ok": setup.profiles[u].figures or 1})
    if not isinstance(figures, dict) or set(figures) - set(FIGURE_STATES):
        raise PositionError(f"unit {name}.figures: a dict with keys from {FIGURE_STATES}")
    for i, state_name in enumerate(FIGURE_STATES):
        n = figures.get(state_name, 0)
        if not isinstance(n, int) or n < 0:
            raise PositionError(f"unit {name}.figures.{state_name} must be a count >= 0, got {n!r}")
        s.figs[u][i] = n
    for key, lo, hi in (("tq", 4, 12), ("morale", 4, 12), ("armor", 0, 4)):
        if key in spec:
            v = spec[key]
            if not isinstance(v, int) or not lo <= v <= hi:
                raise PositionError(f"unit {name}.{key} must be an integer {lo}..{hi}, got {v!r}")
            getattr(s, key)[u] = v
    if "supply" in spec:
        if spec["supply"] not in _SUPPLY:
            raise PositionError(f"unit {name}.supply must be one of {sorted(_SUPPLY)}")
        s.supply[u] = _SUPPLY[spec["supply"]]
    if "support" in spec:
        classes = []
        for w in spec["support"]:
            if w not in combat.SUPPORT_NAMES[1:]:
                raise PositionError(f"unit {name}.support: {w!r} is not light/medium/heavy")
            classes.append(combat.SUPPORT_NAMES.index(w))
        support = list(s.support)
        support[u] = tuple(sorted(classes, reverse=True))
        s.support = tuple(support)
    moved = spec.get("moved", "none")
    if moved not in MOVED:
        raise PositionError(f"unit {name}.moved must be one of {MOVED}")
    s.moved[u] = MOVED.index(moved)
    for key, slot in (("fires", "fires"), ("reaction_moves", "rmoves")):
        v = spec.get(key, 0)
        if not isinstance(v, int) or v < 0:
            raise PositionError(f"unit {name}.{key} must be a count >= 0")
        getattr(s, slot)[u] = v
    status = spec.get("status", [])
    if not isinstance(status, list) or set(status) - set(STATUS_FLAGS):
        raise PositionError(f"unit {name}.status: a list of {STATUS_FLAGS}")
    for flag, slot in zip(STATUS_FLAGS, _FLAG_SLOTS, strict=False):
        if flag in status:
            getattr(s, slot)[u] = 1


def to_position(s: ForceOnForceState) -> dict[str, Any]:
    """The position of ``s`` (between activations, at the Overwatch declaration, or finished)."""
    if s.kind == TERMINAL:
        stage = "game_over"
    elif s.kind == D_SELECT:
        stage = "activation"
    elif s.kind == D_OVERWATCH and not any(s.overwatch):
        stage = "overwatch"
    elif s.setup_stage == 0 and not any(p >= 0 for p in s.pos):
        return {"stage": "setup"}
    else:
        raise PositionError(
            f"a {s.decision_kind} decision cannot be written as a position; positions describe the "
            "moments between activations (reach this one by applying actions)"
        )
    table = s.sc.table
    units = {}
    for u in range(NUM_UNITS):
        f = s.figs[u]
        if not any(f):
            continue
        prof = s.sc.profiles[u]
        spec: dict[str, Any] = {
            "at": table.name(s.pos[u]) if s.pos[u] >= 0 else None,
            "figures": {n: f[i] for i, n in enumerate(FIGURE_STATES) if f[i]},
        }
        if s.tq[u] != prof.tq:
            spec["tq"] = s.tq[u]
        if s.morale[u] != prof.morale:
            spec["morale"] = s.morale[u]
        if s.armor[u] != prof.armor:
            spec["armor"] = s.armor[u]
        if s.supply[u] != prof.supply:
            spec["supply"] = SUPPLY_NAMES[s.supply[u]]
        if s.support[u] != prof.support:
            spec["support"] = [combat.SUPPORT_NAMES[c] for c in s.support[u]]
        if s.moved[u]:
            spec["moved"] = MOVED[s.moved[u]]
        if s.fires[u]:
            spec["fires"] = s.fires[u]
        if s.rmoves[u]:
            spec["reaction_moves"] = s.rmoves[u]
        status = [flag for flag, slot in zip(STATUS_FLAGS, _FLAG_SLOTS, strict=False) if getattr(s, slot)[u]]
        if status:
            spec["status"] = status
        units[UNIT_NAMES[u]] = spec
    pos: dict[str, Any] = {
        "stage": stage,
        "turn": s.turn,
        "initiative": SIDES[s.initiative],
        "portion": "initiative" if s.portion == 0 else "non_initiative",
        "units": units,
        "pilot": {
            "at": table.name(s.pilot_pos) if s.pilot_pos >= 0 else None,
            "with": UNIT_NAMES[s.pilot_unit] if s.pilot_unit >= 0 else None,
            "contact": bool(s.contact),
            "exited_turn": s.pilot_exit,
        },
        "amped_up": [SIDES[i] for i in (0, 1) if s.amped[i]],
    }
    if s.leader_unit >= 0:
        pos["leader"] = UNIT_NAMES[s.leader_unit]
    if s.first_fire:
        pos["must_fire_first"] = True
    if s.sc is not s.game.setup:
        pos["table"] = s._start.get("table")
    if stage == "game_over":
        pos["auto_victory"] = bool(s.auto_win)
    return pos


ForceOnForceState.to_position = to_position  # type: ignore[method-assign]
__all__ = ["state_from_position", "to_position", "STATUS_FLAGS", "USMC"]
