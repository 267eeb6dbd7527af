"""`fof train`: a tiny run writes a loadable model that plays only legal actions, a card
that records the run, and checkpoints that resume after an interruption."""

from __future__ import annotations

import hashlib
import json
import platform

import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from agents.base import make_agent  # noqa: E402
from agents.policy_io import read_checkpoint  # noqa: E402
from agents.ppo import load_policy  # noqa: E402
from evaluation.match import play_game  # noqa: E402
from fof_env import cli  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from tests.training.policies import tiny_arch  # noqa: E402
from training import callbacks  # noqa: E402
from training.opponents import checkpoints  # noqa: E402
from training.train import TrainConfig, resolve_init, train  # noqa: E402

TINY = ["--n-steps", "256", "--batch-size", "128", "--n-epochs", "2", "--net-arch", "32",
        "--eval-every", "512", "--eval-games", "4", "--final-eval-games", "6", "--checkpoint-every", "512",
        "--torch-threads", "1", "--no-progress"]


def test_tiny_run_writes_a_model_that_plays_legally(tmp_path, capsys):
    run = tmp_path / "sfo"
    argv = ["train", "--game", "strike_force_one", "--side", "soviet", "--steps", "1024", "--envs", "2",
            "--opponent", "heuristic", "random", "--imitate", "heuristic", "--imitation-games", "10",
            "--imitation-epochs", "1", "--workers", "2", "--out", str(run), *TINY]
    assert cli.main(argv) == 0
    assert "final: soviet vs heuristic" in capsys.readouterr().out
    card = json.loads((run / "model.json").read_text())
    assert card["game"] == "strike_force_one" and card["side"] == "soviet"
    assert card["command"] == "fof " + " ".join(argv)
    assert card["timesteps"] >= 1024 and card["wall_seconds"] > 0
    assert card["num_actions"] == 80 and card["observation_version"] == 1
    final = card["final_evaluation"][0]
    assert final["games"] == 6 and final["wins"] + final["draws"] + final["losses"] == 6
    assert [p["timesteps"] for p in card["curve"]][:1] == [0]  # the curve starts before PPO
    assert card["imitation"]["decisions"] > 0
    assert (card["config"]["workers"], card["config"]["backend"]) == (2, "local")
    # where it trained: the same command gives the same weights only on the same kind of processor
    assert card["platform"]["machine"] == platform.machine() and card["platform"]["cpu"]
    assert card["platform"]["torch_cpu_capability"] == torch.backends.cpu.get_cpu_capability()
    assert (run / "tb").is_dir() and list((run / "checkpoints").glob("ckpt_*.safetensors"))
    assert not list(run.rglob("*.zip")) and not list(run.rglob("*.pth"))  # nothing pickled
    model_bytes = (run / "model.safetensors").read_bytes()
    assert len(model_bytes) < 5_000_000
    assert card["format"] == "fof-model-card/2"
    assert card["weights"] == {"file": "model.safetensors", "sha256": hashlib.sha256(model_bytes).hexdigest(),
                               "dtype": "float16", "bytes": len(model_bytes)}
    assert card["architecture"] == {
        "policy": "MaskableActorCriticPolicy", "net_arch": {"pi": [32], "vf": [32]}, "activation": "Tanh",
        "features_extractor": "FlattenExtractor", "share_features_extractor": True,
        "observation_shape": [750], "num_actions": 80, "both_sides": False}

    policy = load_policy(str((run / "model.safetensors").resolve()))  # float16 on disk, float32 loaded
    assert all(p.dtype == torch.float32 and torch.equal(p, p.half().float()) for p in policy.parameters())

    game = make_game("strike_force_one")
    for seed in range(3):
        agents = [make_agent("ppo", game, "soviet", seed=seed, path=str(run / "model.safetensors")),
                  make_agent("random", game, "us", seed=seed)]
        result = play_game(game, agents, seed)  # state.apply refuses any illegal action
        assert result.decisions > 0


def test_resume_continues_from_the_last_checkpoint(tmp_path, monkeypatch):
    run = tmp_path / "laf"
    config = TrainConfig(game="lost_and_found", side="taliban", out=str(run), steps=1536, envs=1,
                         opponents=["random"], n_steps=256, batch_size=128, n_epochs=1, net_arch=[32],
                         eval_every=512, eval_games=2, final_eval_games=2, checkpoint_every=512,
                         torch_threads=1)
    original = callbacks.Checkpointer.save
    calls = []

    def save_then_interrupt(self, model=None):
        path = original(self, model)
        calls.append(path)
        if len(calls) == 2:  # the first periodic checkpoint, after ckpt_0 (step 0)
            raise KeyboardInterrupt
        return path

    monkeypatch.setattr(callbacks.Checkpointer, "save", save_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        train(config, "fof train (first)", progress=False, log=lambda _t: None)
    progress = json.loads((run / "progress.json").read_text())
    assert 512 <= progress["timesteps"] < 1536
    assert not (run / "model.safetensors").exists()
    with pytest.raises(FileExistsError, match="--resume"):
        train(config, "fof train (again)", progress=False, log=lambda _t: None)

    lines = []
    train(TrainConfig(game="", side="", out=str(run), steps=0), "fof train --resume", resume=True,
          progress=False, log=lines.append)
    assert any("resuming" in line for line in lines)
    card = json.loads((run / "model.json").read_text())
    assert card["timesteps"] >= 1536
    assert card["command"] == "fof train (first)" and card["resume_commands"] == ["fof train --resume"]
    steps = [p["timesteps"] for p in card["curve"]]
    assert steps == sorted(steps) and steps[0] == 0 and steps[-1] >= 1024


def test_bad_configurations_are_refused_before_training(tmp_path):
    with pytest.raises(ValueError, match="needs --side both"):
        TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path), opponents=["self"]).validate()
    with pytest.raises(ValueError, match="unknown agent kind"):
        TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path), opponents=["nobody"]).validate()
    with pytest.raises(ValueError, match="weights"):
        TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path), opponents=["random"],
                    opponent_weights=[1, 2]).validate()
    assert not any(tmp_path.iterdir())


