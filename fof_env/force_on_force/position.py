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
        "tal.2": {"at": "x25y09", "status": ["hidden"]},
        "us.sherman": {"at": "x03y13",  # a WWII AFV (rules/wwii_vehicles.py, rulings R88): "vehicle"
                       "vehicle": {"immobilised": false, "main_gun_damaged": false, "knocked_out": false,
                                   "bailed_out": false, "applied_armour": false, "buttoned": true,
                                   "spot_used": false, "facing": "east", "spotted": []}}
      },
      "pilot": {"at": "x21y17", "with": null, "contact": false, "exited_turn": 0},
      "amped_up": [],                 # sides with Fog of War result 5
      "fog_cards": {...},             # the WWII deck (rules/wwii_fog.py): "deck" (top first), "hands"
                                      # {side: [...]}, "discards", "grounded", "gremlins", "colonel",
                                      # "swiss_cheese", "give_em_hell"; absent: the whole deck, shuffled from "seed"
      "cas_sorties": 1,               # close air support sorties left (rules/wwii_air.py)
      "table": {...},                 # optional: a custom table (scenario "table" + "features" keys)
      "seed": 7
    }

A position describes a state between activations (``activation``: the player of
``portion`` selects a unit), the initiative player's Overwatch declaration
(``overwatch``), the scenario before set-up (``setup``), or a finished game
(``game_over``). Reaction windows are reached by applying actions.

The keys ``pilot``, ``fog_cards``, ``cas_sorties`` and a unit's ``vehicle`` belong to rule modules: each is
declared, read and written by its module (:class:`~fof_env.force_on_force.rule_module.PositionKeys`), after
the board and the bookkeeping are read.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from fof_env.core.dice import check_seed
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.position import check_header
from fof_env.force_on_force import combat
from fof_env.force_on_force.constants import (
    AUTO,
    D_OVERWATCH,
    D_SELECT,
    FIGURE_STATES,
    ST_OVERWATCH,
    ST_SELECT,
    TERMINAL,
)
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.position_fields import count as _count
from fof_env.force_on_force.position_fields import flag as _flag
from fof_env.force_on_force.position_fields import names as _names
from fof_env.force_on_force.position_fields import point as _point

_POSITION_KEYS = tuple(m.position for m in MODULES if m.position is not None)  # the rule modules' keys
_KEYS = {"game", "options", "stage", "turn", "initiative", "portion", "units", "amped_up", "table", "seed", "leader",
         "must_fire_first", "auto_victory", *(k for keys in _POSITION_KEYS for k in keys.keys)}  # fmt: skip
_UNIT_KEYS = {"at", "figures", "tq", "morale", "armor", "supply", "support", "moved", "fires", "reaction_moves",
              "status", *(k for keys in _POSITION_KEYS for k in keys.unit_keys)}  # fmt: skip
STATUS_FLAGS = (
    "pinned", "overwatch", "hidden", "activated", "reacted", "failed_interrupt", "in_cover",
    "excellent_position", "medic", "ammunition_short", "tougher", "mad_minute", "react_only",
)  # fmt: skip
_FLAG_SLOTS = ("pinned", "overwatch", "hidden", "activated", "reacted", "failed", "in_cover", "excellent",
               "medic", "ammo", "tough", "mad", "react_only")  # fmt: skip
STAGES = ("setup", "overwatch", "activation", "game_over")
MOVED = ("none", "tactical", "rapid")
MAX_FIGURES = 12  # figures of one unit in a position: 003's worked examples field twelve Taliban
MAX_FIRES = 5  # fires a unit may have made this turn (each costs a die; the observation shows up to 5)
SUPPLY_NAMES = {-1: "poor", 0: "normal", 1: "high"}
_SUPPLY = {"poor": -1, "low": -1, "normal": 0, "high": 1}


