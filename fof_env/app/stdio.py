"""``fof engine``: the engine protocol on stdin/stdout, one JSON object per line each way.

Like a UCI or GTP engine: a front end starts ``fof engine`` as a child process, writes one
request per line and reads one reply per line, in order. A line that is not a request (not
JSON, too long, a wrong field) gets ``{"ok": false, "error": ...}`` and the engine reads on.
Bots decide with the engine's time limit (``--bot-timeout``).

End of input ends it, whatever a bot is doing: the lines already written are still answered, but
a bot decision still running (or starting) half a second after the end of input
(``limits.END_OF_INPUT_GRACE_S``) is stopped and answered with an error, so the engine is gone
within about a second. Lines are read by their own thread, so the end of input is seen while a
bot thinks.
"""

from __future__ import annotations

import queue
import sys
import threading
from typing import BinaryIO, TextIO

from fof_env.app.limits import END_OF_INPUT_GRACE_S
from fof_env.app.protocol import Engine


def _read_lines(inp: BinaryIO, limit: int, out: queue.Queue) -> None:
    """Put each line of ``inp`` on ``out`` (bytes, or the size of a line over ``limit``), then None."""
    try:
        while True:
            line = inp.readline(limit + 1)
            if not line:
                return
            if len(line) > limit and not line.endswith(b"\n"):
                size = len(line)
                while line and not line.endswith(b"\n"):  # skip the rest of the long line
                    line = inp.readline(1 << 16)
                    size += len(line)
                out.put(size)
            else:
                out.put(line)
    except (OSError, ValueError):  # the input closed under us
        return
    finally:
        out.put(None)


def serve_lines(engine: Engine, inp: BinaryIO, out: TextIO, grace: float = END_OF_INPUT_GRACE_S) -> int:
    """Answer every line of ``inp`` on ``out`` until end of input; returns the lines answered. ``grace``
    seconds after the end of input the engine stops its bots (module docstring)."""
    lines: queue.Queue = queue.Queue()
    limit = engine.max_line

    def reader() -> None:
        _read_lines(inp, limit, lines)
        stopper = threading.Timer(grace, engine.close)
        stopper.daemon = True
        stopper.start()

    threading.Thread(target=reader, name="fof-engine-input", daemon=True).start()
    answered = 0
    while True:
        item = lines.get()
        if item is None:
            return answered
        if isinstance(item, int):
            reply = {"ok": False, "error": f"message too long: {item} bytes or more, the limit is {limit}"}
        else:
            text = item.strip()
            if not text:
                continue
            reply = engine.handle_text(text)
        out.write(engine.encode(reply) + "\n")
        out.flush()
        answered += 1


def run_engine(args, out: TextIO) -> int:
    """The ``fof engine`` command."""
    from fof_env.app.engine_flags import engine_options

    engine = Engine(name="fof engine (stdio)", **engine_options(args, connections=1))
    try:
        serve_lines(engine, sys.stdin.buffer, out)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:  # the front end stopped reading
        pass
    finally:
        engine.close()
    return 0
