"""Random-play fuzzing with invariant checks at every decision.

``python -m evaluation.fuzz`` (``make fuzz``) plays, for every registered game but the scenario
engines (``--game G`` names games), the random games of the game's fuzz plan
(:class:`fof_env.core.ruleset.FuzzPlan`: how many, split evenly over which option sets, how often
the record round trip is checked), over many seeds. At every step it checks, via
:func:`check_state`:

* the legal list is sorted, non-empty while the game runs, and equals the mask;
* ``current_player`` and ``decision.player`` agree;
* a clone has the same fingerprint, and applying the same action to both keeps them equal;
* every player's observation has the game's shape, dtype float32, finite values
  within the game's observation bounds;
* the game's own position invariants (its ruleset's ``invariants`` hook: stacking limits,
  figures conserved, hidden units kept from the other side's observation ...);
* an illegal action is refused with ``IllegalActionError`` and leaves the state unchanged;
* ``to_json``/``from_json`` rebuilds an equal state (every step by default;
  ``--json-every N`` checks every N-th step, for speed);
* at the end: returns in [-1, 1] summing to 0, decisions within ``game.max_decisions``,
  and the record round-trips.

``--agent SIDE=KIND`` plays a side with an agent (``--agent usmc=heuristic``), to reach
positions random play practically never does (a rescue that random rescuers never make). A failure raises ``AssertionError`` naming the game, seed
and step, and the record to reproduce it (``State.from_json``).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

import fof_env
from evaluation.executors import make_executor
from fof_env.core.errors import IllegalActionError
from fof_env.core.game import State
from fof_env.core.registry import fixed_scenario_games, game_hook, game_spec
from fof_env.core.ruleset import FuzzPlan
from fof_env.envs.support import observation_bounds


def fuzz_plan(game_name: str) -> FuzzPlan:
    """How the game is fuzzed by default (its :class:`~fof_env.core.ruleset.FuzzPlan`)."""
    spec = game_spec(game_name)
    return spec.fuzz if spec is not None else FuzzPlan()




@dataclass
class FuzzReport:
    game: str
    options: dict
    games: int
    decisions: int
    seconds: float
    wins: tuple[int, int, int]  # player 0, player 1, draws
    agents: dict | None = None  # sides not played at random

    def line(self) -> str:
        played = "".join(f" {side}={kind}" for side, kind in (self.agents or {}).items())
        return (
            f"{self.game} {self.options}{played}: {self.games} games, {self.decisions} decisions checked, "
            f"wins {self.wins[0]}/{self.wins[1]}/draws {self.wins[2]}, {self.seconds:.1f} s"
        )


def check_observations(state: State) -> None:
    """Both players' observations: the game's shape, float32, finite, within its bounds."""
    game = state.game
    low, high = observation_bounds(game)
    for player in (0, 1):
        obs = state.observation(player)
        assert isinstance(obs, np.ndarray) and obs.dtype == np.float32, f"observation dtype {obs.dtype}"
        assert obs.shape == tuple(game.observation_shape), f"observation shape {obs.shape}"
        assert np.isfinite(obs).all(), f"non-finite observation of player {player}"
        lo, hi = float(obs.min()), float(obs.max())
        assert low <= lo and hi <= high, (
            f"observation of player {player} in [{lo}, {hi}], not [{low}, {high}]"
        )


def check_state(state: State, rng: np.random.Generator, check_json: bool, position_checks: bool = True) -> None:
    """Invariants every state of every game must satisfy (see module docstring); ``position_checks``
    False leaves out the game-specific ones that assume the scenario's own start (figure
    conservation), for states built from arbitrary positions."""
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
    position_check = game_hook(game, "invariants") if position_checks else None
    if position_check is not None:
        position_check(state)
    check_observations(state)
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


def fuzz(
    game_name: str,
    options: dict,
    games: int,
    seed: int = 0,
    json_every: int = 1,
    agents: dict[str, str] | None = None,
) -> FuzzReport:
    """Play ``games`` random games of ``game_name`` checking invariants at every step.

    ``agents`` (side name -> agent kind, e.g. ``{"usmc": "heuristic"}``) plays those sides
    with that agent instead of uniformly random legal actions, to reach positions random
    play never does (random Marines practically never find the pilot).
    """
    from agents.base import make_agent

    game = fof_env.make_game(game_name, **options)
    agents = dict(agents or {})
    for side in agents:
        game.player_index(side)  # ValueError for a side the game does not have
    rng = np.random.default_rng(seed)
    decisions = 0
    wins = [0, 0, 0]
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        state = game.new_initial_state(game_seed)
        players = {
            game.player_index(side): make_agent(kind, game, side, seed=game_seed)
            for side, kind in agents.items()
        }
        step = 0
        try:
            while True:
                check_state(state, rng, check_json=(step % json_every == 0))
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                agent = players.get(state.current_player)
                if agent is None:
                    action = legal[rng.integers(len(legal))]
                else:
                    action = agent.act(state)
                    assert action in legal, f"agent {agent!r} chose illegal action {action!r}"
                twin = state.clone()
                state.apply(action)
                twin.apply(action)
                assert twin.fingerprint() == state.fingerprint(), "clone diverged after the same action"
                step += 1
                assert step <= game.max_decisions, f"more than max_decisions={game.max_decisions}"
            returns = state.returns()
            assert all(-1.0 <= r <= 1.0 for r in returns) and abs(sum(returns)) < 1e-9
            assert len(state.history) == step <= game.max_decisions
            assert State.from_json(state.to_json()).fingerprint() == state.fingerprint()
        except AssertionError as exc:
            raise AssertionError(
                f"{game_name} {options} seed {game_seed} step {step}: {exc}\nrecord: {state.to_json()}"
            ) from exc
        decisions += step
        wins[2 if state.winner is None else state.winner] += 1
    return FuzzReport(game_name, options, games, decisions, time.perf_counter() - start, tuple(wins), agents)


def _fuzz_task(task: tuple) -> FuzzReport:
    return fuzz(*task)


def plan_tasks(
    game_name: str, games: int, workers: int, seed: int, json_every: int, agents: dict[str, str] | None = None
) -> list[tuple]:
    """``games`` split evenly over the game's option sets, then over the workers; each
    (mode, worker) pair fuzzes its own seed range."""
    modes = [dict(m) for m in fuzz_plan(game_name).modes]
    tasks = []
    for i, options in enumerate(modes):
        n_mode = games // len(modes) + (1 if i < games % len(modes) else 0)
        for w in range(workers):
            n = n_mode // workers + (1 if w < n_mode % workers else 0)
            if n:
                tasks.append((game_name, options, n, seed + 1000 * i + w, json_every, agents or {}))
    return tasks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=fof_env.list_games(),
                        help="a game to fuzz (repeatable; default: every game but the scenario engines)")  # fmt: skip
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games in total per game, split over the game's option sets "
        f"(default: {', '.join(f'{g} {fuzz_plan(g).games:,}' for g in fixed_scenario_games())}; otherwise 1,000)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json-every", type=int, default=None,
                        help="check to_json/from_json every N steps (default: the game's plan, mostly 1)")  # fmt: skip
    parser.add_argument(
        "--workers", type=int, default=2, help="processes (each plays its own share of seeds)"
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SIDE=KIND",
        help="play SIDE with agent KIND instead of at random, e.g. --agent usmc=heuristic (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    agents = {}
    for item in args.agent:
        side, eq, kind = item.partition("=")
        if not eq or not side.strip() or not kind.strip():
            parser.error(f"--agent: expected SIDE=KIND, got {item!r}")
        agents[side.strip()] = kind.strip()
    for name in args.game or fixed_scenario_games():
        plan = fuzz_plan(name)
        games = args.games if args.games is not None else plan.games
        json_every = args.json_every if args.json_every is not None else plan.json_every
        fuzz_game(name, games, args.workers, args.seed, json_every, agents)
    return 0


def fuzz_game(name: str, games: int, workers: int, seed: int, json_every: int, agents: dict[str, str]) -> None:
    """Fuzz ``games`` games of ``name`` on ``workers`` processes and print the reports."""
    tasks = plan_tasks(name, games, workers, seed, json_every, agents)
    start = time.perf_counter()
    with make_executor("local", workers) as executor:  # Ctrl-C stops the workers too
        reports = list(executor.map(_fuzz_task, tasks))
    for report in reports:
        print(report.line(), flush=True)
    print(
        f"{name}: all invariants held: {sum(r.games for r in reports)} games, "
        f"{sum(r.decisions for r in reports)} decisions, {time.perf_counter() - start:.0f} s wall with "
        f"{workers} worker(s)"
    )


if __name__ == "__main__":
    sys.exit(main())
