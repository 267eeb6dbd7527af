"""The strength bars of a learned bot, per side, from a ``fof evaluate`` report: ``python -m evaluation.bars``.

``python -m evaluation.bars OUT [--agent ppo] [--heuristic heuristic] [--random random]`` reads
``OUT/results.json`` of ``fof evaluate --agents random heuristic ppo`` (every ordered pairing, both
sides) and prints, for each side, whether ``--agent`` meets the bar:

* **Against the opposite heuristic**: the agent's score (wins + draws / 2) is above the same-side
  heuristic's score against the same opponent, with non-overlapping Wilson 95% intervals.
  Where that heuristic already scores 95% or more, the agent must score 95% or more too and, against
  the opposite side's agent, score above the heuristic (there is no room above it against the
  heuristic). Where it scores 5% or less (a lopsided scenario, where scores can not separate), the
  mean VP margin (own VP minus the enemy's) is compared instead, with normal 95% intervals.
* **Against random**: the agent wins 95% or more, the interval's foot at 92% or more.

``--markdown`` prints one table instead, a row per side of every ``OUT`` given (``python -m
evaluation.bars reports/strength-* --markdown``): the agent's and the same-side heuristic's W / D / L and
score against the opposite heuristic, the heuristic bar, the agent's W / D / L against random and the
random bar. It exits 0 whether or not the bars are met; a side without the pairings it needs says so.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from evaluation.stats import wilson_interval

HIGH, LOW = 0.95, 0.05  # a heuristic this strong (weak) leaves no room to separate by score
RANDOM_RATE, RANDOM_FOOT = 0.95, 0.92


@dataclass(frozen=True)
class Rate:
    """A side's results in one pairing: ``score`` = (wins + draws / 2) / games, with its interval."""

    games: int
    wins: int
    draws: int
    margins: tuple[float, ...]  # own VP minus the enemy's, per game (empty without VP)

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games

    @property
    def score_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins + self.draws / 2, self.games)

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def margin_interval(self) -> tuple[float, float]:
        n = len(self.margins)
        mean = sum(self.margins) / n
        sd = math.sqrt(sum((m - mean) ** 2 for m in self.margins) / max(1, n - 1))
        return mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)

    def text(self) -> str:
        lo, hi = self.score_interval
        return f"{self.score:.1%} [{lo:.1%}, {hi:.1%}] of {self.games}"

    def wdl(self) -> str:
        """``W / D / L``."""
        return f"{self.wins} / {self.draws} / {self.games - self.wins - self.draws}"

    def cell(self) -> str:
        """``W / D / L, score [low, high]`` for a table."""
        lo, hi = self.score_interval
        return f"{self.wdl()}, {self.score:.1%} [{lo:.1%}, {hi:.1%}]"


@dataclass(frozen=True)
class Verdict:
    side: str
    heuristic_bar: str  # "met", "not met", or why it can not be judged
    random_bar: str
    lines: tuple[str, ...]
    mine: Rate | None = None  # the agent against the opposite heuristic
    base: Rate | None = None  # the same-side heuristic against it
    against_random: Rate | None = None

    def row(self, game: str) -> str:
        """One markdown row: game and side, both scores against the opposite heuristic, the bars."""
        def cell(rate: Rate | None) -> str:
            return "not played" if rate is None else rate.cell()

        if self.against_random is None:
            versus_random = "not played"
        else:
            r = self.against_random
            won, foot = r.wins / r.games, r.win_interval[0]
            versus_random = f"{r.wdl()}, won {won:.1%} (foot {foot:.1%})"
        return (f"| {game} | {self.side} | {cell(self.mine)} | {cell(self.base)} | {self.heuristic_bar} "
                f"| {versus_random} | {self.random_bar} |")  # fmt: skip


TABLE_HEAD = ("| game | side | agent against the opposite heuristic: W / D / L, score | the same-side heuristic "
              "| fair bar | agent against random | random bar |\n|---|---|---|---|---|---|---|")  # fmt: skip


