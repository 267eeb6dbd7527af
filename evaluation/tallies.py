"""Counting tournament games: win/draw/loss per ordered pairing and side, per agent and side.

Input: :class:`GameOutcome` records (one per game, as :mod:`evaluation.tournament`
produces them). Output: :class:`PairingTally` (one per ordered pairing: the agent
on side 0 against the agent on side 1) and :class:`AgentSideTally` (one per agent
and side, over every opponent it met on that side, itself included in a mirror
pairing). Every count is a :class:`WDL` whose ``wins + draws + losses == games``
by construction; rates come with Wilson 95 % intervals (:mod:`evaluation.stats`).
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.match import Thinking
from evaluation.stats import wilson_interval


@dataclass(frozen=True)
class GameOutcome:
    """One tournament game, as kept by the tournament (no JSON record: that goes to a file).

    ``agents`` = (spec on side 0, spec on side 1); ``index`` = the game's number
    within its pairing; ``seed`` = the dice seed, ``agent_seeds`` the two agents'
    seeds; ``winner`` = 0, 1 or None (draw); ``score`` = ``state.score`` (None if the
    game has none); ``vp`` = (side 0 VP, side 1 VP) for games that count victory
    points; ``record`` = the record file, relative to the tournament's records dir;
    ``thinking`` = each side's decisions and its agent's time choosing them (None in a log
    written before it was kept); ``termination`` = why the game ended, its
    :class:`~fof_env.core.outcome.Outcome`'s (None in a log written before it was kept).
    """

    agents: tuple[str, str]
    index: int
    seed: int
    agent_seeds: tuple[int, int]
    winner: int | None
    returns: tuple[float, float]
    score: dict[str, Any] | None
    vp: tuple[int, int] | None
    decisions: int
    seconds: float
    record: str | None = None
    thinking: tuple[Thinking, Thinking] | None = None
    termination: str | None = None

    def untimed(self) -> GameOutcome:
        """This outcome with its clock readings zeroed (``seconds``, the thinking times; the
        decision counts stay): equal for every run of the same game on any executor."""
        thinking = None if self.thinking is None else (self.thinking[0].untimed(), self.thinking[1].untimed())
        return dataclasses.replace(self, seconds=0.0, thinking=thinking)

    @property
    def side0_points(self) -> float:
        """Side 0's result as a Bradley-Terry observation: 1 win, 0.5 draw, 0 loss."""
        return 0.5 if self.winner is None else float(self.winner == 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "agents": list(self.agents),
            "index": self.index,
            "seed": self.seed,
            "agent_seeds": list(self.agent_seeds),
            "winner": self.winner,
            "returns": list(self.returns),
            "score": self.score,
            "vp": None if self.vp is None else list(self.vp),
            "decisions": self.decisions,
            "seconds": self.seconds,
            "record": self.record,
            "thinking": None if self.thinking is None else [vars(t) for t in self.thinking],
            "termination": self.termination,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameOutcome:
        return cls(
            agents=(d["agents"][0], d["agents"][1]),
            index=d["index"],
            seed=d["seed"],
            agent_seeds=(d["agent_seeds"][0], d["agent_seeds"][1]),
            winner=d["winner"],
            returns=(d["returns"][0], d["returns"][1]),
            score=d.get("score"),
            vp=None if d.get("vp") is None else (d["vp"][0], d["vp"][1]),
            decisions=d["decisions"],
            seconds=d["seconds"],
            record=d.get("record"),
            thinking=None if d.get("thinking") is None else _thinking_pair(d["thinking"]),
            termination=d.get("termination"),
        )


def _thinking_pair(sides: Sequence[dict[str, Any]]) -> tuple[Thinking, Thinking]:
    """Both sides' :class:`~evaluation.match.Thinking` from their logged dicts."""
    first, second = sides
    return Thinking(**first), Thinking(**second)


@dataclass(frozen=True)
class WDL:
    """Wins, draws and losses of one side; rates with Wilson 95 % intervals."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """Wins / games (draws are not wins); 0.0 with no games."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.games)

    @property
    def points(self) -> float:
        """Wins + half the draws."""
        return self.wins + 0.5 * self.draws

    @property
    def score_rate(self) -> float:
        """(Wins + draws / 2) / games: the quantity the ratings model."""
        return self.points / self.games if self.games else 0.0

    @property
    def score_interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of :attr:`score_rate` (draws as half successes)."""
        return wilson_interval(self.points, self.games)

    def __add__(self, other: WDL) -> WDL:
        return WDL(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.win_interval
        slo, shi = self.score_interval
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "win_low": lo,
            "win_high": hi,
            "score_rate": self.score_rate,
            "score_low": slo,
            "score_high": shi,
        }


def _mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _score_means(outcomes: Sequence[GameOutcome]) -> dict[str, float]:
    """Mean of every numeric ``state.score`` entry over the games that have it."""
    values: dict[str, list[float]] = {}
    for o in outcomes:
        for key, value in (o.score or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values.setdefault(key, []).append(float(value))
    return {key: statistics.fmean(v) for key, v in sorted(values.items())}


@dataclass(frozen=True)
class PairingTally:
    """Every game of one ordered pairing: ``agents[0]`` on side 0 against ``agents[1]`` on side 1."""

    agents: tuple[str, str]
    games: int
    wins: tuple[int, int]  # games won by side 0, by side 1
    draws: int
    decisions: int
    seconds: float
    vp_means: tuple[float, float] | None  # mean VP of side 0 and side 1 (games that count VP)
    score_means: dict[str, float] = field(default_factory=dict)

    def side(self, player: int) -> WDL:
        """Side ``player``'s wins, draws and losses in this pairing."""
        return WDL(self.wins[player], self.draws, self.wins[1 - player])

    @property
    def mirror(self) -> bool:
        return self.agents[0] == self.agents[1]

    def to_dict(self, player_names: Sequence[str]) -> dict[str, Any]:
        return {
            "agents": dict(zip(player_names, self.agents, strict=True)),
            "games": self.games,
            "draws": self.draws,
            "sides": {name: self.side(p).to_dict() for p, name in enumerate(player_names)},
            "vp_means": None
            if self.vp_means is None
            else dict(zip(player_names, self.vp_means, strict=True)),
            "score_means": self.score_means,
            "decisions": self.decisions,
            "decisions_per_game": self.decisions / self.games if self.games else 0.0,
            "seconds": self.seconds,
        }


def tally_pairing(agents: tuple[str, str], outcomes: Iterable[GameOutcome]) -> PairingTally:
    """The tally of the games in ``outcomes`` that belong to the ordered pairing ``agents``."""
    games = [o for o in outcomes if o.agents == agents]
    wins = (sum(o.winner == 0 for o in games), sum(o.winner == 1 for o in games))
    vps = [o.vp for o in games if o.vp is not None]
    vp_means = None
    if vps:
        vp_means = (statistics.fmean(v[0] for v in vps), statistics.fmean(v[1] for v in vps))
    return PairingTally(
        agents=agents,
        games=len(games),
        wins=wins,
        draws=len(games) - wins[0] - wins[1],
        decisions=sum(o.decisions for o in games),
        seconds=sum(o.seconds for o in games),
        vp_means=vp_means,
        score_means=_score_means(games),
    )


@dataclass(frozen=True)
class AgentSideTally:
    """One agent on one side, over all its games there (every opponent, a mirror pairing included)."""

    agent: str
    player: int
    record: WDL
    opponents: tuple[str, ...]
    vp_mean: float | None  # the agent's own VP
    opponent_vp_mean: float | None
    thinking: Thinking | None = None  # its decisions and time over the games that kept them

    @property
    def ms_per_decision(self) -> float | None:
        """Mean wall time of one of its decisions, in ms (None without timed decisions)."""
        t = self.thinking
        return None if t is None or not t.decisions else 1000 * t.seconds / t.decisions

    @property
    def longest_ms(self) -> float | None:
        """Its longest single decision, in ms (None without timed decisions)."""
        return None if self.thinking is None else 1000 * self.thinking.longest

    def to_dict(self, player_names: Sequence[str]) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "side": player_names[self.player],
            **self.record.to_dict(),
            "opponents": list(self.opponents),
            "vp_mean": self.vp_mean,
            "opponent_vp_mean": self.opponent_vp_mean,
            "decisions": None if self.thinking is None else self.thinking.decisions,
            "ms_per_decision": self.ms_per_decision,
            "longest_decision_ms": self.longest_ms,
        }


