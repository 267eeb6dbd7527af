"""Set-ups that vary (agents.mixed_setup): every bot draws its unseen placements among its best few points.

A bot that hides the same team at the same point every game gives its ambush away to anyone who has played
it once: over 100 games no unit placed before any enemy unit is on the table (or in secret) may take its most
frequent point in more than 40% of them; the same seed gives the same set-up (the bot's own generator, never
the dice); a side that sets up facing the enemy takes its best point.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.base import make_agent
from agents.mixed_setup import SETUP_CHOICES, choose_among_best, is_unseen_placement, setup_choices
from agents.specs import build_agent
from evaluation.setup_spread import placements, too_regular
from fof_env.core.errors import OptionError
from fof_env.core.registry import make_game
from tests.force_on_force.hedgerow_helpers import dist, draw, state

FIRST_TO_SET_UP = [  # (game, the side that sets up first, the side that sets up facing it)
    ("lost_and_found", "taliban", "usmc"), ("compound_raid", "militia", "british"),
    ("wwii_hedgerow_hamlet", "ger", "us"), ("fubar_lost_and_found", "taliban", "usmc"),
    ("fubar_village_patrol", "patrol", "insurgents"),
]  # fmt: skip


def test_choose_among_best_draws_uniformly_from_the_k_best_ties_to_the_lower_action():
    score = {5: 1.0, 3: 2.0, 9: 2.0, 1: 0.5, 7: 0.1}
    asked = []

    def draw_index(i):
        def draw_(n):
            asked.append(n)
            return i

        return draw_

    assert [choose_among_best(score, score.get, draw_index(i)) for i in range(4)] == [3, 9, 5, 1]
    assert asked == [4, 4, 4, 4]
    assert choose_among_best([4, 2], {4: 0.0, 2: 0.0}.get, draw_index(0), k=4) == 2  # fewer than k: all of them
    assert asked[-1] == 2
    assert choose_among_best(score, score.get, draw_index(1), k=1 + 1) == 9
    drawn = len(asked)
    assert choose_among_best(score, score.get, draw_index(3), k=1) == 3 and len(asked) == drawn  # k=1: no draw
    with pytest.raises(ValueError, match="no action"):
        choose_among_best([], score.get, draw_index(0))
    assert SETUP_CHOICES == 4


@pytest.mark.parametrize(("game_name", "side", "other"), FIRST_TO_SET_UP)
def test_no_heuristic_unit_repeats_its_unseen_point_in_over_40_percent_of_100_games(game_name, side, other):
    spreads = placements(game_name, side, "heuristic", "heuristic", list(range(100)))
    assert spreads and all(s.games == 100 for s in spreads)
    assert too_regular(spreads, 0.4) == []
    assert all(len(s.points) >= 3 for s in spreads)  # every unit has at least three points in its mix
    assert placements(game_name, other, "heuristic", "heuristic", list(range(3))) == []  # it sets up facing them


@pytest.mark.parametrize(("game_name", "side", "other"), FIRST_TO_SET_UP)
def test_the_side_that_sets_up_second_takes_its_best_points(game_name, side, other):
    """Its placements answer the enemy it sees: only the other side's draw moves them."""
    game = make_game(game_name)
    me = game.player_index(other)

    def set_up(bot_seed: int) -> list[str]:
        first = make_agent("heuristic", game, 1 - me, seed=5)
        bot = make_agent("heuristic", game, me, seed=bot_seed)
        state_ = game.new_initial_state(0)
        points = []
        while not state_.is_terminal and state_.turn < 1:
            if state_.current_player == me:
                assert setup_choices(state_) == 1
                action = bot.act(state_)
                points.append(state_.action_to_str(action))
            else:
                action = first.act(state_)
            state_.apply(action)
        return points

    assert set_up(1) and set_up(1) == set_up(2) == set_up(3)


@pytest.mark.parametrize(("game_name", "side"), [("lost_and_found", "taliban"), ("fubar_lost_and_found", "taliban")])
def test_the_learned_taliban_vary_their_set_up_too(game_name, side):
    """A learned bot's unseen placements are its set-up book's draw where one ships, else the heuristic's mixed draw (PPOAgent ``setup``)."""
    spreads = placements(game_name, side, "ppo", "heuristic", list(range(60)))
    assert spreads and too_regular(spreads, 0.4) == [] and all(len(s.points) >= 3 for s in spreads)


