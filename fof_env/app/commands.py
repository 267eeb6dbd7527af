"""The ``fof engine`` and ``fof serve`` subcommands (registered by ``fof_env.cli``)."""

from __future__ import annotations

import argparse
import functools
from typing import TextIO

from fof_env.app.protocol import MAX_LINE


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
    serve.add_argument("--max-games", type=int, default=200, help="games held at once (default 200)")
    serve.add_argument(
        "--allow-model-paths",
        action="store_true",
        help="let clients name model files (ppo:PATH); by default only the shipped models",
    )
    _common(serve)
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
    replay.set_defaults(run=functools.partial(_run_replay, replay.get_default("run")))


def _run_replay(verify, args, out: TextIO) -> int:
    """``fof replay``: verify the record, then with ``--serve`` serve it on the replay viewer."""
    status = verify(args, out)
    if status != 0 or not args.serve:
        return status
    from pathlib import Path

    from fof_env.app.server import run_server

    text = Path(args.record).read_text(encoding="utf-8")
    serve = argparse.Namespace(host="127.0.0.1", port=args.port, bot_timeout=30.0, max_games=200, max_message=MAX_LINE,
                               allow_model_paths=False, save_dir=None)
    return run_server(serve, out, replays={"r1": text})


def _common(parser) -> None:
    parser.add_argument("--bot-timeout", type=float, default=30.0, help="seconds a bot may take per decision (30)")
    parser.add_argument("--save-dir", default=None, help="folder where 'save' writes records (default: memory only)")
    parser.add_argument(
        "--max-message", type=int, default=MAX_LINE, help=f"bytes of one request (default {MAX_LINE})"
    )


def _run_engine(args, out: TextIO) -> int:
    from fof_env.app.stdio import run_engine

    return run_engine(args, out)


def _run_serve(args, out: TextIO) -> int:
    from fof_env.app.server import run_server

    return run_server(args, out)
