"""Where does an agent choose otherwise than its teacher? Agreement by decision kind.

``python -m evaluation.agreement --game G --side S [--agent ppo] [--teacher heuristic]
[--opponent random] [--games 50] [--seed 0] [--plays teacher|agent]``

Plays ``--games`` games of ``--side`` against ``--opponent``; at every decision of that side
with more than one legal action both the agent and the teacher choose, and one of them
(``--plays``: the teacher, default, or the agent) has its choice played. Prints, per decision
kind (``select_unit``, ``move_target``, ...), the decisions, the share on which the agent chose
the teacher's action, and the mean number of legal actions; then all kinds together.

With ``--plays teacher`` the states are those behaviour cloning trains on; with ``--plays agent``
they are those the agent reaches by itself, which DAgger's rounds train on
(``fof train --dagger-rounds``): a gap between the two is the learner's own mistakes leading it
where the teacher's games never go. Game ``i`` is ``new_initial_state(seed + i)``, the teacher,
agent and opponent seeded from it, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from evaluation.match import build_agent
from fof_env.core.registry import list_games, make_game

PLAYERS = ("teacher", "agent")


@dataclass
class Agreement:
    """Decisions, agreements and legal actions summed per decision kind."""

    decisions: Counter = field(default_factory=Counter)
    agreed: Counter = field(default_factory=Counter)
    legal: Counter = field(default_factory=Counter)

    def add(self, kind: str, agreed: bool, legal: int) -> None:
        self.decisions[kind] += 1
        self.agreed[kind] += int(agreed)
        self.legal[kind] += legal


def measure(game_name: str, side: str, agent: str, teacher: str, opponent: str, games: int, seed: int,
            plays: str = "teacher") -> Agreement:
    """Play the games (see the module docstring) and tally the agent's agreement with the teacher."""
    game = make_game(game_name)
    me = game.player_index(side)
    tally = Agreement()
    for index in range(games):
        state = game.new_initial_state(seed=seed + index)
        chooser = build_agent(agent, game, me, seed + index)
        expert = build_agent(teacher, game, me, seed + index)
        other = build_agent(opponent, game, 1 - me, seed + index)
        while not state.is_terminal:
            if state.current_player != me:
                state.apply(other.act(state))
                continue
            legal = state.legal_actions()
            wanted = expert.act(state)
            if len(legal) == 1:
                state.apply(wanted)
                continue
            chosen = chooser.act(state)
            tally.add(state.decision_kind, chosen == wanted, len(legal))
            state.apply(wanted if plays == "teacher" else chosen)
    return tally


def format_agreement(tally: Agreement) -> str:
    """The table: one row per decision kind, most decisions first, then the total."""
    width = max([len("decision kind"), *(len(kind) for kind in tally.decisions)])
    lines = [f"  {'decision kind':<{width}}  {'decisions':>9}  {'agreement':>9}  {'legal':>6}"]
    for kind, count in sorted(tally.decisions.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {kind:<{width}}  {count:>9}  {tally.agreed[kind] / count:>9.1%}  "
                     f"{tally.legal[kind] / count:>6.1f}")
    total = sum(tally.decisions.values())
    if total:
        lines.append(f"  {'all':<{width}}  {total:>9}  {sum(tally.agreed.values()) / total:>9.1%}  "
                     f"{sum(tally.legal.values()) / total:>6.1f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.agreement", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=list_games())
    parser.add_argument("--side", required=True, help="the side the agent and the teacher play")
    parser.add_argument("--agent", default="ppo", metavar="SPEC", help="the agent compared (default ppo)")
    parser.add_argument("--teacher", default="heuristic", metavar="SPEC", help="the reference (default heuristic)")
    parser.add_argument("--opponent", default="random", metavar="SPEC", help="the other side (default random)")
    parser.add_argument("--games", type=int, default=50, help="games played (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="game i is seeded seed + i (default 0)")
    parser.add_argument("--plays", choices=PLAYERS, default="teacher",
                        help="whose choices are played (default teacher)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    try:
        game = make_game(args.game)
        me = game.player_index(args.side)
        for spec, player in ((args.agent, me), (args.teacher, me), (args.opponent, 1 - me)):
            build_agent(spec, game, player, 0)
    except (ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    tally = measure(args.game, args.side, args.agent, args.teacher, args.opponent, args.games, args.seed, args.plays)
    print(f"{args.agent} against {args.teacher} as {args.side} of {args.game}, {args.games} games against "
          f"{args.opponent}, the {args.plays}'s choices played:")
    print(format_agreement(tally))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