def test_an_imitation_coef_needs_a_teacher_and_a_finite_weight_at_or_above_zero(tmp_path):
    base = {"game": "strike_force_one", "side": "soviet", "out": str(tmp_path / "x"), "opponents": ["random"]}
    with pytest.raises(ValueError, match=r"^--imitation-coef needs --imitate SPEC"):
        TrainConfig(**base, imitation_coef=0.5).validate()
    for bad in (-0.1, float("nan"), float("inf"), "1", True):
        with pytest.raises(ValueError, match=r"^--imitation-coef must be a finite number >= 0, got "):
            TrainConfig(**base, imitate="heuristic", imitation_coef=bad).validate()
    TrainConfig(**base, imitate="heuristic", imitation_coef=0.5).validate()
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("option, value, message", [
    ("learning_rate", 0.0, "--learning-rate must be a finite number > 0, got 0.0"),
    ("learning_rate", -3e-4, "--learning-rate must be a finite number > 0, got -0.0003"),
    ("learning_rate", float("nan"), "--learning-rate must be a finite number > 0, got nan"),
    ("gamma", 0.0, "--gamma must be a number in (0, 1], got 0.0"),
    ("gamma", 1.01, "--gamma must be a number in (0, 1], got 1.01"),
    ("ent_coef", -0.01, "--ent-coef must be a finite number >= 0, got -0.01"),
    ("ent_coef", float("inf"), "--ent-coef must be a finite number >= 0, got inf"),
    ("clip_range", 0, "--clip-range must be a finite number > 0, got 0"),
    ("imitation_learning_rate", 0.0, "--imitation-learning-rate must be a finite number > 0, got 0.0"),
    ("imitation_learning_rate", "1e-3", "--imitation-learning-rate must be a finite number > 0, got '1e-3'"),
])
def test_float_options_outside_their_ranges_are_refused(tmp_path, option, value, message):
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / "x"), opponents=["random"],
                         imitate="heuristic", **{option: value})
    with pytest.raises(ValueError) as refusal:
        config.validate()
    assert str(refusal.value) == message
    assert not any(tmp_path.iterdir())


def test_an_imitation_learning_rate_needs_a_teacher(tmp_path):
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / "x"), opponents=["random"],
                         imitation_learning_rate=1e-3)
    with pytest.raises(ValueError, match=r"^--imitation-learning-rate needs --imitate SPEC"):
        config.validate()
    config.imitate = "heuristic"
    config.validate()


def _record_training(monkeypatch, clone_entry, update_entry) -> list:
    """Record ``clone_entry(policy)`` for every behaviour-cloning step (before it) and
    ``update_entry(model, update)`` for every PPO update (``update()`` runs it), in order, into the
    list returned."""
    from sb3_contrib import MaskablePPO

    from training import imitation

    entries: list = []
    descend, ppo_train = imitation._descend, MaskablePPO.train

    def recording_descend(policy, loss):
        entries.append(clone_entry(policy))
        descend(policy, loss)

    def recording_train(self):
        entries.append(update_entry(self, lambda: ppo_train(self)))

    monkeypatch.setattr(imitation, "_descend", recording_descend)
    monkeypatch.setattr(MaskablePPO, "train", recording_train)
    return entries


def _step_sizes(monkeypatch) -> list[tuple[str, float]]:
    """Record ("clone" or "ppo", Adam's step size) of every behaviour-cloning step and every PPO
    update, in order, into the list returned."""

    def step_size(policy) -> float:
        return policy.optimizer.param_groups[0]["lr"]

    def ppo(model, update):
        update()
        return ("ppo", step_size(model.policy))

    return _record_training(monkeypatch, lambda policy: ("clone", step_size(policy)), ppo)


# An anchored run of three updates (rollouts of 256) after a warm start; the anchor takes two steps
# (256 decisions in batches of 128) before the second and third rollouts.
_ANCHORED = dict(game="strike_force_one", side="soviet", steps=768, envs=1, opponents=["random"],
                 eval_opponents=["random"], imitate="heuristic", imitation_games=2, imitation_epochs=1,
                 imitation_coef=1.0, learning_rate=3e-4, n_steps=256, batch_size=128, n_epochs=1,
                 net_arch=[16], eval_every=768, eval_games=2, final_eval_games=2, torch_threads=1)


def test_the_imitation_learning_rate_steps_the_warm_start_and_the_anchor_and_ppo_keeps_its_own(
        tmp_path, monkeypatch):
    """--learning-rate 3e-4 --imitation-learning-rate 2e-3: every behaviour-cloning step (warm start
    and anchor) uses 2e-3, every PPO update 3e-4."""
    steps = _step_sizes(monkeypatch)
    config = TrainConfig(**_ANCHORED, out=str(tmp_path / "rates"), imitation_learning_rate=2e-3)
    train(config, "fof train (rates)", progress=False, log=lambda _t: None)
    first_update = steps.index(("ppo", 3e-4))
    assert first_update > 0 and set(steps[:first_update]) == {("clone", 2e-3)}
    assert steps[first_update:] == [("ppo", 3e-4)] + 2 * ([("clone", 2e-3)] * 2 + [("ppo", 3e-4)])
    card = json.loads((tmp_path / "rates" / "model.json").read_text())
    assert card["config"]["imitation_learning_rate"] == 2e-3


def test_without_an_imitation_learning_rate_the_anchor_follows_ppos_decaying_one(tmp_path, monkeypatch):
    """--lr-schedule linear from 3e-4 over 768 steps: the warm start steps at 3e-4; sb3 sets each
    update's rate after its rollout, 3e-4 x (1 - 256/768), (1 - 512/768), (1 - 768/768); each anchor
    step takes the rate of the update just before it."""
    steps = _step_sizes(monkeypatch)
    config = TrainConfig(**_ANCHORED, out=str(tmp_path / "decaying"), lr_schedule="linear")
    train(config, "fof train (decaying)", progress=False, log=lambda _t: None)
    first_update = next(i for i, (kind, _) in enumerate(steps) if kind == "ppo")
    assert first_update > 0 and set(steps[:first_update]) == {("clone", 3e-4)}
    rates = [rate for _, rate in steps[first_update:]]
    assert [kind for kind, _ in steps[first_update:]] == ["ppo"] + 2 * ["clone", "clone", "ppo"]
    assert rates == pytest.approx([2e-4, 2e-4, 2e-4, 1e-4, 1e-4, 1e-4, 0.0])