def side_rate(results: dict, side: str, agents: dict[str, str]) -> Rate | None:
    """``side``'s results in the pairing where ``agents`` (side -> spec) played, None if it was not played."""
    names = results["sides"]
    me = names.index(side)
    games = [g for g in results["games"] if dict(zip(names, g["agents"], strict=True)) == agents]
    if not games:
        return None
    wins = sum(g["winner"] == me for g in games)
    draws = sum(g["winner"] is None for g in games)
    margins = tuple(g["vp"][me] - g["vp"][1 - me] for g in games if g.get("vp"))
    return Rate(len(games), wins, draws, margins if len(margins) == len(games) else ())


def judge(results: dict, side: str, agent: str, heuristic: str, random_: str) -> Verdict:
    """The bars of ``agent`` on ``side`` (module docstring)."""
    other = next(s for s in results["sides"] if s != side)
    mine = side_rate(results, side, {side: agent, other: heuristic})
    base = side_rate(results, side, {side: heuristic, other: heuristic})
    lines = []
    if mine is None or base is None:
        heuristic_bar = "not measured (no agent-vs-heuristic or heuristic-vs-heuristic pairing)"
    else:
        lines.append(f"against the {other} heuristic: {agent} {mine.text()}, {heuristic} {base.text()}")
        heuristic_bar = _heuristic_bar(results, side, other, agent, heuristic, mine, base, lines)
    against_random = side_rate(results, side, {side: agent, other: random_})
    if against_random is None:
        random_bar = "not measured (no agent-vs-random pairing)"
    else:
        lo, _ = against_random.win_interval
        rate = against_random.wins / against_random.games
        lines.append(f"against random: won {rate:.1%}, interval foot {lo:.1%}, of {against_random.games}")
        random_bar = "met" if rate >= RANDOM_RATE and lo >= RANDOM_FOOT else "not met"
    return Verdict(side, heuristic_bar, random_bar, tuple(lines), mine, base, against_random)


def _heuristic_bar(results, side, other, agent, heuristic, mine: Rate, base: Rate, lines: list[str]) -> str:
    if base.score >= HIGH:
        versus = [side_rate(results, side, {side: a, other: agent}) for a in (agent, heuristic)]
        if None in versus:
            return f"not measured (the heuristic scores {base.score:.1%}: needs the pairings against the {other} {agent})"
        lines.append(f"against the {other} {agent}: {agent} {versus[0].text()}, {heuristic} {versus[1].text()}")
        return "met" if mine.score >= HIGH and versus[0].score > versus[1].score else "not met"
    if base.score <= LOW:
        if not mine.margins or not base.margins:
            return f"not measured (the heuristic scores {base.score:.1%} and the game has no VP to compare)"
        (a_lo, _), (_, b_hi) = mine.margin_interval, base.margin_interval
        lines.append(f"VP margin: {agent} {_margin(mine)}, {heuristic} {_margin(base)} (the heuristic scores "
                     f"{base.score:.1%}: margins compared)")
        return "met" if a_lo > b_hi else "not met"
    return "met" if mine.score_interval[0] > base.score_interval[1] else "not met"


def _margin(rate: Rate) -> str:
    lo, hi = rate.margin_interval
    return f"{(lo + hi) / 2:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.bars", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="+", help="fof evaluate folders (each with its results.json)")
    parser.add_argument("--agent", default="ppo")
    parser.add_argument("--heuristic", default="heuristic")
    parser.add_argument("--random", default="random")
    parser.add_argument("--markdown", action="store_true", help="one markdown table, a row per side")
    args = parser.parse_args(argv)
    reports = []
    for out in args.out:
        path = Path(out) / "results.json"
        try:
            reports.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            print(f"python -m evaluation.bars: cannot read {path}: {exc}", file=sys.stderr)
            return 2
    if args.markdown:
        print(TABLE_HEAD)
    for results in reports:
        verdicts = [judge(results, side, args.agent, args.heuristic, args.random) for side in results["sides"]]
        if args.markdown:
            print("\n".join(v.row(results["game"]) for v in verdicts))
            continue
        print(f"{results['game']}: {args.agent} against the bars")
        for v in verdicts:
            print(f"  {v.side}: heuristic bar {v.heuristic_bar}; random bar {v.random_bar}")
            for line in v.lines:
                print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
