"""Executors: the same results in this process, in a process pool and on Ray; workers that stop
when told to and die with their parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from evaluation.executors import (
    ExecutorUnavailable,
    InProcessExecutor,
    ProcessPoolBackend,
    check_reachable,
    make_executor,
)
from evaluation.report import write_json
from evaluation.tournament import TournamentError, plan_tournament, play_tournament, without_timing
from tests.evaluation.test_resume import _alive, _wait_gone


def slow_square(x: float) -> float:
    """Sleeps ``x / 10`` s (later tasks finish first when ``x`` decreases), returns ``x * x``."""
    time.sleep(x / 10)
    return x * x


def nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def gated(gate: str) -> str:
    """Waits until the file ``gate`` exists (at most 60 s); returns its name."""
    deadline = time.monotonic() + 60
    while not os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.path.basename(gate)


@pytest.mark.parametrize("workers", [1, 3])
def test_map_keeps_task_order(workers):
    with make_executor("local", workers) as ex:
        assert isinstance(ex, InProcessExecutor if workers == 1 else ProcessPoolBackend)
        assert ex.parallelism == workers
        assert list(ex.map(slow_square, [3.0, 2.0, 1.0, 0.0, 0.5])) == [9.0, 4.0, 1.0, 0.0, 0.25]


def test_map_unordered_yields_each_result_as_its_task_finishes(tmp_path):
    first, second = str(tmp_path / "first"), str(tmp_path / "second")
    with make_executor("local", 2) as ex:
        results = ex.map_unordered(gated, [first, second])
        Path(second).touch()  # the second task finishes first ...
        assert next(results) == "second"  # ... and comes first, while the first one still waits
        Path(first).touch()
        assert list(results) == ["first"]


def test_leaving_with_an_exception_terminates_busy_workers_at_once():
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"), make_executor("local", 2) as ex:  # noqa: PT012
        results = ex.map_unordered(nap, [0.0, 60.0, 60.0, 60.0])
        next(results)
        pids = set(ex.worker_pids())
        assert len(pids) == 2 and _alive(pids) == pids
        raise RuntimeError("stop")
    assert _alive(pids) == set() and time.monotonic() - start < 15


_ORPHAN_PARENT = textwrap.dedent(
    """
    import multiprocessing, os, sys, time
    from evaluation.executors import die_with_parent

    def child(parent, kernel):
        die_with_parent(parent, 0.2, kernel=kernel)
        time.sleep(120)

    if __name__ == "__main__":
        ctx = multiprocessing.get_context("spawn")
        p = ctx.Process(target=child, args=(os.getpid(), sys.argv[1] == "kernel"))
        p.start()
        time.sleep(1.5)  # the child is set up
        print(p.pid, flush=True)
        time.sleep(120)
    """
)


@pytest.mark.parametrize("how", ["kernel", "polling"])
def test_a_worker_dies_with_its_killed_parent(tmp_path, how):
    script = tmp_path / "parent.py"
    script.write_text(_ORPHAN_PARENT)
    parent = subprocess.Popen([sys.executable, str(script), how], stdout=subprocess.PIPE, text=True,
                              cwd=os.getcwd(), env=dict(os.environ, PYTHONPATH=os.getcwd()))
    child = int(parent.stdout.readline())
    assert _alive({child}) == {child}
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    assert _wait_gone({child}, 10.0) == set()


def bar_then_gated(files: tuple[str, str]) -> str:
    """Makes a (silent) tqdm bar, as an imitation task does, says so in the file ``files[0]``, then
    waits for the gate ``files[1]``."""
    from tqdm import tqdm

    tqdm(total=1, disable=True).close()
    Path(files[0]).touch()
    return gated(files[1])


_GROUP_SIGNALLED_PARENT = textwrap.dedent(
    """
    import signal, sys
    from evaluation.executors import make_executor
    from evaluation.interrupts import Terminated, sigterm_raises
    from tests.evaluation.test_executors import bar_then_gated

    if __name__ == "__main__":
        running, gate, how = sys.argv[1:]
        if how == "carry on":  # like fof train: note the signal, finish what runs, close the pool
            signal.signal(signal.SIGTERM, lambda *_: print("SIGTERM", flush=True))
            with make_executor("local", 2) as ex:
                print(list(ex.map(bar_then_gated, [(running, gate)])), flush=True)
        else:  # like fof evaluate: stop now, which kills the busy worker
            try:
                with sigterm_raises(), make_executor("local", 2) as ex:
                    print(list(ex.map(bar_then_gated, [(running, gate)])), flush=True)
            except Terminated:
                print("stopped", flush=True)
    """
)


@pytest.mark.parametrize("how", ["carry on", "stop"])
def test_sigterm_to_the_process_group_leaves_the_workers_to_the_parent(tmp_path, how):
    """``timeout`` and batch schedulers send SIGTERM to the whole process group: the workers ignore
    it, the parent decides, and no named semaphore outlives a worker ("leaked semaphore objects")."""
    script, running, gate = tmp_path / "parent.py", tmp_path / "running", tmp_path / "gate"
    script.write_text(_GROUP_SIGNALLED_PARENT)
    parent = subprocess.Popen([sys.executable, str(script), str(running), str(gate), how],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True, cwd=os.getcwd(),
                              env=dict(os.environ, PYTHONPATH=os.getcwd()))
    gated(str(running))  # the worker has made its bar and is busy
    assert running.exists()
    os.killpg(parent.pid, signal.SIGTERM)
    if how == "carry on":
        assert parent.stdout.readline() == "SIGTERM\n"
        gate.touch()  # the busy worker, still alive, finishes its task
    out, err = parent.communicate(timeout=60)
    assert (parent.returncode, "leaked" in err) == (0, False), err
    assert out == ("['gate']\n" if how == "carry on" else "stopped\n")


def test_backend_errors(monkeypatch):
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        make_executor("spark", 2)
    with pytest.raises(ValueError, match="--address is for the ray backend"):
        make_executor("local", 2, "head:6379")
    import socket

    with socket.socket() as sock:  # a port nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(ExecutorUnavailable, match=rf"^no Ray cluster answers at 127.0.0.1:{port} \("):
        check_reachable(f"127.0.0.1:{port}")
    assert check_reachable("auto") is None and check_reachable("ray://head:10001") is None  # Ray's to judge
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(ExecutorUnavailable, match=r"not installed here .*: pip install 'fof-env\[ray\]'"):
        make_executor("ray", 2)


def stumbling(game, player, seed=None):
    """A random agent that fails on its third decision (a game that fails mid-tournament)."""
    from agents.base import RandomAgent

    class Stumbling(RandomAgent):
        calls = 0

        def act(self, state):
            self.calls += 1
            if self.calls == 3:
                raise RuntimeError("stumbled")
            return super().act(state)

    return Stumbling(game, player, seed)


def test_ray_backend_gives_the_results_of_one_local_worker(tmp_path):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'fof-env[ray]')")
    assert not ray.is_initialized()
    sigterm = signal.getsignal(signal.SIGTERM)
    plan = plan_tournament("lost_and_found", {"rules": "quick"}, ["random", "heuristic"], 3, seed=2)
    local = play_tournament(plan, workers=1, records_dir=tmp_path / "local" / "records", progress=False)
    with make_executor("ray", 2) as ex:  # a private local Ray with 2 CPUs
        assert ray.is_initialized() and ex.parallelism == 2
        remote = play_tournament(plan, executor=ex, records_dir=tmp_path / "ray" / "records", progress=False)
        failed = r"^strike_force_one: \w+ vs \w+, game 0 \(dice seed \d+.*\): RuntimeError: stumbled$"
        with pytest.raises(TournamentError, match=failed):  # the game's own error, not Ray's wrapper
            run_tournament_on(ex, ["random", stumbling])
    assert not ray.is_initialized()  # shut down with the executor
    assert signal.getsignal(signal.SIGTERM) == sigterm  # ray.init's own handler is taken back
    assert (remote.backend, remote.workers, local.backend) == ("ray", 2, "local")
    data = [json.loads(write_json(r, tmp_path / name / "results.json").read_text())
            for r, name in ((local, "local"), (remote, "ray"))]
    assert data[0]["timing"]["backend"] == "local" and data[1]["timing"]["backend"] == "ray"
    assert without_timing(data[0]) == without_timing(data[1])
    assert len(data[1]["games"]) == 12
    for o in local.outcomes:
        assert (tmp_path / "local" / "records" / o.record).read_bytes() == (
            tmp_path / "ray" / "records" / o.record).read_bytes()


def run_tournament_on(executor, specs):
    plan = plan_tournament("strike_force_one", {}, specs, 1, mirror=False)
    return play_tournament(plan, executor=executor, progress=False)
