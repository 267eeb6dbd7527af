"""Gumbel root selection (agents/gumbel_root.py): the halving table, the completed Q values, the
scores and the improved policy, on numbers worked out by hand from Danihelka et al. (ICLR 2022)
as DeepMind's mctx computes them (``maxvisit_init=50``, ``value_scale=0.1``, min-max rescaling)."""

from __future__ import annotations

import math

import pytest

from agents.gumbel_root import GumbelRoot, considered_visits, mixed_value


class _Uniforms:
    """An RNG whose ``random()`` returns the given numbers in turn."""

    def __init__(self, values):
        self._values = iter(values)

    def random(self) -> float:
        return next(self._values)


@pytest.mark.parametrize(
    ("considered", "simulations", "table"),
    [
        # 2 phases: 4 actions get 8 // (2 * 4) = 1 visit each, then 2 actions 8 // (2 * 2) = 2 each
        (4, 8, (0, 0, 0, 0, 1, 1, 2, 2)),
        # 1 phase of 5 // 2 = 2 visits each for both, then on with 2 at a time
        (2, 5, (0, 0, 1, 1, 2)),
        # 2 phases: 3 actions 9 // 6 = 1 visit, then 2 actions 9 // 4 = 2 visits, and again
        (3, 9, (0, 0, 0, 1, 1, 2, 2, 3, 3)),
        # one action considered: it takes every visit
        (1, 3, (0, 1, 2)),
        # fewer simulations than actions: each visited once, the table cut short
        (16, 5, (0, 0, 0, 0, 0)),
    ],
)
def test_the_halving_table(considered, simulations, table):
    assert considered_visits(considered, simulations) == table


def test_sixteen_actions_sixty_four_simulations_halve_four_times():
    table = considered_visits(16, 64)
    assert len(table) == 64
    # phase 1: 16 actions x 1 visit; phase 2: 8 x 2; phase 3: 4 x 4; phase 4: 2 x 8
    assert table[:16] == (0,) * 16
    assert table[16:32] == (1,) * 8 + (2,) * 8
    assert table[32:48] == (3,) * 4 + (4,) * 4 + (5,) * 4 + (6,) * 4
    assert table[48:] == (7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14)


def test_an_unvisited_actions_q_mixes_the_raw_value_with_the_visited_q():
    """Raw value 0.5; action 1 visited 3 times (Q 1), action 2 once (Q 0), action 3 never;
    priors 0.5, 0.25, 0.25: the prior-weighted Q of the visited is (0.5 * 1 + 0.25 * 0) / 0.75 = 2/3,
    mixed with the raw value over N = 4 visits: (0.5 + 4 * 2/3) / 5 = 0.6333..."""
    q = {1: 1.0, 2: 0.0}
    visits = {1: 3, 2: 1, 3: 0}
    prior = {1: 0.5, 2: 0.25, 3: 0.25}
    assert mixed_value(0.5, q, visits, prior) == pytest.approx(0.633333, abs=1e-6)
    assert mixed_value(None, q, visits, prior) == pytest.approx(2 / 3)
    assert mixed_value(0.5, {}, {1: 0, 2: 0}, prior) == 0.5  # nothing visited: the raw value


def _root(uniforms=(0.5, 0.5, 0.5), considered: int = 16, simulations: int = 8, minmax: bool = False) -> GumbelRoot:
    return GumbelRoot([1, 2, 3], {1: 0.5, 2: 0.25, 3: 0.25}, _Uniforms(uniforms), simulations, considered,
                      minmax=minmax)


def test_sigma_maps_the_completed_q_from_the_reward_bounds_and_weighs_it_by_the_visits():
    """Q: 1 (action 1), 0 (action 2), 2/3 (action 3, unvisited, no raw value); from [-1, 1] to
    [0, 1]: 1, 1/2, 5/6; the scale is (50 + 3 visits) * 0.1 = 5.3: 5.3, 2.65, 4.41667."""
    sigma = _root().sigma({1: 3, 2: 1}, {1: 3.0, 2: 0.0})
    assert sigma == pytest.approx({1: 5.3, 2: 2.65, 3: 4.416667})


