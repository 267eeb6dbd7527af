"""The ``mcts`` agent (SO-ISMCTS, agents/mcts.py): legal, pure, deterministic, blind to hidden
units and to the coming dice, and stronger than random.

No peeking (DESIGN.md "Agents": "``mcts`` (must not read hidden information: determinize from
the player's own view)"; Force on Force rulings R27/R28): the search of the USMC must be the
same, visit for visit, on two positions that differ only in where a Hidden Taliban team stands
(and how strong it is), and the search of either game must be the same on two positions that
differ only in the state of their dice. Each no-peeking test also runs a variant that searches
on plain clones, to show the test can fail.
"""

from __future__ import annotations

import random

import pytest

import fof_env
from agents import make_agent
from agents.mcts import MCTSAgent, _SearchDice
from agents.position_values import has_position_value, position_value
from fof_env import ScriptedDice
from fof_env.core.dice import SeededDice
from fof_env.core.errors import OptionError
from tests.agents.bot_checks import act_without_touching
from tests.force_on_force.helpers import LAF as st
from tests.force_on_force.helpers import uid
from tests.force_on_force.test_no_peeking import PAIRS, TALIBAN, USMC, twins

GAMES = ("strike_force_one", "lost_and_found")


class PeekingMCTS(MCTSAgent):
    """A cheat, for the tests only: searches plain clones of the real state (its hidden units
    where they really are, its dice about to roll what they will really roll)."""

    def _determinize(self, state):
        return state.clone()


class HiddenPeekingMCTS(MCTSAgent):
    """A cheat that re-seeds the dice but leaves hidden units where they really are."""

    def _determinize(self, state):
        world = state.clone()
        world.dice = _SearchDice(self.rng.getrandbits(64))
        return world


def positions(game_name: str, seed: int, count: int, every: int = 7) -> list:
    """``count`` positions with more than one legal action, ``every`` decisions apart, along a
    random game (restarting with the next seed if the game ends first), none of them an unseen
    placement (drawn, not searched: ``setup=draw``). In Lost & Found the Taliban hide every team
    they may, so that the USMC decide with Hidden units about."""
    game = fof_env.make_game(game_name)
    rng = random.Random(seed)
    out = []
    state = game.new_initial_state(seed=seed)
    step = 0
    while len(out) < count:
        if state.is_terminal:
            seed += 1
            state = game.new_initial_state(seed=seed)
        legal = state.legal_actions()
        if step % every == 0 and len(legal) > 1 and not state.is_unseen_placement():
            out.append(state.clone())
        hide = state.decision_kind == "declare_hidden"
        state.apply(legal[0] if hide else legal[rng.randrange(len(legal))])
        step += 1
    return out


def search(agent_cls, state, seed: int = 0, simulations: int = 30, **kwargs):
    agent = agent_cls(state.game, state.current_player, seed=seed, simulations=simulations, **kwargs)
    action = act_without_touching(agent, state)
    return action, agent.last_search


# ---------------------------------------------------------------------------- API
def test_registry_builds_it_from_a_command_line_spec():
    """``make_agent("mcts", ..., simulations="20")``: strings from the CLI are read as numbers;
    the repr is the spec; unknown options are refused with the list of options."""
    game = fof_env.make_game("strike_force_one")
    agent = make_agent("mcts", game, "us", seed=1, simulations="20")
    assert isinstance(agent, MCTSAgent) and agent.player == 1 and agent.simulations == 20
    assert repr(agent) == "mcts:20"
    timed = make_agent("mcts", game, 0, time_budget="0.25", exploration="2", rollout_limit="none")
    assert (timed.time_budget, timed.exploration, timed.rollout_limit) == (0.25, 2.0, None)
    assert repr(timed) == "mcts:time_budget=0.25,exploration=2"
    assert repr(MCTSAgent(game, 0, rollout_limit="40")) == "mcts:simulations=200,rollout_limit=40"
    with pytest.raises(ValueError, match="simulations"):
        make_agent("mcts", game, 0, simulatons=10)
    with pytest.raises(ValueError, match="number"):
        make_agent("mcts", game, 0, simulations="many")


