"""The tournament: pairings on both sides, consistent tallies, seeding independent of workers, caching."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import fof_env
from agents.base import RandomAgent
from evaluation.match import build_agent, parse_agent_spec
from evaluation.report import markdown_report
from evaluation.tallies import WDL
from evaluation.tournament import (
    AgentSpecError,
    TournamentError,
    TournamentResult,
    chunk_size,
    game_seeds,
    record_path,
    run_tournament,
    safe_name,
    without_timing,
)
from fof_env.core.errors import OptionError
from fof_env.core.game import State
from tests.evaluation.conftest import GAMES_PER_PAIRING


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_tallies_are_consistent(small_tournaments, game):
    result = small_tournaments[game]
    n = GAMES_PER_PAIRING
    assert result.pairings == [
        ("random", "random"), ("random", "heuristic"), ("heuristic", "random"), ("heuristic", "heuristic")
    ]  # fmt: skip
    assert len(result.outcomes) == 4 * n == result.total_games
    for t in result.tallies:
        assert t.games == n and t.wins[0] + t.wins[1] + t.draws == n
        s0, s1 = t.side(0), t.side(1)
        assert s0.games == s1.games == n and (s0.wins, s0.draws, s0.losses) == (s1.losses, s1.draws, s1.wins)
        lo, hi = s0.win_interval
        assert 0.0 <= lo <= s0.win_rate <= hi <= 1.0
        games = [o for o in result.outcomes if o.agents == t.agents]
        assert [o.index for o in games] == list(range(n))
        assert t.decisions == sum(o.decisions for o in games)
    for a in result.agent_tallies:
        r = a.record
        assert r.wins + r.draws + r.losses == r.games == 2 * n  # two opponents (itself included) per side
        assert set(a.opponents) == {"random", "heuristic"}
        mine = [o.thinking[a.player] for o in result.outcomes if o.agents[a.player] == a.agent]
        assert a.thinking.decisions == sum(t.decisions for t in mine) > 0
        assert a.ms_per_decision == pytest.approx(1000 * sum(t.seconds for t in mine) / a.thinking.decisions)
        assert a.thinking.longest == max(t.longest for t in mine)
    assert all(sum(t.decisions for t in o.thinking) == o.decisions for o in result.outcomes)
    wins_total = sum(a.record.wins for a in result.agent_tallies)
    assert wins_total == sum(o.winner is not None for o in result.outcomes)
    # the heuristic beats random on both sides
    assert result.tally("heuristic", "random").side(0).wins >= n - 1
    assert result.tally("random", "heuristic").side(1).wins >= n - 1
    # per-game data
    o = result.outcomes[0]
    assert o.score is not None and o.decisions > 0 and o.seconds > 0
    if game == "lost_and_found":
        assert all(o.vp is not None for o in result.outcomes)
        t = result.tally("heuristic", "random")
        assert t.vp_means[0] == pytest.approx(
            sum(o.vp[0] for o in result.outcomes if o.agents == t.agents) / n
        )
        assert "taliban_vp" in t.score_means
    else:
        assert all(o.vp is None for o in result.outcomes) and result.tallies[0].vp_means is None
        assert set(result.tallies[0].score_means) == {"soviet_towns", "soviet_units", "us_units"}


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_records_are_saved_and_replay(small_tournaments, game):
    result = small_tournaments[game]
    root = Path(result.records_dir)
    files = sorted(root.glob(f"{game}/*__vs__*/*.json"))
    assert len(files) == len(result.outcomes)
    o = result.outcomes[2 * GAMES_PER_PAIRING]
    assert o.agents == ("heuristic", "random") and o.record == f"{game}/heuristic__vs__random/0000.json"
    state = State.from_json((root / o.record).read_text())
    assert state.is_terminal and state.winner == o.winner and len(state.history) == o.decisions
    assert json.loads((root / o.record).read_text())["start"]["seed"] == o.seed


def test_results_do_not_depend_on_workers(tmp_path):
    args = ("strike_force_one", {"optional_rules": True}, ["heuristic", "random"], 3)
    one = run_tournament(*args, workers=1, seed=9, records_dir=tmp_path / "one", progress=False)
    two = run_tournament(*args, workers=2, seed=9, records_dir=tmp_path / "two", progress=False)
    strip = [o.untimed() for o in one.outcomes]
    assert strip == [o.untimed() for o in two.outcomes]
    assert one.ratings.elo() == two.ratings.elo()
    assert two.workers == 2
    for o in one.outcomes:
        assert (tmp_path / "one" / o.record).read_text() == (tmp_path / "two" / o.record).read_text()


def test_seeds_depend_only_on_seed_pairing_and_index():
    a = run_tournament(
        "lost_and_found", {"rules": "quick"}, ["random", "heuristic"], 2, seed=3, mirror=False, progress=False
    )
    b = run_tournament(
        "lost_and_found", {"rules": "quick"}, ["heuristic", "random"], 2, seed=3, mirror=False, progress=False
    )
    assert a.pairings == [("random", "heuristic"), ("heuristic", "random")]
    assert b.pairings == [("heuristic", "random"), ("random", "heuristic")]
    key = {(o.agents, o.index): o.untimed() for o in a.outcomes}
    assert all(key[(o.agents, o.index)] == o.untimed() for o in b.outcomes)
    assert game_seeds(3, ("random", "heuristic"), 0) == game_seeds(3, ("random", "heuristic"), 0)
    assert len({game_seeds(3, p, i) for p in a.pairings for i in range(3)}) == 6
    assert game_seeds(4, ("random", "heuristic"), 0) != game_seeds(3, ("random", "heuristic"), 0)


class CountingAgent(RandomAgent):
    """A random agent that can be re-seeded; counts how often it is built."""

    built = 0

    def __init__(self, game, player, seed=None, **kwargs):
        super().__init__(game, player, seed)
        type(self).built += 1

    def reseed(self, seed):
        self.rng = random.Random(seed)


def counting(game, player, seed=None):
    return CountingAgent(game, player, seed)


def test_reseedable_agents_are_built_once_per_process_and_play_like_fresh_ones():
    CountingAgent.built = 0
    reused = run_tournament("strike_force_one", {}, [counting], 4, progress=False)
    assert CountingAgent.built == 2 + 2  # the up-front check (both sides), then one per side for all games
    assert reused.agents == ["counting"] and len(reused.outcomes) == 4
    for o in reused.outcomes:  # each game as fresh agents with that game's seeds play it
        game = fof_env.make_game("strike_force_one")
        state = game.new_initial_state(o.seed)
        agents = [RandomAgent(game, p, o.agent_seeds[p]) for p in (0, 1)]
        while not state.is_terminal:
            state.apply(agents[state.current_player].act(state))
        assert state.winner == o.winner and len(state.history) == o.decisions


def test_no_mirror_and_three_agents():
    result = run_tournament(
        "strike_force_one", {}, ["random", "heuristic", "random:"], 1, mirror=False, progress=False
    )
    assert len(result.pairings) == 6 and all(a != b for a, b in result.pairings)
    assert {a.agent for a in result.agent_tallies} == {"random", "heuristic", "random:"}


def test_bad_specs_and_options_fail_before_any_game(tmp_path):
    records = tmp_path / "records"
    cases = [
        (["random", "wizard"], "unknown agent kind 'wizard'"),
        (["random", "random"], "distinct"),
        (["random:5"], "takes no bare argument"),
        (["heuristic:nonsense=1"], "nonsense"),
    ]
    for specs, message in cases:
        with pytest.raises(AgentSpecError, match=message):
            run_tournament("strike_force_one", {}, specs, 2, records_dir=records, progress=False)
    with pytest.raises(OptionError, match="unknown option"):
        run_tournament("strike_force_one", {"colour": "red"}, ["random"], 2, progress=False)
    with pytest.raises(AgentSpecError, match="no pairings"):
        run_tournament("strike_force_one", {}, ["random"], 2, mirror=False, progress=False)
    with pytest.raises(ValueError, match="at least 1"):
        run_tournament("strike_force_one", {}, ["random"], 0, progress=False)
    assert not records.exists()


def cheater(game, player, seed=None):
    class Cheater(RandomAgent):
        def act(self, state):
            return max(state.legal_actions()) + 1 if player == 1 else super().act(state)

    return Cheater(game, player, seed)


def test_a_failing_game_names_its_pairing_and_seed():
    with pytest.raises(TournamentError, match=r"random vs cheater, game 0 \(dice seed \d+"):
        run_tournament("strike_force_one", {}, ["random", cheater], 1, mirror=False, progress=False)


def test_agent_spec_parsing(monkeypatch):
    import agents.base as base

    assert parse_agent_spec("mcts:200") == ("mcts", {"simulations": 200})
    assert parse_agent_spec("ppo:C:/runs/a,b/model.zip") == ("ppo", {"path": "C:/runs/a,b/model.zip"})
    assert parse_agent_spec("ppo") == ("ppo", {})
    assert parse_agent_spec("heuristic:a=1,b=true") == ("heuristic", {"a": 1, "b": True})
    monkeypatch.setitem(base._AGENTS, "level", lambda game, player, seed=None, depth=0: ("lvl", depth))
    monkeypatch.setitem(base._POSITIONAL, "level", "depth")
    game = fof_env.make_game("strike_force_one")
    assert build_agent("level:3", game, 0, seed=1) == ("lvl", 3)
    assert build_agent("level:depth=4", game, 0, seed=1) == ("lvl", 4)
    with pytest.raises(ValueError, match="'random' takes no bare argument"):
        build_agent("random:3", game, 0, seed=1)


def test_names_wdl_and_paths():
    assert safe_name("ppo:runs/x/model.zip") == "ppo_runs_x_model.zip"
    assert safe_name("mcts:simulations=50,c=1.4") == "mcts_simulations=50_c=1.4"
    assert record_path("g", ("a/b", "c"), 7) == "g/a_b__vs__c/0007.json"
    w = WDL(3, 2, 5)
    assert w.games == 10 and w.win_rate == 0.3 and w.score_rate == 0.4 and (w + w).games == 20
    assert WDL().win_rate == 0.0 and WDL().win_interval == (0.0, 1.0)


def soviet_only(game, player, seed=None):
    """An agent kind that can play only side 0 (as ``ppo`` where one side's model ships)."""
    if player != 0:
        raise ValueError("no model for this side")
    return RandomAgent(game, player, seed)


def test_an_agent_that_plays_one_side_only_is_paired_there_only():
    result = run_tournament("strike_force_one", {}, ["random", soviet_only], 2, progress=False)
    assert result.pairings == [("random", "random"), ("soviet_only", "random")]
    assert result.sides == {"random": ["soviet", "us"], "soviet_only": ["soviet"]}
    assert "soviet_only plays soviet only" in markdown_report(result)
    with pytest.raises(ValueError, match="cannot play soviet or us: ") as refused:
        run_tournament("strike_force_one", {}, ["random", "ppo:no/such.zip"], 1, progress=False)
    assert str(refused.value).count("no model file") == 1  # the same reason for both sides, said once


def test_without_timing_drops_exactly_the_timing_fields():
    data = {
        "format": "fof-tournament/2",
        "seed": 1,
        "timing": {"wall_seconds": 2.0, "workers": 2, "backend": "ray"},
        "pairings": [{"agents": {"soviet": "a", "us": "b"}, "games": 2, "seconds": 0.5}],
        "games": [
            {"index": 0, "winner": 1, "seconds": 0.25, "record": "g/a__vs__b/0000.json",
             "thinking": [{"decisions": 3, "seconds": 0.125, "longest": 0.0625}, {"decisions": 2,
                          "seconds": 0.03125, "longest": 0.015625}]},
            {"index": 1, "winner": 0, "seconds": 0.5, "record": None, "thinking": None},  # an older log's game
        ],
        "agent_sides": [{"agent": "a", "side": "soviet", "wins": 1, "decisions": 3, "ms_per_decision": 41.7,
                         "longest_decision_ms": 62.5}],
        "records_dir": "records",
    }
    assert without_timing(data) == {
        "format": "fof-tournament/2",
        "seed": 1,
        "pairings": [{"agents": {"soviet": "a", "us": "b"}, "games": 2}],
        "games": [
            {"index": 0, "winner": 1, "record": "g/a__vs__b/0000.json",
             "thinking": [{"decisions": 3}, {"decisions": 2}]},
            {"index": 1, "winner": 0, "record": None, "thinking": None},
        ],
        "agent_sides": [{"agent": "a", "side": "soviet", "wins": 1, "decisions": 3}],
        "records_dir": "records",
    }
    assert data["timing"]["workers"] == 2 and data["games"][0]["seconds"] == 0.25  # not modified
    assert data["games"][0]["thinking"][0]["seconds"] == 0.125 and "ms_per_decision" in data["agent_sides"][0]


def test_results_of_the_first_format_still_load(small_tournaments):
    result = small_tournaments["strike_force_one"]
    old = result.to_dict()
    timing = old["timing"]
    old.update(format="fof-tournament/1", workers=timing.pop("workers"), started=timing.pop("started"))
    for key in ("backend", "resumed_games"):
        timing.pop(key)
    again = TournamentResult.from_dict(old)
    assert again.to_dict() == result.to_dict() and (again.workers, again.backend) == (1, "local")


def test_games_logged_before_decisions_were_timed_still_load(small_tournaments):
    result = small_tournaments["strike_force_one"]
    data = result.to_dict()
    for game in data["games"]:
        del game["thinking"]  # as written before the agents' thinking time was kept
    again = TournamentResult.from_dict(data)
    assert all(o.thinking is None for o in again.outcomes)
    row = again.agent_tallies[0]
    assert row.thinking is None and row.ms_per_decision is None
    assert without_timing(again.to_dict())["agent_sides"][0]["decisions"] is None
    assert "ms/decision" not in markdown_report(again) and "ms/decision" in markdown_report(result)


def test_chunks_stay_small_enough_to_log_often():
    assert chunk_size(games=100, total=400, parallelism=2) == 25
    assert chunk_size(games=1000, total=4000, parallelism=1) == 50  # at most 50 games between log writes
    assert chunk_size(games=3, total=12, parallelism=8) == 1
