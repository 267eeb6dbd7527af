"""Where independent work runs: this process, a local process pool, or a Ray cluster.

>>> from evaluation.executors import make_executor
>>> with make_executor("local", workers=1) as ex:
...     sorted(ex.map_unordered(abs, [-2, 1, -3]))
[1, 2, 3]

An :class:`Executor` applies a module-level function to independent tasks and
yields the results as they finish (:meth:`Executor.map_unordered`) or in task
order (:meth:`Executor.map`). Functions and tasks must pickle (a module-level
function pickles by reference: the worker imports its module, so on a Ray
cluster the project must be installed on every node). Results never depend on
the backend as long as ``fn`` is deterministic given its task: a seeded game is.

Backends (:func:`make_executor`):

* ``local`` with ``workers=1``: everything in this process, in order, no pool.
* ``local`` with ``workers > 1``: a ``ProcessPoolExecutor`` with the "spawn" start
  method (safe once torch is loaded; about 0.3 s per worker to start), created at
  the first ``map`` and kept until :meth:`Executor.close`. Each worker uses one math
  thread, ignores SIGINT and SIGTERM (Ctrl-C in a terminal, ``timeout`` and batch
  schedulers signal the whole process group; the parent decides: it shuts the pool
  down, or :meth:`Executor.abort` kills the workers) and dies with the parent, SIGKILL
  included: on Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, and everywhere a daemon
  thread that calls ``os._exit`` once ``os.getppid()`` is no longer the parent. A
  worker's tqdm bars share a thread lock, not tqdm's default multiprocessing one (a
  named semaphore that a killed worker would leak). Create and use a pool
  from one long-lived thread: Linux delivers the death signal when the *thread* that
  started a worker ends.
* ``ray``: tasks as Ray tasks (one CPU each). With ``address`` it joins that cluster
  (``ray.init(address=...)``) and runs as many tasks at once as the cluster has
  CPUs; without, it starts a private local Ray with ``num_cpus=workers``
  (``address="local"``: never some other cluster found on the machine). Ray is
  imported here only; if it is missing, :class:`ExecutorUnavailable` says how to
  install it.

At most ``2 * parallelism`` tasks are submitted ahead of the results taken, so a
long or endless task iterator is fine and stopping wastes little. Leaving the
executor's ``with`` block normally waits for submitted work; leaving it with an
exception (Ctrl-C, SIGTERM turned into an exception, a failed task) calls
:meth:`Executor.abort`: nothing more is submitted and every worker is killed now.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import ctypes
import functools
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
RAY_INSTALL = "pip install 'fof-env[ray]'"
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class ExecutorUnavailable(RuntimeError):
    """A backend that cannot start here (Ray not installed, no cluster at the address...)."""


# ----------------------------------------------------------------------------- worker side
def die_with_parent(parent_pid: int, poll_seconds: float = 0.5, *, kernel: bool = True) -> None:
    """Make this process exit as soon as ``parent_pid`` (its parent) dies, however it dies.

    Linux (and ``kernel``): the kernel sends SIGKILL when the parent (thread) exits
    (``prctl(PR_SET_PDEATHSIG)``). Everywhere: a daemon thread polls ``os.getppid()``
    every ``poll_seconds`` and calls ``os._exit(1)`` once it changes (the orphan was
    re-parented). Exits at once if the parent is already gone.
    """
    if kernel and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no prctl: the thread below still works
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll_seconds)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="fof-parent-watch", daemon=True).start()


def _init_pool_worker(parent_pid: int) -> None:
    """Set-up of a local pool worker (see the module docstring)."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")  # torch, if a task loads it, reads these
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _thread_lock_for_tqdm()
    die_with_parent(parent_pid)


def _thread_lock_for_tqdm() -> None:
    """Give tqdm a thread lock: its default also creates a multiprocessing lock, a named semaphore
    that a killed worker leaves to the resource tracker ("leaked semaphore objects" at exit)."""
    from tqdm import tqdm

    tqdm.set_lock(threading.RLock())


def _apply_indexed(fn: Callable[[Any], Any], item: tuple[int, Any]) -> tuple[int, Any]:
    index, task = item
    return index, fn(task)


# ----------------------------------------------------------------------------- interface
class Executor:
    """Runs ``fn(task)`` for independent tasks; see the module docstring."""

    name = "executor"
    parallelism = 1  # tasks that run at once

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in the order they finish.

        A task's exception is raised here (the rest is then abandoned: leave the
        ``with`` block, which aborts)."""
        raise NotImplementedError

    def map(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """Yield ``fn(task)`` for every task, in task order (results that finish early wait)."""
        waiting: dict[int, R] = {}
        following = 0
        for index, result in self.map_unordered(functools.partial(_apply_indexed, fn), enumerate(tasks)):
            waiting[index] = result
            while following in waiting:
                yield waiting.pop(following)
                following += 1

    def close(self) -> None:
        """Wait for submitted work, then release the workers."""

    def abort(self) -> None:
        """Stop now: submit nothing more, cancel what is queued, terminate the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


class InProcessExecutor(Executor):
    """``local`` with one worker: every task in this process, in order."""

    name = "local"
    parallelism = 1

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        for task in tasks:
            yield fn(task)