@pytest.mark.parametrize("game_name", GAMES)
def test_legal_and_leaves_the_state_untouched_along_a_random_game(game_name):
    """At positions along a random game, for whichever side is to move: the action is legal and
    the state (position, history, dice) is exactly as before."""
    seen = set()
    for i, state in enumerate(positions(game_name, seed=3, count=8, every=5)):
        agent = MCTSAgent(state.game, state.current_player, seed=i, simulations=12)
        act_without_touching(agent, state)
        stats = agent.last_search
        assert stats.iterations == 12 and sum(stats.visits.values()) == 12
        assert set(stats.visits) <= set(state.legal_actions())
        seen.add((state.current_player, any(getattr(state, "hidden", ()))))
    assert {0, 1} <= {player for player, _ in seen}
    if game_name == "lost_and_found":
        assert (USMC, True) in seen  # the USMC searched with a Hidden Taliban team about


@pytest.mark.parametrize("game_name", GAMES)
def test_a_single_legal_action_is_returned_without_search(game_name):
    game = fof_env.make_game(game_name)
    rng = random.Random(0)
    state = game.new_initial_state(seed=0)
    while len(state.legal_actions()) != 1:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    agent = MCTSAgent(game, state.current_player, seed=0, simulations=10_000)
    assert act_without_touching(agent, state) == state.legal_actions()[0]
    assert agent.last_search is None


def test_time_budget_bounds_the_search():
    """With ``time_budget`` the search runs until the time is spent (``simulations`` ignored)."""
    state = positions("strike_force_one", seed=1, count=1)[0]
    agent = MCTSAgent(state.game, state.current_player, seed=0, simulations=1, time_budget=0.05)
    act_without_touching(agent, state)
    assert agent.last_search.iterations > 1
    assert agent.last_search.seconds < 0.5


@pytest.mark.parametrize("game_name", GAMES)
def test_same_seed_same_state_same_search(game_name):
    for state in positions(game_name, seed=5, count=2, every=11):
        a1, s1 = search(MCTSAgent, state, seed=7)
        a2, s2 = search(MCTSAgent, state.clone(), seed=7)
        assert a1 == a2 and s1.same_search(s2)


# ------------------------------------------------------- determinization (LF engine)
@pytest.mark.parametrize("which", sorted(PAIRS))
def test_determinize_resamples_hidden_units_from_public_facts_only(which):
    """``determinize(USMC, rng)`` of two positions that differ only in a Hidden unit's point (and
    strength) gives equal states for equal RNGs: the unit on a woods point of its deployment
    zone, at its order-of-battle strength, still Hidden; everything the USMC sees unchanged;
    the real states untouched. The Taliban's (who see their unit) differ."""
    a, b = twins(which)
    before = a.fingerprint(), b.fingerprint()
    tal2 = uid("tal.2")
    zone_woods = {p for p in a.sc.deploy_points[tal2] if a.table.in_woods[p]}
    profile = a.sc.profiles[tal2]
    drawn = set()
    for seed in range(12):
        da, db = a.determinize(USMC, random.Random(seed)), b.determinize(USMC, random.Random(seed))
        assert da.fingerprint() == db.fingerprint()
        assert da.pos[tal2] in zone_woods and da.hidden[tal2] == 1
        assert da.figs[tal2][st.OK] == profile.figures and sum(da.figs[tal2]) == profile.figures
        assert da.tq[tal2] == profile.tq
        for u in range(st.NUM_UNITS):
            if u != tal2:
                assert (da.pos[u], da.figs[u], da.tq[u]) == (a.pos[u], a.figs[u], a.tq[u])
        assert da.legal_actions() == a.legal_actions()
        drawn.add(da.pos[tal2])
    assert len(drawn) > 1  # really drawn, not a fixed stand-in
    assert (a.fingerprint(), b.fingerprint()) == before
    ta, tb = a.determinize(TALIBAN, random.Random(0)), b.determinize(TALIBAN, random.Random(0))
    assert ta.pos[tal2] == a.pos[tal2] and tb.pos[tal2] == b.pos[tal2]
    assert ta.fingerprint() != tb.fingerprint()


def test_determinize_hides_the_secret_taliban_set_up():
    """During the Taliban's secret set-up (``is_secret_from(USMC)``) the points already chosen
    are re-drawn for the USMC, and kept for the Taliban."""
    game = fof_env.make_game("lost_and_found")
    a, b = game.new_initial_state(seed=0), game.new_initial_state(seed=0)
    for s, pick in ((a, 0), (b, -1)):
        for _ in range(2):
            s.apply(s.legal_actions()[pick])
    assert a.is_secret_from(USMC) and a.pos != b.pos
    for seed in range(3):
        da, db = a.determinize(USMC, random.Random(seed)), b.determinize(USMC, random.Random(seed))
        assert da.fingerprint() == db.fingerprint()
        for u in (0, 1):
            assert da.pos[u] in a.sc.deploy_points[u]
    assert a.determinize(TALIBAN, random.Random(0)).pos == a.pos