def test_sigma_with_min_max_rescaling_stretches_any_spread_to_the_whole_range():
    """mctx's rescaling: the same Q 1, 0, 2/3 become 1, 0, 2/3 of 5.3; and Q 0.51 against 0.50
    is as far apart as a win from a loss."""
    assert _root(minmax=True).sigma({1: 3, 2: 1}, {1: 3.0, 2: 0.0}) == pytest.approx({1: 5.3, 2: 0.0, 3: 5.3 * 2 / 3})
    close = _root(minmax=True).sigma({1: 1, 2: 1, 3: 1}, {1: 0.51, 2: 0.50, 3: 0.505})
    assert close == pytest.approx({1: 5.1, 2: 0.0, 3: 2.55})
    assert _root().sigma({1: 1, 2: 1, 3: 1}, {1: 0.51, 2: 0.50, 3: 0.505}) == pytest.approx(
        {1: 5.1 * 0.755, 2: 5.1 * 0.75, 3: 5.1 * 0.7525})


def test_the_improved_policy_is_the_softmax_of_logits_plus_sigma():
    """softmax(log 0.5 + 5.3, log 0.25 + 2.65, log 0.25 + 4.41667) = 0.805136, 0.028442, 0.166423."""
    policy = _root().improved_policy({1: 3, 2: 1}, {1: 3.0, 2: 0.0})
    assert policy == pytest.approx({1: 0.805136, 2: 0.028442, 3: 0.166423}, abs=1e-6)


def test_the_first_simulations_visit_the_gumbel_top_k_then_the_values_decide():
    """Uniforms 0.9, 0.1, 0.5, 0.7 give Gumbel variables 2.250, -0.834, 0.367, 1.031 (-log(-log u));
    with a uniform prior two of four actions are considered, four simulations: table 0, 0, 1, 1.
    Simulation 0 visits action 1 (the largest variable), simulation 1 action 4 (the largest
    unvisited). Then the values decide over the noise: with Q(1) = -1 and Q(4) = +1 the gap in
    sigma, (50 + 1) * 0.1 = 5.1, outweighs the Gumbel gap 1.22, so simulation 2 visits action 4."""
    root = GumbelRoot([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0.25), _Uniforms([0.9, 0.1, 0.5, 0.7]), 4, 2)
    assert [round(root.gumbel[a], 3) for a in (1, 2, 3, 4)] == [2.250, -0.834, 0.367, 1.031]
    assert root.table == (0, 0, 1, 1)
    assert root.select(0, {}, {}, {}) == 1
    assert root.select(1, {1: 1}, {1: 1}, {1: 0.0}) == 4
    assert root.select(2, {1: 1, 4: 1}, {1: 1, 4: 1}, {1: -1.0, 4: 1.0}) == 4
    assert root.select(3, {1: 1, 4: 2}, {1: 1, 4: 2}, {1: -1.0, 4: 2.0}) == 1  # the other one visited once
    # with the values the other way round the noise and the values agree: action 1
    assert root.select(2, {1: 1, 4: 1}, {1: 1, 4: 1}, {1: 1.0, 4: -1.0}) == 1


def test_a_pending_visit_counts_for_the_schedule_not_for_q():
    """A batched search's descent under way counts as a visit begun (``counts``) but its virtual
    loss is not a value: Q comes from the backed-up ``visits`` and ``rewards`` alone."""
    root = GumbelRoot([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0.25), _Uniforms([0.9, 0.1, 0.5, 0.7]), 4, 2)
    assert root.select(1, {1: 1}, {}, {}) == 4  # action 1's descent still pending: the next one is action 4


def test_the_action_played_is_the_best_score_among_the_most_visited():
    root = GumbelRoot([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0.25), _Uniforms([0.9, 0.1, 0.5, 0.7]), 4, 2)
    # 1 and 4 visited twice each: 4's better value (sigma gap (50 + 2) * 0.1 = 5.2) beats 1's noise
    assert root.choose({1: 2, 4: 2, 3: 1}, {1: -2.0, 4: 2.0, 3: 1.0}) == 4
    # 3 has the best Q but fewer visits: not played
    assert root.choose({1: 2, 4: 2, 3: 1}, {1: 2.0, 4: -2.0, 3: 1.0}) == 1