def test_the_imitation_anchor_keeps_ppo_near_its_teacher_and_survives_a_resume(tmp_path):
    """PPO pushed away from the teacher (a large entropy bonus and step size) ends nearer it with
    --imitation-coef: a lower cross-entropy of the teacher's actions on the run's own demonstrations.
    A resumed anchored run replays the imitation games (the same ones) to go on anchoring."""
    from training.envs import build_env
    from training.imitation import collect

    def run(name: str, coef: float, steps: int, log=lambda _t: None):
        config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / name), steps=steps,
                             envs=2, opponents=["random"], eval_opponents=["random"], imitate="heuristic",
                             imitation_games=4, imitation_epochs=3, imitation_coef=coef, learning_rate=3e-3,
                             ent_coef=0.5, n_steps=256, batch_size=128, n_epochs=4, net_arch=[32],
                             eval_every=512, eval_games=2, final_eval_games=2, checkpoint_every=512)
        train(config, f"fof train ({name})", progress=False, log=log)

    run("free", 0.0, 1536)
    run("anchored", 2.0, 1024)
    lines: list[str] = []
    train(TrainConfig(game="", side="", out=str(tmp_path / "anchored"), steps=1536), "fof train --resume",
          resume=True, progress=False, log=lines.append)
    assert "replaying the 4 imitation games for --imitation-coef" in lines
    card = json.loads((tmp_path / "anchored" / "model.json").read_text())
    assert card["config"]["imitation_coef"] == 2.0 and card["timesteps"] >= 1536

    data = collect(build_env("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None),
                   "heuristic", 4, 0, 0.99)  # the runs' demonstrations: seed 0, discount 0.99

    def cross_entropy(name: str) -> float:
        policy = load_policy(str((tmp_path / name / "model.safetensors").resolve()))
        with torch.no_grad():
            _, log_prob, _ = policy.evaluate_actions(torch.as_tensor(data.observations),
                                                     torch.as_tensor(data.actions),
                                                     action_masks=torch.as_tensor(data.masks))
        return float(-log_prob.mean())

    assert cross_entropy("anchored") < cross_entropy("free")


def test_the_critic_warmup_trains_the_critic_alone_until_its_step_then_both(tmp_path, monkeypatch):
    """--critic-warmup 512 with rollouts of 256: the updates at steps 256 and 512 change the value
    branch only, the actor keeping the warm start's weights exactly; the updates at 768 and 1024
    change both. The anchor takes its two steps only once the actor trains (before the rollout to
    1024), not after the critic-only updates."""
    from training.callbacks import actor_parameters

    def snapshot(params):
        return [p.detach().clone() for p in params]

    def same(a, b):
        return all(torch.equal(x, y) for x, y in zip(a, b, strict=True))

    def ppo(model, update):
        actor = actor_parameters(model.policy)
        critic = [p for p in model.policy.parameters() if all(p is not a for a in actor)]
        before = snapshot(actor), snapshot(critic)
        update()
        moved = ("actor" if not same(before[0], actor) else "") + ("critic" if not same(before[1], critic) else "")
        return ("ppo", model.num_timesteps, moved)

    events = _record_training(monkeypatch, lambda _policy: ("clone",), ppo)
    lines: list[str] = []
    config = TrainConfig(**{**_ANCHORED, "steps": 1024, "eval_every": 1024}, out=str(tmp_path / "warm"),
                         critic_warmup=512)
    train(config, "fof train (warm)", progress=False, log=lines.append)
    first_update = next(i for i, e in enumerate(events) if e[0] == "ppo")
    assert events[first_update:] == [("ppo", 256, "critic"), ("ppo", 512, "critic"), ("ppo", 768, "actorcritic"),
                                     ("clone",), ("clone",), ("ppo", 1024, "actorcritic")]
    assert "critic warm-up: PPO trains the critic alone until step 512" in lines
    card = json.loads((tmp_path / "warm" / "model.json").read_text())
    assert card["config"]["critic_warmup"] == 512


def test_a_critic_warmup_must_be_a_count_below_the_steps(tmp_path):
    base = {"game": "strike_force_one", "side": "soviet", "out": str(tmp_path / "x"), "opponents": ["random"]}
    for bad in (-1, 0.5, True):
        with pytest.raises(ValueError, match=r"^--critic-warmup must be an integer >= 0, got "):
            TrainConfig(**base, critic_warmup=bad).validate()
    with pytest.raises(ValueError, match=r"^--critic-warmup \(1000\) must be below --steps \(1000\): the policy "
                                         r"would never be trained$"):
        train(TrainConfig(**base, steps=1000, critic_warmup=1000), "fof train", progress=False, log=lambda _t: None)
    assert not any(tmp_path.iterdir())


def test_dagger_rounds_play_the_learner_refit_and_are_recorded_in_the_card(tmp_path):
    """--dagger-rounds 2 after a warm start of 3 games: two rounds of 3 more games each, played by
    the learner (episodes 3-5, then 6-8), each followed by a fit on every decision so far. With
    --steps 0 no PPO step follows: the model is the warm start, the policy of ckpt_0."""
    from training.envs import build_env
    from training.imitation import collect

    lines: list[str] = []
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / "dagger"), steps=0,
                         envs=1, opponents=["random"], eval_opponents=["random"], imitate="heuristic",
                         imitation_games=3, imitation_epochs=1, dagger_rounds=2, n_steps=256, batch_size=128,
                         n_epochs=1, net_arch=[16], eval_every=256, eval_games=2, final_eval_games=2)
    train(config, "fof train (dagger)", progress=False, log=lines.append)
    card = json.loads((tmp_path / "dagger" / "model.json").read_text())
    teacher = collect(build_env("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None),
                      "heuristic", 3, 0, 0.99)
    assert card["config"]["dagger_rounds"] == 2 and card["imitation"]["decisions"] == len(teacher)
    rounds = card["imitation"]["dagger"]
    assert [(r["round"], r["games"]) for r in rounds] == [(1, 3), (2, 3)]
    assert len(teacher) < rounds[0]["decisions"] < rounds[1]["decisions"]
    assert all(0.0 <= r["agreement"] <= 1.0 and 0.0 <= r["learner_win_rate"] <= 1.0 for r in rounds)
    assert [line.split(":")[0] for line in lines if "DAgger round" in line] == ["  DAgger round 1", "  DAgger round 2"]
    assert (card["timesteps"], card["steps_trained"]) == (0, 0)
    warm_start = read_checkpoint(tmp_path / "dagger" / "checkpoints" / "ckpt_0.safetensors").policy_state
    shipped = load_policy(str((tmp_path / "dagger" / "model.safetensors").resolve())).state_dict()
    assert all(torch.equal(shipped[k], v.half().float()) for k, v in warm_start.items())


def test_dagger_rounds_need_a_teacher_and_a_count(tmp_path):
    base = {"game": "strike_force_one", "side": "soviet", "out": str(tmp_path / "x"), "opponents": ["random"]}
    with pytest.raises(ValueError, match=r"^--dagger-rounds needs --imitate SPEC: in each round that teacher "
                                         r"labels the decisions the learner makes$"):
        TrainConfig(**base, dagger_rounds=1).validate()
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError, match=r"^--dagger-rounds must be an integer >= 0, got "):
            TrainConfig(**base, imitate="heuristic", dagger_rounds=bad).validate()
    assert not any(tmp_path.iterdir())