def test_kernel_determinize_only_clones_and_reseeds_the_dice():
    state = positions("strike_force_one", seed=2, count=1)[0]
    world = state.determinize(0, random.Random(1))
    assert world.fingerprint()[:-1] == state.fingerprint()[:-1]  # all but the dice
    assert world.dice.to_json() == SeededDice(random.Random(1).getrandbits(64)).to_json()


# ----------------------------------------------------------------------- no peeking
@pytest.mark.parametrize("which", sorted(PAIRS))
def test_usmc_search_never_reads_where_a_hidden_unit_is(which):
    """R27: the USMC's search on two positions that differ only in Hidden tal.2 (its point, and
    for ``place_and_strength`` its figures and TQ) makes the same choice with the same
    statistics (iterations, tree size, visits and rewards of every root action). A search on
    plain clones (which would know where tal.2 is) does not: the test can fail."""
    a, b = twins(which)
    assert a.current_player == USMC
    action_a, stats_a = search(MCTSAgent, a, seed=11, simulations=40)
    action_b, stats_b = search(MCTSAgent, b, seed=11, simulations=40)
    assert action_a == action_b and stats_a.same_search(stats_b)
    _, peek_a = search(HiddenPeekingMCTS, a, seed=11, simulations=40)
    _, peek_b = search(HiddenPeekingMCTS, b, seed=11, simulations=40)
    assert not peek_a.same_search(peek_b)


def test_taliban_search_does_see_its_own_hidden_unit():
    """The Taliban know where their Hidden team is: from positions that differ only there, the
    Taliban's searches differ (the same machinery does not blind its owner)."""
    a, b = twins("place")
    for s in (a, b):  # the USMC activation ends: usmc.C holds; the Taliban get to act
        s.apply("usmc.C")
        s.apply("hold")
        while s.current_player == USMC:
            s.apply("pass")
    assert a.current_player == TALIBAN and a.legal_actions() == b.legal_actions()
    _, stats_a = search(MCTSAgent, a, seed=3, simulations=40)
    _, stats_b = search(MCTSAgent, b, seed=3, simulations=40)
    assert not stats_a.same_search(stats_b)


@pytest.mark.parametrize("game_name", GAMES)
def test_search_never_reads_the_coming_dice(game_name):
    """Two copies of a position whose dice would roll differently (seeded 1 and 2, or a script
    of sixes and a script of ones): the same choice and statistics. A search on plain clones
    (which roll what the real dice will roll) differs: the test can fail. A mid-game position: at the
    start of Strike Force One random rollouts lose whatever the dice, and the test could not fail."""
    state = positions(game_name, seed=4, count=6, every=9)[-1]
    copies = [state.clone() for _ in range(4)]
    copies[0].dice, copies[1].dice = SeededDice(1), SeededDice(2)
    copies[2].dice, copies[3].dice = ScriptedDice([6] * 100_000), ScriptedDice([1] * 100_000)
    results = [search(MCTSAgent, c, seed=9, simulations=40) for c in copies]
    for action, stats in results[1:]:
        assert action == results[0][0] and stats.same_search(results[0][1])
    _, peek_1 = search(PeekingMCTS, copies[0], seed=9, simulations=40)
    _, peek_2 = search(PeekingMCTS, copies[1], seed=9, simulations=40)
    assert not peek_1.same_search(peek_2)


# ------------------------------------------------------------------------- strength
ENDGAME = {  # turn 4, Soviet move: sov.A holds town 0506, town 0208 is empty and in reach of sov.B
    "turn": 4,
    "phase": "soviet_move",
    "units": {"soviet": {"A": "0506", "B": "0407"}, "us": {"A": "0303"}},
}


def _soviet_wins(kind: str, games: int, **kwargs) -> int:
    game = fof_env.make_game("strike_force_one")
    wins = 0
    for seed in range(games):
        state = game.state_from_position({**ENDGAME, "seed": seed})
        soviet = make_agent(kind, game, "soviet", seed=seed, **kwargs)
        us = make_agent("random", game, "us", seed=100 + seed)
        while not state.is_terminal:
            state.apply((soviet if state.current_player == 0 else us).act(state))
        wins += state.winner == 0
    return wins


