"""Tournaments: every agent against every other on both sides, N games per ordered pairing, in parallel.

>>> from evaluation.tournament import run_tournament
>>> result = run_tournament("strike_force_one", {}, ["random", "heuristic"], games=4, progress=False)
>>> [t.agents for t in result.tallies]
[('random', 'random'), ('random', 'heuristic'), ('heuristic', 'random'), ('heuristic', 'heuristic')]

Pairings. The games are asymmetric, so a pairing is *ordered*: (A on side 0, B on
side 1). Every ordered pair of the given agents is played, including A against
itself (the mirror pairing, e.g. the heuristic-vs-heuristic baseline) unless
``mirror=False``; ``games`` games each. Pairings are listed with side 0 in the
order of the agent list, then side 1 in that order.

Seeds. Game ``g`` of pairing (A, B) draws its dice seed and both agents' seeds
from ``numpy.random.SeedSequence([seed, crc32(A), crc32(B), g])``: they depend on
the tournament seed, the two spec strings and ``g`` only, so results do not
depend on ``workers``, on the order work is done, nor on which other agents take
part.

Processes. ``workers=1`` plays everything in this process. ``workers > 1`` uses a
``ProcessPoolExecutor`` (start method "spawn": safe when torch is loaded, costs
about 0.3 s per worker) over chunks of consecutive games of one pairing. Each
process keeps a cache of built agents keyed by (game, options, spec, side): an
agent with a ``reseed(seed)`` method (the PPO agent) is built once per process and
re-seeded for every game (so a model zip is loaded once per process); any other
agent is built anew for every game with that game's seed. ``reseed(s)`` must leave
the agent playing exactly as a fresh one built with seed ``s``.

Before any game, every spec is built once for each side in this process: an unknown
kind, a bad keyword, a missing model file ... raises :class:`AgentSpecError` (a
``ValueError``) and nothing is played; the built agents' ``card`` attributes (a PPO
model's JSON card, with its training curve) are kept for the report.

Per game the tournament keeps a :class:`~evaluation.tallies.GameOutcome` (winner,
returns, ``state.score``, VP of both sides where the game counts VP, decisions,
seconds, seeds) and, with ``records_dir``, writes the game's record
(``state.to_json()``, replayable with ``fof replay``) to
``records_dir/<game>/<side-0 agent>__vs__<side-1 agent>/<index>.json`` (spec
strings made filesystem-safe by :func:`safe_name`).
"""

from __future__ import annotations

import concurrent.futures as cf
import datetime as _dt
import json
import math
import multiprocessing
import os
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.match import AgentSpec, build_agent, play_game, spec_name
from evaluation.ratings import Ratings, fit_ratings
from evaluation.tallies import AgentSideTally, GameOutcome, PairingTally, tally_agent_sides, tally_pairing
from fof_env.core.registry import make_game


class AgentSpecError(ValueError):
    """An agent spec that cannot be built for this game (raised before any game is played)."""


class TournamentError(RuntimeError):
    """A game failed during the tournament (the message names the pairing, game and seed)."""


# ----------------------------------------------------------------------------- seeds
def _spec_entropy(name: str) -> int:
    return zlib.crc32(name.encode("utf-8"))


def game_seeds(seed: int, agents: tuple[str, str], index: int) -> tuple[int, int, int]:
    """(dice seed, side-0 agent seed, side-1 agent seed) of game ``index`` of pairing ``agents``."""
    entropy = [seed, _spec_entropy(agents[0]), _spec_entropy(agents[1]), index]
    dice, s0, s1 = (int(x) for x in np.random.SeedSequence(entropy).generate_state(3, dtype=np.uint32))
    return dice, s0, s1


# ----------------------------------------------------------------------------- names
_UNSAFE = re.compile(r"[^A-Za-z0-9._=+-]+")


def safe_name(name: str) -> str:
    """A spec string as a file or directory name: runs of other characters than letters,
    digits and ``._=+-`` become ``_`` (``"ppo:runs/x/model.zip"`` -> ``"ppo_runs_x_model.zip"``)."""
    out = _UNSAFE.sub("_", name).strip("._") or "agent"
    return out[:100]


def _safe_names(names: Sequence[str]) -> dict[str, str]:
    """Filesystem names for the specs, made unique with a CRC suffix where two would collide."""
    out = {n: safe_name(n) for n in names}
    taken: dict[str, int] = {}
    for v in out.values():
        taken[v] = taken.get(v, 0) + 1
    return {n: (v if taken[v] == 1 else f"{v}-{_spec_entropy(n):08x}") for n, v in out.items()}


