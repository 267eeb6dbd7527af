"""Small helpers shared by the Strike Force One rules tests.

Positions are written in the documented position format
(:mod:`fof_env.strike_force_one.position`); hexes and units are named as in the
rules (``"0504"``, ``"sov.A"``) so every test reads like the situation it pins.
"""

from __future__ import annotations

from functools import cache

import fof_env
from fof_env.strike_force_one.data import UNIT_NAMES

SEED = "001_8616da5a6ffeaaf0.txt"

# Combat Results Table as reconstructed in DESIGN.md: CRT[die - 1][units - 1].
CRT = [
    ["DR", "DE", "DE", "DE", "DE", "DE"],
    ["DR", "DR", "DE", "DE", "DE", "DE"],
    ["AR", "DR", "DR", "DE", "DE", "DE"],
    ["AR", "AR", "DR", "DR", "DE", "DE"],
    ["AE", "AR", "AR", "DR", "DR", "DE"],
    ["AE", "AE", "AR", "AR", "DR", "DR"],
]


@cache
def game(optional: bool = False):
    return fof_env.make_game("strike_force_one", optional_rules=optional)


def position(soviet=None, us=None, *, phase="soviet_move", turn=1, done=(), attacked=()) -> dict:
    """A position dict: ``soviet``/``us`` map unit letters to hexes."""
    return {
        "turn": turn,
        "phase": phase,
        "units": {"soviet": dict(soviet or {}), "us": dict(us or {})},
        "done": list(done),
        "attacked": list(attacked),
    }


def make(soviet=None, us=None, *, optional=False, **kw):
    """A state built from :func:`position` under the basic or the optional rules."""
    return game(optional).state_from_position(position(soviet, us, **kw))


def hx(name: str) -> int:
    return game().scenario.grid.hex(name)


def hname(index: int) -> str:
    return game().scenario.grid.names[index]


def uid(name: str) -> int:
    return UNIT_NAMES.index(name)


def neighbors(name: str) -> set[str]:
    grid = game().scenario.grid
    return {grid.names[n] for n in grid.neighbors[grid.hex(name)]}


def reach(state, unit: str) -> set[str]:
    """Hex names ``unit`` may end its move in (its own hex excluded)."""
    return {hname(h) for h in state.reachable(uid(unit))}


def where(state, unit: str) -> str | None:
    h = state.unit_hex[uid(unit)]
    return None if h < 0 else hname(h)


def move(state, unit: str, dest: str) -> None:
    state.apply(unit)
    state.apply(dest)


def attack(state, target: str, from_hexes, roll: int) -> None:
    """Declare an attack on ``target`` from ``from_hexes``, script the die and resolve it."""
    state.apply(target)
    for h in from_hexes:
        state.apply(h)
    state.dice = fof_env.ScriptedDice([roll])
    state.apply("resolve")


def events(state, cls) -> list:
    return [e for e in state.events if isinstance(e, cls)]


def path_problem(state, unit: str, path: list[str]) -> str | None:
    """Why moving ``unit`` along ``path`` (the hexes entered, in order) breaks rules 2.0/4.2-4.5
    (7.1, 8.1 under the optional rules); ``None`` when the path is legal. Read literally, step by step,
    independently of the engine's search."""
    sc = state.sc
    optional = state.game.optional_rules
    u = uid(unit)
    side = 0 if u < 6 else 1
    enemy = {state.unit_hex[v] for v in range(10) if (v < 6) != (side == 0) and state.unit_hex[v] >= 0}
    enemy_adjacent = {n for e in enemy for n in sc.grid.neighbors[e]}
    here, spent = state.unit_hex[u], 0
    for i, name in enumerate(path):
        h = sc.grid.hex(name)
        if h not in sc.grid.neighbors[here]:
            return f"{name} is not adjacent to {hname(here)} (4.2)"
        if h in enemy:
            return f"{name} holds an enemy unit (4.4)"
        if sc.woods[h] and not optional:
            return f"{name} is woods (2.0)"
        spent += 2 if sc.woods[h] else 1
        if spent > 4:
            return f"{name} is beyond the four-hex allowance (4.3, 8.1)"
        if here in enemy_adjacent and h in enemy_adjacent:
            return f"{hname(here)} to {name}: both hexes adjacent to the enemy (4.5)"
        if h in enemy_adjacent and i < len(path) - 1:
            return f"must stop in {name}, adjacent to the enemy (4.5)"
        here = h
    friends = sum(1 for v in range(10) if v != u and (v < 6) == (side == 0) and state.unit_hex[v] == here)
    if friends >= (2 if optional else 1):
        return f"may not end in {hname(here)} with {friends} friendly unit(s) (4.4, 7.1)"
    return None