def test_finds_the_winning_plan_that_random_play_misses():
    """Strike Force One 6.0: the Soviets win holding two of three towns at the end of turn 4.
    In the last Soviet move sov.A must stay in town 0506 and sov.B must go to the empty town
    0208 (one hex among about 35, after choosing the right unit). MCTS with 300 simulations
    wins (nearly) every game against a random U.S. player; random Soviet play does not.
    (Random rollouts need that many: with 60 simulations it wins about a quarter.)"""
    assert _soviet_wins("random", 8) <= 1
    assert _soviet_wins("mcts", 8, simulations=300) >= 7


def test_gumbel_root_selection_finds_it_when_it_considers_every_action():
    """The same endgame with ``root=gumbel``: sequential halving over every legal action
    (``considered=64``, more than the ~35 hexes) wins as the plain search does; over the default
    16, drawn by Gumbel noise from a uniform prior, the one right hex is often not among them."""
    assert _soviet_wins("mcts", 8, simulations=300, root="gumbel", considered=64) >= 7
    assert _soviet_wins("mcts", 8, simulations=300, root="gumbel") <= 4


# --------------------------------------------------- guided search (issue 14, item 4)
# The options of a search guided by the game's heuristic bot and a position evaluation: heuristic
# rollouts (with epsilon random actions), a cut-off with an evaluation, a heuristic prior (PUCT).
# Small settings (cut-offs, few simulations) keep the tests fast; the heuristic bots and the
# evaluation only ever see determinized worlds, so the no-peeking tests must hold for each.
GUIDED = {
    "heuristic_rollout": {"rollout": "heuristic", "epsilon": 0.2, "rollout_limit": 12, "evaluation": "score"},
    "prior_and_heuristic_rollout": {
        "prior": "heuristic",
        "rollout": "heuristic",
        "rollout_limit": 20,
        "evaluation": "score",
    },
    "prior_and_random_rollout": {"prior": "heuristic", "rollout_limit": 20, "evaluation": "score"},
    # the shipped PPO model as prior for each side that has one, the heuristic's for a side without one
    "ppo_prior": {"prior": "ppo", "rollout_limit": 20, "evaluation": "score"},
    # ... and the shipped critics as the value of short rollouts
    "ppo_prior_and_value": {"prior": "ppo", "rollout_limit": 4, "evaluation": "ppo"},
    # ... batched: 4 leaves valued by the critics alone (no rollout) and 4 new nodes' priors per network call
    "ppo_batched": {"prior": "ppo", "rollout_limit": 0, "evaluation": "ppo", "batch": 4},
    # the opponent played by its heuristic bot, in the tree and in the rollouts: only the searcher branches
    "opponent_model": {"opponent": "heuristic", "prior": "heuristic", "rollout_limit": 12, "evaluation": "score"},
    # ... with the policy as prior and the searcher's value net at every leaf (agents/models/values)
    "value_net": {"opponent": "heuristic", "prior": "ppo", "rollout_limit": 0, "evaluation": "value", "batch": 4},
    # ... with Gumbel sequential halving at the root (agents/gumbel_root.py)
    "gumbel": {"root": "gumbel", "opponent": "heuristic", "prior": "ppo", "rollout_limit": 3, "evaluation": "value",
               "batch": 4, "considered": 4},
    "gumbel_heuristic_prior": {"root": "gumbel", "prior": "heuristic", "rollout": "heuristic", "rollout_limit": 20,
                               "evaluation": "score"},
}