def record_path(game: str, agents: tuple[str, str], index: int, names: dict[str, str] | None = None) -> str:
    """The record file of a game, relative to the records dir (``<game>/<A>__vs__<B>/<index>.json``)."""
    names = names or {}
    a, b = (names.get(x) or safe_name(x) for x in agents)
    return f"{game}/{a}__vs__{b}/{index:04d}.json"


# ----------------------------------------------------------------------------- work
@dataclass(frozen=True)
class _Chunk:
    """Consecutive games of one pairing, played by one worker."""

    game: str
    options: dict[str, Any]
    specs: tuple[AgentSpec, AgentSpec]
    names: tuple[str, str]
    indices: tuple[int, ...]
    seed: int
    records_dir: str | None
    record_names: dict[str, str]


# Per-process caches: built games, and agents that can be re-seeded (see the module docstring).
_GAMES: dict[str, Any] = {}
_AGENTS: dict[tuple[str, Any, int], Any] = {}


def _game_key(game: str, options: dict[str, Any]) -> str:
    return json.dumps([game, options], sort_keys=True, default=str)


def _game(game: str, options: dict[str, Any]):
    key = _game_key(game, options)
    if key not in _GAMES:
        _GAMES[key] = make_game(game, **options)
    return _GAMES[key]


def _agent(game_key: str, game, spec: AgentSpec, player: int, seed: int):
    """The agent for one game: a cached one re-seeded, or a new one (cached if it can be re-seeded)."""
    key = (game_key, spec, player)
    agent = _AGENTS.get(key)
    if agent is not None:
        agent.reseed(seed)
        return agent
    agent = build_agent(spec, game, player, seed)
    if callable(getattr(agent, "reseed", None)):
        _AGENTS[key] = agent
    return agent


def _play_chunk(chunk: _Chunk) -> list[GameOutcome]:
    """Play the games of ``chunk`` (in a worker process or in this one)."""
    game = _game(chunk.game, chunk.options)
    key = _game_key(chunk.game, chunk.options)
    out = []
    for index in chunk.indices:
        dice, s0, s1 = game_seeds(chunk.seed, chunk.names, index)
        try:
            agents = (_agent(key, game, chunk.specs[0], 0, s0), _agent(key, game, chunk.specs[1], 1, s1))
            start = time.perf_counter()
            result = play_game(game, agents, dice, record=chunk.records_dir is not None)
            seconds = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - re-raised with the game's coordinates
            raise TournamentError(
                f"{chunk.game}: {chunk.names[0]} vs {chunk.names[1]}, game {index} (dice seed {dice}, "
                f"agent seeds {s0}, {s1}): {type(exc).__name__}: {exc}"
            ) from exc
        rel = None
        if chunk.records_dir is not None:
            rel = record_path(chunk.game, chunk.names, index, chunk.record_names)
            path = Path(chunk.records_dir) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(result.record or "", encoding="utf-8")
        out.append(
            GameOutcome(
                agents=chunk.names,
                index=index,
                seed=dice,
                agent_seeds=(s0, s1),
                winner=result.winner,
                returns=(float(result.returns[0]), float(result.returns[1])),
                score=dict(result.score) if isinstance(result.score, dict) else None,
                vp=result.vp,
                decisions=result.decisions,
                seconds=seconds,
                record=rel,
            )
        )
    return out


