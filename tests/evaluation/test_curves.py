"""The README's learning-curve pictures (evaluation/curves.py): one PNG per model card with a curve."""

from __future__ import annotations

import json

import pytest

from evaluation import curves

CARD = {"game": "fubar_village_patrol", "side": "patrol", "timesteps": 300000, "wall_seconds": 1797.8,
        "curve": [{"side": "patrol", "opponent": "heuristic", "games": 100, "win_rate": 0.49, "low": 0.39,
                   "high": 0.59, "timesteps": 0},
                  {"side": "patrol", "opponent": "heuristic", "games": 100, "win_rate": 0.88, "low": 0.80,
                   "high": 0.93, "timesteps": 300000}]}  # fmt: skip


def test_a_card_with_a_curve_gets_a_png_and_one_without_is_skipped(tmp_path, capsys):
    models, out = tmp_path / "models", tmp_path / "out"
    models.mkdir()
    (models / "g-patrol.safetensors").write_bytes(b"weights are not read")
    (models / "g-patrol.json").write_text(json.dumps(CARD))
    (models / "g-other.safetensors").write_bytes(b"")
    (models / "g-other.json").write_text(json.dumps({**CARD, "curve": []}))
    assert curves.write_curves(models, out) == [out / "g-patrol.png"]
    assert (out / "g-patrol.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "g-other.safetensors: its card has no curve; skipped" in capsys.readouterr().err


def test_the_title_names_game_side_steps_and_minutes():
    assert curves.curve_title(CARD) == "fubar_village_patrol patrol: 300,000 steps in 30 min"


def test_a_policy_kept_from_before_the_end_of_its_run_says_so():
    """--resume --best chose step 0 of a run that trained 512 steps (or, in a card older than
    steps_trained, whose curve reaches 300,000)."""
    kept_early = {**CARD, "timesteps": 0, "steps_trained": 512}
    assert curves.curve_title(kept_early) == "fubar_village_patrol patrol: the policy of step 0 (512 steps in 30 min)"
    older_card = {**CARD, "timesteps": 200000}
    assert curves.curve_title(older_card) == "fubar_village_patrol patrol: the policy of step 200,000 (30 min run)"


def test_a_run_of_no_ppo_step_is_titled_as_its_warm_start_and_drawn_with_error_bars(tmp_path):
    """fof train --imitate heuristic --steps 0: one evaluation point, at step 0."""
    warm_start = {**CARD, "timesteps": 0, "steps_trained": 0, "wall_seconds": 1059.6,
                  "imitation": {"accuracy": 0.7754}, "curve": CARD["curve"][:1]}
    assert curves.curve_title(warm_start) == ("fubar_village_patrol patrol: the imitation warm start, "
                                              "no PPO step (18 min)")
    models = tmp_path / "models"
    models.mkdir()
    (models / "g-patrol.safetensors").write_bytes(b"")
    (models / "g-patrol.json").write_text(json.dumps(warm_start))
    assert curves.write_curves(models, tmp_path / "out") == [tmp_path / "out" / "g-patrol.png"]
    # a run that kept its step-0 policy but trained on is not a warm start alone
    assert curves.curve_title({**warm_start, "steps_trained": 512}).endswith("the policy of step 0 (512 steps in 18 min)")


def test_a_missing_models_folder_is_refused_in_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit):
        curves.main(["--models", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")])
    assert "not a folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