def test_guided_options_from_a_command_line_spec():
    """Strings from the command line are read; the repr is the spec; the default is untouched."""
    game = fof_env.make_game("lost_and_found")
    agent = make_agent(
        "mcts",
        game,
        "usmc",
        seed=1,
        time_budget="0.5",
        rollout="Heuristic",
        epsilon="0.1",
        rollout_limit="20",
        evaluation="score",
        prior="heuristic",
        prior_mix="0.5",
    )
    assert (agent.rollout, agent.epsilon, agent.evaluation, agent.prior, agent.prior_mix) == (
        "heuristic",
        0.1,
        "score",
        "heuristic",
        0.5,
    )
    assert repr(agent) == (
        "mcts:time_budget=0.5,rollout_limit=20,rollout=heuristic,epsilon=0.1,evaluation=score,"
        "prior=heuristic,prior_mix=0.5"
    )
    plain = MCTSAgent(game, 0)
    assert repr(plain) == "mcts:200" and plain._plain
    assert (plain.rollout, plain.epsilon, plain.evaluation, plain.prior) == ("random", 0.0, "none", "none")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"rollout": "greedy"}, "rollout must be one of random|heuristic"),
        ({"evaluation": "vp"}, "evaluation must be one of none|score|ppo|value"),
        ({"opponent": "minimax"}, "opponent must be one of tree|heuristic"),
        ({"prior": "alphazero"}, "prior must be one of none|heuristic|ppo"),
        ({"epsilon": "1.5"}, "epsilon must be in [0, 1]"),
        ({"epsilon": "often"}, "epsilon must be a number"),
        ({"prior_mix": "-0.1"}, "prior_mix must be in [0, 1]"),
        ({"batch": "0"}, "batch must be >= 1"),
        ({"batch": "many"}, "batch must be a number"),
        ({"root": "puct"}, "root must be one of tree|gumbel"),
        ({"root": "gumbel", "time_budget": "0.5"}, "root=gumbel plans its halving for a number of simulations"),
        ({"considered": "0"}, "considered must be >= 1"),
        ({"value_scale": "0"}, "value_scale must be > 0"),
        ({"value_scale": "nan"}, "value_scale must be a finite number"),
        ({"q_scale": "zscore"}, "q_scale must be one of bounds|minmax"),
        ({"gumbel_scale": "-1"}, "gumbel_scale must be >= 0"),
        ({"rollot": "heuristic"}, "options: simulations (int)"),
    ],
)
def test_bad_guided_option_values_give_one_line(options, words):
    game = fof_env.make_game("strike_force_one")
    with pytest.raises(OptionError) as err:
        make_agent("mcts", game, 0, **options)
    message = str(err.value)
    assert words in message and "\n" not in message
    if "rollot" in options:
        assert "rollout (random|heuristic)" in message and "prior (none|heuristic|ppo)" in message
        assert "opponent (tree|heuristic)" in message


def test_a_ppo_prior_needs_a_shipped_model():
    """``prior=ppo`` on a game with no shipped model for either side is refused in one line naming what ships."""
    game = fof_env.make_game("fubar")  # the generic FUBAR engine: no model ships under its name
    with pytest.raises(
        OptionError, match=r"prior=ppo / evaluation=ppo need a shipped model for a side of 'fubar'"
    ) as err:
        make_agent("mcts", game, 0, prior="ppo")
    assert "\n" not in str(err.value) and "strike_force_one-soviet" in str(err.value)


class _Critic:
    """A model whose critic reads ``v`` everywhere."""

    def __init__(self, v):
        self.v = v

    def state_value(self, world):
        return self.v


@pytest.mark.parametrize(
    ("critics", "value"),
    [((0.5, None), 0.5), ((None, 0.5), -0.5), ((0.5, 0.1), 0.2), ((1.5, None), 1.0), ((None, 1.5), -1.0)],
)
def test_the_ppo_evaluation_reads_each_critic_for_player_0(critics, value):
    """``evaluation=ppo``: a player-1 critic's value is negated, two critics are averaged, the result is
    clipped to [-1, 1]."""
    agent = MCTSAgent(fof_env.make_game("strike_force_one"), 0)
    agent._nets = [_Critic(v) if v is not None else None for v in critics]
    assert agent._critic_value(None) == pytest.approx(value)


@pytest.mark.parametrize(("critic", "value"), [("both", 0.2), ("soviet", 0.5), ("US", -0.1)])
def test_critic_names_the_side_whose_critic_alone_values_a_leaf(critic, value):
    """``critic=SIDE``: only that side's critic is read (player 1's still negated); ``both`` averages."""
    agent = MCTSAgent(fof_env.make_game("strike_force_one"), 1, evaluation="ppo", critic=critic)
    assert ("critic=" in repr(agent)) == (critic != "both")
    agent._nets = [_Critic(0.5), _Critic(0.1)]
    assert agent._critic_value(None) == pytest.approx(value)


def test_critic_errors_name_the_choices(soviet_model_only):
    sfo = fof_env.make_game("strike_force_one")
    with pytest.raises(OptionError, match=r"^mcts: critic must be one of both\|soviet\|us, got 'usmc'$"):
        MCTSAgent(sfo, 0, evaluation="ppo", critic="usmc")
    with pytest.raises(OptionError, match=r"^mcts: critic=us needs evaluation=ppo$"):
        MCTSAgent(sfo, 0, evaluation="score", critic="us")
    with pytest.raises(OptionError, match=r"^mcts: critic=us: no model ships for us$"):
        MCTSAgent(sfo, 1, evaluation="ppo", critic="us")  # only the Soviet model (the fixture)