def _init_worker() -> None:
    """Worker set-up: one math thread per process (torch, if an agent loads it, reads these)."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")


# ----------------------------------------------------------------------------- result
@dataclass
class TournamentResult:
    """Everything a tournament produced; tallies and ratings are computed from ``outcomes``."""

    game: str
    options: dict[str, Any]  # the game's full options (defaults included)
    player_names: tuple[str, str]
    agents: list[str]  # spec names, in the order given
    games_per_pairing: int
    seed: int
    mirror: bool
    workers: int
    pairings: list[tuple[str, str]]  # ordered: (side-0 agent, side-1 agent)
    outcomes: list[GameOutcome]  # sorted by pairing (as in ``pairings``), then game index
    seconds: float  # wall time of the games
    started: str  # ISO time the tournament started
    records_dir: str | None = None
    cards: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # spec -> side -> card
    sides: dict[str, list[str]] = field(default_factory=dict)  # spec -> the sides it plays (default both)

    @cached_property
    def tallies(self) -> list[PairingTally]:
        """One tally per ordered pairing, in the order of ``pairings``."""
        return [tally_pairing(p, self.outcomes) for p in self.pairings]

    @cached_property
    def agent_tallies(self) -> list[AgentSideTally]:
        """One tally per agent and side."""
        return tally_agent_sides(self.agents, self.outcomes)

    @cached_property
    def ratings(self) -> Ratings:
        """Bradley-Terry / Elo ratings with a side advantage (:mod:`evaluation.ratings`)."""
        return fit_ratings(((o.agents[0], o.agents[1], o.side0_points) for o in self.outcomes), self.agents)

    def tally(self, side0: str, side1: str) -> PairingTally:
        """The tally of ``side0`` (on side 0) against ``side1`` (on side 1)."""
        for t in self.tallies:
            if t.agents == (side0, side1):
                return t
        raise KeyError((side0, side1))

    @property
    def total_games(self) -> int:
        return len(self.outcomes)

    def to_dict(self, *, games: bool = True) -> dict[str, Any]:
        """Everything as JSON-ready data (``games=False`` leaves out the per-game list)."""
        names = self.player_names
        decisions = sum(o.decisions for o in self.outcomes)
        game_seconds = sum(o.seconds for o in self.outcomes)
        out: dict[str, Any] = {
            "format": "fof-tournament/1",
            "game": self.game,
            "options": self.options,
            "sides": list(names),
            "agents": self.agents,
            "games_per_pairing": self.games_per_pairing,
            "seed": self.seed,
            "seeding": "game g of pairing (A, B): numpy SeedSequence([seed, crc32(A), crc32(B), g])"
            ".generate_state(3) = (dice seed, side-0 agent seed, side-1 agent seed)",
            "mirror": self.mirror,
            "workers": self.workers,
            "started": self.started,
            "timing": {
                "wall_seconds": self.seconds,
                "game_seconds": game_seconds,
                "games": self.total_games,
                "decisions": decisions,
                "ms_per_game": 1000 * game_seconds / self.total_games if self.outcomes else 0.0,
                "us_per_decision": 1e6 * game_seconds / decisions if decisions else 0.0,
            },
            "records_dir": self.records_dir,
            "pairings": [t.to_dict(names) for t in self.tallies],
            "agent_sides": [t.to_dict(names) for t in self.agent_tallies],
            "ratings": self.ratings.to_dict(),
            "cards": self.cards,
            "agent_plays": self.sides,
        }
        if games:
            out["games"] = [o.to_dict() for o in self.outcomes]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentResult:
        """Rebuild a result from :meth:`to_dict` output (``results.json``; needs its ``games``)."""
        if data.get("format") != "fof-tournament/1" or "games" not in data:
            raise ValueError("not a tournament result with its games (results.json of fof evaluate)")
        return cls(
            game=data["game"],
            options=data["options"],
            player_names=(data["sides"][0], data["sides"][1]),
            agents=list(data["agents"]),
            games_per_pairing=data["games_per_pairing"],
            seed=data["seed"],
            mirror=data["mirror"],
            workers=data["workers"],
            pairings=[
                (p["agents"][data["sides"][0]], p["agents"][data["sides"][1]]) for p in data["pairings"]
            ],
            outcomes=[GameOutcome.from_dict(g) for g in data["games"]],
            seconds=data["timing"]["wall_seconds"],
            started=data["started"],
            records_dir=data.get("records_dir"),
            cards=data.get("cards", {}),
            sides=data.get("agent_plays", {}),
        )


# ----------------------------------------------------------------------------- running
def check_agents(
    game, specs: Sequence[AgentSpec]
) -> tuple[dict[str, dict[str, dict[str, Any]]], dict[str, list[int]]]:
    """Build every spec once for each side of ``game``; return their cards and the sides they play.

    An agent that can play only one side (e.g. ``ppo`` where a model ships for that
    side only) plays only there: its pairings on the other side are left out. An
    agent that can play neither side raises :class:`AgentSpecError`.

    Returns ``(cards, sides)``: spec name -> side -> the built agent's ``card`` (a
    dict; PPO models), and spec name -> the players it plays.
    """
    names = [spec_name(s) for s in specs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise AgentSpecError(f"agent specs must be distinct, repeated: {', '.join(dupes)}")
    cards: dict[str, dict[str, dict[str, Any]]] = {}
    sides: dict[str, list[int]] = {}
    for spec, name in zip(specs, names, strict=True):
        errors = []
        for player, side in enumerate(game.player_names):
            try:
                agent = build_agent(spec, game, player, 0)
            except (ValueError, TypeError, OSError, ImportError, KeyError) as exc:
                errors.append(f"cannot play {side}: {exc}")
                continue
            sides.setdefault(name, []).append(player)
            card = getattr(agent, "card", None)
            if isinstance(card, dict):
                cards.setdefault(name, {})[side] = card
        if name not in sides:
            raise AgentSpecError(f"agent {name!r} in {game.name}: " + "; ".join(errors))
    return cards, sides


def _pairings(specs: Sequence[AgentSpec], mirror: bool,
              sides: dict[str, list[int]]) -> list[tuple[AgentSpec, AgentSpec]]:
    return [(a, b) for a in specs for b in specs
            if (mirror or spec_name(a) != spec_name(b))
            and 0 in sides[spec_name(a)] and 1 in sides[spec_name(b)]]


def _chunks(
    game_name: str,
    options: dict[str, Any],
    pairings: Sequence[tuple[AgentSpec, AgentSpec]],
    games: int,
    seed: int,
    records_dir: str | None,
    record_names: dict[str, str],
    size: int,
) -> Iterator[_Chunk]:
    for a, b in pairings:
        for start in range(0, games, size):
            yield _Chunk(
                game=game_name,
                options=options,
                specs=(a, b),
                names=(spec_name(a), spec_name(b)),
                indices=tuple(range(start, min(games, start + size))),
                seed=seed,
                records_dir=records_dir,
                record_names=record_names,
            )


def run_tournament(
    game_name: str,
    options: dict[str, Any] | None,
    agent_specs: Sequence[AgentSpec],
    games: int,
    *,
    workers: int = 1,
    seed: int = 0,
    records_dir: str | os.PathLike | None = None,
    progress: bool = True,
    mirror: bool = True,
    on_game: Callable[[GameOutcome], None] | None = None,
) -> TournamentResult:
    """Play the tournament of the module docstring and return its :class:`TournamentResult`.

    Args:
        game_name: a registered game (``fof_env.list_games()``).
        options: its options (``{}``: defaults).
        agent_specs: distinct agent specs (strings as in :mod:`evaluation.match`, or
            factories; a factory must be a module-level function when ``workers > 1``).
        games: games per ordered pairing (>= 1).
        workers: processes (1: no pool, everything in this process).
        seed: tournament seed (>= 0).
        records_dir: write every game's record under it (None: no records).
        progress: show a tqdm progress bar over games on stderr.
        mirror: include each agent against itself.
        on_game: called with each finished game's outcome (in completion order).

    Raises :class:`AgentSpecError` or ``OptionError`` (both ``ValueError``) before
    any game for a bad spec or option, :class:`TournamentError` if a game fails.
    """
    if games < 1:
        raise ValueError(f"games per pairing must be at least 1, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    if not agent_specs:
        raise AgentSpecError("no agents given")
    options = dict(options or {})
    game = make_game(game_name, **options)
    full_options = dict(game.options)
    cards, sides = check_agents(game, agent_specs)
    pairings = _pairings(agent_specs, mirror, sides)
    if not pairings:
        raise AgentSpecError("no pairings: give at least two agents, or allow mirror pairings")
    names = [spec_name(s) for s in agent_specs]
    record_names = _safe_names(names)
    records = None if records_dir is None else str(Path(records_dir).resolve())
    total = games * len(pairings)
    workers = max(1, min(workers, total))
    size = max(1, min(games, math.ceil(total / (workers * 8)))) if workers > 1 else games
    chunks = list(_chunks(game_name, full_options, pairings, games, seed, records, record_names, size))
    started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    outcomes: list[GameOutcome] = []

    from tqdm import tqdm

    bar = tqdm(total=total, desc=f"{game_name}", unit="game", file=sys.stderr, disable=not progress)
    start = time.perf_counter()

    def collect(chunk_outcomes: list[GameOutcome]) -> None:
        outcomes.extend(chunk_outcomes)
        for o in chunk_outcomes:
            if on_game is not None:
                on_game(o)
        bar.update(len(chunk_outcomes))

    try:
        if workers == 1:
            for chunk in chunks:
                collect(_play_chunk(chunk))
        else:
            context = multiprocessing.get_context("spawn")
            with cf.ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker) as pool:
                futures = [pool.submit(_play_chunk, c) for c in chunks]
                try:
                    for future in cf.as_completed(futures):
                        collect(future.result())
                except BaseException:
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    finally:
        bar.close()
        _AGENTS.clear()  # this process's cached agents (a model may be retrained before the next run)
    seconds = time.perf_counter() - start
    order = {p: i for i, p in enumerate((spec_name(a), spec_name(b)) for a, b in pairings)}
    outcomes.sort(key=lambda o: (order[o.agents], o.index))
    return TournamentResult(
        game=game_name,
        options=full_options,
        player_names=tuple(game.player_names),  # type: ignore[arg-type]
        agents=names,
        games_per_pairing=games,
        seed=seed,
        mirror=mirror,
        workers=workers,
        pairings=[(spec_name(a), spec_name(b)) for a, b in pairings],
        outcomes=outcomes,
        seconds=seconds,
        started=started,
        records_dir=records,
        cards=cards,
        sides={name: [game.player_names[p] for p in players] for name, players in sides.items()},
    )
