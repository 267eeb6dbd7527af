"""Helpers for the FUBAR rule tests: small scenario files written on the fly, positions, scripted dice.

A test scenario (:func:`scenario`) is a 24" x 24" table with 2" spacing (points ``x01y01`` .. ``x23y23``),
no terrain unless given, and the units the test needs, each deployed at a fixed point. :func:`game`
writes it to a file (once per distinct scenario) and builds ``make_game("fubar", scenario=PATH)``;
:func:`position` sets up a state with ``ScriptedDice``. Sides are ``"red"`` (player 0, west edge) and
``"blue"`` (player 1, east edge); unit ids are ``r.1``, ``b.1`` ...
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import fof_env
from fof_env import ScriptedDice
from fof_env.core.events import DiceRolled

SEED = "002_b69cb091b8d89aa2.txt"
_DIR = Path(tempfile.mkdtemp(prefix="fubar-test-scenarios-"))
_GAMES: dict[str, Any] = {}


def pt(x: int, y: int) -> str:
    """The point name at (x, y) inches: ``pt(5, 11) == "x05y11"``."""
    return f"x{x:02d}y{y:02d}"


def figures(n: int, *weapons: str, **extra: Any) -> dict:
    """``n`` figures armed with ``weapons`` (default: an assault rifle)."""
    return {"role": extra.pop("role", "Rifleman"), "weapons": list(weapons or ["assault_rifle"]), "count": n, **extra}


def infantry(uid: str, at: tuple[int, int] | None, *figs: dict, training: str = "veteran", armour: str = "none",
             **extra: Any) -> dict:  # fmt: skip
    """An infantry unit deployed at ``at`` (``None``: inside the vehicle ``extra['inside']``)."""
    side = "red" if uid.startswith("r.") else "blue"
    inside = extra.pop("inside", None)
    unit = {"id": uid, "name": uid, "side": side, "training": training, "armour": armour,
            "figures": list(figs) or [figures(4)]}  # fmt: skip
    unit["deployment"] = {"in": inside} if inside else {"at": list(at)}
    unit.update(extra)
    return unit


def vehicle(uid: str, at: tuple[int, int], cls: str = "apc", armour: str = "light", weapons=("heavy_machine_gun",),
            *, capacity: int = 0, crew: list[dict] | None = None, facing: str = "east", training: str = "veteran",
            crew_armour: str = "none") -> dict:  # fmt: skip
    side = "red" if uid.startswith("r.") else "blue"
    return {
        "id": uid, "name": uid, "side": side, "training": training, "armour": crew_armour,
        "vehicle": {"class": cls, "armour": armour, "weapons": [{"weapon": w} for w in weapons], "capacity": capacity,
                    "crew": crew if crew is not None else [figures(2, "pistol", role="Crew")], "facing": facing},
        "deployment": {"at": list(at)},
    }  # fmt: skip


def area(kind: str, x0: float, y0: float, x1: float, y1: float, fid: str | None = None, **extra: Any) -> dict:
    return {"id": fid or f"{kind}_{x0:g}_{y0:g}", "kind": kind, "rect": [x0, y0, x1, y1], **extra}


def wall(x0: float, y0: float, x1: float, y1: float, fid: str = "wall", **extra: Any) -> dict:
    return {"id": fid, "kind": "wall", "segment": [x0, y0, x1, y1], **extra}


def scenario(*units: dict, features: tuple = (), width: int = 24, height: int = 24, turns: int = 6,
             initiative: dict | None = None, victory: dict | None = None, rules: dict | None = None,
             cover: dict | None = None, wall_reach: float | None = None, exit_sides: tuple = ()) -> dict:  # fmt: skip
    table: dict[str, Any] = {"width_in": width, "height_in": height, "spacing_in": 2}
    if wall_reach is not None:
        table["wall_cover_reach_in"] = wall_reach
    if cover is not None:
        table["cover"] = cover
    table["features"] = list(features)
    return {
        "format": "fof-scenario/1", "id": "test", "name": "test", "ruleset": "fubar",
        "provenance": "designed for this project: a rules test", "source": SEED, "table": table,
        "sides": [{"id": "red", "name": "Red", "edge": "west", "exit": "red" in exit_sides},
                  {"id": "blue", "name": "Blue", "edge": "east", "exit": "blue" in exit_sides}],
        "units": list(units), "turns": turns, "initiative": initiative or {},
        "victory": victory or {"terms": [{"side": "red", "kind": "casualties", "vp": 1},
                                         {"side": "blue", "kind": "casualties", "vp": 1}]},
        "rules": rules or {},
    }  # fmt: skip


def write(data: dict) -> str:
    text = json.dumps(data)
    path = _DIR / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.exists():
        path.write_text(text)
    return str(path)


def game(*units: dict, **kw: Any):
    """The ``fubar`` game of :func:`scenario` (cached per distinct scenario)."""
    path = write(scenario(*units, **kw))
    got = _GAMES.get(path)
    if got is None:
        got = _GAMES[path] = fof_env.make_game("fubar", scenario=path)
    return got


def position(g, units: dict[str, dict] | None = None, dice: list[int] | None = None, **pos: Any):
    """A state of ``g`` at ``pos`` (stage "activation" unless given) with scripted ``dice``. Every unit
    of the scenario is on its deployment point unless ``units`` says otherwise."""
    spec: dict[str, Any] = {"stage": "activation", "turn": 1}
    placed = {}
    for u in g.scenario.units:
        if u.deployment.points:
            placed[u.id] = {"at": g.setup.table.name(u.deployment.points[0])}
    for u in g.scenario.units:
        if u.deployment.carrier >= 0:
            carrier = g.scenario.units[u.deployment.carrier].id
            placed[u.id] = {"at": placed[carrier]["at"], "in": carrier}
    for uid, extra in (units or {}).items():
        if extra is None:
            placed.pop(uid, None)
        else:
            placed[uid] = {**placed.get(uid, {}), **extra}
    spec["units"] = placed
    spec.update(pos)
    state = g.state_from_position(spec, dice=ScriptedDice(list(dice or [])))
    return state


def script(state, rolls: list[int]) -> None:
    state.dice = ScriptedDice(list(rolls))


def play(state, *actions: str) -> None:
    for a in actions:
        state.apply(a)


def events(state, kind: type) -> list:
    return [e for e in state.events if isinstance(e, kind)]


def notes(state) -> list[str]:
    """The rule effects the engine narrated (``Note`` events), in order."""
    from fof_env.fubar.events import Note

    return [e.text for e in state.events if isinstance(e, Note)]


def rolls(state) -> list[int]:
    return [e.value for e in state.events if isinstance(e, DiceRolled)]


def statuses(state, uid: str) -> list[str]:
    u = state.sc.unit_ids.index(uid)
    return [("ok", "suppressed", "casualty", "destroyed", "captured")[state.fs[f]] for f in state.members[u]]


def unit(state, uid: str) -> int:
    return state.sc.unit_ids.index(uid)


def at(state, uid: str) -> str:
    return state.point_name(state.pos[unit(state, uid)])


def legal(state) -> list[str]:
    return state.legal_action_strings()


def kind(state) -> str:
    return state.decision.kind
