"""Position fuzzing: random valid and near-valid positions, played on with every record round trip checked.

``python -m evaluation.position_fuzz`` (part of ``make fuzz``) builds ``--positions``
random positions per game (every game whose ruleset draws them, by default; its ``random_position``
hook, under the option sets of the game's ``position_fuzz``) in each game's position format:

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
from dataclasses import dataclass
from typing import Any

import numpy as np

import fof_env
from fof_env.core.dice import SeededDice
from fof_env.core.errors import PositionError
from fof_env.core.game import State
from fof_env.core.registry import game_hook, game_spec, game_specs

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


def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def position_games() -> list[str]:
    """The games whose ruleset draws random positions (its ``random_position`` hook) and that name the
    option sets to draw them under (their spec's ``position_fuzz``)."""
    return [spec.name for spec in game_specs() if spec.position_fuzz and game_hook(spec.name, "random_position")]


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
    spec = game_spec(game_name)
    games = [fof_env.make_game(game_name, **o) for o in (spec.position_fuzz if spec else ()) or ({},)]
    generate = game_hook(game_name, "random_position")
    if generate is None:
        raise ValueError(f"game {game_name!r} draws no random positions; games that do: {', '.join(position_games())}")
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
    parser.add_argument("--game", action="append", choices=position_games(), help="default: every game")
    parser.add_argument("--positions", type=int, default=5000, help="positions per game (default 5000)")
    parser.add_argument("--actions", type=int, default=30, help="random actions played on from each")
    parser.add_argument("--near", type=float, default=0.3, help="share of near-valid positions")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in args.game or position_games():
        print(fuzz_positions(name, args.positions, args.seed, args.actions, args.near).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