def test_cli_train_reports_errors_without_a_traceback(tmp_path, capsys):
    code = cli.main(["train", "--game", "strike_force_one", "--side", "soviet", "--opponent", "self",
                     "--out", str(tmp_path / "x"), "--no-progress"])
    assert code == 2
    assert "needs --side both" in capsys.readouterr().err


def test_resume_with_fewer_steps_finishes_the_run_from_its_checkpoint(tmp_path):
    run = tmp_path / "short"
    config = TrainConfig(game="strike_force_one", side="us", out=str(run), steps=1024, envs=1,
                         opponents=["random"], n_steps=256, batch_size=128, n_epochs=1, net_arch=[16],
                         eval_every=512, eval_games=2, final_eval_games=2, checkpoint_every=512,
                         torch_threads=1)
    train(config, "fof train (first)", progress=False, log=lambda _t: None)
    first = json.loads((run / "model.json").read_text())
    lines = []
    train(TrainConfig(game="", side="", out=str(run), steps=512), "fof train --resume --steps 512",
          resume=True, progress=False, log=lines.append)
    assert f"finishing {run} from its latest checkpoint, ckpt_1024.safetensors (1024 steps)" in lines
    card = json.loads((run / "model.json").read_text())
    assert card["timesteps"] == first["timesteps"]  # nothing more was trained
    assert card["resume_commands"] == ["fof train --resume --steps 512"]
    with pytest.raises(FileNotFoundError, match="no run to resume"):
        train(TrainConfig(game="", side="", out=str(tmp_path / "none"), steps=0), "x", resume=True,
              progress=False, log=lambda _t: None)


def test_best_finishes_from_the_best_evaluated_checkpoint(tmp_path):
    run = tmp_path / "best"
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), steps=1536, envs=1,
                         opponents=["random"], eval_opponents=["random"], n_steps=256, batch_size=128,
                         n_epochs=1, net_arch=[16], eval_every=512, eval_games=4, final_eval_games=2,
                         checkpoint_every=512, torch_threads=1)
    train(config, "fof train (first)", progress=False, log=lambda _t: None)
    curve = json.loads((run / "progress.json").read_text())["curve"]
    rate = {p["timesteps"]: p["win_rate"] for p in curve}
    kept = [int(p.stem.split("_")[1]) for p in (run / "checkpoints").glob("ckpt_*.safetensors")]
    best_steps = max((rate[s], s) for s in kept if s in rate)[1]
    lines = []
    train(TrainConfig(game="", side="", out=str(run), steps=0), "fof train --resume --best", resume=True,
          best=True, progress=False, log=lines.append)
    assert lines[0] == (f"finishing {run} from its best evaluated checkpoint, ckpt_{best_steps}.safetensors "
                        f"(step {best_steps}, evaluation win rate {rate[best_steps]:.3f})")
    card = json.loads((run / "model.json").read_text())
    assert card["selected"]["timesteps"] == best_steps == card["timesteps"]
    assert card["selected"]["eval_win_rate"] == rate[best_steps]


def test_best_can_finish_from_the_imitation_policy_at_step_0(tmp_path):
    """The step-0 evaluation point (the policy as imitation left it) has a checkpoint, ckpt_0, so
    when PPO never beats it --best finishes from it: the card's model is the imitation policy."""
    run = tmp_path / "imitation-best"
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), steps=512, envs=1,
                         opponents=["random"], eval_opponents=["random"], imitate="heuristic",
                         imitation_games=2, imitation_epochs=1, n_steps=256, batch_size=128, n_epochs=1,
                         net_arch=[16], eval_every=512, eval_games=2, final_eval_games=2,
                         checkpoint_every=512, torch_threads=1)
    train(config, "fof train (first)", progress=False, log=lambda _t: None)
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["ckpt_0.safetensors",
                                                                       "ckpt_512.safetensors"]
    progress = json.loads((run / "progress.json").read_text())
    for point in progress["curve"]:  # make step 0 the best evaluated point
        point["win_rate"] = 1.0 if point["timesteps"] == 0 else 0.0
    (run / "progress.json").write_text(json.dumps(progress))
    train(TrainConfig(game="", side="", out=str(run), steps=0), "fof train --resume --best", resume=True,
          best=True, progress=False, log=lambda _t: None)
    card = json.loads((run / "model.json").read_text())
    assert card["selected"] == {"checkpoint": "ckpt_0.safetensors", "timesteps": 0, "eval_win_rate": 1.0}
    assert card["timesteps"] == 0 and card["imitation"]["episodes"] == 2
    # the wall time paid for 512 steps: steps/s counts them, not the 0 of the policy kept
    assert card["steps_trained"] == 512 and card["steps_per_second"] == round(512 / card["wall_seconds"], 1)


