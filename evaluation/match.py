"""Play games between agents: one game (:func:`play_game`) or a series (:func:`play_series`).

Single process and simple; a multi-process tournament builds on these.

Agent specs, for each side: an agent kind known to :func:`agents.make_agent`
(``"random"``, ``"heuristic"``, ``"mcts"``, ``"ppo"`` ...), optionally with keyword
arguments as ``"kind:key=value,key=value"``, or with one bare argument as
``"kind:value"`` for a kind that takes one (:func:`agents.base.positional_keyword`:
``"mcts:200"`` is ``simulations=200``, ``"ppo:runs/x/model.zip"`` is
``path="runs/x/model.zip"``); or a factory ``f(game, player, seed) -> Agent``.
A string spec may end in ``@side`` (a side of the game, any case): it then plays that
side only, ``"mcts:simulations=128@usmc"``, and :func:`build_agent` refuses the
other (so a tournament leaves out its pairings there). A string spec's display
name is the spec itself, suffix included (:func:`spec_name`).

Seeding: ``play_series(..., seed=s)`` draws every game's dice seed and both
agents' seeds from ``numpy.random.SeedSequence(s)``, so a series is reproducible
and its games are independent.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import Agent
from agents.specs import AgentSpec, build_agent, parse_agent_spec, split_side  # noqa: F401 - re-exported
from evaluation.stats import format_rate, wilson_interval
from fof_env.core.registry import make_game


@dataclass(frozen=True)
class Thinking:
    """One player's decisions in a game and the wall time its agent spent choosing them."""

    decisions: int = 0
    seconds: float = 0.0  # total time in ``agent.act``
    longest: float = 0.0  # the longest single ``agent.act`` call

    def untimed(self) -> Thinking:
        """The decision count alone, clock readings zeroed."""
        return Thinking(self.decisions)


@dataclass
class GameResult:
    """The outcome of one game."""

    winner: int | None  # player index, None for a draw
    returns: tuple[float, float]
    score: Any  # the game's own score (Strike Force One: towns and units left)
    decisions: int
    seed: int | None
    record: str | None  # ``state.to_json()``: replay with ``State.from_json``
    vp: tuple[int, int] | None = None  # victory points per side, for games that count them
    thinking: tuple[Thinking, Thinking] | None = None  # each player's time in ``act``
    termination: str | None = None  # why the game ended (its Outcome's termination)


def play_game(
    game,
    agents: Sequence[Agent],
    seed: int | None,
    *,
    record: bool = True,
    on_step: Callable[[Any, int, int], None] | None = None,
) -> GameResult:
    """Play one game of ``game`` from its initial state with dice ``seed``.

    ``agents[p]`` decides for player ``p``. Every action is validated by
    ``state.apply`` (an agent returning an illegal action raises
    ``IllegalActionError``). ``on_step(state, player, action)`` is called before
    each action is applied. ``record=False`` skips building the JSON record. The result's
    ``thinking`` times each player's ``agent.act`` calls (wall clock, so not reproducible).
    """
    if len(agents) != 2:
        raise ValueError(f"need one agent per side, got {len(agents)}")
    state = game.new_initial_state(seed)
    decisions = 0
    limit = game.max_decisions
    moves, seconds, longest = [0, 0], [0.0, 0.0], [0.0, 0.0]  # per player; plain numbers on this hot loop
    while not state.is_terminal:
        player = state.current_player
        start = time.perf_counter()
        action = agents[player].act(state)
        took = time.perf_counter() - start
        moves[player] += 1
        seconds[player] += took
        if took > longest[player]:
            longest[player] = took
        if on_step is not None:
            on_step(state, player, action)
        state.apply(action)
        decisions += 1
        if decisions > limit:
            raise RuntimeError(f"{game.name}: game with seed {seed} exceeded max_decisions={limit}")
    return GameResult(
        winner=state.winner,
        returns=tuple(state.returns()),  # type: ignore[arg-type]
        score=getattr(state, "score", None),
        decisions=decisions,
        seed=seed,
        record=state.to_json() if record else None,
        vp=victory_points(state),
        thinking=(Thinking(moves[0], seconds[0], longest[0]), Thinking(moves[1], seconds[1], longest[1])),
        termination=str(state.outcome().termination),
    )


