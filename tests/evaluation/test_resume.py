"""Kill-safe ``fof evaluate``: a killed run leaves no worker behind, and ``--resume`` completes it
with the results of an uninterrupted run (every field but the timing ones)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaluation.tallies import GameOutcome
from evaluation.tournament import without_timing
from fof_env import cli

GAMES = 30  # per pairing: 4 pairings, about 2 s of games on 2 workers
TOURNAMENT = [
    "evaluate", "--game", "strike_force_one", "--agents", "random", "heuristic", "--games", str(GAMES),
    "--seed", "3", "--no-progress", "--no-html",
]  # fmt: skip
TOTAL = 4 * GAMES

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of a process, from ``/proc/<pid>/stat``; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
    return fields[0], int(fields[1])


def _children(pid: int) -> set[int]:
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] == pid:
                out.add(int(entry.name))
    return out


def _alive(pids: set[int]) -> set[int]:
    """The pids still running (a zombie has finished: it only waits to be reaped)."""
    return {p for p in pids if (s := _stat(p)) is not None and s[0] != "Z"}


def _wait_gone(pids: set[int], seconds: float = 10.0) -> set[int]:
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _alive(pids)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child before exec: SIGINT back to its default, as a terminal's shell starts a command.
    A process started with SIGINT ignored keeps ignoring it (Python installs no handler then), and the
    pytest worker may hold SIGINT ignored after an earlier test: one suite run under ``-n 2`` saw
    ``fof evaluate`` ignore the Ctrl-C, play every game and exit 0."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_and_wait_for_games(out: Path) -> tuple[subprocess.Popen, set[int]]:
    """Start ``fof evaluate`` on 2 workers; return once games are logged, with its child processes."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fof_env.cli", *TOURNAMENT, "--workers", "2", "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    children: set[int] = set()
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        children |= _children(proc.pid)
        if _lines(out / "games.jsonl") >= 1 and len(children) >= 2:
            break
        time.sleep(0.02)
    children |= _children(proc.pid)
    assert proc.poll() is None, f"finished before it could be stopped: {proc.communicate()[1]}"
    assert len(children) >= 2, children  # the two workers (and multiprocessing's resource tracker)
    return proc, children


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The same tournament, uninterrupted, in this process."""
    out = tmp_path_factory.mktemp("reference") / "out"
    assert cli.main([*TOURNAMENT, "--workers", "1", "--out", str(out)]) == 0
    return out


def _same_results(run: Path, reference: Path) -> None:
    mine = json.loads((run / "results.json").read_text())
    ref = json.loads((reference / "results.json").read_text())
    assert mine["timing"]["games"] == ref["timing"]["games"] == TOTAL
    assert without_timing(mine) == without_timing(ref)
    assert [GameOutcome.from_dict(g).untimed() for g in mine["games"]] == [  # only the clock readings differ
        GameOutcome.from_dict(g).untimed() for g in ref["games"]
    ]
    ours = sorted(p.relative_to(run) for p in (run / "records").rglob("*") if p.is_file())
    theirs = sorted(p.relative_to(reference) for p in (reference / "records").rglob("*") if p.is_file())
    assert ours == theirs and len(ours) == TOTAL  # no temporary file left
    assert all((run / p).read_bytes() == (reference / p).read_bytes() for p in ours)


def test_kill_9_leaves_no_worker_and_resume_gives_the_uninterrupted_results(tmp_path, reference, capsys):
    out = tmp_path / "run"
    proc, children = _start_and_wait_for_games(out)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _wait_gone(children) == set(), "workers outlived their killed parent"
    logged = _lines(out / "games.jsonl")
    assert 0 < logged < TOTAL
    assert json.loads((out / "tournament.json").read_text())["games"] == GAMES
    assert not (out / "results.json").exists()

    assert cli.main(["evaluate", "--resume", str(out), "--workers", "2", "--no-progress", "--no-html"]) == 0
    printed = capsys.readouterr().out
    resumed = json.loads((out / "results.json").read_text())["timing"]["resumed_games"]
    assert logged <= resumed < TOTAL  # the log's games (a record written but not yet logged is replayed)
    assert f"Resumed: {resumed} games from {out / 'games.jsonl'}, {TOTAL - resumed} played now." in printed
    assert _lines(out / "games.jsonl") == TOTAL
    _same_results(out, reference)


@pytest.mark.parametrize(("sig", "status", "what"), [(signal.SIGTERM, 143, "SIGTERM"), (signal.SIGINT, 130, "Ctrl-C")])
def test_sigterm_and_ctrl_c_stop_the_workers_and_say_how_to_resume(tmp_path, sig, status, what):
    out = tmp_path / "run"
    proc, children = _start_and_wait_for_games(out)
    os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == status
    lines = err.strip().splitlines()
    logged = _lines(out / "games.jsonl")
    assert lines == [
        f"fof evaluate: stopped by {what} after {logged} of {TOTAL} games, all logged in "
        f"{out / 'games.jsonl'}; go on with: fof evaluate --resume {out}"
    ]
    assert _wait_gone(children, 5.0) == set()
    assert 0 < logged < TOTAL


def test_a_torn_last_line_is_cut_off_and_its_game_played_again(tmp_path, reference, capsys):
    out = tmp_path / "run"
    assert cli.main([*TOURNAMENT, "--workers", "1", "--out", str(out)]) == 0
    log = out / "games.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    torn = lines[0] + lines[1] + lines[2][: len(lines[2]) // 2]  # a kill in the middle of line 3
    log.write_text(torn)
    (out / "results.json").unlink()
    first = json.loads(lines[0])["record"]
    (out / "records" / first).unlink()  # a logged game whose record went missing is played again
    assert cli.main(["evaluate", "--resume", str(out), "--workers", "1", "--no-progress", "--no-html"]) == 0
    assert f"Resumed: 1 games from {log}, {TOTAL - 1} played now." in capsys.readouterr().out
    assert log.read_text().startswith(lines[0] + lines[1])  # the torn text is gone
    assert all(json.loads(line) for line in log.read_text().splitlines())
    _same_results(out, reference)


def test_resume_refusals(tmp_path, reference, capsys):
    def refused(argv: list[str]) -> str:
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        return err.strip()

    saved = reference / "tournament.json"
    assert refused(["evaluate", "--resume", str(reference), "--games", "5", "--seed", "1"]) == (
        f"fof evaluate: --resume plays the tournament saved in {saved}; leave out --games, --seed"
    )
    assert refused([*TOURNAMENT, "--out", str(reference)]) == (
        f"fof evaluate: {reference} already holds a tournament: go on with it "
        f"(fof evaluate --resume {reference}) or choose another --out folder"
    )
    assert refused(["evaluate", "--resume", str(tmp_path)]) == (
        f"fof evaluate: no tournament to resume in {tmp_path} (no tournament.json)"
    )
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "tournament.json").write_text(saved.read_text())
    (damaged / "games.jsonl").write_text("{not json}\n" + (reference / "games.jsonl").read_text())
    assert refused(["evaluate", "--resume", str(damaged)]).startswith(
        f"fof evaluate: {damaged / 'games.jsonl'}, line 1: not a logged game (JSONDecodeError"
    )
    other = json.loads(saved.read_text()) | {"seed": 4}  # a log that belongs to another seed
    (damaged / "tournament.json").write_text(json.dumps(other))
    (damaged / "games.jsonl").write_text((reference / "games.jsonl").read_text())
    assert "has other seeds than this tournament gives it" in refused(["evaluate", "--resume", str(damaged)])


def test_resume_of_a_finished_tournament_only_writes_the_report(tmp_path, reference, capsys):
    out = tmp_path / "copy"
    shutil.copytree(reference, out)
    (out / "results.json").unlink()
    assert cli.main(["evaluate", "--resume", str(out), "--no-progress", "--no-records"]) == 2
    assert "leave out --no-records" in capsys.readouterr().err
    assert cli.main(["evaluate", "--resume", str(out), "--no-progress", "--no-html", "--workers", "2"]) == 0
    assert f"Resumed: {TOTAL} games from {out / 'games.jsonl'}, 0 played now." in capsys.readouterr().out
    _same_results(out, reference)
