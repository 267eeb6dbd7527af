"""Expert iteration (training/expert_iteration.py): the search's visit distributions as the policy's
targets, a round that writes a model the ``ppo`` agent plays, with its command and figures in its card."""

from __future__ import annotations

import json

import numpy as np
import pytest

import fof_env
from agents import make_agent
from agents.ppo import shipped_model_path
from training.expert_iteration import main, play_search_games, train_on_visits

SEARCH = "mcts:simulations=6,opponent=heuristic,prior=ppo,rollout_limit=0"


def test_the_targets_are_the_searchs_visit_shares_on_legal_actions():
    init = str(shipped_model_path("strike_force_one", "us"))
    data = play_search_games("strike_force_one", 1, SEARCH, "heuristic", init, games=2, seed=3, workers=1)
    assert len(data["obs"]) == len(data["target"]) == len(data["mask"]) == len(data["result"]) > 0
    sums = data["target"].sum(1)
    assert np.allclose(sums, 1.0)
    assert not (data["target"][~data["mask"]] > 0).any()  # no visit share on an illegal action
    # 6 simulations: every share is a multiple of 1/6, and the move played had the most visits
    assert np.allclose(data["target"] * 6, np.round(data["target"] * 6))
    rows = np.arange(len(data["chosen"]))
    assert np.all(data["target"][rows, data["chosen"]] == data["target"].max(1))
    assert set(data["result"].tolist()) <= {-1.0, 0.0, 1.0} and set(data["game"].tolist()) == {0, 1}


def test_training_moves_the_policy_towards_the_targets():
    """Targets that all name one legal action, trained on hard: the held-out cross-entropy falls."""
    init = str(shipped_model_path("strike_force_one", "us"))
    data = play_search_games("strike_force_one", 1, SEARCH, "heuristic", init, games=2, seed=5, workers=1)
    last = np.array([np.flatnonzero(m)[-1] for m in data["mask"]])  # the highest legal action (PASS here)
    data["target"][:] = 0.0
    data["target"][np.arange(len(last)), last] = 1.0
    data["chosen"] = last
    data["game"][:] = np.arange(len(last)) % 10  # ten "games": one is held out
    _policy, report = train_on_visits(init, data, epochs=30, learning_rate=3e-3, seed=0)
    assert report["held_out_after"]["cross_entropy"] < report["held_out_before"]["cross_entropy"]


def test_a_round_writes_a_model_the_ppo_agent_plays(tmp_path):
    out = tmp_path / "r1"
    argv = ["--game", "strike_force_one", "--side", "us", "--search", SEARCH, "--games", "10", "--eval-games", "4",
            "--epochs", "1", "--workers", "1", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    card = json.loads((out / "model.json").read_text())
    assert card["command"].startswith("python -m training.expert_iteration --game strike_force_one")
    round_ = card["expert_iteration"]
    assert round_["games"] == 10 and round_["init"]["file"] == "strike_force_one-us.safetensors"
    assert round_["evaluation"]["new"]["games"] == round_["evaluation"]["init"]["games"] == 4
    assert json.loads((out / "round.json").read_text()) == round_
    game = fof_env.make_game("strike_force_one")
    agent = make_agent("ppo", game, "us", seed=0, path=str(out / "model.safetensors"))
    state = game.new_initial_state(0)
    while state.current_player != 1:
        state.apply(state.legal_actions()[0])
    assert agent.act(state) in state.legal_actions()


def test_bad_arguments_are_one_line_before_any_game(capsys):
    for argv, words in [
        (["--game", "nope", "--side", "us", "--search", "mcts:8"], "unknown game 'nope'"),
        (["--game", "strike_force_one", "--side", "us", "--search", "mcts:bogus=1"], "unknown mcts option(s)"),
        (["--game", "strike_force_one", "--side", "us", "--search", "mcts:8", "--init", "/no/such.safetensors"],
         "no model file /no/such.safetensors"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--out", "/tmp/never-written"])
        assert stop.value.code == 2 and words in capsys.readouterr().err
