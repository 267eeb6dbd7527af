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
    ],
)
def test_evaluate_errors_exit_2_before_playing(capsys, tmp_path, extra, message):
    out_dir = tmp_path / "never"
    assert cli.main(["evaluate", "--game", "strike_force_one", "--out", str(out_dir), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not out_dir.exists()


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
    data["dice"]["state"]["state"]["state"] += 1  # a final dice state the seed does not lead to
    bad.write_text(json.dumps(data))
    assert cli.main(["replay", str(bad), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "MISMATCH" in captured.err and "the final dice state: not as recorded" in captured.err
    assert "Verification FAILED" in captured.out
