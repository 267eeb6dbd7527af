"""How an agent's games ended where it did not win: why each ended and the standing at its end, counted.

Where a bot drops games often shows in how they end: the same ending, at the same standing.
``python -m evaluation.endings OUT`` reads a ``fof evaluate`` folder (``OUT/tournament.json`` and
``OUT/games.jsonl``; no game is replayed: every logged game carries its
:class:`~fof_env.core.outcome.Outcome`) and counts the games an agent did not win by:

* the **result** for the agent (draw or loss);
* the **termination**: why the game ended (``turn limit``, ``auto victory``, ``air strike`` ...,
  the game's ruleset lists its own);
* the **standing at the end**: the victory points of games that count them (the sides in the
  game's order), else the game's score.

For example, a model against random::

    python -m evaluation.endings reports/usmc-random --agent ppo@usmc

may list most of its draws as ended by its own side's air strike at 3-3: the air strike ends the
scenario at once, whatever the points. Whether a frequent ending is a mistake is a further question,
answered by playing the same games without it (``docs/examples/airstrike_counterfactual.py`` does so
for that call).

A mirror pairing counts the agent's games on both sides. A game logged before games kept their
outcome counts as ended by ``unknown``. Bad input (no tournament in ``OUT``, an agent it did not
play, a damaged log) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evaluation.journal import (
    DEFINITION_FILE,
    LOG_FILE,
    LogError,
    holds_tournament,
    read_definition,
    read_log,
)
from evaluation.tallies import GameOutcome

UNKNOWN = "unknown"  # the termination of a game logged before games kept their outcome


@dataclass(frozen=True)
class Ending:
    """How one game ended, for the agent that did not win it."""

    result: str  # "draw" or "loss"
    termination: str  # "turn limit", "air strike" ...
    standing: str  # the victory points (or the score) at the end


@dataclass
class AgentEndings:
    """The endings of one agent's games that it did not win."""

    agent: str
    games: int = 0  # games the agent played (each side of a mirror game counts)
    endings: Counter[Ending] = field(default_factory=Counter)

    @property
    def not_won(self) -> int:
        return sum(self.endings.values())

    def count(self, result: str) -> int:
        return sum(n for ending, n in self.endings.items() if ending.result == result)


def standing(outcome: GameOutcome, player_names: Sequence[str]) -> str:
    """Victory points as "3-3 (taliban-usmc)" where the game counts them, else its score."""
    if outcome.vp is not None:
        return f"{outcome.vp[0]}-{outcome.vp[1]} ({player_names[0]}-{player_names[1]})"
    if isinstance(outcome.score, dict):
        return ", ".join(f"{key} {value}" for key, value in outcome.score.items())
    return "-"


def agent_endings(outcomes: Iterable[GameOutcome], player_names: Sequence[str], agents: Sequence[str]) -> list[AgentEndings]:
    """Per agent of ``agents`` (in that order), the endings of its logged games that it did not win
    (a mirror pairing's draw counts for both sides)."""
    tallies = {agent: AgentEndings(agent) for agent in agents}
    for outcome in outcomes:
        for side, agent in enumerate(outcome.agents):
            tally = tallies.get(agent)
            if tally is None:
                continue
            tally.games += 1
            if outcome.winner == side:
                continue
            result = "draw" if outcome.winner is None else "loss"
            tally.endings[Ending(result, outcome.termination or UNKNOWN, standing(outcome, player_names))] += 1
    return list(tallies.values())


def format_endings(tally: AgentEndings, top: int) -> str:
    """A text table of the ``top`` most frequent endings (the rest summed on one line)."""
    lines = [
        f"{tally.agent}: {tally.not_won} of {tally.games} games not won "
        f"({tally.count('draw')} draws, {tally.count('loss')} losses)"
    ]
    if not tally.not_won:
        return lines[0]
    rows = sorted(tally.endings.items(), key=lambda item: (-item[1], item[0].result, item[0].termination,
                                                           item[0].standing))  # fmt: skip
    width = max(len(ending.termination) for ending, _ in rows[:top])
    lines.append(f"  {'games':>5}  result  {'ended by':<{width}}  standing at the end")
    for ending, n in rows[:top]:
        lines.append(f"  {n:>5}  {ending.result:<6}  {ending.termination:<{width}}  {ending.standing}")
    rest = rows[top:]
    if rest:
        lines.append(f"  {sum(n for _, n in rest):>5}  in {len(rest)} other endings")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.endings",
        description="Count how an agent's games ended where it did not win: the result, why the game ended "
        "(its outcome's termination) and the victory points or score at its end, from a `fof evaluate` "
        "folder's log.",
    )
    parser.add_argument("out", help="a `fof evaluate` folder (its tournament.json and games.jsonl)")
    parser.add_argument("--agent", action="append", metavar="SPEC",
                        help="an agent of the tournament, as its report names it (repeatable; default: every agent)")
    parser.add_argument("--top", type=int, default=10, help="endings listed per agent (default 10)")
    args = parser.parse_args(argv)
    if args.top < 1:
        parser.error(f"--top must be at least 1, got {args.top}")
    out = Path(args.out)
    try:
        if not holds_tournament(out):
            raise LogError(f"no tournament in {out} (no {DEFINITION_FILE}): give the --out folder of a `fof evaluate` run")
        definition = read_definition(out)
        agents = args.agent or list(definition.agents)
        unknown = [a for a in agents if a not in definition.agents]
        if unknown:
            raise LogError(f"{out}: no agent {unknown[0]!r} in this tournament; its agents: {', '.join(definition.agents)}")
        names = _player_names(definition.game, definition.options)
        tallies = agent_endings(read_log(out / LOG_FILE, repair=False), names, agents)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n\n".join(format_endings(tally, args.top) for tally in tallies))
    return 0


def _player_names(game: str, options: dict) -> tuple[str, str]:
    from fof_env.core.errors import OptionError
    from fof_env.core.registry import make_game

    try:
        return tuple(make_game(game, **options).player_names)  # type: ignore[return-value]
    except (OptionError, TypeError) as exc:
        raise LogError(f"the tournament's game cannot be built: {exc}") from None


if __name__ == "__main__":
    raise SystemExit(main())
