"""A bot file is data, never code: an sb3 zip carrying a pickle payload is refused by every
loading path with one clear line, and its payload never runs (the marker file never appears).

The crafted zip has the layout of an sb3 model (``data`` JSON, ``policy.pth``,
``pytorch_variables.pth``, ``_stable_baselines3_version``) with a cloudpickle
payload in ``data`` (what sb3 decodes on load) that creates a marker file; a second
variant carries the payload in ``policy.pth`` (what ``torch.load`` would unpickle).
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import shutil
import subprocess
import sys
import zipfile
from dataclasses import asdict
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from agents import policy_io  # noqa: E402
from agents.base import make_agent  # noqa: E402
from agents.ppo import shipped_model_path  # noqa: E402
from evaluation.match import build_agent  # noqa: E402
from fof_env import cli  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from training.opponents import OpponentPool, parse_pool  # noqa: E402
from training.train import TrainConfig  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LEGACY = "it is an sb3 zip, a format that can carry code; fof no longer loads it"


class Payload:
    """Unpickling this creates ``marker`` (``open(marker, "w")``)."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def serialized(marker: Path) -> dict[str, str]:
    """A value as sb3 writes a non-JSON object in ``data``: base64 of a pickle."""
    return {":type:": "<class 'abc.ABCMeta'>",
            ":serialized:": base64.b64encode(pickle.dumps(Payload(marker))).decode()}


def sb3_zip(path: Path, marker: Path, state: dict, *, payload_in_policy: bool = False) -> Path:
    """Write an sb3-layout model zip whose ``data`` (or ``policy.pth``) runs the payload."""
    data = {"policy_class": serialized(marker), "observation_space": serialized(marker),
            "policy_kwargs": {"net_arch": {"pi": [16], "vf": [16]}}, "num_timesteps": 1024, "_n_updates": 4}

    def saved(obj) -> bytes:
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        return buffer.getvalue()

    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("policy.pth", saved({"evil": Payload(marker)} if payload_in_policy else state))
        z.writestr("pytorch_variables.pth", saved({}))
        z.writestr("_stable_baselines3_version", "2.9.2")
    return path


ARCH = {"policy": "MaskableActorCriticPolicy", "net_arch": {"pi": [16], "vf": [16]}, "activation": "Tanh",
        "features_extractor": "FlattenExtractor", "share_features_extractor": True,
        "observation_shape": [752], "num_actions": 80, "both_sides": True}


@pytest.fixture
def crafted(tmp_path):
    """(zip path, marker path, the real state dict inside) for a both-sides Strike Force One model,
    with an old-format card beside it."""
    marker = tmp_path / "PAYLOAD_RAN"
    torch.manual_seed(0)
    state = {k: v.half() for k, v in policy_io.build_policy(ARCH).state_dict().items()}
    path = sb3_zip(tmp_path / "model.zip", marker, state)
    card = {"format": "fof-model-card/1", "game": "strike_force_one", "side": "both", "observation_version": 1,
            "observation_shape": [752], "num_actions": 80, "config": {"net_arch": [16]}, "command": "fof train x"}
    path.with_suffix(".json").write_text(json.dumps(card))
    return path, marker, state


def test_the_payload_is_live(tmp_path):
    """Control: sb3's own decoder of ``data`` runs the payload (so the checks below can fail)."""
    from stable_baselines3.common.save_util import json_to_data

    control = tmp_path / "control_marker"
    json_to_data(json.dumps({"x": serialized(control)}))
    assert control.exists()


def one_line(text: str, prefix: str) -> str:
    assert text.count("\n") == 1 and text.startswith(prefix), text
    return text


def test_make_agent_and_specs_refuse_the_zip(crafted):
    path, marker, _ = crafted
    game = make_game("strike_force_one")
    shutil.copy(shipped_model_path("strike_force_one", "soviet").with_suffix(".json"), path.with_suffix(".json"))
    for attempt in (lambda: make_agent("ppo", game, "soviet", path=str(path)),  # a valid card beside it
                    lambda: build_agent(f"ppo:{path}", game, 0, 0),
                    lambda: policy_io.load_model_policy(path),
                    lambda: policy_io.read_checkpoint(path),
                    lambda: policy_io.load_checkpoint_policy(path)):
        with pytest.raises(ValueError, match="sb3 zip") as info:
            attempt()
        assert "\n" not in str(info.value) and str(path) in str(info.value)
        assert not marker.exists()
    # renamed to look like the new format, it is still recognised by its content
    disguised = path.with_name("bot.safetensors")
    shutil.copy(path, disguised)
    shutil.copy(path.with_suffix(".json"), disguised.with_suffix(".json"))
    with pytest.raises(ValueError, match=LEGACY):
        make_agent("ppo", game, "soviet", path=str(disguised))
    assert not marker.exists()


def test_fof_evaluate_refuses_the_zip(crafted, tmp_path, capsys):
    path, marker, _ = crafted
    code = cli.main(["evaluate", "--game", "strike_force_one", "--agents", f"ppo:{path}", "random",
                     "--games", "1", "--workers", "1", "--out", str(tmp_path / "report"), "--no-progress",
                     "--no-html", "--no-records"])
    assert code == 2
    assert LEGACY in one_line(capsys.readouterr().err, "fof evaluate: ")
    assert not marker.exists()


