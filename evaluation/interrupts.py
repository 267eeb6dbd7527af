"""SIGTERM as an exception, so a long command stops the way Ctrl-C stops it.

>>> with sigterm_raises():          # doctest: +SKIP
...     long_work()                 # SIGTERM here raises Terminated in the main thread

:class:`Terminated` derives from ``BaseException`` (as ``KeyboardInterrupt`` does), so
``except Exception`` blocks do not swallow it and ``with`` blocks and ``finally``
clauses run on the way out. :data:`EXIT_STATUS` gives the shell's status for each
(128 + the signal number): 130 for Ctrl-C (SIGINT), 143 for SIGTERM.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class Terminated(BaseException):
    """The process received SIGTERM (raised by the handler of :func:`sigterm_raises`)."""


EXIT_STATUS: dict[type[BaseException], int] = {KeyboardInterrupt: 130, Terminated: 143}


def _raise_terminated(signum, frame) -> None:
    raise Terminated(f"signal {signum}")


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread; the previous
    handler is restored after. Outside the main thread (no signal handlers there) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
