"""``fof serve``: the engine protocol on WebSocket and the browser board, on Starlette + uvicorn.

* ``GET /`` -- the browser board (``static/index.html``, ``board.js``, ``board.css``), one page
  for every registered game; ``GET /static/...`` its files.
* ``WS /ws`` -- ``fof-protocol/1``: each text message is one request, answered by one reply
  message, in order (:class:`fof_env.app.protocol.Engine`). The games a connection makes are
  its own and are forgotten when it closes.

Safety: binds to 127.0.0.1 unless ``--host`` says otherwise (with a warning); a WebSocket
from a web page of another origin is refused (a page on another site can not drive a local
server through the user's browser); requests over ``--max-message`` bytes get an error reply,
messages over 4x that close the connection (WebSocket code 1009); every request is handled
off the event loop in a thread, and bots decide in the engine's own pool with a time limit;
nothing from a client is unpickled.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import socket
import sys
from pathlib import Path
from typing import TextIO

from fof_env.app.protocol import Engine

STATIC = Path(__file__).parent / "static"
_LOCAL = ("127.0.0.1", "localhost", "::1", "[::1]")


def create_app(engine: Engine, *, workers: int = 16):
    """The Starlette application serving ``engine`` (routes in the module docstring)."""
    from starlette.applications import Starlette
    from starlette.responses import FileResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fof-request")
    connections = itertools.count(1)

    async def index(request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not _same_origin(origin, websocket.headers.get("host", "")):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        owner = f"ws-{next(connections)}"
        loop = asyncio.get_running_loop()
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    text = data.decode("utf-8", errors="replace")
                reply = await loop.run_in_executor(pool, engine.handle_text, text, owner)
                await websocket.send_text(engine.encode(reply))
        except (WebSocketDisconnect, RuntimeError):  # gone (a reply to a closed socket: RuntimeError)
            pass
        finally:
            engine.drop_owner(owner)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        pool.shutdown(wait=False, cancel_futures=True)
        engine.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            WebSocketRoute("/ws", ws_endpoint),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    return app


def _same_origin(origin: str, host: str) -> bool:
    """Whether a browser page at ``origin`` is this server's own page (``host`` header)."""
    for scheme in ("http://", "https://"):
        if origin.startswith(scheme):
            return origin[len(scheme) :].rstrip("/") == host
    return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def run_server(args, out: TextIO) -> int:
    """The ``fof serve`` command: bind, print the address, serve until interrupted."""
    import uvicorn

    if args.host not in _LOCAL:
        print(
            f"fof serve: warning: binding to {args.host} lets other machines play on this server "
            "(the protocol has no authentication); use the default 127.0.0.1 unless you mean it",
            file=sys.stderr,
        )
    from fof_env.app.commands import engine_options

    engine = Engine(name="fof serve", **engine_options(args))
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"fof serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    config = uvicorn.Config(
        create_app(engine),
        log_level="warning",
        ws_max_size=4 * args.max_message,
        ws_ping_interval=20,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"fof serve: board http://{shown}:{port}/  protocol ws://{shown}:{port}/ws", file=out, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return 0