def test_fof_train_refuses_the_zip_as_an_opponent(crafted, tmp_path, capsys):
    path, marker, _ = crafted
    run = tmp_path / "run"
    code = cli.main(["train", "--game", "strike_force_one", "--side", "us", "--opponent", f"ppo:{path}",
                     "--out", str(run), "--no-progress"])
    assert code == 2
    assert LEGACY in one_line(capsys.readouterr().err, "fof train: ")
    assert not marker.exists() and not run.exists()


def fake_run(folder: Path, crafted_zip: Path, name: str) -> Path:
    """A run folder (config, progress with an evaluation point at 1024) whose only checkpoint
    is the crafted zip, named ``name``."""
    config = TrainConfig(game="strike_force_one", side="both", out=str(folder), steps=2048, envs=1,
                         opponents=["self", "random"], eval_opponents=["random"], net_arch=[16], n_steps=256,
                         batch_size=128, n_epochs=1, eval_every=512, eval_games=2, final_eval_games=2,
                         checkpoint_every=512)
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"config": asdict(config), "commands": ["fof train x"]}))
    point = {"side": "soviet", "opponent": "random", "games": 2, "wins": 1, "draws": 0, "losses": 1,
             "win_rate": 0.5, "low": 0.1, "high": 0.9, "timesteps": 1024, "wall_seconds": 1.0}
    (folder / "progress.json").write_text(json.dumps({"timesteps": 1024, "wall_seconds": 1.0, "curve": [point],
                                                      "imitation": None}))
    shutil.copy(crafted_zip, folder / "checkpoints" / name)
    return folder


@pytest.mark.parametrize("name", ["ckpt_1024.zip", "ckpt_1024.safetensors"])
@pytest.mark.parametrize("best", [False, True])
def test_fof_train_resume_refuses_a_crafted_checkpoint(crafted, tmp_path, capsys, name, best):
    path, marker, _ = crafted
    run = fake_run(tmp_path / "run", path, name)
    before = (run / "config.json").read_text()
    code = cli.main(["train", "--resume", str(run), "--no-progress"] + (["--best"] if best else []))
    assert code == 2
    err = one_line(capsys.readouterr().err, "fof train: ")
    assert f"cannot use checkpoint {run / 'checkpoints' / name}: {LEGACY}" in err
    assert not marker.exists()
    assert (run / "config.json").read_text() == before  # the failed resume recorded nothing
    assert not (run / "model.safetensors").exists()


@pytest.mark.parametrize("name", ["ckpt_1024.zip", "ckpt_1024.safetensors"])
def test_the_self_pool_refuses_a_crafted_snapshot(crafted, tmp_path, name):
    path, marker, _ = crafted
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    shutil.copy(path, folder / name)
    game = make_game("strike_force_one")
    with pytest.raises(ValueError, match=LEGACY) as info:
        OpponentPool(game, 1, parse_pool(["self"], None), folder)  # draws the snapshot at once
    assert "\n" not in str(info.value)
    assert not marker.exists()


def test_the_converter_converts_without_running_the_payload(crafted, tmp_path):
    """The payload sits in ``data``, which the converter never decodes: it converts the tensors."""
    path, marker, state = crafted
    out = tmp_path / "converted" / "model.safetensors"
    done = subprocess.run([sys.executable, "-m", "training.convert_legacy", str(path), "--out", str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["format"] == "fof-model-card/2" and card["architecture"] == ARCH
    assert card["command"] == "fof train x" and card["converted_from"]["file"] == "model.zip"
    policy = policy_io.load_model_policy(out)
    for key, value in state.items():
        assert torch.equal(policy.state_dict()[key], value.float()), key
    agent = make_agent("ppo", make_game("strike_force_one"), "us", path=str(out))
    assert agent.both_sides


def test_the_converter_refuses_a_payload_in_the_weights(crafted, tmp_path):
    """``policy.pth`` is read with torch.load(weights_only=True): a pickled object is refused."""
    path, marker, state = crafted
    evil = sb3_zip(tmp_path / "evil.zip", marker, state, payload_in_policy=True)
    shutil.copy(path.with_suffix(".json"), evil.with_suffix(".json"))
    done = subprocess.run([sys.executable, "-m", "training.convert_legacy", str(evil)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "its policy.pth is not plain tensors" in one_line(done.stderr, "convert_legacy: ")
    assert not marker.exists() and not evil.with_suffix(".safetensors").exists()


def test_a_truncated_checkpoint_is_one_line_for_resume_and_the_self_pool(tmp_path, capsys):
    torch.manual_seed(0)
    whole = tmp_path / "whole.safetensors"
    policy_io.write_checkpoint(whole, policy_io.build_policy(ARCH), {"num_timesteps": 1024, "_n_updates": 4},
                               both_sides=True)
    assert policy_io.read_checkpoint(whole).counters == {"num_timesteps": 1024, "_n_updates": 4}
    cut = tmp_path / "cut.safetensors"
    cut.write_bytes(whole.read_bytes()[:-100])
    run = fake_run(tmp_path / "run", cut, "ckpt_1024.safetensors")
    assert cli.main(["train", "--resume", str(run), "--no-progress"]) == 2
    err = one_line(capsys.readouterr().err, "fof train: ")
    assert "not a readable safetensors file (truncated or corrupt?)" in err
    with pytest.raises(ValueError, match="truncated or corrupt") as info:
        OpponentPool(make_game("strike_force_one"), 1, parse_pool(["self"], None), run / "checkpoints")
    assert "\n" not in str(info.value)