def test_a_run_stopped_before_its_first_checkpoint_starts_over_on_resume(tmp_path, monkeypatch):
    from training import train as train_module

    run = tmp_path / "early"
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), steps=512, envs=1,
                         opponents=["random"], imitate="heuristic", imitation_games=2, imitation_epochs=1,
                         n_steps=256, batch_size=128, n_epochs=1, net_arch=[16], eval_every=512,
                         eval_games=2, final_eval_games=2, checkpoint_every=512, torch_threads=1)

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(train_module, "_imitate", interrupted)
        with pytest.raises(KeyboardInterrupt):
            train(config, "fof train (first)", progress=False, log=lambda _t: None)
    assert (run / "config.json").exists() and not (run / "model.safetensors").exists()
    train(TrainConfig(game="", side="", out=str(run), steps=0), "fof train --resume", resume=True,
          progress=False, log=lambda _t: None)
    card = json.loads((run / "model.json").read_text())
    assert card["imitation"]["episodes"] == 2 and card["timesteps"] >= 512


def test_a_checkpoint_restores_policy_optimizer_and_counters(tmp_path):
    """save_checkpoint + restore: a model rebuilt from its config gets back the exact policy
    tensors, Adam's moments and step counts, and the counters (no pickle involved)."""
    from sb3_contrib import MaskablePPO

    from agents.policy_io import read_checkpoint
    from fof_env.envs.gym_env import WargameEnv
    from training.train import restore

    def fresh(seed):
        env = WargameEnv("strike_force_one", side="soviet", opponent="random")
        return MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=seed, device="cpu",
                           policy_kwargs={"net_arch": {"pi": [8], "vf": [8]}})

    trained = fresh(0)
    trained.learn(128)
    path = callbacks.save_checkpoint(trained, tmp_path, keep=2)
    assert path.name == f"ckpt_{trained.num_timesteps}.safetensors"
    assert trained.num_timesteps == 128 and trained._n_updates == 2

    other = fresh(1)
    restore(other, read_checkpoint(path), path, both_sides=False)
    assert (other.num_timesteps, other._n_updates) == (128, 2)
    for (name, a), (_, b) in zip(trained.policy.state_dict().items(), other.policy.state_dict().items(),
                                 strict=True):
        assert torch.equal(a, b), name
    want, got = trained.policy.optimizer.state_dict(), other.policy.optimizer.state_dict()
    assert len(want["state"]) == len(got["state"]) == len(list(trained.policy.parameters()))
    for index, entries in want["state"].items():
        assert set(entries) == {"step", "exp_avg", "exp_avg_sq"}
        for name, value in entries.items():
            assert torch.equal(value, got["state"][index][name]), (index, name)
    assert got["param_groups"][0]["betas"] == (0.9, 0.999) and got["param_groups"][0]["eps"] == 1e-5

    with pytest.raises(ValueError, match="architecture"):  # a checkpoint of another network
        restore(fresh(2), read_checkpoint(path), path, both_sides=True)


def test_imitation_games_and_evaluations_give_the_same_results_on_a_process_pool():
    """Issue 9: the executor that plays tournaments also plays training's imitation games and masked
    evaluations; the same seeded games, so the same data and win counts as in one process."""
    from agents.policy_io import build_policy
    from evaluation.executors import make_executor
    from training.envs import build_env
    from training.imitation import collect, collect_on

    game = make_game("strike_force_one")
    env_args = ("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None)
    arch = tiny_arch(game)
    torch.manual_seed(0)
    policy = build_policy(arch)
    here = collect(build_env(*env_args), "heuristic", 60, 5, 0.99)
    inline = callbacks.evaluate_policy(game, "soviet", policy, "random", 30, 9)
    with make_executor("local", workers=2) as pool:
        there = collect_on(pool, env_args, "heuristic", 60, 5, 0.99)
        pooled = callbacks.evaluate_policy(game, "soviet", policy, "random", 30, 9, pool)
    assert here.episodes == there.episodes == 60 and len(here) == len(there) > 60
    assert (here.actions == there.actions).all() and (here.observations == there.observations).all()
    assert (here.returns == there.returns).all() and here.win_rate == there.win_rate
    assert pooled == inline and inline[0]["games"] == 30


def test_in_process_and_subprocess_envs_train_the_same_policy(tmp_path):
    """``--vec-env`` changes where the envs step, never what is learned: same seed, same weights."""
    from safetensors.numpy import load_file

    weights = {}
    for vec in ("dummy", "subproc"):
        run = tmp_path / vec
        config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), steps=512, envs=2, vec_env=vec,
                             opponents=["random"], eval_opponents=["random"], n_steps=128, batch_size=128, n_epochs=1,
                             net_arch=[16], eval_every=512, eval_games=2, final_eval_games=2, checkpoint_every=512,
                             torch_threads=1)
        train(config, f"fof train --vec-env {vec}", progress=False, log=lambda _t: None)
        weights[vec] = load_file(str(run / "model.safetensors"))
    assert weights["dummy"].keys() == weights["subproc"].keys()
    for name, tensor in weights["dummy"].items():
        assert (tensor == weights["subproc"][name]).all(), name


def test_an_unknown_vectorisation_is_refused():
    config = TrainConfig(game="strike_force_one", side="soviet", out="unused", vec_env="threads")
    with pytest.raises(ValueError, match="--vec-env must be one of auto, dummy, subproc, got 'threads'"):
        config.validate()