class ProcessPoolBackend(Executor):
    """``local`` with ``workers > 1``: a spawn ``ProcessPoolExecutor`` (see the module docstring)."""

    name = "local"

    def __init__(self, workers: int):
        if workers < 2:
            raise ValueError(f"a process pool needs at least 2 workers, got {workers}")
        self.parallelism = workers
        self._pool: cf.ProcessPoolExecutor | None = None

    def _ensure_pool(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(
                self.parallelism,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_pool_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def worker_pids(self) -> list[int]:
        """The pids of the pool's live worker processes (empty before the first ``map``)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        pool = self._ensure_pool()
        todo = iter(tasks)
        pending: set[cf.Future] = set()

        def top_up() -> None:
            while len(pending) < 2 * self.parallelism:
                task = next(todo, _END)
                if task is _END:
                    return
                pending.add(pool.submit(fn, task))

        try:
            top_up()
            while pending:
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                pending -= done
                for future in done:
                    yield future.result()
                top_up()
        finally:
            for future in pending:  # left early: what has not started never will
                future.cancel()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def abort(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())  # before shutdown clears it
        for process in processes:
            if process.is_alive():
                process.kill()  # SIGKILL: a worker ignores SIGTERM, and has nothing to save
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(5.0)


_END = object()


def _import_ray():
    try:
        import ray
    except ImportError as exc:
        raise ExecutorUnavailable(
            f"the ray backend needs Ray, which is not installed here ({exc}): {RAY_INSTALL}"
        ) from None
    return ray


def _ray_call(fn: Callable[[Any], Any], task: Any) -> Any:
    return fn(task)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Raise :class:`ExecutorUnavailable` at once if nothing listens at ``HOST:PORT`` (Ray itself
    retries for minutes); other address forms (``auto``, ``ray://...``) are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or "/" in address:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise ExecutorUnavailable(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
            f"`ray start --head --port={port}` there"
        ) from None


class RayBackend(Executor):
    """``ray``: tasks as Ray tasks on a cluster (``address``) or a private local Ray (``workers`` CPUs).

    ``ray.init`` sets a SIGTERM handler of its own; when this backend started Ray, closing it shuts
    Ray down and puts back the handler it found, so a process that goes on (a test run, a notebook)
    keeps its own."""

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None):
        ray = _import_ray()
        self._ray = ray
        self._owns = not ray.is_initialized()
        self._sigterm = None  # the SIGTERM handler before ray.init, which sets its own
        if self._owns and threading.current_thread() is threading.main_thread():
            self._sigterm = signal.getsignal(signal.SIGTERM)
        if self._owns:
            options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING}
            if address:
                check_reachable(address)
                options["address"] = address
            else:
                options.update(address="local", num_cpus=workers)
            # A private local Ray keeps Ray's default, token authentication, without the warning
            # that announces it; whatever RAY_AUTH_MODE says is respected.
            auth_log = logging.getLogger("ray._private.authentication.authentication_token_setup")
            level = auth_log.level
            auth_log.setLevel(logging.ERROR)
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"join the Ray cluster at {address}" if address else "start a local Ray"
                hint = ""
                if address and "RAY_AUTH_MODE" not in os.environ:  # Ray never guesses it for an address
                    hint = "; a cluster with Ray's token authentication needs RAY_AUTH_MODE=token and its token"
                raise ExecutorUnavailable(f"cannot {where}: {exc}{hint}") from None
            finally:
                auth_log.setLevel(level)
        self.parallelism = max(1, int(ray.cluster_resources().get("CPU", workers)))
        self._remote = ray.remote(_ray_call)
        self._pending: list[Any] = []

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        ray = self._ray
        todo = iter(tasks)
        pending = self._pending = []

        def top_up() -> None:
            while len(pending) < 2 * self.parallelism:
                task = next(todo, _END)
                if task is _END:
                    return
                pending.append(self._remote.remote(fn, task))

        try:
            top_up()
            while pending:
                (ready,), _ = ray.wait(pending, num_returns=1)
                pending.remove(ready)
                try:
                    result = ray.get(ready)
                except ray.exceptions.RayTaskError as exc:  # the task's own exception, not Ray's wrapper
                    cause = getattr(exc, "cause", None)
                    raise (cause if isinstance(cause, BaseException) else exc) from None
                yield result
                top_up()
        finally:
            self._cancel_pending()  # left early (an error, or the caller stopped): stop the rest

    def _cancel_pending(self) -> None:
        for ref in self._pending:
            with contextlib.suppress(Exception):  # already finished or its worker gone: nothing to stop
                self._ray.cancel(ref, force=True)
        self._pending = []

    def close(self) -> None:
        self._cancel_pending()
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
        if self._sigterm is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._sigterm)  # the process's handler as Ray found it
            self._sigterm = None

    def abort(self) -> None:
        self.close()  # a private local Ray goes down with its workers; on a cluster the tasks are cancelled


def make_executor(backend: str = "local", workers: int = 1, address: str | None = None) -> Executor:
    """The executor for ``backend`` (``"local"`` or ``"ray"``) with ``workers`` processes/CPUs.

    ``address`` (ray only) joins an existing Ray cluster (``HOST:6379``); its CPUs then
    set the parallelism. Raises ``ValueError`` for a bad argument and
    :class:`ExecutorUnavailable` when Ray is missing or cannot start.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if backend == "local":
        if address:
            raise ValueError("--address is for the ray backend (--backend ray)")
        return InProcessExecutor() if workers == 1 else ProcessPoolBackend(workers)
    if backend == "ray":
        return RayBackend(workers, address)
    raise ValueError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
