"""The ``fof engine`` and ``fof serve`` subcommands (registered by ``fof_env.cli``)."""

from __future__ import annotations

import argparse
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