def test_the_ppo_prior_is_asked_once_per_node_and_renormalised_over_the_legal_actions():
    """The policy's probabilities are kept at the node: a second world asking there costs no call, and
    its prior is the kept probabilities over its own legal actions, summing to 1."""
    from agents.mcts import _Node

    class CountingNet:
        calls = 0

        def action_probabilities(self, world):
            CountingNet.calls += 1
            return [0.1, 0.2, 0.3, 0.4]

    node, net = _Node(), CountingNet()
    first = MCTSAgent._node_prior(node, (0, "move"), net, None, [0, 1, 2, 3])
    second = MCTSAgent._node_prior(node, (0, "move"), net, None, [1, 3])
    assert CountingNet.calls == 1
    assert first == pytest.approx({0: 0.1, 1: 0.2, 2: 0.3, 3: 0.4})
    assert second == pytest.approx({1: 0.2 / 0.6, 3: 0.4 / 0.6})
    assert MCTSAgent._node_prior(node, (1, "move"), net, None, [0]) == {0: 1.0} and CountingNet.calls == 2


def test_a_batch_evaluation_takes_back_the_virtual_loss_and_backs_up_the_critics_value():
    """A descent through two nodes (player 0 chose the first, player 1 the second) carries a virtual
    loss of -1 each until its batch is evaluated; a player-0 critic of 0.5 then leaves +0.5 on the
    first and -0.5 on the second, each visited once."""
    import numpy as np

    from agents.mcts import _Node

    class Critic:
        batches: list[int] = []

        def values_of(self, observations):
            Critic.batches.append(len(observations))
            return np.full(len(observations), 0.5)

    agent = MCTSAgent(fof_env.make_game("strike_force_one"), 0, batch=2)
    agent._nets = [Critic(), None]
    first, second = _Node(), _Node()
    for node in (first, second):
        node.visits, node.value = 1, -1.0  # the virtual loss the search puts on the path
    pending = [([(first, 0), (second, 1)], [np.zeros(3), None]), ([(first, 0)], (1.0, -1.0))]
    first.visits, first.value = 2, -2.0  # the second descent, ended in a player-0 win, passed it too
    agent._evaluate_batch(pending, [])
    assert Critic.batches == [1] and pending == []
    assert (first.visits, first.value) == (2, 1.5) and (second.visits, second.value) == (1, -0.5)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_batched_search_calls_each_network_once_per_batch(game_name):
    """``batch=8``, 32 iterations, critics alone at the leaves: a shipped critic is called 4 times, on 8
    leaves each, and never one leaf at a time."""
    state = positions(game_name, seed=3, count=2, every=9)[-1]
    agent = MCTSAgent(state.game, state.current_player, seed=1, simulations=32, prior="ppo",
                      evaluation="ppo", rollout_limit=0, batch=8)
    net = next(n for n in agent._nets if n is not None)
    sizes, singles = [], []
    values_of, state_value = net.values_of, net.state_value
    net.values_of = lambda obs: sizes.append(len(obs)) or values_of(obs)
    net.state_value = lambda world: singles.append(1) or state_value(world)
    act_without_touching(agent, state)
    assert sizes == [8, 8, 8, 8] and singles == []


@pytest.mark.parametrize("config", sorted(GUIDED))
@pytest.mark.parametrize("game_name", GAMES)
def test_guided_search_is_legal_and_leaves_the_state_untouched(game_name, config):
    for i, state in enumerate(positions(game_name, seed=3, count=4, every=9)):
        agent = MCTSAgent(state.game, state.current_player, seed=i, simulations=8, **GUIDED[config])
        act_without_touching(agent, state)
        stats = agent.last_search
        assert stats.iterations == 8 and sum(stats.visits.values()) == 8
        assert set(stats.visits) <= set(state.legal_actions())


@pytest.mark.parametrize("game_name", GAMES)
def test_full_heuristic_rollouts_play_to_the_end(game_name):
    """``rollout=heuristic`` without a cut-off: every rollout ends the game, so every root
    action's total reward is a sum of +1/-1/0 (no evaluation)."""
    state = positions(game_name, seed=6, count=1, every=5)[0]
    agent = MCTSAgent(state.game, state.current_player, seed=2, simulations=4, rollout="heuristic")
    act_without_touching(agent, state)
    assert all(float(r).is_integer() for r in agent.last_search.rewards.values())


