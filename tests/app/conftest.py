"""Fixtures of the application tests: a running ``fof serve`` on a free localhost port."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.app.browser import browser  # noqa: F401 - the module-scoped browser fixture of the browser tests


def start_server(*extra: str) -> tuple[subprocess.Popen, str]:
    """``fof serve --port 0`` in a child process; (process, "127.0.0.1:PORT") once it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fof_env.cli", "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    line = proc.stdout.readline()  # "fof serve: board http://127.0.0.1:PORT/  protocol ws://..."
    if "http://" not in line:
        proc.kill()
        raise RuntimeError(f"fof serve did not start: {line!r} {proc.stderr.read()}")
    address = line.split("http://", 1)[1].split("/", 1)[0]
    return proc, address


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address ("127.0.0.1:PORT") of a ``fof serve`` running for the module's tests."""
    proc, address = start_server("--bot-timeout", "20")
    time.sleep(0.1)
    yield address
    stop_server(proc)