def blank_state(game, setup):
    """A state of the game's state class with every slot at its default (no units on the table, turn 0): the
    default each module declares for its slots (:class:`~fof_env.force_on_force.rule_module.Slot`)."""
    s = game.state_class.__new__(game.state_class)
    s.game = game
    s.sc = setup
    for slot in s._BLANK:
        setattr(s, slot.name, slot.initial(s))
    s._clear_context()
    return s


MAX_CUSTOM_FEATURES = 64  # a custom table's features: bounds its set-up time
_TABLE_CACHE_SIZE = 16  # custom-table set-ups kept per game (least recently used dropped)


def _setup_for_table(game, spec: Any):
    """The game's setup on a custom table (features of the position's own; built once per spec).

    A custom table keeps the scenario's grid (width, height and spacing: the action space and
    the observation are laid out over its points) and has at most ``MAX_CUSTOM_FEATURES``
    features; anything else is refused before any geometry is computed.
    """
    from fof_env.core.errors import ScenarioError
    from fof_env.force_on_force.scenario import table_from_dict

    if not isinstance(spec, dict) or set(spec) != {"table", "features"}:
        raise PositionError("position['table'] must be a dict with exactly the keys 'table' and 'features'")
    own = game.setup.table
    grid = {"width_in": own.width_in, "height_in": own.height_in, "spacing_in": own.spacing_in}
    given = spec["table"]
    if not isinstance(given, dict) or any(given.get(k) != v or isinstance(given.get(k), bool)
                                          for k, v in grid.items()):
        raise PositionError(
            f"position['table']['table'] must keep the scenario's grid {grid} (the action space and the "
            f"observation are laid out over its {own.n} points), got {given!r:.120}"
        )
    if not isinstance(spec["features"], list) or len(spec["features"]) > MAX_CUSTOM_FEATURES:
        raise PositionError(f"position['table']['features'] must be a list of at most {MAX_CUSTOM_FEATURES} features")
    try:
        key = json.dumps(spec, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise PositionError(f"position['table'] is not plain JSON data: {exc}") from None
    cache = game._tables
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    try:
        table = table_from_dict({**spec["table"], "features": spec["features"]}, "position['table']")
    except ScenarioError as exc:
        raise PositionError(str(exc)) from None
    cache[key] = game.setup.with_table(table)
    while len(cache) > _TABLE_CACHE_SIZE:
        cache.popitem(last=False)
    return cache[key]


def state_from_position(game, position: dict[str, Any], dice=None):
    """Build a state from ``position`` (copied; the copy is the record's start); ``dice`` replaces
    the position's seeded dice. :class:`PositionError` says what is wrong."""
    check_header(game, position, _KEYS, "fof_env.force_on_force.position")
    position = copy.deepcopy(position)
    try:
        seed = check_seed(position.get("seed"), "position['seed']")
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    setup = _setup_for_table(game, position["table"]) if "table" in position else game.setup
    s = blank_state(game, setup)
    stage = position.get("stage", "activation")
    if not isinstance(stage, str) or stage not in STAGES:
        raise PositionError(f"stage must be one of {STAGES}, got {stage!r}")
    if stage == "setup":
        if set(position) - {"stage", "seed", "game", "options", "table"}:
            raise PositionError("a 'setup' position takes only 'stage', 'seed' and 'table'")
        for u in range(s.NUM_UNITS):  # a card reserve stays off the table, not in play (rulings R70)
            s.figs[u][0] = 0 if setup.reserves and setup.reserves[u] else setup.profiles[u].figures
        s._enter_setup_step()
    else:
        _read_board(s, setup, position, stage)
    s._init_bookkeeping(seed, position, dice)
    if stage != "setup":
        for keys in _POSITION_KEYS:  # the rule modules' own keys: the pilot, the Fog of War deck, air support
            if keys.read is not None:
                keys.read(s, position, seed)
    if stage == "game_over":
        s.auto_win = 1 if _flag(position.get("auto_victory", False), "auto_victory") else 0
        s.kind = TERMINAL
    else:
        s._run()
    return s


def _read_board(s, setup, position: dict[str, Any], stage: str) -> None:
    sides, names = s.SIDES, s.UNIT_NAMES
    turn = position.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= setup.turns:
        raise PositionError(f"turn must be an integer 1..{setup.turns}, got {turn!r}")
    s.turn = turn
    s.setup_stage = len(setup.deployment)
    init = position.get("initiative", sides[setup.first_initiative])
    if not isinstance(init, str) or init not in sides:
        raise PositionError(f"initiative must be one of {sides}, got {init!r}")
    s.initiative = sides.index(init)
    portion = position.get("portion", "initiative")
    if portion not in ("initiative", "non_initiative"):
        raise PositionError(f"portion must be 'initiative' or 'non_initiative', got {portion!r}")
    s.portion = 0 if portion == "initiative" else 1
    units = position.get("units", {})
    if not isinstance(units, dict):
        raise PositionError("position['units'] must map unit names to unit dicts")
    leader = position.get("leader")
    attachment = setup.attachment
    if leader is not None:
        allowed = [names[u] for u in s.SIDE_UNITS[attachment.side]] if attachment is not None else []
        if not isinstance(leader, str) or leader not in allowed or leader not in units:
            joins = (f"a {setup.sides[attachment.side].name} unit listed in 'units' (the unit the "
                     f"{attachment.name} joined)") if attachment is not None else "absent: no attachment in this scenario"
            raise PositionError(f"leader must be null or {joins}, got {leader!r}")
    s.leader_unit = names.index(leader) if leader is not None else -1
    for name, spec in units.items():
        if name not in names:
            raise PositionError(f"unknown unit {name!r}; units are {', '.join(names)}")
        _read_unit(s, setup, names.index(name), spec if spec is not None else {})
    amped = _names(position.get("amped_up", []), sides, "amped_up")
    s.amped = [1 if side in amped else 0 for side in sides]
    s.first_fire = 1 if _flag(position.get("must_fire_first", False), "must_fire_first") else 0
    if stage == "overwatch":
        s.step = ST_OVERWATCH
    else:
        s.step = ST_SELECT
    s.kind = AUTO


def _max_figures(s, setup, u: int) -> int:
    """The most figures a position may give unit ``u``: 0 for a unit not in this game's order of
    battle (Team Four with ``taliban_teams=3``); else ``MAX_FIGURES`` (positions state rules
    examples with larger units than the scenario's, like 003's twelve Taliban), or every figure of
    its side for the reinforcements that Fog of War raises from that side's dead."""
    if u == setup.reinforcements:
        return max(MAX_FIGURES, sum(setup.profiles[t].figures for t in s.SIDE_UNITS[s.UNIT_SIDE[u]]))
    return MAX_FIGURES if setup.profiles[u].figures else 0


def _read_unit(s, setup, u: int, spec: dict[str, Any]) -> None:
    name = s.UNIT_NAMES[u]
    if not isinstance(spec, dict):
        raise PositionError(f"unit {name}: expected a dict")
    unknown = set(spec) - _UNIT_KEYS
    if unknown:
        raise PositionError(f"unit {name}: unknown keys {sorted(unknown)}; allowed: {sorted(_UNIT_KEYS)}")
    most = _max_figures(s, setup, u)
    if not most:
        raise PositionError(f"unit {name} is not in this game's order of battle (see the game's options)")
    s.pos[u] = _point(setup, spec.get("at"), f"unit {name}.at")
    figures = spec.get("figures", {"ok": setup.profiles[u].figures or 1})
    if not isinstance(figures, dict) or not all(isinstance(k, str) and k in FIGURE_STATES for k in figures):
        raise PositionError(f"unit {name}.figures: a dict with keys from {FIGURE_STATES}")
    for i, state_name in enumerate(FIGURE_STATES):
        s.figs[u][i] = _count(figures.get(state_name, 0), f"unit {name}.figures.{state_name}", most)
    if not sum(s.figs[u]):
        raise PositionError(f"unit {name}.figures: no figure at all; leave a unit that is not in play out")
    if sum(s.figs[u]) > most:
        raise PositionError(
            f"unit {name}.figures: {sum(s.figs[u])} figures in all; a unit holds at most {most}"
        )
    for key, lo, hi in (("tq", 4, 12), ("morale", 4, 12), ("armor", 0, 4)):
        if key in spec:
            v = spec[key]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise PositionError(f"unit {name}.{key} must be an integer {lo}..{hi}, got {v!r}")
            getattr(s, key)[u] = v
    if "supply" in spec:
        if not isinstance(spec["supply"], str) or spec["supply"] not in _SUPPLY:
            raise PositionError(f"unit {name}.supply must be one of {sorted(_SUPPLY)}, got {spec['supply']!r}")
        s.supply[u] = _SUPPLY[spec["supply"]]
    if "support" in spec:
        weapons = _names(spec["support"], combat.SUPPORT_NAMES[1:], f"unit {name}.support")
        if len(weapons) > most:
            raise PositionError(f"unit {name}.support: {len(weapons)} weapons for at most {most} figures")
        support = list(s.support)
        support[u] = tuple(sorted((combat.SUPPORT_NAMES.index(w) for w in weapons), reverse=True))
        s.support = tuple(support)
    moved = spec.get("moved", "none")
    if not isinstance(moved, str) or moved not in MOVED:
        raise PositionError(f"unit {name}.moved must be one of {MOVED}, got {moved!r}")
    s.moved[u] = MOVED.index(moved)
    s.fires[u] = _count(spec.get("fires", 0), f"unit {name}.fires", MAX_FIRES)
    s.rmoves[u] = _count(spec.get("reaction_moves", 0), f"unit {name}.reaction_moves", 1)
    status = _names(spec.get("status", []), STATUS_FLAGS, f"unit {name}.status")
    for flag, slot in zip(STATUS_FLAGS, _FLAG_SLOTS, strict=False):
        if flag in status:
            getattr(s, slot)[u] = 1
    for keys in _POSITION_KEYS:  # the rule modules' unit keys (an AFV's ``vehicle``)
        if keys.read_unit is not None:
            keys.read_unit(s, u, spec)
    if s.hidden[u]:
        hider = setup.ambush_side
        sniper = bool(setup.reserves) and setup.reserves[u] == "hunted"  # Hunted!'s team is Hidden (R70)
        if s.UNIT_SIDE[u] != hider and not sniper:
            who = f"only {setup.sides[hider].name} units hide" if hider >= 0 else "no unit hides in this game"
            raise PositionError(f"unit {name}: {who} (000 \"Ambush Rules\")")
        if s.pos[u] < 0 or not setup.table.in_woods[s.pos[u]]:
            raise PositionError(
                f"unit {name} is hidden but not in woods: units \"starting in the woods are Hidden\" and "
                "stay Hidden only while they do not move (000)"
            )


def to_position(s) -> dict[str, Any]:
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
    names, sides = s.UNIT_NAMES, s.SIDES
    for u in range(s.NUM_UNITS):
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
        for keys in _POSITION_KEYS:
            if keys.write_unit is not None:
                keys.write_unit(s, u, spec)
        units[names[u]] = spec
    pos: dict[str, Any] = {
        "stage": stage,
        "turn": s.turn,
        "initiative": sides[s.initiative],
        "portion": "initiative" if s.portion == 0 else "non_initiative",
        "units": units,
    }
    pos["amped_up"] = [sides[i] for i in (0, 1) if s.amped[i]]
    if s.leader_unit >= 0:
        pos["leader"] = names[s.leader_unit]
    if s.first_fire:
        pos["must_fire_first"] = True
    if s.sc is not s.game.setup:
        pos["table"] = s._start.get("table")
    if stage == "game_over":
        pos["auto_victory"] = bool(s.auto_win)
    for keys in _POSITION_KEYS:
        if keys.write is not None:
            keys.write(s, pos)
    return pos


__all__ = ["state_from_position", "to_position", "STATUS_FLAGS"]