def test_pruning_keeps_the_latest_checkpoints_and_the_best_evaluated_one(tmp_path):
    """keep=2 keeps the two latest checkpoints, and the one whose evaluation scored best even when it is
    older (what --resume --best finishes from); without a curve only the latest two stay."""
    from sb3_contrib import MaskablePPO

    from fof_env.envs.gym_env import WargameEnv

    model = MaskablePPO("MlpPolicy", WargameEnv("strike_force_one", side="soviet", opponent="random"),
                        n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": {"pi": [8], "vf": [8]}})
    curve = [{"timesteps": 100, "win_rate": 0.5}, {"timesteps": 200, "win_rate": 0.9},
             {"timesteps": 300, "win_rate": 0.4}, {"timesteps": 400, "win_rate": 0.6}]
    for steps in (100, 200, 300, 400, 500):
        model.num_timesteps = steps
        callbacks.save_checkpoint(model, tmp_path / "with", keep=2, curve=curve)
        callbacks.save_checkpoint(model, tmp_path / "without", keep=2)
    assert sorted(p.name for p in (tmp_path / "with").iterdir()) == [
        "ckpt_200.safetensors", "ckpt_400.safetensors", "ckpt_500.safetensors"]
    assert sorted(p.name for p in (tmp_path / "without").iterdir()) == [
        "ckpt_400.safetensors", "ckpt_500.safetensors"]


def test_every_evaluation_point_has_a_checkpoint_whatever_the_two_periods(tmp_path):
    """Evaluations every 768 steps and checkpoints every 1,024: the points at 768 and 1,536 get
    checkpoints of their own, so --best can finish from any evaluated policy."""
    run = tmp_path / "periods"
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(run), steps=1536, envs=1,
                         opponents=["random"], eval_opponents=["random"], n_steps=256, batch_size=128,
                         n_epochs=1, net_arch=[16], eval_every=768, eval_games=2, final_eval_games=2,
                         checkpoint_every=1024, keep_checkpoints=5, torch_threads=1)
    train(config, "fof train (periods)", progress=False, log=lambda _t: None)
    card = json.loads((run / "model.json").read_text())
    assert [p["timesteps"] for p in card["curve"]] == [0, 768, 1536]
    assert [p.name for p in checkpoints(run / "checkpoints")] == [
        "ckpt_0.safetensors", "ckpt_768.safetensors", "ckpt_1024.safetensors", "ckpt_1536.safetensors"]


def test_a_step_that_is_an_evaluation_point_and_a_checkpoint_step_is_written_once(tmp_path, monkeypatch):
    """Evaluations and checkpoints both every 512 steps (rollouts of 256, one epoch per update): 0,
    512 and 1,024 are written once each, and ckpt_1024 keeps the policy the evaluation at 1,024
    scored (3 updates), not the one after the fourth update that ends learn."""
    written = []
    save = callbacks.save_checkpoint

    def counting(model, *args, **kwargs):
        written.append((int(model.num_timesteps), int(model._n_updates)))
        return save(model, *args, **kwargs)

    monkeypatch.setattr(callbacks, "save_checkpoint", counting)
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / "once"), steps=1024, envs=1,
                         opponents=["random"], eval_opponents=["random"], n_steps=256, batch_size=128,
                         n_epochs=1, net_arch=[16], eval_every=512, eval_games=2, final_eval_games=2,
                         checkpoint_every=512, torch_threads=1)
    train(config, "fof train (once)", progress=False, log=lambda _t: None)
    assert written == [(0, 0), (512, 1), (1024, 3)]
    assert read_checkpoint(tmp_path / "once" / "checkpoints" / "ckpt_1024.safetensors").counters == {
        "num_timesteps": 1024, "_n_updates": 3}
    assert json.loads((tmp_path / "once" / "progress.json").read_text())["timesteps"] == 1024


def test_several_evaluation_opponents_are_each_played_and_choose_the_best_together(tmp_path, capsys):
    """--eval-opponent random heuristic: every point and the final evaluation play both, and the
    card keeps one line per opponent."""
    run = tmp_path / "two"
    argv = ["train", "--game", "strike_force_one", "--side", "soviet", "--steps", "512", "--envs", "1",
            "--opponent", "random", "--eval-opponent", "random", "heuristic", "--out", str(run), *TINY]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "final: soviet vs random" in out and "final: soviet vs heuristic" in out
    card = json.loads((run / "model.json").read_text())
    assert card["config"]["eval_opponents"] == ["random", "heuristic"]
    assert [(p["opponent"], p["games"]) for p in card["final_evaluation"]] == [("random", 6), ("heuristic", 6)]
    assert [(p["timesteps"], p["opponent"]) for p in card["curve"]] == [
        (0, "random"), (0, "heuristic"), (512, "random"), (512, "heuristic")]


def test_the_best_checkpoint_is_chosen_by_the_mean_over_opponents(tmp_path):
    """At 100 steps 0.9 vs random and 0.5 vs heuristic (mean 0.7); at 200 steps 0.6 and 0.7 (mean
    0.65): the mean chooses 100, although the heuristic alone would choose 200."""
    curve = [{"timesteps": 100, "opponent": "random", "win_rate": 0.9},
             {"timesteps": 100, "opponent": "heuristic", "win_rate": 0.5},
             {"timesteps": 200, "opponent": "random", "win_rate": 0.6},
             {"timesteps": 200, "opponent": "heuristic", "win_rate": 0.7}]
    assert callbacks.evaluation_scores(curve) == pytest.approx({100: 0.7, 200: 0.65})
    paths = [tmp_path / "ckpt_100.safetensors", tmp_path / "ckpt_200.safetensors"]
    score, steps, path = callbacks.best_evaluated(paths, curve)
    assert (steps, path) == (100, paths[0]) and score == pytest.approx(0.7)


def test_a_config_written_with_one_evaluation_opponent_still_reads():
    """config.json files from before --eval-opponent took several specs hold ``eval_opponent``."""
    config = TrainConfig.from_dict({"game": "strike_force_one", "side": "soviet", "out": "r",
                                    "eval_opponent": "random"})
    assert config.eval_opponents == ["random"]


