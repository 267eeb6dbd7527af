"""How much a bot's set-up varies: ``python -m evaluation.setup_spread``.

``python -m evaluation.setup_spread --game GAME --side SIDE [--agent heuristic]
[--opponent heuristic] [--games 100] [--seed 0] [--whole] [--limit 0.4]`` plays ``--games`` games
(dice seed ``seed + i``, the agents seeded ``2 * (seed + i) + side`` as ``evaluation.scenario_strength``
does) up to the end of the set-up (turn 1; ``--whole``: to the end, so placements made later, such as
a Hunted! sniper's, count too) and prints, for each unit the side placed unseen (``agents.mixed_setup``:
before any enemy unit is on the table, or in secret), how often its most frequent point was chosen. It exits 1 when a unit placed in at least ten games repeats its most
frequent point in more than ``--limit`` of them (a set-up a player learns by heart).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

from agents.mixed_setup import is_unseen_placement
from evaluation.match import build_agent
from fof_env.core.registry import make_game

MIN_GAMES = 10  # a unit placed in fewer games is reported, not judged


@dataclass(frozen=True)
class UnitSpread:
    """Where one unit was placed over the games: ``points`` counts each point chosen."""

    unit: str
    points: Counter

    @property
    def games(self) -> int:
        return sum(self.points.values())

    @property
    def top_share(self) -> float:
        """The share of games in which its most frequent point was chosen."""
        return self.points.most_common(1)[0][1] / self.games


def placements(game_name: str, side: str, agent: str, opponent: str, seeds: list[int], *,
               whole: bool = False, options: dict | None = None) -> list[UnitSpread]:
    """Each unit of ``side`` that ``agent`` placed, with the points it chose over games ``seeds``."""
    game = make_game(game_name, **(options or {}))
    me = game.player_index(side)
    chosen: dict[str, Counter] = defaultdict(Counter)
    specs = {me: agent, 1 - me: opponent}
    kept: dict[int, object] = {}  # agents that can be re-seeded (a loaded model) are built once
    for seed in seeds:
        bots = [seeded_agent(kept, specs[p], game, p, 2 * seed + p) for p in (0, 1)]
        state = game.new_initial_state(seed)
        while not state.is_terminal and (whole or getattr(state, "turn", 0) < 1):
            action = bots[state.current_player].act(state)
            if state.current_player == me and is_unseen_placement(state):
                unit = str(state.decision.context.get("unit", state.decision.kind))
                chosen[unit][state.action_to_str(action)] += 1
            state.apply(action)
    return [UnitSpread(unit, points) for unit, points in sorted(chosen.items())]


def seeded_agent(kept: dict, spec: str, game, player: int, seed: int):
    """The agent for one game: ``kept[player]`` re-seeded, or a new one (kept if it can be re-seeded)."""
    agent = kept.get(player)
    if agent is not None:
        agent.reseed(seed)
        return agent
    agent = build_agent(spec, game, player, seed)
    if callable(getattr(agent, "reseed", None)):
        kept[player] = agent
    return agent


def too_regular(spreads: list[UnitSpread], limit: float) -> list[UnitSpread]:
    """The units placed in at least :data:`MIN_GAMES` games whose most frequent point exceeds ``limit``."""
    return [s for s in spreads if s.games >= MIN_GAMES and s.top_share > limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.setup_spread", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--side", required=True, help="the side whose placements are counted")
    parser.add_argument("--agent", default="heuristic", help="that side's agent spec (default heuristic)")
    parser.add_argument("--opponent", default="heuristic", help="the other side's agent spec (default heuristic)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--whole", action="store_true", help="play whole games (placements after the set-up count)")
    parser.add_argument("--limit", type=float, default=0.4, help="the most frequent point's largest share (default 0.4)")
    args = parser.parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    spreads = placements(args.game, args.side, args.agent, args.opponent, seeds, whole=args.whole)
    print(f"{args.game}: {args.side} = {args.agent} against {args.opponent}, {args.games} games")
    for s in spreads:
        common = ", ".join(f"{p} {n}" for p, n in s.points.most_common(4))
        print(f"  {s.unit:<12} {len(s.points):>2} points, most frequent {s.top_share:.0%} ({common})")
    bad = too_regular(spreads, args.limit)
    if not spreads:
        print("  no placements")
    for s in bad:
        print(f"  {s.unit}: its most frequent point in {s.top_share:.0%} of games, over {args.limit:.0%}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
