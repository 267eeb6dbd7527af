"""The match runner (play_game / play_series) and the Wilson interval."""

from __future__ import annotations

import json
import time

import pytest

import fof_env
from agents import make_agent
from agents.base import RandomAgent
from evaluation.match import (
    GameResult,
    Thinking,
    build_agent,
    parse_agent_spec,
    play_game,
    play_series,
    split_side,
)
from evaluation.stats import format_rate, wilson_interval
from fof_env.core.errors import IllegalActionError
from fof_env.core.game import State


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(45, 50)
    assert lo == pytest.approx(0.7864, abs=1e-4) and hi == pytest.approx(0.9565, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(5, 10)
    assert lo < 0.5 < hi and hi - 0.5 == pytest.approx(0.5 - lo)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    assert format_rate(45, 50).startswith(" 90.0%")


def test_play_game_result_and_record_replays():
    game = fof_env.make_game("strike_force_one", optional_rules=True)
    agents = (make_agent("heuristic", game, 0, seed=1), make_agent("random", game, 1, seed=2))
    result = play_game(game, agents, seed=3)
    assert isinstance(result, GameResult)
    assert result.winner in (0, 1) and result.returns[result.winner] == 1.0 and sum(result.returns) == 0
    assert result.decisions > 10 and result.seed == 3
    assert set(result.score) == {"soviet_towns", "soviet_units", "us_units"}
    record = json.loads(result.record)
    assert record["game"] == "strike_force_one" and len(record["actions"]) == result.decisions
    replay = State.from_json(result.record)
    assert replay.is_terminal and replay.winner == result.winner


def test_play_game_times_each_players_decisions():
    game = fof_env.make_game("strike_force_one")

    class Slow(RandomAgent):
        def act(self, state):
            time.sleep(0.002)
            return super().act(state)

    counts = [0, 0]
    result = play_game(game, (Slow(game, 0, seed=1), RandomAgent(game, 1, seed=2)), seed=3,
                       on_step=lambda state, player, action: counts.__setitem__(player, counts[player] + 1))
    slow, fast = result.thinking
    assert (slow.decisions, fast.decisions) == tuple(counts) and min(counts) > 0
    assert slow.decisions + fast.decisions == result.decisions
    assert slow.seconds >= 0.002 * slow.decisions and slow.longest >= 0.002
    assert slow.longest <= slow.seconds and fast.seconds < slow.seconds
    assert slow.untimed() == Thinking(decisions=slow.decisions)


def test_play_game_rejects_an_illegal_agent():
    game = fof_env.make_game("strike_force_one")

    class Cheater(RandomAgent):
        def act(self, state):
            return 79 if 79 not in state.legal_actions() else 78

    with pytest.raises(IllegalActionError):
        play_game(game, (Cheater(game, 0), Cheater(game, 1)), seed=0)


def test_play_series_tallies_are_consistent_and_reproducible():
    a = play_series("strike_force_one", {}, ("random", "heuristic"), games=12, seed=4, keep_results=True)
    b = play_series("strike_force_one", {}, ("random", "heuristic"), games=12, seed=4)
    assert a.games == 12 and sum(a.wins) + a.draws == 12
    assert a.wins == b.wins and a.decisions == b.decisions
    assert len(a.results) == 12 and a.decisions == sum(r.decisions for r in a.results)
    assert [r.winner for r in a.results].count(1) == a.wins[1]
    assert all(r.record is None for r in a.results)
    rate, lo, hi = a.win_rate(1)
    assert lo <= rate <= hi and rate == a.wins[1] / 12
    assert a.win_rate(0)[0] + rate == pytest.approx(1.0)
    assert "soviet=random" in a.row() and "games=12" in a.row()
    d = a.to_dict()
    assert d["wins"] == {"soviet": a.wins[0], "us": a.wins[1]} and d["agents"]["us"] == "heuristic"


def test_agent_specs():
    game = fof_env.make_game("strike_force_one")
    assert repr(build_agent("random", game, 0, seed=1)) == "random"
    assert repr(build_agent(lambda g, p, seed=None: RandomAgent(g, p, seed), game, 1, 0)) == "random"
    with pytest.raises(ValueError, match="unknown agent kind"):
        build_agent("nonsense", game, 0, seed=1)
    with pytest.raises(ValueError, match="key=value"):
        build_agent("random:oops", game, 0, seed=1)
    with pytest.raises(ValueError, match="one agent spec per side"):
        play_series("strike_force_one", {}, ("random",), games=1)


def test_a_side_suffix_restricts_a_spec_to_that_side():
    game = fof_env.make_game("strike_force_one")
    assert split_side("mcts:simulations=128,batch=8@us") == ("mcts:simulations=128,batch=8", "us")
    assert split_side("ppo:runs/a@b/model.safetensors") == ("ppo:runs/a@b/model.safetensors", None)
    assert parse_agent_spec("mcts:200@soviet") == ("mcts", {"simulations": 200})
    assert repr(build_agent("random@Soviet", game, 0, seed=1)) == "random"
    with pytest.raises(ValueError, match=r"^agent spec 'random@soviet' plays soviet only, not us$"):
        build_agent("random@soviet", game, 1, seed=1)
    unknown = r"'usmc' is not a side of strike_force_one \(its sides: soviet, us\)"
    with pytest.raises(ValueError, match=unknown):
        build_agent("random@usmc", game, 0, seed=1)
