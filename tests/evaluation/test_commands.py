"""``fof evaluate`` and ``fof replay`` from the command line (tiny budgets)."""

from __future__ import annotations

import json

import pytest

from fof_env import cli


def test_evaluate_then_replay(capsys, tmp_path):
    out_dir = tmp_path / "rep"
    argv = [
        "evaluate",
        "--game",
        "lost_and_found",
        "--agents",
        "random",
        "heuristic",
        "--games",
        "2",
        "--workers",
        "1",
        "--option",
        "rules=quick",
        "--out",
        str(out_dir),
        "--no-progress",
    ]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "# Tournament: lost_and_found (rules=quick" in out and "## Ratings" in out
    assert "| heuristic | random | 2 |" in out and f"Report: {out_dir / 'results.json'}" in out
    assert out.endswith(f"How each agent's games not won ended: python -m evaluation.endings {out_dir}\n")
    for name in ("results.json", "results.csv", "report.md", "report.html"):
        assert (out_dir / name).exists()
    data = json.loads((out_dir / "results.json").read_text())
    assert data["options"]["rules"] == "quick" and data["timing"]["games"] == 8
    records = sorted((out_dir / "records" / "lost_and_found").glob("*/*.json"))
    assert len(records) == 8

    frames = tmp_path / "frames"
    gif = tmp_path / "game.gif"
    argv = ["replay", str(records[0]), "--every", "20", "--png", str(frames), "--gif", str(gif)]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "--- start ---" in out and "Result: " in out
    assert "Verified: re-simulated from its dice seed, the final state equals the recorded final state" in out
    pngs = sorted(frames.glob("frame_*.png"))
    assert pngs[0].name == "frame_00000.png" and gif.read_bytes()[:6] in (b"GIF89a", b"GIF87a")

    assert cli.main(["replay", str(records[0]), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "--- start ---" not in out and out.startswith("Result: ") and "Verified" in out


def test_evaluate_strike_force_one_no_mirror_no_records(capsys, tmp_path):
    argv = [
        "evaluate",
        "--game",
        "strike_force_one",
        "--agents",
        "random",
        "heuristic",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--no-mirror",
        "--no-records",
        "--no-html",
        "--no-progress",
    ]
    assert cli.main(argv) == 0
    assert "| soviet | us | games |" in capsys.readouterr().out
    assert not (tmp_path / "records").exists() and not (tmp_path / "report.html").exists()
    assert len(json.loads((tmp_path / "results.json").read_text())["pairings"]) == 2


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--agents", "random", "wizard"], "unknown agent kind 'wizard'"),
        (["--agents", "random:7"], "takes no bare argument"),
        (["--agents", "random", "--option", "colour=red"], "unknown option"),
        (["--agents", "random", "--games", "0"], "at least 1"),
        (["--agents", "random", "ppo:/tmp/no/such/model.safetensors"], "'ppo:/tmp/no/such/model.safetensors'"),
        (["--agents", "random", "--address", "head:6379"], "--address needs --backend ray"),
        (["--agents", "random", "heuristic@usmc"],
         "'usmc' is not a side of strike_force_one (its sides: soviet, us)"),
        ([], "give --game and --agents (or --resume OUT to go on with a tournament)"),
    ],
)
def test_evaluate_errors_exit_2_before_playing(capsys, tmp_path, extra, message):
    out_dir = tmp_path / "never"
    assert cli.main(["evaluate", "--game", "strike_force_one", "--out", str(out_dir), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("fof evaluate: ") and err.count("\n") == 1
    assert not out_dir.exists()


def _evaluate(out: str, *extra: str) -> list[str]:
    return ["evaluate", "--game", "strike_force_one", "--agents", "random", "--games", "1", "--workers", "1",
            "--no-progress", "--out", out, *extra]


def test_evaluate_refuses_an_out_that_is_a_file(capsys, tmp_path):
    path = tmp_path / "report.txt"
    path.write_text("keep me")
    assert cli.main(_evaluate(str(path))) == 2
    assert capsys.readouterr().err == f"fof evaluate: --out {path} is a file, not a folder\n"
    assert path.read_text() == "keep me" and sorted(tmp_path.iterdir()) == [path]


def test_evaluate_names_the_file_it_cannot_write(capsys, tmp_path, monkeypatch):
    import errno
    import os

    def read_only(src, dst):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dst))

    monkeypatch.setattr(os, "replace", read_only)  # every file is written through os.replace
    out_dir = tmp_path / "a" / "b"
    assert cli.main(_evaluate(str(out_dir))) == 2
    assert capsys.readouterr().err == (
        f"fof evaluate: cannot write {out_dir / 'tournament.json'}: Read-only file system\n"
    )
    assert list(tmp_path.iterdir()) == []  # the folders it made are gone again


