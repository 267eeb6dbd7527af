"""MCTS, PPO training and tournaments work on FUBAR unchanged."""

from __future__ import annotations

import json

import pytest

from agents.base import make_agent
from evaluation.match import play_game
from evaluation.tournament import run_tournament
from fof_env import SeededDice, cli
from fof_env.core.registry import make_game


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_mcts_plays_legally_and_reproducibly(name):
    game = make_game(name)
    agents = [make_agent("mcts", game, 0, seed=1, simulations=2, rollout_limit=40), make_agent("random", game, 1, seed=2)]
    first = play_game(game, agents, 5)
    agents = [make_agent("mcts", game, 0, seed=1, simulations=2, rollout_limit=40), make_agent("random", game, 1, seed=2)]
    assert play_game(game, agents, 5).decisions == first.decisions


def test_mcts_does_not_read_the_future_dice():
    """Two states that differ only in their dice give the same search (the determinization re-seeds them)."""
    game = make_game("fubar_lost_and_found")
    state = game.new_initial_state(4)
    while state.decision.kind != "choose_action":
        state.apply(state.legal_actions()[0])
    other = state.clone()
    other.dice = SeededDice(999)
    stats = []
    for s in (state, other):
        bot = make_agent("mcts", game, state.current_player, seed=7, simulations=6, rollout_limit=30)
        bot.act(s)
        stats.append(bot.last_search)
    assert stats[0].same_search(stats[1])


def test_a_tournament_reports_vp(tmp_path):
    result = run_tournament("fubar_village_patrol", {}, ["random", "heuristic"], 1, seed=3, progress=False,
                            records_dir=tmp_path)  # fmt: skip
    assert len(result.outcomes) == 4 and all(o.vp is not None for o in result.outcomes)
    assert all((tmp_path / o.record).exists() for o in result.outcomes)


def test_a_tiny_fof_train_run_learns_and_plays(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    run = tmp_path / "fubar"
    argv = ["train", "--game", "fubar_lost_and_found", "--side", "usmc", "--steps", "256", "--envs", "1",
            "--opponent", "random", "--eval-opponent", "random", "--n-steps", "128", "--batch-size", "64",
            "--n-epochs", "1", "--net-arch", "16", "--eval-every", "256", "--eval-games", "2",
            "--final-eval-games", "2", "--checkpoint-every", "256", "--torch-threads", "1", "--no-progress",
            "--out", str(run)]  # fmt: skip
    assert cli.main(argv) == 0
    card = json.loads((run / "model.json").read_text())
    assert card["game"] == "fubar_lost_and_found" and card["side"] == "usmc" and card["timesteps"] >= 256
    game = make_game("fubar_lost_and_found")
    agents = [make_agent("random", game, 0, seed=0), make_agent("ppo", game, 1, seed=0, path=str(run / "model.safetensors"))]
    assert play_game(game, agents, 0).decisions > 0
