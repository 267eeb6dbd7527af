"""Is calling the air strike at a tied count a mistake? The shipped USMC policy with and without it.

The pilot's air strike ends the scenario at once (000_294bccfd88f0ebda.txt: "If he is successful,
the scenario immediately ends and victory points are tallied"), and the shipped USMC models of Lost &
Found and FUBAR Lost & Found call it as soon as contact is made, even at a tied or losing count:
``python -m evaluation.endings`` finds most of their draws there. This script plays the shipped
policy as it is (``ppo_usmc``) and the same policy made never to call the strike unless the USMC
are ahead on VP (``no_call_unless_ahead``), in Lost & Found also one that does not call while its
unassessed casualties could undo its lead (``no_call_unless_safely_ahead``), against random and
heuristic Taliban on the same game seeds, and prints W/D/L for each::

    .venv/bin/python docs/examples/airstrike_counterfactual.py --game lost_and_found --games 1000

Both play the same games: game ``i`` against an opponent has the dice seed and the two agents' seeds
that ``fof evaluate --agents OPPONENT ppo@usmc --no-mirror --seed SEED`` gives its game ``i``
(:func:`evaluation.tournament.game_seeds`), so the variants differ only from the first call where one
passes. With ``--games 1000`` on one core: 127 s for Lost & Found, 173 s for FUBAR.
"""

from __future__ import annotations

import argparse

import fof_env
from agents import make_agent
from agents.ppo import PPOAgent
from evaluation.match import play_game
from evaluation.tournament import game_seeds


def ppo_usmc(game, player):
    """The shipped model of the side, as ``fof evaluate`` plays ``ppo``."""
    return PPOAgent(game, player)


def no_call_unless_ahead(game, player):
    """The shipped model, but ``pass`` at every air-strike call where its side is not ahead on VP."""
    policy = PPOAgent(game, player)

    class NoCallUnlessAhead:
        def reseed(self, seed) -> None:
            policy.reseed(seed)

        def act(self, state) -> int:
            if state.decision_kind == "call_airstrike":
                vp = state.victory_points()
                if vp[player] <= vp[1 - player]:
                    return state.str_to_action("pass")
            return policy.act(state)

    return NoCallUnlessAhead()


def no_call_unless_safely_ahead(game, player):
    """Lost & Found only: as :func:`no_call_unless_ahead`, and also ``pass`` where the side leads but
    its casualties not yet assessed could undo the lead (each is assessed when the scenario ends,
    ruling R25, and may be KIA: 2 VP to the enemy)."""
    from fof_env.force_on_force.constants import DOWN

    policy = no_call_unless_ahead(game, player)

    class NoCallUnlessSafelyAhead:
        def reseed(self, seed) -> None:
            policy.reseed(seed)

        def act(self, state) -> int:
            if state.decision_kind == "call_airstrike":
                vp = state.victory_points()
                unassessed = sum(state.figs[u][DOWN] for u in state.SIDE_UNITS[player])
                if vp[player] - vp[1 - player] <= 2 * unassessed:
                    return state.str_to_action("pass")
            return policy.act(state)

    return NoCallUnlessSafelyAhead()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("lost_and_found", "fubar_lost_and_found"), default="lost_and_found")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent and agent (default 1000)")
    parser.add_argument("--seed", type=int, default=21, help="tournament seed (default 21)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    game = fof_env.make_game(args.game)
    usmc = game.player_names.index("usmc")
    variants = [ppo_usmc, no_call_unless_ahead]
    if args.game == "lost_and_found":
        variants.append(no_call_unless_safely_ahead)
    for opponent in ("random", "heuristic"):
        for variant in variants:
            agent = variant(game, usmc)
            wins = draws = 0
            for i in range(args.games):
                dice, taliban_seed, usmc_seed = game_seeds(args.seed, (opponent, "ppo@usmc"), i)
                taliban = make_agent(opponent, game, 1 - usmc, seed=taliban_seed)
                agent.reseed(usmc_seed)  # its set-up is drawn with its own generator, as fof evaluate seeds it
                winner = play_game(game, [taliban, agent], dice, record=False).winner
                wins += winner == usmc
                draws += winner is None
            print(f"{args.game}: {variant.__name__} against {opponent} Taliban: "
                  f"{wins} / {draws} / {args.games - wins - draws} (W / D / L) of {args.games}", flush=True)


if __name__ == "__main__":
    main()
