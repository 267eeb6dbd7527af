"""Position fuzzing: random valid and near-valid positions, played on with every record round trip checked.

``python -m evaluation.position_fuzz`` (part of ``make fuzz``) builds ``--positions``
random positions per game (both games by default) in each game's position format:

* **valid-looking** ones, drawn field by field from each field's own range (units on
  random points or hexes, figure counts, statuses, turn, phase or stage, the pilot,
  custom tables with random woods ...), which the rules may still refuse (two sides in a
  hex, a Hidden unit in the open);
* **near-valid** ones (``--near`` of them, default 30 %): a valid-looking position with
  one field, at any depth, replaced by a value of the wrong type or range (``True``,
  ``"x"``, ``-1``, ``1e9``, ``None``, ``[]``, ``{}``, ``"n01"`` ...).

Each position must either be refused with a one-line
:class:`~fof_env.core.errors.PositionError` (any other exception is a failure) or give a
state. From a state it checks that the position format round-trips where the state can
be written as a position, then plays up to ``--actions`` random legal actions; after
each it checks every invariant of :func:`evaluation.fuzz.check_state` (legal list and
mask, clone, refused illegal action, observations within their bounds) and that
``to_json``/``from_json`` rebuilds a state with the same digest.

A failure raises ``AssertionError`` naming the game, the position (as JSON) and the step.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import fof_env
from fof_env.core.dice import SeededDice
from fof_env.core.errors import PositionError
from fof_env.core.game import State

NASTY: tuple[Any, ...] = (True, False, "x", -1, 10**9, 1.5, None, [], {}, "n01", [[1]], {"a": 1})


@dataclass
class PositionFuzzReport:
    game: str
    positions: int
    accepted: int
    refused: int
    decisions: int
    seconds: float

    def line(self) -> str:
        return (
            f"{self.game}: {self.positions} positions ({self.accepted} accepted, {self.refused} refused "
            f"in one line), {self.decisions} decisions with a record round trip after each, {self.seconds:.1f} s"
        )


# ----------------------------------------------------------------------------- generators
def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def strike_force_one_position(rng: np.random.Generator, game) -> dict[str, Any]:
    """A random Strike Force One position (module docstring): units on distinct hexes, mostly clear ones."""
    from fof_env.strike_force_one.data import SIDES, UNIT_LETTERS, UNIT_NAMES
    from fof_env.strike_force_one.state import PHASES

    sc = game.scenario
    names = list(sc.grid.names)
    clear = [h for h in names if not sc.woods[sc.grid.hex(h)]]
    units: dict[str, dict[str, str]] = {}
    taken: set[str] = set()
    for side, side_name in enumerate(SIDES):
        units[side_name] = {}
        for letter in UNIT_LETTERS[side]:
            if rng.random() < 0.85:
                hexes = clear if rng.random() < 0.9 else names
                h = _pick(rng, [x for x in hexes if x not in taken] or hexes)
                taken.add(h)
                units[side_name][letter] = h
    phase = "game_over" if rng.random() < 0.05 else _pick(rng, PHASES)
    return {
        "turn": 4 if phase == "game_over" else int(rng.integers(1, 5)),
        "phase": phase,
        "units": units,
        "done": [u for u in UNIT_NAMES if rng.random() < 0.15],
        "attacked": [u for u in UNIT_NAMES if rng.random() < 0.15],
        "seed": int(rng.integers(2**32)),
    }


def lost_and_found_position(rng: np.random.Generator, game) -> dict[str, Any]:
    """A random Lost & Found position (module docstring), on the scenario map or a custom table."""
    from fof_env.force_on_force.position import MOVED, STATUS_FLAGS
    from fof_env.force_on_force.scenario import table_from_dict

    custom = rng.random() < 0.2
    table_spec = None
    if custom:
        features = []
        for i in range(int(rng.integers(0, 5))):
            x, y = (float(v) for v in rng.integers(0, 30, size=2))
            features.append({"id": f"w{i}", "kind": "woods", "rect": [x, y, x + 6.0, y + 6.0]})
        table_spec = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": features}
        try:
            table = table_from_dict({**table_spec["table"], "features": features}, "fuzz")
        except ValueError:  # overlapping woods: the position will be refused; draw on the scenario map
            table = game.setup.table
    else:
        table = game.setup.table
    points = list(table.names)
    woods = [table.names[p] for p in range(table.n) if table.in_woods[p]]
    profiles = game.setup.profiles
    units: dict[str, dict[str, Any]] = {}
    cls = game.state_class
    for u, name in enumerate(cls.UNIT_NAMES):
        if rng.random() > 0.6 or (not profiles[u].figures and u != game.setup.reinforcements):
            continue
        hider = cls.UNIT_SIDE[u] == game.setup.ambush_side
        hide = hider and woods and rng.random() < 0.3
        at = _pick(rng, woods) if hide else (None if rng.random() < 0.05 else _pick(rng, points))
        most = max(profiles[u].figures, 1)
        spec: dict[str, Any] = {
            "at": at,
            "figures": {
                "ok": int(rng.integers(0, most + 1)),
                "light": int(rng.integers(0, 2)),
                "down": int(rng.integers(0, 2)),
                "serious": int(rng.integers(0, 2)),
                "kia": int(rng.integers(0, 2)),
            },
            "moved": _pick(rng, MOVED),
            "fires": int(rng.integers(0, 3)),
            "reaction_moves": int(rng.integers(0, 2)),
            "status": [f for f in STATUS_FLAGS if f != "hidden" and rng.random() < 0.08]
            + (["hidden"] if hide and at is not None else []),
        }
        if rng.random() < 0.2:
            spec["support"] = [_pick(rng, ("light", "medium", "heavy")) for _ in range(int(rng.integers(0, 3)))]
        if rng.random() < 0.1:
            spec["tq"] = int(_pick(rng, (6, 8, 10, 12)))
        units[name] = spec
    rescuers = game.setup.pilot.side if game.setup.pilot is not None else 1
    usmc_on = [cls.UNIT_NAMES[u] for u in cls.SIDE_UNITS[rescuers]
               if cls.UNIT_NAMES[u] in units and units[cls.UNIT_NAMES[u]]["at"] is not None]  # fmt: skip
    turn = int(rng.integers(1, 10))
    roll = rng.random()
    if roll < 0.3:
        pilot: dict[str, Any] = {"at": _pick(rng, points)}
    elif roll < 0.5:
        pilot = {"exited_turn": int(rng.integers(1, turn + 1))}
    elif roll < 0.7 and usmc_on:
        pilot = {"with": _pick(rng, usmc_on), "contact": True}
    else:
        pilot = {}
    stage = _pick(rng, ("activation",) * 7 + ("overwatch",) * 2 + ("game_over",))
    pos: dict[str, Any] = {
        "stage": stage,
        "turn": turn,
        "initiative": _pick(rng, cls.SIDES),
        "portion": _pick(rng, ("initiative", "non_initiative")),
        "units": units,
        "pilot": pilot,
        "amped_up": [s for s in cls.SIDES if rng.random() < 0.1],
        "seed": int(rng.integers(2**32)),
    }
    if rng.random() < 0.1:
        pos["must_fire_first"] = True
    if usmc_on and rng.random() < 0.3:
        pos["leader"] = _pick(rng, usmc_on)
    if table_spec is not None:
        pos["table"] = table_spec
    return pos


GENERATORS: dict[str, Callable[[np.random.Generator, Any], dict[str, Any]]] = {
    "strike_force_one": strike_force_one_position,
    "lost_and_found": lost_and_found_position,
}
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "strike_force_one": [{}, {"optional_rules": True}],
    "lost_and_found": [{}, {"rules": "quick"}, {"taliban_teams": 3, "fog_of_war": False}],
}


def perturb(rng: np.random.Generator, data: Any) -> Any:
    """``data`` with one value, at a random depth, replaced by a value from ``NASTY``."""
    if not isinstance(data, (dict, list)) or not data or rng.random() < 0.25:
        return _pick(rng, NASTY)
    if isinstance(data, dict):
        key = _pick(rng, list(data))
        return {**data, key: perturb(rng, data[key])}
    i = int(rng.integers(len(data)))
    return [*data[:i], perturb(rng, data[i]), *data[i + 1 :]]


# ----------------------------------------------------------------------------- checks
def play_on(state: State, rng: np.random.Generator, actions: int) -> int:
    """Up to ``actions`` random legal actions, every invariant and a record round trip after each."""
    from evaluation.fuzz import check_state

    played = 0
    while True:
        check_state(state, rng, check_json=False, position_checks=False)
        again = state.game.state_from_json(state.to_json())
        assert again.digest() == state.digest(), "to_json/from_json gives another state"
        if state.is_terminal or played >= actions:
            return played
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
        played += 1


def check_position(game, position: Any, rng: np.random.Generator, actions: int) -> int | None:
    """Build ``position``: None if it is refused in one line, else the decisions played on from it.

    A position without a seed gets dice seeded from ``rng`` (its own would be unseeded: random)."""
    seeded = isinstance(position, dict) and position.get("seed") is not None
    dice = None if seeded else SeededDice(int(rng.integers(2**32)))
    try:
        state = game.state_from_position(position, dice=dice)
    except PositionError as exc:
        assert str(exc) and "\n" not in str(exc), f"refusal is not one line: {exc!r}"
        return None
    try:
        written = state.to_position()
    except PositionError:
        written = None  # a decision inside an activation: positions describe the moments between
    if written is not None:
        again = game.state_from_position(written).to_position()
        assert again == written, f"position round trip differs: {written} -> {again}"
    return play_on(state, rng, actions)


def fuzz_positions(game_name: str, positions: int, seed: int = 0, actions: int = 30,
                   near: float = 0.3) -> PositionFuzzReport:
    """Check ``positions`` random positions of ``game_name`` (module docstring), over its option sets."""
    rng = np.random.default_rng(seed)
    games = [fof_env.make_game(game_name, **o) for o in OPTION_SETS.get(game_name, [{}])]
    generate = GENERATORS[game_name]
    accepted = refused = decisions = 0
    start = time.perf_counter()
    for i in range(positions):
        game = games[i % len(games)]
        position = generate(rng, game)
        if rng.random() < near:
            position = perturb(rng, position)
        try:
            played = check_position(game, position, rng, actions)
        except Exception as exc:
            raise AssertionError(
                f"{game_name} {game.options} position {i}: {type(exc).__name__}: {exc}\n"
                f"position: {json.dumps(position, default=repr)}"
            ) from exc
        if played is None:
            refused += 1
        else:
            accepted += 1
            decisions += played
    return PositionFuzzReport(game_name, positions, accepted, refused, decisions, time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GENERATORS), help="default: every game")
    parser.add_argument("--positions", type=int, default=5000, help="positions per game (default 5000)")
    parser.add_argument("--actions", type=int, default=30, help="random actions played on from each")
    parser.add_argument("--near", type=float, default=0.3, help="share of near-valid positions")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in args.game or sorted(GENERATORS):
        print(fuzz_positions(name, args.positions, args.seed, args.actions, args.near).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
