"""`fof train` refuses bad arguments and unwritable folders with one line on stderr and exit 2,
before anything is written: no run folder, no config.json left behind."""

from __future__ import annotations

import errno
import json
import os
from dataclasses import asdict

import pytest

pytest.importorskip("sb3_contrib")

from agents.ppo import shipped_model_path  # noqa: E402
from fof_env import cli  # noqa: E402
from training.train import TrainConfig  # noqa: E402

BASE = ["train", "--game", "strike_force_one", "--side", "soviet", "--envs", "1", "--net-arch", "8",
        "--opponent", "random", "--eval-opponent", "random", "--no-progress"]


def refused(argv, capsys) -> str:
    """Run ``fof`` with ``argv``; assert exit 2 and exactly one ``fof train:`` line on stderr."""
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.err.count("\n") == 1 and captured.err.startswith("fof train: "), captured.err
    return captured.err.strip()


@pytest.mark.parametrize("flags, message", [
    (["--steps", "0"], "--steps 0 trains no PPO step: it needs --imitate SPEC (the model is then the imitation "
                       "warm start)"),
    (["--steps", "-5"], "--steps must be an integer >= 0, got -5"),
    (["--final-eval-games", "0"], "--final-eval-games must be an integer >= 1, got 0"),
    (["--seed", "-1"], "--seed must be an integer >= 0, got -1"),
    (["--eval-games", "0"], "--eval-games must be an integer >= 1, got 0"),
    (["--eval-opponent", "nobody"], "unknown agent kind 'nobody'"),
])
def test_bad_numbers_and_specs_are_refused_before_anything_is_written(tmp_path, capsys, flags, message):
    run = tmp_path / "run"
    assert message in refused(BASE + ["--out", str(run)] + flags, capsys)
    assert not run.exists()


def test_a_late_failing_opponent_leaves_no_config_behind(tmp_path, capsys):
    """--side both makes the pool play both sides: a Soviet-only model fails as the U.S. opponent
    (once found only when the envs were built, after config.json was written)."""
    run = tmp_path / "run"
    soviet_model = shipped_model_path("strike_force_one", "soviet")
    argv = ["train", "--game", "strike_force_one", "--side", "both", "--envs", "1", "--opponent",
            f"ppo:{soviet_model}", "--eval-opponent", "random", "--out", str(run), "--no-progress"]
    assert "it plays side 'soviet', not 'us'" in refused(argv, capsys)
    assert not run.exists()


def test_resume_with_explicit_zero_steps_is_refused(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run))
    text = json.dumps({"config": asdict(config), "commands": ["fof train x"]})
    (run / "config.json").write_text(text)
    assert "--steps must be an integer >= 1 with --resume, got 0" in refused(
        ["train", "--resume", str(run), "--steps", "0"], capsys)
    assert (run / "config.json").read_text() == text and sorted(p.name for p in run.iterdir()) == ["config.json"]


def test_resume_of_a_run_with_zero_final_eval_games_is_refused(tmp_path, capsys):
    """Such a run (possible before this check) is refused up front, not after its training."""
    run = tmp_path / "run"
    run.mkdir()
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), final_eval_games=0)
    text = json.dumps({"config": asdict(config), "commands": ["fof train x"]})
    (run / "config.json").write_text(text)
    message = refused(["train", "--resume", str(run), "--no-progress"], capsys)
    assert f"the run's {run / 'config.json'}: --final-eval-games must be an integer >= 1, got 0" in message
    assert (run / "config.json").read_text() == text


def test_out_naming_a_file_is_refused(tmp_path, capsys):
    target = tmp_path / "afile"
    target.write_text("keep me")
    assert f"--out {target} is a file, not a folder" in refused(BASE + ["--out", str(target)], capsys)
    assert "is a file, not a folder" in refused(BASE + ["--out", str(target / "run")], capsys)
    assert target.read_text() == "keep me"


def test_a_read_only_folder_is_refused(tmp_path, capsys, monkeypatch):
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        if os.geteuid() == 0:  # root writes through file modes: simulate what anyone else meets
            real = os.access
            monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if str(path) == str(parent)
                                else real(path, mode, **kw))
        run = parent / "run"
        assert refused(BASE + ["--out", str(run)], capsys) == f"fof train: cannot write {run}: Permission denied"
        assert not run.exists()
    finally:
        parent.chmod(0o700)


def test_a_full_disk_is_one_line_and_leaves_no_run_folder(tmp_path, capsys, monkeypatch):
    def full(_fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    run = tmp_path / "run"
    message = refused(BASE + ["--out", str(run)], capsys)
    assert message == f"fof train: cannot write {run / 'config.json'}: No space left on device"
    assert not run.exists()


def test_a_disk_filling_up_during_training_is_one_line(tmp_path, capsys, monkeypatch):
    """ENOSPC at the first checkpoint (ckpt_0, after the step-0 evaluation): one line, exit 2, and no
    half-written file."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(str(dst)).startswith("ckpt_"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    run = tmp_path / "run"
    argv = BASE + ["--out", str(run), "--steps", "256", "--n-steps", "128", "--batch-size", "64",
                   "--n-epochs", "1", "--eval-every", "512", "--eval-games", "1", "--checkpoint-every", "128"]
    message = refused(argv, capsys)
    assert message == f"fof train: cannot write {run / 'checkpoints' / 'ckpt_0.safetensors'}: No space left on device"
    assert list((run / "checkpoints").iterdir()) == []  # the temp file was removed