def test_stop_at_pauses_where_the_uninterrupted_run_was_and_keeps_its_schedules(tmp_path, capsys):
    """--stop-at: the checkpoint at that step is the uninterrupted run's, bit for bit, with a
    linear learning rate and the imitation anchor, both decaying over --steps; the paused run
    finishes with --resume --best like a run cut by a timeout, and a --steps run of that length
    is a different run (its schedules end there)."""
    flags = ["--game", "strike_force_one", "--side", "soviet", "--envs", "1", "--opponent", "random",
             "--eval-opponent", "random", "--imitate", "heuristic", "--imitation-games", "2",
             "--imitation-epochs", "1", "--imitation-coef", "1.0", "--lr-schedule", "linear", *TINY]
    for name, extra in (("whole", ["--steps", "2048"]), ("paused", ["--steps", "2048", "--stop-at", "1024"]),
                        ("short", ["--steps", "1024"])):
        assert cli.main(["train", *flags, *extra, "--out", str(tmp_path / name)]) == 0
    out = capsys.readouterr().out
    assert f"paused at step 1024 (--stop-at 1024): saved {tmp_path / 'paused' / 'checkpoints'}" in out
    paused = tmp_path / "paused"
    assert not (paused / "model.safetensors").exists()
    assert json.loads((paused / "progress.json").read_text())["timesteps"] == 1024

    def policy(run):
        return read_checkpoint(run / "checkpoints" / "ckpt_1024.safetensors").policy_state

    whole, cut, short = (policy(tmp_path / name) for name in ("whole", "paused", "short"))
    assert whole.keys() == cut.keys() and all(torch.equal(whole[k], cut[k]) for k in whole)
    assert not all(torch.equal(whole[k], short[k]) for k in whole)  # its schedules ended at 1024

    assert cli.main(["train", "--resume", str(paused), "--best", "--no-progress"]) == 0
    card = json.loads((paused / "model.json").read_text())
    assert card["timesteps"] in (0, 512, 1024) and card["steps_trained"] == 1024
    assert card["resume_commands"] == [f"fof train --resume {paused} --best --no-progress"]


@pytest.mark.parametrize("extra, message", [
    (["--steps", "1024", "--stop-at", "1024"], "--stop-at (1024) must be below --steps (1024)"),
    (["--steps", "1024", "--stop-at", "0"], "--stop-at must be an integer >= 1, got 0"),
])
def test_a_stop_at_that_cannot_pause_is_refused_before_anything_is_written(tmp_path, capsys, extra, message):
    run = tmp_path / "refused"
    argv = ["train", "--game", "strike_force_one", "--side", "soviet", "--opponent", "random", *extra,
            "--out", str(run), *TINY]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("fof train: ") and message in err and err.count("\n") == 1
    assert not run.exists()


def test_a_resume_refuses_a_stop_at_it_has_passed_or_beside_best(tmp_path, capsys):
    run = tmp_path / "run"
    assert cli.main(["train", "--game", "strike_force_one", "--side", "soviet", "--opponent", "random",
                     "--eval-opponent", "random", "--envs", "1", "--steps", "2048", "--stop-at", "1024",
                     "--out", str(run), *TINY]) == 0
    config = (run / "config.json").read_bytes()
    assert cli.main(["train", "--resume", str(run), "--stop-at", "512", "--no-progress"]) == 2
    assert f"--stop-at (512) must be above the 1024 steps {run} has done" in capsys.readouterr().err
    assert cli.main(["train", "--resume", str(run), "--best", "--stop-at", "1536", "--no-progress"]) == 2
    assert "give one of them" in capsys.readouterr().err
    assert (run / "config.json").read_bytes() == config  # neither refusal wrote anything
    assert cli.main(["train", "--resume", str(run), "--stop-at", "1536", "--no-progress"]) == 0
    assert json.loads((run / "progress.json").read_text())["timesteps"] == 1536


def _tiny_model(folder):
    """A Soviet model on a 16-unit net that fof train wrote (256 PPO steps, next to no evaluation)."""
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(folder), steps=256, envs=1,
                         opponents=["random"], eval_opponents=["random"], n_steps=256, batch_size=128,
                         n_epochs=1, net_arch=[16], eval_every=256, eval_games=2, final_eval_games=2,
                         checkpoint_every=256, torch_threads=1)
    train(config, f"fof train ({folder.name})", progress=False, log=lambda _t: None)
    return folder / "model.safetensors"


def test_init_starts_from_a_models_policy_and_the_card_records_which(tmp_path, capsys):
    """--init MODEL: the run's policy starts as that model's (ckpt_0, before any PPO step, holds
    its tensors exactly), and the card names the model, its sha256 and the commands that made it."""
    parent = _tiny_model(tmp_path / "parent")
    run = tmp_path / "tuned"
    argv = ["train", "--game", "strike_force_one", "--side", "soviet", "--steps", "256", "--envs", "1",
            "--opponent", "random", "--eval-opponent", "random", "--init", str(parent), "--out", str(run),
            *TINY, "--net-arch", "16"]
    assert cli.main(argv) == 0
    assert f"starting from model {parent}" in capsys.readouterr().out
    parent_card = json.loads((tmp_path / "parent" / "model.json").read_text())
    card = json.loads((run / "model.json").read_text())
    assert card["init"] == {"spec": str(parent), "file": "model.safetensors",
                            "sha256": parent_card["weights"]["sha256"], "commands": ["fof train (parent)"]}
    assert card["config"]["init"] == str(parent) and card["imitation"] is None
    start = read_checkpoint(run / "checkpoints" / "ckpt_0.safetensors").policy_state
    parent_tensors = load_policy(parent).state_dict()
    assert sorted(start) == sorted(parent_tensors)
    assert all(torch.equal(start[key], parent_tensors[key]) for key in parent_tensors)
    trained = load_policy(run / "model.safetensors").state_dict()  # and PPO moved it from there
    assert not all(torch.equal(trained[key], parent_tensors[key]) for key in parent_tensors)