@pytest.mark.parametrize("config", sorted(GUIDED))
@pytest.mark.parametrize("game_name", GAMES)
def test_guided_same_seed_same_state_same_search(game_name, config):
    for state in positions(game_name, seed=5, count=2, every=11):
        a1, s1 = search(MCTSAgent, state, seed=7, simulations=10, **GUIDED[config])
        a2, s2 = search(MCTSAgent, state.clone(), seed=7, simulations=10, **GUIDED[config])
        assert a1 == a2 and s1.same_search(s2)


@pytest.mark.parametrize("config", sorted(GUIDED))
@pytest.mark.parametrize("which", sorted(PAIRS))
def test_guided_usmc_search_never_reads_where_a_hidden_unit_is(which, config):
    """R27 for the guided search: the heuristic bots and the evaluation inside it act on
    determinized worlds only, so two positions that differ only in Hidden tal.2 give the same
    search; on plain clones (tal.2 where it really is) the searches differ."""
    a, b = twins(which)
    options = GUIDED[config]
    action_a, stats_a = search(MCTSAgent, a, seed=11, simulations=30, **options)
    action_b, stats_b = search(MCTSAgent, b, seed=11, simulations=30, **options)
    assert action_a == action_b and stats_a.same_search(stats_b)
    _, peek_a = search(HiddenPeekingMCTS, a, seed=11, simulations=30, **options)
    _, peek_b = search(HiddenPeekingMCTS, b, seed=11, simulations=30, **options)
    assert not peek_a.same_search(peek_b)


DICE_POSITION_SEEDS = {"strike_force_one": 37, "lost_and_found": 5}


@pytest.mark.parametrize("config", sorted(GUIDED))
@pytest.mark.parametrize("game_name", GAMES)
def test_guided_search_never_reads_the_coming_dice(game_name, config):
    """As above, for the guided search; a position in mid-game (the dice matter within the
    short rollouts: in Lost & Found's set-up they would not, and the test could not fail); the seeds give
    positions where every configuration's peeking searches differ with the dice."""
    state = positions(game_name, seed=DICE_POSITION_SEEDS[game_name], count=6, every=9)[-1]
    copies = [state.clone() for _ in range(4)]
    copies[0].dice, copies[1].dice = SeededDice(1), SeededDice(2)
    copies[2].dice, copies[3].dice = ScriptedDice([6] * 100_000), ScriptedDice([1] * 100_000)
    options = GUIDED[config]
    results = [search(MCTSAgent, c, seed=9, simulations=30, **options) for c in copies]
    for action, stats in results[1:]:
        assert action == results[0][0] and stats.same_search(results[0][1])
    _, peek_1 = search(PeekingMCTS, copies[0], seed=9, simulations=30, **options)
    _, peek_2 = search(PeekingMCTS, copies[1], seed=9, simulations=30, **options)
    assert not peek_1.same_search(peek_2)


@pytest.mark.parametrize("game_name", [*GAMES, "fubar", "compound_raid"])
def test_position_value_is_in_range_and_terminal_states_are_worth_their_returns(game_name):
    game = fof_env.make_game(game_name)
    assert has_position_value(game)
    rng = random.Random(1)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal:
        assert -1.0 <= position_value(state) <= 1.0
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert position_value(state) == state.returns()[0]


# ---------------------------------------------------------------------------- opponent model
def _movers_in_tree(node, out: set) -> set:
    for (mover, _kind), edges in node.kids.items():
        out.add(mover)
        for child in edges.values():
            _movers_in_tree(child, out)
    return out


@pytest.mark.parametrize("game_name", GAMES)
def test_with_the_opponent_modelled_only_the_searcher_branches(game_name):
    """``opponent=heuristic``: the opponent's decisions are played by its bot, never searched, so every
    node of the tree is the searching player's; in the default tree both players branch."""
    from agents.mcts import _Node

    plain: set = set()
    for state in positions(game_name, seed=3, count=3, every=11):
        me = state.current_player
        for opponent in ("tree", "heuristic"):
            agent = MCTSAgent(state.game, me, seed=1, simulations=40, opponent=opponent)
            root = _Node()
            agent._search(state, root, 0.0)
            movers = _movers_in_tree(root, set())
            if opponent == "heuristic":
                assert movers == {me}
            else:
                plain |= movers
    assert plain == {0, 1}  # the plain trees reach the opponent's decisions


