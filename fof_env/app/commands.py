"""The ``fof engine`` and ``fof serve`` subcommands (registered by :mod:`fof_env.app.cli`)."""

from __future__ import annotations

import argparse
import contextlib
import functools
from typing import NoReturn, TextIO

from fof_env.app import limits


def add_parsers(sub) -> None:
    engine = sub.add_parser(
        "engine",
        help="the engine protocol on stdio: one JSON request per line in, one reply per line out",
        description="Speak fof-protocol/1 on stdin/stdout (docs/protocol.md): start games against any bot, "
        "get one side's view, play, undo, save and load. Start with {\"cmd\": \"hello\"}.",
    )
    _common(engine)
    engine.set_defaults(run=_run_engine)
    serve = sub.add_parser(
        "serve",
        help="the engine protocol on WebSocket and the browser board (http://127.0.0.1:8765/)",
        description="Serve fof-protocol/1 on ws://HOST:PORT/ws and a browser board for every game on "
        "http://HOST:PORT/. Binds to 127.0.0.1 unless --host says otherwise.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: fof serve --port 8765   (then open http://127.0.0.1:8765/)",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    serve.add_argument("--max-connections", type=int, default=limits.DEFAULT_MAX_CONNECTIONS,
                       help=f"WebSocket connections at once (default {limits.DEFAULT_MAX_CONNECTIONS})")  # fmt: skip
    serve.add_argument("--header-timeout", type=float, default=limits.DEFAULT_HEADER_TIMEOUT_S,
                       help="seconds a connection may take to send its HTTP request head "
                            f"(default {limits.DEFAULT_HEADER_TIMEOUT_S:g})")  # fmt: skip
    _common(serve)
    serve.add_argument("--max-games-per-connection", type=int, default=limits.DEFAULT_MAX_GAMES_PER_CONNECTION,
                       help=f"games one connection holds at once (default {limits.DEFAULT_MAX_GAMES_PER_CONNECTION})")  # fmt: skip
    serve.add_argument("--max-saves-per-connection", type=int, default=limits.DEFAULT_MAX_SAVES_PER_CONNECTION,
                       help=f"saves of one connection or token (default {limits.DEFAULT_MAX_SAVES_PER_CONNECTION})")  # fmt: skip
    serve.set_defaults(run=_run_serve)
    from fof_env.app.loadtest import add_parser as add_loadtest

    add_loadtest(sub)
    _add_replay_serve(sub)


def _add_replay_serve(sub) -> None:
    """``fof replay RECORD --serve``: the record on the browser board's replay viewer (the ``replay``
    subcommand is evaluation's; the app adds the server to it)."""
    replay = sub.choices.get("replay")
    if replay is None:
        return
    replay.add_argument(
        "--serve",
        action="store_true",
        help="open the record on the browser board's replay viewer (fof serve with the record loaded; Ctrl-C stops it)",
    )
    replay.add_argument("--port", type=int, default=8765, help="with --serve: the port (default 8765; 0: a free one)")
    replay.set_defaults(run=functools.partial(_run_replay, replay.get_default("run"), sub.choices["serve"]))


def _run_replay(verify, serve_parser, args, out: TextIO) -> int:
    """``fof replay``: verify the record, then with ``--serve`` serve it on the replay viewer (``fof serve``
    with its default limits, on ``--port``)."""
    status = verify(args, out)
    if status != 0 or not args.serve:
        return status
    from pathlib import Path

    from fof_env.app.server import run_server

    text = Path(args.record).read_text(encoding="utf-8")
    _exit_now(run_server(serve_parser.parse_args(["--port", str(args.port)]), out, replays={"r1": text}), out)


def _common(parser) -> None:
    parser.add_argument("--bot-timeout", type=float, default=limits.DEFAULT_BOT_TIMEOUT_S,
                        help=f"seconds a bot may take per decision (default {limits.DEFAULT_BOT_TIMEOUT_S:g}, "
                             f"at most {limits.MAX_TIME_BUDGET_S:g})")  # fmt: skip
    parser.add_argument("--save-dir", default=None, help="folder where 'save' also writes its saves (default: memory only)")
    parser.add_argument("--max-message", type=int, default=limits.MAX_MESSAGE_BYTES,
                        help=f"bytes of one request (default {limits.MAX_MESSAGE_BYTES})")  # fmt: skip
    parser.add_argument("--max-games", type=int, default=limits.DEFAULT_MAX_GAMES,
                        help=f"games held at once (default {limits.DEFAULT_MAX_GAMES})")  # fmt: skip
    parser.add_argument("--max-saves", type=int, default=limits.DEFAULT_MAX_SAVES,
                        help=f"saves held at once (default {limits.DEFAULT_MAX_SAVES})")  # fmt: skip
    parser.add_argument("--game-idle", type=float, default=limits.DEFAULT_GAME_IDLE_S,
                        help=f"seconds after which a game nobody asks about is forgotten (default {limits.DEFAULT_GAME_IDLE_S:g})")  # fmt: skip
    parser.add_argument("--save-idle", type=float, default=limits.DEFAULT_SAVE_IDLE_S,
                        help=f"seconds after which a save never loaded is deleted (default {limits.DEFAULT_SAVE_IDLE_S:g})")  # fmt: skip
    parser.add_argument("--scenarios", action="append", default=[], metavar="DIR",
                        help="a folder of scenario files (ID.json) clients may name by id; repeatable")  # fmt: skip
    parser.add_argument("--models", action="append", default=[], metavar="DIR",
                        help="a folder of models (ID.safetensors and its card) clients may name as ppo:ID; repeatable")  # fmt: skip


def check_numbers(args) -> str | None:
    """Why a limit flag is out of range (one line), or None."""
    if not 0 < args.bot_timeout <= limits.MAX_TIME_BUDGET_S:
        return f"--bot-timeout must be over 0 and at most {limits.MAX_TIME_BUDGET_S:g}"
    if not 1024 <= args.max_message <= 64 << 20:
        return "--max-message must be 1024..67108864 bytes"
    for flag in ("max_games", "max_saves", "max_connections", "max_games_per_connection", "max_saves_per_connection"):
        value = getattr(args, flag, 1)
        if not 1 <= value <= 1_000_000:
            return f"--{flag.replace('_', '-')} must be 1..1000000"
    for flag in ("game_idle", "save_idle", "header_timeout"):
        value = getattr(args, flag, 1.0)
        if not 0 < value <= 10**8:
            return f"--{flag.replace('_', '-')} must be a positive number of seconds"
    return None


def _run_engine(args, out: TextIO) -> int:
    import sys

    from fof_env.app.stdio import run_engine

    problem = check_numbers(args)
    if problem is not None:
        print(f"fof engine: {problem}", file=sys.stderr)
        return 2
    _exit_now(run_engine(args, out), out)


def _run_serve(args, out: TextIO) -> int:
    import sys

    from fof_env.app.server import run_server

    problem = check_numbers(args)
    if problem is not None:
        print(f"fof serve: {problem}", file=sys.stderr)
        return 2
    _exit_now(run_server(args, out), out)


def _exit_now(code: int, out: TextIO) -> NoReturn:
    """End the process once the engine or server has stopped: output flushed, without tearing the
    games' tables down object by object (a second or more on a busy machine), and whatever a bot
    thread that did not stop is doing."""
    import os
    import sys

    for stream in (out, sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
