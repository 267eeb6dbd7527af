"""``fof engine``: the engine protocol on stdin/stdout, one JSON object per line each way.

Like a UCI or GTP engine: a front end starts ``fof engine`` as a child process, writes one
request per line and reads one reply per line, in order. A line that is not a request (not
JSON, too long, a wrong field) gets ``{"ok": false, "error": ...}`` and the engine reads on;
end of input ends it. Bots decide with the engine's time limit (``--bot-timeout``).
"""

from __future__ import annotations

import json
import sys
from typing import BinaryIO, TextIO

from fof_env.app.protocol import Engine


def serve_lines(engine: Engine, inp: BinaryIO, out: TextIO) -> int:
    """Answer every line of ``inp`` on ``out`` until end of input; returns the lines answered."""
    answered = 0
    limit = engine.max_line
    while True:
        line = inp.readline(limit + 1)
        if not line:
            return answered
        if len(line) > limit and not line.endswith(b"\n"):
            size = len(line)
            while line and not line.endswith(b"\n"):  # skip the rest of the long line
                line = inp.readline(1 << 16)
                size += len(line)
            reply = {"ok": False, "error": f"message too long: {size} bytes or more, the limit is {limit}"}
        else:
            text = line.strip()
            if not text:
                continue
            reply = engine.handle_text(text)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
        answered += 1


def run_engine(args, out: TextIO) -> int:
    """The ``fof engine`` command."""
    engine = Engine(
        bot_timeout=args.bot_timeout,
        allow_model_paths=True,
        save_dir=args.save_dir,
        max_line=args.max_message,
        name="fof engine (stdio)",
    )
    try:
        serve_lines(engine, sys.stdin.buffer, out)
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
    return 0