def test_a_zero_prior_is_a_floor_not_an_error():
    root = GumbelRoot([1, 2], {1: 1.0, 2: 0.0}, _Uniforms([0.5, 0.5]), 2, 2)
    assert root.logits[2] == pytest.approx(math.log(1e-30))
    assert root.improved_policy({1: 1, 2: 1}, {1: 0.0, 2: 1.0})[1] == pytest.approx(1.0)


def test_gumbel_scale_zero_considers_the_prior_top_and_plays_the_best():
    """``gumbel_scale=0``: no noise. Prior 0.5, 0.1, 0.3, 0.1 over four actions, two considered:
    the first two simulations visit actions 1 and 3 (the two largest priors), whatever the
    uniforms; with equal values the move played is action 1 (logit log 0.5 over log 0.3), and with
    Q(3) = +1 against Q(1) = -1 it is action 3 (sigma gap (50 + 2) * 0.1 = 5.2 over the logit gap
    log(0.5 / 0.3) = 0.51)."""
    prior = {1: 0.5, 2: 0.1, 3: 0.3, 4: 0.1}
    root = GumbelRoot([1, 2, 3, 4], prior, _Uniforms([0.01, 0.99, 0.02, 0.98]), 4, 2, gumbel_scale=0.0)
    assert root.gumbel == {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}
    assert root.select(0, {}, {}, {}) == 1
    assert root.select(1, {1: 1}, {1: 1}, {1: 0.0}) == 3
    assert root.choose({1: 2, 3: 2}, {1: 0.0, 3: 0.0}) == 1
    assert root.choose({1: 2, 3: 2}, {1: -2.0, 3: 2.0}) == 3


def test_past_the_end_of_the_table_simulations_go_on_with_the_most_visited():
    """A search that runs past its plan (a ``bot`` request's time budget, a batch's pending
    descents): simulation 4 of a 4-simulation plan, table 0, 0, 1, 1, visits the best by score
    among the most visited, here action 4 (1 and 4 twice each, Q(4) = +1 against Q(1) = -1)."""
    root = GumbelRoot([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0.25), _Uniforms([0.9, 0.1, 0.5, 0.7]), 4, 2)
    assert len(root.table) == 4
    assert root.select(4, {1: 2, 4: 2}, {1: 2, 4: 2}, {1: -2.0, 4: 2.0}) == 4
    assert root.select(9, {1: 2, 4: 3}, {1: 2, 4: 3}, {1: 2.0, 4: -3.0}) == 4  # the most visited, whatever Q


def test_an_unvisited_action_is_never_played():
    """Every considered action visited once and the other two never: the move is one of the
    visited two, though action 3's completed Q (the mixed value (1 + 2 x -1) / 3 = -1/3, over the
    visited actions' -1) and its noise (-log(-log 0.99) = 4.60 against 0.37) would score it higher."""
    root = GumbelRoot([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0.25), _Uniforms([0.5, 0.5, 0.99, 0.5]), 2, 2)
    root.raw_value = 1.0
    assert root.choose({1: 1, 2: 1}, {1: -1.0, 2: -1.0}) in (1, 2)
    assert root.choose({}, {}) == 3  # nothing visited: every action is "most visited", the noise decides


def test_the_improved_policy_stays_finite_with_large_values():
    """``value_scale=100``: sigma up to (50 + 1) * 100 = 5,100, far past exp's range; the softmax
    is taken from its maximum, so the policy is 1 on the best action and 0 elsewhere, not an error."""
    root = GumbelRoot([1, 2], {1: 0.5, 2: 0.5}, _Uniforms([0.5, 0.5]), 2, 2, value_scale=100.0)
    assert root.improved_policy({1: 1, 2: 1}, {1: 1.0, 2: -1.0}) == {1: 1.0, 2: 0.0}