def tally_agent_sides(agents: Sequence[str], outcomes: Sequence[GameOutcome]) -> list[AgentSideTally]:
    """One :class:`AgentSideTally` per agent and side (agents in the given order, side 0 first)."""
    out = []
    for agent in agents:
        for player in (0, 1):
            games = [o for o in outcomes if o.agents[player] == agent]
            wins = sum(o.winner == player for o in games)
            losses = sum(o.winner == 1 - player for o in games)
            vps = [o.vp for o in games if o.vp is not None]
            timed = [o.thinking[player] for o in games if o.thinking is not None]
            out.append(
                AgentSideTally(
                    agent=agent,
                    player=player,
                    record=WDL(wins, len(games) - wins - losses, losses),
                    opponents=tuple(dict.fromkeys(o.agents[1 - player] for o in games)),
                    vp_mean=_mean([v[player] for v in vps]),
                    opponent_vp_mean=_mean([v[1 - player] for v in vps]),
                    thinking=_sum_thinking(timed),
                )
            )
    return out


def _sum_thinking(parts: Sequence[Thinking]) -> Thinking | None:
    """The decisions and time of several games together (None for none)."""
    if not parts:
        return None
    return Thinking(
        decisions=sum(t.decisions for t in parts),
        seconds=sum(t.seconds for t in parts),
        longest=max(t.longest for t in parts),
    )