def victory_points(state) -> tuple[int, int] | None:
    """``(side 0 VP, side 1 VP)`` from ``state.victory_points()``; None for a game without VP."""
    vp = getattr(state, "victory_points", None)
    if not callable(vp):
        return None
    first, second = vp()
    return (first, second)


def spec_name(spec: AgentSpec) -> str:
    """The display name of an agent spec: the string itself, or a factory's ``__name__``."""
    if isinstance(spec, str):
        return spec
    return getattr(spec, "__name__", repr(spec))


@dataclass
class SeriesResult:
    """Tallies of a series of games between two agent specs (one per side)."""

    game: str
    options: dict[str, Any]
    player_names: tuple[str, str]
    agents: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    decisions: int = 0
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list)

    def win_rate(self, player: int) -> tuple[float, float, float]:
        """(rate, low, high): ``player``'s win rate and its Wilson 95 % interval (draws = half)."""
        wins = self.wins[player] + 0.5 * self.draws
        lo, hi = wilson_interval(wins, self.games)
        return (wins / self.games if self.games else 0.0, lo, hi)

    def row(self) -> str:
        """One line: the pairing, game count and both sides' win rates with intervals."""
        a, b = self.player_names
        return (
            f"{a}={self.agents[0]:<10} {b}={self.agents[1]:<10} games={self.games:<4} "
            f"{a} {format_rate(self.wins[0] + 0.5 * self.draws, self.games)}  "
            f"{b} {format_rate(self.wins[1] + 0.5 * self.draws, self.games)}"
            + (f"  draws {self.draws}" if self.draws else "")
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "agents": dict(zip(self.player_names, self.agents, strict=True)),
            "games": self.games,
            "wins": dict(zip(self.player_names, self.wins, strict=True)),
            "draws": self.draws,
            "win_rate": {
                name: dict(zip(("rate", "low", "high"), self.win_rate(p), strict=True))
                for p, name in enumerate(self.player_names)
            },
            "decisions": self.decisions,
            "seconds": self.seconds,
        }


def play_series(
    game_name: str,
    options: dict[str, Any] | None,
    agents: Sequence[AgentSpec],
    games: int,
    seed: int = 0,
    *,
    keep_results: bool = False,
    records: bool = False,
) -> SeriesResult:
    """Play ``games`` games of ``game_name`` with ``agents[p]`` on side ``p``.

    ``keep_results`` keeps every :class:`GameResult` (with its JSON record when
    ``records``). Returns the tallies (:class:`SeriesResult`).
    """
    if len(agents) != 2:
        raise ValueError(f"need one agent spec per side, got {len(agents)}")
    options = dict(options or {})
    game = make_game(game_name, **options)
    out = SeriesResult(
        game=game_name,
        options=options,
        player_names=tuple(game.player_names),  # type: ignore[arg-type]
        agents=(spec_name(agents[0]), spec_name(agents[1])),
    )
    seeds = np.random.SeedSequence(seed).generate_state(3 * games, dtype=np.uint32).reshape(games, 3)
    start = time.perf_counter()
    for g in range(games):
        game_seed, s0, s1 = (int(x) for x in seeds[g])
        pair = (build_agent(agents[0], game, 0, s0), build_agent(agents[1], game, 1, s1))
        result = play_game(game, pair, game_seed, record=records)
        out.games += 1
        out.decisions += result.decisions
        if result.winner is None:
            out.draws += 1
        else:
            out.wins[result.winner] += 1
        if keep_results:
            out.results.append(result)
    out.seconds = time.perf_counter() - start
    return out