def test_the_opponent_model_is_the_heuristic_bot_the_opponent_would_be():
    """In a modelled world the opponent plays exactly what its heuristic bot chooses there: a search whose
    bots are replaced by ones that always pass shows the opponent passing in every world."""
    game = fof_env.make_game("strike_force_one")
    state = positions("strike_force_one", seed=5, count=1)[0]
    me = state.current_player
    seen = []

    class Recorder:
        def __init__(self, player):
            self.player = player

        def act(self, world):
            seen.append((self.player, world.current_player))
            return world.legal_actions()[-1]

    agent = MCTSAgent(game, me, seed=2, simulations=10, opponent="heuristic")
    agent._policies = lambda: [Recorder(0), Recorder(1)]
    agent.act(state)
    assert seen and all(p == w == 1 - me for p, w in seen)  # only the opponent's bot is asked, on its own turns


# ---------------------------------------------------------------------------- value nets
def test_the_value_evaluation_needs_a_shipped_value_net(tmp_path, monkeypatch):
    import agents.value_net as value_net

    monkeypatch.setattr(value_net, "VALUES_DIR", tmp_path)
    game = fof_env.make_game("strike_force_one")
    with pytest.raises(OptionError) as err:
        MCTSAgent(game, 1, evaluation="value")
    assert "needs a value net shipped for us of" in str(err.value) and "\n" not in str(err.value)


def test_the_value_evaluation_reads_the_searchers_own_net_for_player_0(monkeypatch):
    """A leaf is worth ``v`` for the searching player (its net on its own observation): ``(v, -v)`` for
    player 0, ``(-v, v)`` searched by player 1; the net is asked for the searcher's observation only."""
    from agents.value_net import ValueNet

    game = fof_env.make_game("strike_force_one")
    state = positions("strike_force_one", seed=1, count=1)[0]
    me = state.current_player
    asked = []

    class Constant(ValueNet):
        def __init__(self):
            pass

        def state_value(self, world, player):
            asked.append(player)
            return 0.5

    monkeypatch.setattr(MCTSAgent, "_shipped_value_net", staticmethod(lambda game, player: Constant()))
    agent = MCTSAgent(game, me, seed=0, simulations=12, rollout_limit=0, evaluation="value")
    agent.act(state)
    assert asked and set(asked) == {me}
    stats = agent.last_search
    # every iteration's leaf was worth +0.5 to the searcher (no game ends in 0 decisions from here)
    assert sum(stats.rewards.values()) == pytest.approx(0.5 * sum(stats.visits.values()))
    assert repr(agent) == "mcts:simulations=12,rollout_limit=0,evaluation=value"


@pytest.mark.parametrize("game_name", GAMES)
def test_gumbel_root_visits_by_sequential_halving_and_plays_among_the_most_visited(game_name):
    """``root=gumbel``, 8 simulations, 4 actions considered: the halving table 0, 0, 0, 0, 1, 1, 2, 2
    gives four root actions visits 3, 3, 1, 1; the action played is one of the two visited 3 times;
    the improved policy is a distribution over the legal actions."""
    checked = 0
    for i, state in enumerate(positions(game_name, seed=4, count=12, every=5)):
        legal = state.legal_actions()
        if len(legal) < 4:
            continue
        agent = MCTSAgent(state.game, state.current_player, seed=i, simulations=8, root="gumbel", considered=4,
                          rollout_limit=10, evaluation="score")
        action = act_without_touching(agent, state)
        stats = agent.last_search
        assert sorted(stats.visits.values()) == [1, 1, 3, 3]
        assert stats.visits[action] == 3
        assert set(stats.policy) == set(legal) and sum(stats.policy.values()) == pytest.approx(1.0)
        checked += 1
    assert checked >= 3


def test_the_gumbel_root_is_only_the_root():
    """Below the root a Gumbel search selects as the tree search does: with one action
    considered, every simulation goes through that action and the tree below it grows as usual."""
    state = next(s for s in positions("strike_force_one", seed=2, count=10, every=3) if len(s.legal_actions()) > 2)
    agent = MCTSAgent(state.game, state.current_player, seed=1, simulations=20, root="gumbel", considered=1)
    action = act_without_touching(agent, state)
    assert agent.last_search.visits == {action: 20}
    assert agent.last_search.nodes > 2