def test_evaluate_says_how_to_get_ray(capsys, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    out_dir = tmp_path / "never"
    assert cli.main(_evaluate(str(out_dir), "--backend", "ray")) == 2
    err = capsys.readouterr().err
    assert err.startswith("fof evaluate: the ray backend needs Ray, which is not installed here")
    assert err.endswith(": pip install 'fof-env[ray]'\n") and err.count("\n") == 1
    assert not out_dir.exists()


def test_evaluate_disk_full_mid_tournament_keeps_the_log_and_says_how_to_go_on(capsys, tmp_path, monkeypatch):
    from evaluation import journal

    real = journal.GameLog.append
    calls = []

    def full_after_two(self, outcomes):
        calls.append(len(outcomes))
        if len(calls) > 2:
            raise journal.OutputError(self.path, "No space left on device")
        real(self, outcomes)

    monkeypatch.setattr(journal.GameLog, "append", full_after_two)
    out_dir = tmp_path / "out"
    argv = _evaluate(str(out_dir), "--agents", "random", "heuristic", "--no-records")
    assert cli.main(argv) == 2
    logged = calls[0] + calls[1]
    assert capsys.readouterr().err == (
        f"fof evaluate: cannot write {out_dir / 'games.jsonl'}: No space left on device; "
        f"{logged} games are logged: fof evaluate --resume {out_dir}\n"
    )
    assert len((out_dir / "games.jsonl").read_text().splitlines()) == logged
    monkeypatch.setattr(journal.GameLog, "append", real)
    assert cli.main(["evaluate", "--resume", str(out_dir), "--no-progress", "--no-html"]) == 0
    assert f"Resumed: {logged} games" in capsys.readouterr().out


def test_replay_errors(capsys, tmp_path):
    path = tmp_path / "game.json"
    assert cli.main(["play", "strike_force_one", "--seed", "4", "--quiet", "--record", str(path)]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text())
    data["actions"][0] = "0101"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "record action 0 ('0101', soviet select_unit) is not legal here" in err
    data = json.loads(path.read_text())
    data["dice"]["draws"] += 1  # a final dice state the seed does not lead to
    bad.write_text(json.dumps(data))
    assert cli.main(["replay", str(bad), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.err and "the final dice state: not as recorded" in captured.err
    assert "Verification FAILED" in captured.out


def test_evaluate_a_record_that_cannot_be_written_stops_it_in_one_line(capsys, tmp_path, monkeypatch):
    import errno
    import os

    from evaluation import tournament

    real = tournament.write_text_atomic
    written = []

    def full_on_the_third(path, text):
        if len(written) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        written.append(path)
        return real(path, text)

    monkeypatch.setattr(tournament, "write_text_atomic", full_on_the_third)
    out_dir = tmp_path / "out"
    assert cli.main(_evaluate(str(out_dir), "--agents", "random", "heuristic")) == 2
    third = out_dir / "records" / "strike_force_one" / "heuristic__vs__random" / "0000.json"
    assert capsys.readouterr().err == (
        f"fof evaluate: cannot write {third}: No space left on device; "
        f"2 games are logged: fof evaluate --resume {out_dir}\n"
    )
    assert not third.exists() and [p.name for p in written] == ["0000.json", "0000.json"]


def test_evaluate_plays_a_spec_with_a_side_suffix_on_that_side_only_and_resumes_it(capsys, tmp_path):
    out_dir = tmp_path / "out"
    argv = ["evaluate", "--game", "strike_force_one", "--agents", "random", "heuristic@US", "--games", "2",
            "--workers", "1", "--no-mirror", "--no-progress", "--no-html", "--out", str(out_dir)]
    assert cli.main(argv) == 0
    data = json.loads((out_dir / "results.json").read_text())
    pairings = [(p["agents"]["soviet"], p["agents"]["us"]) for p in data["pairings"]]
    assert pairings == [("random", "heuristic@US")]
    lines = (out_dir / "games.jsonl").read_text().splitlines()
    (out_dir / "games.jsonl").write_text(lines[0] + "\n")
    capsys.readouterr()
    assert cli.main(["evaluate", "--resume", str(out_dir), "--no-progress", "--no-html"]) == 0
    assert "Resumed: 1 games" in capsys.readouterr().out
    again = json.loads((out_dir / "results.json").read_text())
    assert [g["winner"] for g in again["games"]] == [g["winner"] for g in data["games"]]
