"""How an agent's games ended where it did not win: the last decision of each, counted.

Where a bot drops games often shows in how they end: the same decision, in the same place.
``python -m evaluation.endings OUT`` reads a ``fof evaluate``
folder (``OUT/tournament.json``, ``OUT/games.jsonl`` and the game records under
``OUT/records``), replays every game an agent did not win (:func:`evaluation.replay.replay`,
so each record is also verified) and counts those games by how they ended:

* the **result** for the agent (draw or loss);
* the **last decision**: whose it was, its kind and the action taken (``usmc call_airstrike:
  yes``);
* the **standing before it**: the victory points of games that count them (the sides in the
  game's order), else the game's score.

For example, the shipped Lost & Found USMC model against random::

    python -m evaluation.endings reports/laf-usmc-random --agent ppo@usmc

lists 36 draws that ended with its own ``call_airstrike: yes`` at 3-3: the air strike ends the
scenario at once (000_294bccfd88f0ebda.txt: "If he is successful, the scenario immediately ends
and victory points are tallied"). Whether a frequent ending is a mistake is a further question,
answered by playing the same games without it: ``docs/examples/airstrike_counterfactual.py`` does
so for that call, and finds it is not one (the draws become losses).

A mirror pairing counts the agent's games on both sides. Bad input (no tournament in ``OUT``,
a tournament played with ``--no-records``, an agent it did not play, a damaged record) is one
line on stderr and exit status 2.
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
from evaluation.match import victory_points
from evaluation.replay import ReplayError, replay
from evaluation.tallies import GameOutcome


@dataclass(frozen=True)
class Ending:
    """How one game ended, for the agent that did not win it."""

    result: str  # "draw" or "loss"
    last_decision: str  # "usmc call_airstrike: yes"
    standing: str  # the victory points (or the score) before the last decision


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


def _standing(state) -> str:
    """Victory points as "3-3 (taliban-usmc)" where the game counts them, else its score."""
    names = state.game.player_names
    vp = victory_points(state)
    if vp is not None:
        return f"{vp[0]}-{vp[1]} ({names[0]}-{names[1]})"
    score = getattr(state, "score", None)
    if isinstance(score, dict):
        return ", ".join(f"{key} {value}" for key, value in score.items())
    return "-"


def _replayed_ending(record: Path) -> tuple[int | None, str, str]:
    """(winner, last decision, standing before it) of the finished game in ``record``.

    Raises :class:`~evaluation.replay.ReplayError` for a record that does not replay or verify."""
    last: list[tuple[str, str]] = []

    def remember(state, action: str) -> None:
        names = state.game.player_names
        last[:] = [(f"{names[state.current_player]} {state.decision.kind}: {action}", _standing(state))]

    result = replay(record, on_decision=remember)
    if not result.verified:
        raise ReplayError(f"{record}: does not match the game it records ({'; '.join(result.problems)})")
    if not result.state.is_terminal:
        raise ReplayError(f"{record}: the game is not finished")
    decision, standing = last[0] if last else ("no decision", "-")
    return result.state.winner, decision, standing


def _ending_for(side: int, winner: int | None, decision: str, standing: str) -> Ending | None:
    """The :class:`Ending` of a replayed game for the player ``side`` (None: it won)."""
    if winner == side:
        return None
    return Ending("draw" if winner is None else "loss", decision, standing)


def agent_endings(outcomes: Iterable[GameOutcome], records_dir: Path, agents: Sequence[str]) -> list[AgentEndings]:
    """Per agent of ``agents`` (in that order), the endings of its logged games that it did not win;
    only the games it lost or drew are replayed, each once (a mirror pairing's draw counts for both sides)."""
    tallies = {agent: AgentEndings(agent) for agent in agents}
    for outcome in outcomes:
        replayed = None
        for side, agent in enumerate(outcome.agents):
            tally = tallies.get(agent)
            if tally is None:
                continue
            tally.games += 1
            if outcome.winner == side:
                continue
            if outcome.record is None:
                raise ReplayError(f"game {outcome.index} of {' vs '.join(outcome.agents)} has no record")
            if replayed is None:
                replayed = _replayed_ending(records_dir / outcome.record)
            ending = _ending_for(side, *replayed)
            if ending is not None:
                tally.endings[ending] += 1
    return list(tallies.values())


def format_endings(tally: AgentEndings, top: int) -> str:
    """A text table of the ``top`` most frequent endings (the rest summed on one line)."""
    lines = [
        f"{tally.agent}: {tally.not_won} of {tally.games} games not won "
        f"({tally.count('draw')} draws, {tally.count('loss')} losses)"
    ]
    if not tally.not_won:
        return lines[0]
    rows = sorted(tally.endings.items(), key=lambda item: (-item[1], item[0].result, item[0].last_decision))
    width = max(len(ending.last_decision) for ending, _ in rows[:top])
    lines.append(f"  {'games':>5}  result  {'last decision':<{width}}  standing before it")
    for ending, n in rows[:top]:
        lines.append(f"  {n:>5}  {ending.result:<6}  {ending.last_decision:<{width}}  {ending.standing}")
    rest = rows[top:]
    if rest:
        lines.append(f"  {sum(n for _, n in rest):>5}  in {len(rest)} other endings")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.endings",
        description="Count how an agent's games ended where it did not win: the result, the last decision "
        "(whose, its kind, the action) and the victory points or score before it, from a `fof evaluate` "
        "folder's log and game records.",
    )
    parser.add_argument("out", help="a `fof evaluate` folder (its tournament.json, games.jsonl and records/)")
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
        if not definition.records:
            raise LogError(f"{out}: the tournament was played with --no-records: there are no games to replay")
        agents = args.agent or list(definition.agents)
        unknown = [a for a in agents if a not in definition.agents]
        if unknown:
            raise LogError(f"{out}: no agent {unknown[0]!r} in this tournament; its agents: {', '.join(definition.agents)}")
        tallies = agent_endings(read_log(out / LOG_FILE, repair=False), out / "records", agents)
    except (LogError, ReplayError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n\n".join(format_endings(tally, args.top) for tally in tallies))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
