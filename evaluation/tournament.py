"""Tournaments: every agent against every other on both sides, N games per ordered pairing, in parallel.

>>> from evaluation.tournament import run_tournament
>>> result = run_tournament(game_name, {}, ["random", "heuristic"], games=4, progress=False)  # doctest: +SKIP
>>> [t.agents for t in result.tallies]  # doctest: +SKIP
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

Processes. Games run on an executor (:mod:`evaluation.executors`): ``workers=1``
plays everything in this process; ``workers > 1`` a local process pool ("spawn");
``backend="ray"`` Ray tasks, on a local Ray or a cluster (``address``). Work goes
out in chunks of consecutive games of one pairing. Each process keeps a cache of
built agents keyed by (game, options, spec, side): an agent with a
``reseed(seed)`` method (the PPO agent) is built once per process and re-seeded
for every game (so a model is loaded once per process); any other agent is built
anew for every game with that game's seed. ``reseed(s)`` must leave the agent
playing exactly as a fresh one built with seed ``s``. So the outcomes never
depend on the backend, the worker count or the chunking.

Before any game, every spec is built once for each side in this process: an unknown
kind, a bad keyword, a missing model file ... raises :class:`AgentSpecError` (a
``ValueError``) and nothing is played; the built agents' ``card`` attributes (a PPO
model's JSON card, with its training curve) are kept for the report.

Per game the tournament keeps a :class:`~evaluation.tallies.GameOutcome` (winner,
returns, ``state.score``, VP of both sides where the game counts VP, decisions,
seconds, each side's decisions and its agent's time choosing them, seeds) and, with
``records_dir``, the game's record (``state.to_json()``, replayable with ``fof replay``):
the worker sends it back and this process writes it atomically (temporary file, then
rename) to
``records_dir/<game>/<side-0 agent>__vs__<side-1 agent>/<index>.json`` (spec
strings made filesystem-safe by :func:`safe_name`), before ``on_games`` hears of
the game. So records are written on the machine that runs the tournament, even
when the games run on a Ray cluster.

Resuming. :func:`play_tournament` takes the outcomes of games already played
(``done``, e.g. from a game log, :mod:`evaluation.journal`) and plays only the
others; the result is the same as that of one uninterrupted run, except the
fields :func:`without_timing` leaves out.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import math
import os
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.executors import Executor, InProcessExecutor, make_executor
from evaluation.journal import LogError, OutputError
from evaluation.match import AgentSpec, build_agent, play_game, spec_name
from evaluation.ratings import Ratings, fit_ratings
from evaluation.tallies import AgentSideTally, GameOutcome, PairingTally, tally_agent_sides, tally_pairing
from fof_env.core.files import write_text_atomic
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
    records: bool  # send back each game's record
    record_names: dict[str, str]


# A chunk's result: each game's outcome with its record (JSON text; None without records).
_Played = list[tuple[GameOutcome, str | None]]

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


def _play_chunk(chunk: _Chunk) -> _Played:
    """Play the games of ``chunk`` (in a worker, or in this process); no files are written here."""
    game = _game(chunk.game, chunk.options)
    key = _game_key(chunk.game, chunk.options)
    out: _Played = []
    for index in chunk.indices:
        dice, s0, s1 = game_seeds(chunk.seed, chunk.names, index)
        try:
            agents = (_agent(key, game, chunk.specs[0], 0, s0), _agent(key, game, chunk.specs[1], 1, s1))
            start = time.perf_counter()
            result = play_game(game, agents, dice, record=chunk.records)
            seconds = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - re-raised with the game's coordinates
            raise TournamentError(
                f"{chunk.game}: {chunk.names[0]} vs {chunk.names[1]}, game {index} (dice seed {dice}, "
                f"agent seeds {s0}, {s1}): {type(exc).__name__}: {exc}"
            ) from exc
        outcome = GameOutcome(
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
            thinking=result.thinking,
            termination=result.termination,
            record=record_path(chunk.game, chunk.names, index, chunk.record_names) if chunk.records else None,
        )
        out.append((outcome, result.record if chunk.records else None))
    return out


# ----------------------------------------------------------------------------- result
RESULTS_FORMAT = "fof-tournament/2"


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
    seconds: float  # wall time of the games played by this run (not those resumed)
    started: str  # ISO time the tournament started (its first run, when resumed)
    records_dir: str | None = None
    cards: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # spec -> side -> card
    sides: dict[str, list[str]] = field(default_factory=dict)  # spec -> the sides it plays (default both)
    backend: str = "local"  # where the games ran (:mod:`evaluation.executors`)
    resumed: int = 0  # games taken from an earlier run's log instead of played

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
        """Everything as JSON-ready data (``games=False`` leaves out the per-game list).

        How and when it ran (wall and game seconds, start time, workers, backend, games
        resumed) is in the ``timing`` block, the ``seconds`` of pairings and games and the
        agents' decision times only: :func:`without_timing` drops exactly those."""
        names = self.player_names
        decisions = sum(o.decisions for o in self.outcomes)
        game_seconds = sum(o.seconds for o in self.outcomes)
        out: dict[str, Any] = {
            "format": RESULTS_FORMAT,
            "game": self.game,
            "options": self.options,
            "sides": list(names),
            "agents": self.agents,
            "games_per_pairing": self.games_per_pairing,
            "seed": self.seed,
            "seeding": "game g of pairing (A, B): numpy SeedSequence([seed, crc32(A), crc32(B), g])"
            ".generate_state(3) = (dice seed, side-0 agent seed, side-1 agent seed)",
            "mirror": self.mirror,
            "timing": {
                "started": self.started,
                "backend": self.backend,
                "workers": self.workers,
                "resumed_games": self.resumed,
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
        """Rebuild a result from :meth:`to_dict` output (``results.json``; needs its ``games``).

        ``records_dir`` stays as stored: ``results.json`` holds it relative to its own folder."""
        if data.get("format") not in (RESULTS_FORMAT, "fof-tournament/1") or "games" not in data:
            raise ValueError("not a tournament result with its games (results.json of fof evaluate)")
        timing = data["timing"]
        run = data if data["format"] == "fof-tournament/1" else timing  # /1 kept these at the top
        return cls(
            game=data["game"],
            options=data["options"],
            player_names=(data["sides"][0], data["sides"][1]),
            agents=list(data["agents"]),
            games_per_pairing=data["games_per_pairing"],
            seed=data["seed"],
            mirror=data["mirror"],
            workers=run["workers"],
            pairings=[
                (p["agents"][data["sides"][0]], p["agents"][data["sides"][1]]) for p in data["pairings"]
            ],
            outcomes=[GameOutcome.from_dict(g) for g in data["games"]],
            seconds=timing["wall_seconds"],
            started=run["started"],
            records_dir=data.get("records_dir"),
            cards=data.get("cards", {}),
            sides=data.get("agent_plays", {}),
            backend=timing.get("backend", "local"),
            resumed=timing.get("resumed_games", 0),
        )


def without_timing(data: dict[str, Any]) -> dict[str, Any]:
    """``results.json`` data (:meth:`TournamentResult.to_dict`) less what depends on when, where
    and how fast the games ran: the ``timing`` block, the ``seconds`` of every pairing and
    every game, the time of each game's ``thinking`` (its decision counts stay) and each agent
    side's milliseconds per decision. Everything else (winners, returns, scores, VP, decisions,
    seeds, record paths, tallies, ratings, cards) is the same for every run of one tournament:
    any backend or worker count, interrupted and resumed or not."""
    out = {k: v for k, v in data.items() if k != "timing"}
    for key in ("pairings", "games"):
        if key in out:
            out[key] = [{k: v for k, v in item.items() if k != "seconds"} for item in out[key]]
    for game in out.get("games", []):
        if game.get("thinking") is not None:
            game["thinking"] = [{"decisions": side["decisions"]} for side in game["thinking"]]
    if "agent_sides" in out:
        clocked = ("ms_per_decision", "longest_decision_ms")
        out["agent_sides"] = [{k: v for k, v in row.items() if k not in clocked} for row in out["agent_sides"]]
    return out


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
        errors: dict[str, str] = {}  # side -> why the agent cannot play it
        for player, side in enumerate(game.player_names):
            try:
                agent = build_agent(spec, game, player, 0)
            except (ValueError, TypeError, OSError, ImportError, KeyError) as exc:
                errors[side] = str(exc)
                continue
            sides.setdefault(name, []).append(player)
            card = getattr(agent, "card", None)
            if isinstance(card, dict):
                cards.setdefault(name, {})[side] = card
        if name not in sides:
            if len(set(errors.values())) == 1:  # the same reason for both sides: say it once
                why = f"cannot play {' or '.join(errors)}: {next(iter(errors.values()))}"
            else:
                why = "; ".join(f"cannot play {side}: {msg}" for side, msg in errors.items())
            raise AgentSpecError(f"agent {name!r} in {game.name}: {why}")
    return cards, sides


def _pairings(specs: Sequence[AgentSpec], mirror: bool,
              sides: dict[str, list[int]]) -> list[tuple[AgentSpec, AgentSpec]]:
    return [(a, b) for a in specs for b in specs
            if (mirror or spec_name(a) != spec_name(b))
            and 0 in sides[spec_name(a)] and 1 in sides[spec_name(b)]]


@dataclass(frozen=True)
class TournamentPlan:
    """A checked tournament (:func:`plan_tournament`): every spec built, the pairings known."""

    game: str
    options: dict[str, Any]  # full options, defaults included
    player_names: tuple[str, str]
    specs: tuple[AgentSpec, ...]
    games: int  # per ordered pairing
    seed: int
    mirror: bool
    pairings: tuple[tuple[AgentSpec, AgentSpec], ...]
    cards: dict[str, dict[str, dict[str, Any]]]
    sides: dict[str, list[int]]  # spec name -> the players it plays

    @property
    def agents(self) -> list[str]:
        return [spec_name(s) for s in self.specs]

    @property
    def pairing_names(self) -> list[tuple[str, str]]:
        return [(spec_name(a), spec_name(b)) for a, b in self.pairings]

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)


def plan_tournament(
    game_name: str,
    options: dict[str, Any] | None,
    agent_specs: Sequence[AgentSpec],
    games: int,
    *,
    seed: int = 0,
    mirror: bool = True,
) -> TournamentPlan:
    """Check a tournament without playing it: arguments, options, and every spec built for each
    side (:func:`check_agents`). Raises ``ValueError`` (:class:`AgentSpecError`, ``OptionError``)."""
    if games < 1:
        raise ValueError(f"games per pairing must be at least 1, got {games}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    if not agent_specs:
        raise AgentSpecError("no agents given")
    game = make_game(game_name, **dict(options or {}))
    cards, sides = check_agents(game, agent_specs)
    pairings = _pairings(agent_specs, mirror, sides)
    if not pairings:
        raise AgentSpecError("no pairings: give at least two agents, or allow mirror pairings")
    return TournamentPlan(
        game=game_name,
        options=dict(game.options),
        player_names=tuple(game.player_names),  # type: ignore[arg-type]
        specs=tuple(agent_specs),
        games=games,
        seed=seed,
        mirror=mirror,
        pairings=tuple(pairings),
        cards=cards,
        sides=sides,
    )


def _chunks(plan: TournamentPlan, todo: dict[tuple[str, str], list[int]], records: bool,
            size: int) -> Iterator[_Chunk]:
    """The games still to play (``todo``: pairing -> game indices), ``size`` games per chunk at most."""
    record_names = _safe_names(plan.agents)
    for a, b in plan.pairings:
        indices = todo[(spec_name(a), spec_name(b))]
        for start in range(0, len(indices), size):
            yield _Chunk(
                game=plan.game,
                options=plan.options,
                specs=(a, b),
                names=(spec_name(a), spec_name(b)),
                indices=tuple(indices[start:start + size]),
                seed=plan.seed,
                records=records,
                record_names=record_names,
            )


def chunk_size(games: int, total: int, parallelism: int) -> int:
    """Games per chunk: about 8 chunks per worker over ``total`` games, at most ``games`` (one
    pairing) and at most 50 (a log line reaches the disk per chunk, so a kill loses little)."""
    return max(1, min(games, 50, math.ceil(total / (parallelism * 8))))


def _check_done(plan: TournamentPlan, done: Iterable[GameOutcome]) -> dict[tuple[str, str, int], GameOutcome]:
    """The outcomes already played, keyed by (side-0 agent, side-1 agent, index); each must be a game
    of ``plan`` with that game's seeds (else :class:`LogError`: the log belongs to another tournament)."""
    pairings = set(plan.pairing_names)
    out: dict[tuple[str, str, int], GameOutcome] = {}
    for o in done:
        where = f"{o.agents[0]} vs {o.agents[1]}, game {o.index}"
        if o.agents not in pairings or not 0 <= o.index < plan.games:
            raise LogError(f"logged game {where} is not a game of this tournament")
        if (o.seed, *o.agent_seeds) != game_seeds(plan.seed, o.agents, o.index):
            raise LogError(f"logged game {where} has other seeds than this tournament gives it")
        out.setdefault((*o.agents, o.index), o)
    return out


def _write_record(records_dir: Path, outcome: GameOutcome, record: str | None) -> None:
    """Write a game's record atomically; :class:`~evaluation.journal.OutputError` if it cannot be."""
    if outcome.record is None or record is None:
        return
    path = records_dir / outcome.record
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, record)
    except OSError as exc:
        raise OutputError.from_os_error(path, exc) from None


def play_tournament(
    plan: TournamentPlan,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    executor: Executor | None = None,
    records_dir: str | os.PathLike | None = None,
    progress: bool = True,
    done: Iterable[GameOutcome] = (),
    on_games: Callable[[list[GameOutcome]], None] | None = None,
    started: str | None = None,
) -> TournamentResult:
    """Play the games of ``plan`` not in ``done`` and return the whole :class:`TournamentResult`.

    Args:
        workers, backend, address: the executor to make (:func:`evaluation.executors.make_executor`)
            unless ``executor`` is given (then the caller owns it: it is neither closed nor aborted
            here, so leave its ``with`` block on an exception).
        records_dir: write every game's record under it (None: no records).
        progress: a tqdm progress bar over games on stderr.
        done: outcomes of games already played (an earlier run's log): not played again.
        on_games: called in this process with each batch of finished games as it arrives (their
            records already on disk), e.g. to log them.
        started: the tournament's start time (ISO; default now).

    Raises :class:`~evaluation.journal.LogError` (a ``ValueError``) if ``done`` holds a game
    that is not one of ``plan``'s (or not with its seeds), :class:`TournamentError` if a game
    fails, and :class:`~evaluation.journal.OutputError` if a record cannot be written.
    """
    kept = _check_done(plan, done)
    if records_dir is not None:
        records_dir = Path(records_dir).resolve()
        # a game whose record went missing is played again (its outcome comes out the same)
        kept = {k: o for k, o in kept.items() if o.record is not None and (records_dir / o.record).exists()}
    todo = {p: [i for i in range(plan.games) if (*p, i) not in kept] for p in plan.pairing_names}
    remaining = sum(len(v) for v in todo.values())
    owned = executor is None
    if executor is None:  # nothing left to play: no pool, no cluster
        executor = make_executor(backend, min(workers, remaining), address) if remaining else InProcessExecutor()
    size = chunk_size(plan.games, max(1, remaining), executor.parallelism)
    chunks = _chunks(plan, todo, records_dir is not None, size)
    started = started or _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    outcomes = list(kept.values())

    from tqdm import tqdm

    bar = tqdm(total=plan.total_games, initial=len(outcomes), desc=plan.game, unit="game",
               file=sys.stderr, disable=not progress)
    start = time.perf_counter()
    try:
        with executor if owned else contextlib.nullcontext(executor):
            for played in executor.map_unordered(_play_chunk, chunks):
                batch = []
                for outcome, record in played:
                    if records_dir is not None:
                        _write_record(records_dir, outcome, record)
                    batch.append(outcome)
                outcomes.extend(batch)
                if on_games is not None:
                    on_games(batch)
                bar.update(len(batch))
    finally:
        bar.close()
        _AGENTS.clear()  # this process's cached agents (a model may be retrained before the next run)
    seconds = time.perf_counter() - start
    order = {p: i for i, p in enumerate(plan.pairing_names)}
    outcomes.sort(key=lambda o: (order[o.agents], o.index))
    names = plan.player_names
    return TournamentResult(
        game=plan.game,
        options=plan.options,
        player_names=names,
        agents=plan.agents,
        games_per_pairing=plan.games,
        seed=plan.seed,
        mirror=plan.mirror,
        workers=executor.parallelism,
        pairings=plan.pairing_names,
        outcomes=outcomes,
        seconds=seconds,
        started=started,
        records_dir=None if records_dir is None else str(records_dir),
        cards=plan.cards,
        sides={name: [names[p] for p in players] for name, players in plan.sides.items()},
        backend=executor.name,
        resumed=len(kept),
    )


def run_tournament(
    game_name: str,
    options: dict[str, Any] | None,
    agent_specs: Sequence[AgentSpec],
    games: int,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    seed: int = 0,
    records_dir: str | os.PathLike | None = None,
    progress: bool = True,
    mirror: bool = True,
    on_games: Callable[[list[GameOutcome]], None] | None = None,
) -> TournamentResult:
    """Plan (:func:`plan_tournament`) and play (:func:`play_tournament`) the tournament of the
    module docstring; return its :class:`TournamentResult`.

    Args:
        game_name: a registered game (``fof_env.list_games()``).
        options: its options (``{}``: defaults).
        agent_specs: distinct agent specs (strings as in :mod:`evaluation.match`, or
            factories; a factory must be a module-level function when ``workers > 1``).
        games: games per ordered pairing (>= 1).
        workers: processes (1: no pool, everything in this process), or a local Ray's CPUs.
        backend: ``"local"`` or ``"ray"`` (:mod:`evaluation.executors`); ``address``: a Ray cluster.
        seed: tournament seed (>= 0).
        records_dir: write every game's record under it (None: no records).
        progress: show a tqdm progress bar over games on stderr.
        mirror: include each agent against itself.
        on_games: called with each batch of finished games (in completion order).

    Raises :class:`AgentSpecError` or ``OptionError`` (both ``ValueError``) before
    any game for a bad spec or option, :class:`TournamentError` if a game fails.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    plan = plan_tournament(game_name, options, agent_specs, games, seed=seed, mirror=mirror)
    return play_tournament(plan, workers=workers, backend=backend, address=address, records_dir=records_dir,
                           progress=progress, on_games=on_games)