def test_a_learned_bot_plays_its_own_set_up_on_request():
    """``setup="policy"``: the unseen placement is a sample of the policy, drawn with the agent's own generator."""
    game = make_game("lost_and_found")
    state_ = game.new_initial_state(0)
    assert is_unseen_placement(state_)
    bot = make_agent("ppo", game, "taliban", seed=5, setup="policy")
    probs = bot.action_probabilities(state_)
    probs = probs.astype(np.float64)
    expected = int(np.random.default_rng(5).choice(len(probs), p=probs / probs.sum()))
    assert bot.act(state_) == expected and probs[expected] > 0


def test_a_learned_bot_refuses_an_unknown_set_up():
    with pytest.raises(OptionError, match=r"^ppo: setup must be one of book, points, heuristic, policy, got 'mine'$"):
        make_agent("ppo", make_game("lost_and_found"), "taliban", setup="mine")


GUIDED_SEARCH = "mcts:simulations=4,opponent=heuristic,prior=ppo,rollout_limit=0,batch=8"


@pytest.mark.parametrize(("game_name", "side", "other"), FIRST_TO_SET_UP)
def test_the_search_draws_its_unseen_placements_as_the_sides_bots_do(game_name, side, other):
    """``mcts`` (``setup=draw``) does not search an unseen placement: the plain search draws it as the heuristic
    does, the search with the PPO prior as the ``ppo`` bot does (its set-up book where one ships). Searched, with a
    sharp prior, every Lost & Found team went to one point in 40 of 40 games."""
    for agent in ("mcts:8", GUIDED_SEARCH):
        spreads = placements(game_name, side, agent, "heuristic", list(range(60)))
        assert spreads and too_regular(spreads, 0.45) == [] and all(len(s.points) >= 3 for s in spreads), agent


def test_the_guided_searchs_set_up_is_the_learned_bots_book():
    game = make_game("lost_and_found")
    book = make_agent("ppo", game, "taliban", seed=0).book
    spreads = placements("lost_and_found", "taliban", GUIDED_SEARCH, "heuristic", list(range(20)))
    assert [set(s.points) <= set(group) for s, group in zip(spreads, book.groups, strict=True)] == [True] * 4


def test_a_search_asked_to_search_its_set_up_does():
    game = make_game("lost_and_found")
    state_ = game.new_initial_state(0)
    drawn = build_agent("mcts:simulations=6", game, 0, 3)
    drawn.act(state_)
    assert drawn.last_search is None  # drawn, not searched
    searched = build_agent("mcts:simulations=6,setup=search", game, 0, 3)
    assert searched.act(state_) in state_.legal_actions() and searched.last_search.iterations == 6
    assert repr(searched) == "mcts:simulations=6,setup=search"
    with pytest.raises(OptionError, match=r"^mcts: setup must be one of draw\|search, got 'mine'$"):
        build_agent("mcts:setup=mine", game, 0, None)


@pytest.mark.parametrize("agent", ["heuristic", "ppo", "mcts:8", GUIDED_SEARCH])
def test_the_same_seed_gives_the_same_set_up_and_another_seed_another(agent):
    game = make_game("lost_and_found")

    def set_up(seed: int) -> list[str]:
        bot = build_agent(agent, game, 0, seed)  # the Taliban
        state_ = game.new_initial_state(0)  # the same dice every time: only the bot's seed differs
        points = []
        while state_.current_player == 0 and is_unseen_placement(state_):
            action = bot.act(state_)
            points.append(state_.action_to_str(action))
            state_.apply(action)
        return points

    assert len(set_up(11)) == 4 and set_up(11) == set_up(11)
    assert len({tuple(set_up(seed)) for seed in range(12)}) >= 6


def test_the_hunted_sniper_is_a_placement_drawn_among_the_points_nearest_the_enemy():
    """004_fa8d850a9c124bb3.txt, Hunted!: "Your opponent gains a sniper team that can be placed anywhere within 24" of one of
    your units." The German heuristic places it on one of the four woods points nearest a U.S. unit (us.A at x01y35),
    not always the same one."""
    chosen = set()
    for seed in range(24):
        s = state("hunted", units={"us.A": {"at": "x01y35"}, "ger.1": {"at": "x35y01"}})
        draw(s, "us")
        assert s.decision.kind == "reinforce_point" and is_unseen_placement(s)
        legal = s.legal_action_strings()
        nearest = sorted(legal, key=lambda p: (dist(p, "x01y35"), p))[:4]
        bot = make_agent("heuristic", s.game, "ger", seed=seed)
        chosen.add(s.action_to_str(bot.act(s)))
    assert chosen <= set(nearest) and len(chosen) >= 3


def test_no_placement_in_a_game_without_a_set_up():
    game = make_game("strike_force_one")
    assert not is_unseen_placement(game.new_initial_state(0))