def test_an_init_model_that_cannot_start_the_run_is_refused_before_anything_is_written(tmp_path, capsys):
    parent = _tiny_model(tmp_path / "parent")
    base = ["train", "--game", "strike_force_one", "--side", "soviet", "--steps", "256", "--opponent", "random",
            "--out", str(tmp_path / "x"), "--no-progress"]
    cases = [
        (["--init", str(parent)],  # the default --net-arch is 128 128
         f"fof train: cannot start from model {parent}: its network is 16, the run's --net-arch is 128 128; "
         "give --net-arch 16"),
        (["--init", str(parent), "--net-arch", "16", "--imitate", "heuristic"],
         "fof train: --init and --imitate both choose the starting policy: give one of them"),
        (["--init", str(tmp_path / "none.safetensors")], f"fof train: --init: no model {tmp_path / 'none.safetensors'}"),
    ]
    for extra, message in cases:
        assert cli.main(base + extra) == 2
        assert capsys.readouterr().err.strip() == message
    other_side = ["train", "--game", "strike_force_one", "--side", "us", "--steps", "256", "--opponent", "random",
                  "--out", str(tmp_path / "x"), "--init", str(parent), "--net-arch", "16", "--no-progress"]
    assert cli.main(other_side) == 2
    assert "it plays side 'soviet', not 'us'" in capsys.readouterr().err
    both = TrainConfig(game="strike_force_one", side="both", out=str(tmp_path / "x"), opponents=["random"],
                       init="ppo")
    with pytest.raises(ValueError, match=r"^--init ppo names the model shipped for one side"):
        both.validate()
    assert not (tmp_path / "x").exists()


def test_init_ppo_starts_from_the_shipped_model_of_the_side(tmp_path):
    config = TrainConfig(game="strike_force_one", side="soviet", out=str(tmp_path / "x"), opponents=["random"],
                         init="ppo", net_arch=[256, 256])
    path, card = resolve_init(config, make_game("strike_force_one"))
    assert path.name == "strike_force_one-soviet.safetensors" and card["side"] == "soviet"


def test_a_resume_refuses_the_config_options_it_would_ignore(tmp_path, capsys):
    """--resume trains on with the run's own config.json: any other option but --steps, --best,
    --stop-at, --no-progress and where it runs is refused by name, not silently dropped, even
    when typed with its default value."""
    with pytest.raises(SystemExit) as refusal:
        cli.main(["train", "--resume", str(tmp_path / "run"), "--steps", "9", "--learning-rate", "1e-4",
                  "--init", "ppo", "--opponent", "heuristic", "--no-progress"])
    assert refusal.value.code == 2
    assert capsys.readouterr().err.strip().endswith(
        "fof train: error: --resume takes the run's own config (only --steps, and where it runs: --workers, "
        "--backend, --address, may change); drop --opponent, --learning-rate, --init")
    assert not (tmp_path / "run").exists()


def test_a_resumed_run_may_play_its_games_on_other_workers(tmp_path):
    """The imitation games and evaluations give the same results on any number of workers, so a
    resume may change them (a bigger machine); config.json and the card record the new count."""
    run = tmp_path / "run"
    first = ["train", "--game", "strike_force_one", "--side", "soviet", "--steps", "1024", "--stop-at", "512",
             "--envs", "1", "--opponent", "random", "--eval-opponent", "random", "--out", str(run), *TINY]
    assert cli.main(first) == 0
    assert json.loads((run / "config.json").read_text())["config"]["workers"] == 1
    assert cli.main(["train", "--resume", str(run), "--workers", "2", "--no-progress"]) == 0
    saved = json.loads((run / "config.json").read_text())
    assert saved["config"]["workers"] == 2 and saved["commands"][-1].endswith("--workers 2 --no-progress")
    assert json.loads((run / "model.json").read_text())["config"]["workers"] == 2


def test_a_run_with_a_learner_set_up_agent_trains_and_records_it(tmp_path):
    """--learner-setup heuristic: the heuristic places the Taliban teams in training and evaluation."""
    run = tmp_path / "laf-setup"
    config = TrainConfig(game="lost_and_found", side="taliban", out=str(run), steps=256, envs=1,
                         opponents=["random"], n_steps=128, batch_size=64, n_epochs=1, net_arch=[16],
                         eval_every=256, eval_games=2, final_eval_games=2, checkpoint_every=256,
                         learner_setup="heuristic")
    train(config, "fof train --learner-setup heuristic", progress=False, log=lambda _t: None)
    card = json.loads((run / "model.json").read_text())
    assert card["config"]["learner_setup"] == "heuristic" and card["timesteps"] >= 256


def test_an_unknown_learner_set_up_agent_is_refused_before_training(tmp_path):
    with pytest.raises(ValueError, match="nobody"):
        TrainConfig(game="lost_and_found", side="taliban", out=str(tmp_path / "x"), learner_setup="nobody").validate()


def test_evaluation_points_carry_the_mean_vp_margin_where_the_game_counts_victory_points():
    from agents.policy_io import build_policy
    from agents.ppo import PolicyAgent
    from agents.specs import build_agent
    from evaluation.executors import make_executor

    game = make_game("compound_raid")
    arch = tiny_arch(game, 8)
    torch.manual_seed(1)
    policy = build_policy(arch)
    inline = callbacks.evaluate_policy(game, "militia", policy, "random", 4, 5)
    with make_executor("local", workers=2) as pool:
        assert callbacks.evaluate_policy(game, "militia", policy, "random", 4, 5, pool) == inline
    player = game.player_index("militia")
    margins = []
    import numpy as np

    for seed in np.random.SeedSequence(5).generate_state(4, dtype=np.uint32):
        learner = PolicyAgent(game, player, policy, seed=int(seed) + 2)  # its unseen placements are sampled
        agents = [learner, build_agent("random", game, 1 - player, int(seed) + 1)]
        vp = play_game(game, agents if player == 0 else agents[::-1], int(seed), record=False).vp
        margins.append(vp[player] - vp[1 - player])
    assert inline[0]["vp_margin"] == round(sum(margins) / 4, 2)
    sfo = make_game("strike_force_one")
    arch.update(observation_shape=list(sfo.observation_shape), num_actions=sfo.num_actions)
    assert "vp_margin" not in callbacks.evaluate_policy(sfo, "soviet", build_policy(arch), "random", 2, 5)[0]
