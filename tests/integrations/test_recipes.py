"""The recipes of docs/rl_libraries.md run (RLlib's under ``make test-rllib``), and the CleanRL-style example
learns: a few seconds of training already beat the random player it is measured against."""

from __future__ import annotations

import json
import runpy
import shlex
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from tests.integrations.recipes import RECIPES, readme_recipes

ROOT = Path(__file__).resolve().parents[2]
CLEANRL = "docs/examples/cleanrl_masked_ppo.py"


@pytest.fixture(autouse=True)
def _one_torch_thread():
    """Two test workers share two cores: torch's default thread pool would oversubscribe them."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def _run(name: str, tmp_path: Path, monkeypatch) -> dict:
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__recipe__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(readme_recipes()[name], f"docs/rl_libraries.md (recipe: {name})", "exec"), namespace)
    return namespace


def test_the_readme_has_every_recipe():
    assert set(readme_recipes()) == set(RECIPES)


def test_sb3_recipe(tmp_path, monkeypatch):
    ns = _run("sb3", tmp_path, monkeypatch)
    assert ns["model"].num_timesteps >= 512
    assert ns["info"]["action_mask"][int(ns["action"])]


def test_torchrl_recipe(tmp_path, monkeypatch):
    pytest.importorskip("torchrl")
    ns = _run("torchrl", tmp_path, monkeypatch)
    assert ns["both_sides"].batch_size[0] >= 1 and ns["one_side"]["action_mask"].any(-1).all()


def test_pettingzoo_recipe(tmp_path, monkeypatch):
    ns = _run("pettingzoo", tmp_path, monkeypatch)
    assert "0101" in ns["board"]


def test_cleanrl_recipe_runs_and_learns(tmp_path, monkeypatch, capsys):
    (command,) = [line for line in readme_recipes()["cleanrl"].splitlines() if CLEANRL in line]
    words = shlex.split(command, comments=True)
    argv = words[words.index(CLEANRL) :]  # the script and the page's flags ...
    out = tmp_path / "result.json"
    argv += ["--total-timesteps", "8192", "--eval-games", "50", "--out", str(out)]  # ... at a tiny budget
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(ROOT / CLEANRL), run_name="__main__")
    printed = capsys.readouterr().out
    assert "win rate vs random: " in printed and "Wilson 95%" in printed
    result = json.loads(out.read_text())
    assert result["steps"] == 8192 and result["eval_games"] == 50
    low, high = result["wilson95"]
    assert low <= result["win_rate"] <= high
    assert result["win_rate"] >= 0.1  # the random Soviet player wins none of these games (below)


def test_random_soviets_never_beat_random(tmp_path):
    import gymnasium as gym

    env = gym.make("fof_env/StrikeForceOne-v0", side="soviet", opponent="random")
    rng = np.random.default_rng(0)
    wins = 0
    for game in range(50):
        _, info = env.reset(seed=10_000 + game)  # the example's evaluation seeds
        done = False
        while not done:
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            done = terminated or truncated
        wins += reward > 0
    assert wins <= 2


def test_the_airstrike_counterfactual_plays_the_games_fof_evaluate_plays(monkeypatch, capsys):
    """docs/examples/airstrike_counterfactual.py: its unchanged policy has the W/D/L that ``fof evaluate
    --agents random ppo@usmc --no-mirror --seed 21`` has on the same games; the variant never calls the
    strike unless ahead."""
    from evaluation.tournament import run_tournament

    script = "docs/examples/airstrike_counterfactual.py"
    monkeypatch.setattr(sys, "argv", [script, "--game", "lost_and_found", "--games", "6"])
    runpy.run_path(str(ROOT / script), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == [
        f"{variant} against {opponent} Taliban"
        for opponent in ("random", "heuristic")
        for variant in ("ppo_usmc", "no_call_unless_ahead", "no_call_unless_safely_ahead")
    ]
    games = run_tournament("lost_and_found", {}, ["random", "ppo@usmc"], 6, seed=21, progress=False, mirror=False)
    wins = sum(o.winner == 1 for o in games.outcomes)
    draws = sum(o.winner is None for o in games.outcomes)
    assert lines[0].endswith(f": {wins} / {draws} / {6 - wins - draws} (W / D / L) of 6")
