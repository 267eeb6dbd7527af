"""Random-play fuzzing with invariant checks at every decision.

``python -m evaluation.fuzz`` (``make fuzz``) plays 10,000 random Strike Force One
games over many seeds, half under the basic rules and half under the optional
rules. At every step it checks, via :func:`check_state`:

* the legal list is sorted, non-empty while the game runs, and equals the mask;
* ``current_player`` and ``decision.player`` agree;
* a clone has the same fingerprint, and applying the same action to both keeps them equal;
* game-specific position invariants (Strike Force One: stacking limits, one side
  per hex, no unit in woods under the basic rules, units on the map);
* an illegal action is refused with ``IllegalActionError`` and leaves the state unchanged;
* ``to_json``/``from_json`` rebuilds an equal state (every step by default;
  ``--json-every N`` checks every N-th step, for speed);
* at the end: returns in [-1, 1] summing to 0, decisions within ``game.max_decisions``,
  and the record round-trips.

A failure raises ``AssertionError`` naming the game, seed and step, and the
record to reproduce it (``State.from_json``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import fof_env
from fof_env.core.errors import IllegalActionError
from fof_env.core.game import State


@dataclass
class FuzzReport:
    game: str
    options: dict
    games: int
    decisions: int
    seconds: float
    wins: tuple[int, int, int]  # player 0, player 1, draws

    def line(self) -> str:
        return (
            f"{self.game} {self.options}: {self.games} games, {self.decisions} decisions checked, "
            f"wins {self.wins[0]}/{self.wins[1]}/draws {self.wins[2]}, {self.seconds:.1f} s"
        )


def check_strike_force_one_position(state) -> None:
    """Stacking, woods and map invariants of Strike Force One."""
    limit = state.stack_limit
    per_hex: dict[int, list[int]] = {}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            assert 0 <= h < 68, f"unit {u} off the map at {h}"
            per_hex.setdefault(h, []).append(u)
    for h, units in per_hex.items():
        sides = {0 if u < 6 else 1 for u in units}
        assert len(sides) == 1, f"hex {state.hex_name(h)} holds both sides"
        # Retreating/advancing units are placed one at a time; the limit holds after every action.
        assert len(units) <= limit, f"hex {state.hex_name(h)} holds {len(units)} units (limit {limit})"
        if not state.optional:
            assert not state.sc.woods[h], f"unit in woods hex {state.hex_name(h)} under the basic rules"


POSITION_CHECKS: dict[str, Callable[[State], None]] = {
    "strike_force_one": check_strike_force_one_position,
}


def check_state(state: State, rng: np.random.Generator, check_json: bool) -> None:
    """Invariants every state of every game must satisfy (see module docstring)."""
    game = state.game
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == bool and mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == legal, "mask differs from the legal list"
    if state.is_terminal:
        assert legal == [] and state.current_player is None
    else:
        assert legal, "empty legal list in a running game"
        assert legal == sorted(set(legal)), "legal list not sorted/unique"
        assert state.decision.player == state.current_player
    position_check = POSITION_CHECKS.get(game.name)
    if position_check is not None:
        position_check(state)
    clone = state.clone()
    assert clone.fingerprint() == state.fingerprint(), "clone differs"
    if not state.is_terminal:
        illegal = np.flatnonzero(~mask)
        if len(illegal):
            before = state.fingerprint()
            bad = int(illegal[rng.integers(len(illegal))])
            try:
                state.apply(bad)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal action {bad} was accepted")
            assert state.fingerprint() == before, "refused action changed the state"
    if check_json:
        restored = State.from_json(state.to_json())
        assert restored.fingerprint() == state.fingerprint(), "to_json/from_json differs"
        assert restored.legal_actions() == legal


def fuzz(game_name: str, options: dict, games: int, seed: int = 0, json_every: int = 1) -> FuzzReport:
    """Play ``games`` random games of ``game_name`` checking invariants at every step."""
    game = fof_env.make_game(game_name, **options)
    rng = np.random.default_rng(seed)
    decisions = 0
    wins = [0, 0, 0]
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        state = game.new_initial_state(game_seed)
        step = 0
        try:
            while True:
                check_state(state, rng, check_json=(step % json_every == 0))
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                action = legal[rng.integers(len(legal))]
                twin = state.clone()
                state.apply(action)
                twin.apply(action)
                assert twin.fingerprint() == state.fingerprint(), "clone diverged after the same action"
                step += 1
                assert step <= game.max_decisions, f"more than max_decisions={game.max_decisions}"
            returns = state.returns()
            assert all(-1.0 <= r <= 1.0 for r in returns) and abs(sum(returns)) < 1e-9
            assert State.from_json(state.to_json()).fingerprint() == state.fingerprint()
        except AssertionError as exc:
            raise AssertionError(
                f"{game_name} {options} seed {game_seed} step {step}: {exc}\nrecord: {state.to_json()}"
            ) from exc
        decisions += step
        wins[2 if state.winner is None else state.winner] += 1
    return FuzzReport(game_name, options, games, decisions, time.perf_counter() - start, tuple(wins))


def _fuzz_task(task: tuple[str, dict, int, int, int]) -> FuzzReport:
    return fuzz(*task)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in total, split over rule modes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json-every", type=int, default=1, help="check to_json/from_json every N steps")
    parser.add_argument("--workers", type=int, default=2, help="processes (each plays its own share of seeds)")
    args = parser.parse_args(argv)
    modes = [{"optional_rules": False}, {"optional_rules": True}]
    # Each (mode, worker) pair fuzzes its own seed range.
    tasks = []
    for i, options in enumerate(modes):
        n_mode = args.games // len(modes) + (1 if i < args.games % len(modes) else 0)
        for w in range(args.workers):
            n = n_mode // args.workers + (1 if w < n_mode % args.workers else 0)
            if n:
                tasks.append(("strike_force_one", options, n, args.seed + 1000 * i + w, args.json_every))
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            reports = pool.map(_fuzz_task, tasks)
    else:
        reports = [_fuzz_task(t) for t in tasks]
    for report in reports:
        print(report.line(), flush=True)
    games = sum(r.games for r in reports)
    decisions = sum(r.decisions for r in reports)
    print(
        f"all invariants held: {games} games, {decisions} decisions, "
        f"{time.perf_counter() - start:.0f} s wall with {args.workers} worker(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
