"""``fof serve``: the engine protocol on WebSocket and the browser board, on Starlette + uvicorn.

* ``GET /`` -- the browser board (``static/index.html``, ``board.js``, ``board.css``), one page
  for every registered game; ``GET /static/...`` its files.
* ``WS /ws`` -- ``fof-protocol/1``: each text message is one request, answered by one reply
  message, in order (:class:`fof_env.app.protocol.Engine`). The games a connection makes are
  its own and are forgotten when it closes (its bots are stopped).
* ``POST /replay`` -- body: a finished game's record (``fof-record/2`` JSON, at most
  ``--max-message`` bytes); reply: its replay (:func:`fof_env.core.replay_frames.replay_frames`,
  gzip-compressed), or ``{"ok": false, "error": ...}`` with status 400. ``GET /replay/{id}`` --
  a replay the server was started with (``fof replay RECORD --serve``). The board opens a replay
  with ``/?replay={id}``.

Safety: binds to 127.0.0.1 unless ``--host`` says otherwise (with a warning). Every request
(page or WebSocket) must name an allowed host in its ``Host`` header (``127.0.0.1``,
``localhost``, ``[::1]`` and ``--host``): a page of another site that a DNS name rebound to this
machine can not reach the server; and a WebSocket opened by a web page of another origin is
refused. A message over ``--max-message`` bytes (1 MiB) closes the connection (code 1009, the
WebSocket library never reads more); at most ``--max-connections`` WebSocket connections at
once (code 1013 for one more); a connection that has not sent its whole HTTP request head
within ``--header-timeout`` seconds is closed. Every request is handled off the event loop in a
thread, and bots decide in their own threads with a time limit and a stop event. SIGINT and
SIGTERM stop every bot at once and the server within about a second. Nothing from a client is
unpickled.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import socket
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from fof_env.app import limits
from fof_env.app.protocol import Engine

STATIC = Path(__file__).parent / "static"
_LOCAL = ("127.0.0.1", "localhost", "::1", "[::1]")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def create_app(engine: Engine, *, workers: int = 16, allowed_hosts: Iterable[str] = LOCAL_HOSTS,
               max_connections: int = limits.DEFAULT_MAX_CONNECTIONS,
               replays: dict[str, str] | None = None):  # fmt: skip
    """The ASGI application serving ``engine`` (routes in the module docstring), behind the host
    allowlist ``allowed_hosts`` (names without ports; IPv6 without brackets); ``replays``: id -> a
    record the board may open as a replay (``GET /replay/{id}``)."""
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.gzip import GZipMiddleware
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocket, WebSocketDisconnect

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fof-request")
    connections = itertools.count(1)
    active = [0]

    async def index(request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def replay_post(request):
        origin = request.headers.get("origin")
        if origin is not None and not _same_origin(origin, request.headers.get("host", "")):
            return JSONResponse({"ok": False, "error": "a page of another origin may not ask for replays"}, 403)
        body = bytearray()
        async for chunk in request.stream():  # read no further than the limit
            body += chunk
            if len(body) > engine.max_line:
                return JSONResponse({"ok": False, "error": f"record too long: over {engine.max_line} bytes, the limit"}, 413)
        return await _replay_response(bytes(body))

    async def replay_get(request):
        text = (replays or {}).get(request.path_params["rid"])
        if text is None:
            return JSONResponse({"ok": False, "error": "no such replay"}, 404)
        return await _replay_response(text)

    async def _replay_response(record):
        from fof_env.core.errors import PositionError
        from fof_env.core.replay_frames import replay_frames

        loop = asyncio.get_running_loop()
        try:
            frames = await loop.run_in_executor(pool, replay_frames, record, engine._describe)
        except (PositionError, ValueError) as exc:
            return JSONResponse({"ok": False, "error": " ".join(str(exc).split())[:500]}, 400)
        return JSONResponse({"ok": True, "replay": frames})

    async def ws_endpoint(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not _same_origin(origin, websocket.headers.get("host", "")):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        if active[0] >= max_connections:
            await websocket.close(code=1013, reason="too many connections; try again later")
            return
        active[0] += 1
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
            active[0] -= 1
            engine.drop_owner(owner)  # its games are forgotten, their bots stopped

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        engine.close()
        pool.shutdown(wait=False, cancel_futures=True)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/replay", replay_post, methods=["POST"]),
            Route("/replay/{rid:str}", replay_get),
            WebSocketRoute("/ws", ws_endpoint),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(GZipMiddleware, minimum_size=2000)],
    )
    return HostAllowlist(app, allowed_hosts)


class HostAllowlist:
    """ASGI middleware: a request whose ``Host`` header names no allowed host gets 400 (a page) or a
    refused handshake (a WebSocket), before the application sees it. Defends against DNS
    rebinding, where a name the attacker controls is made to point at 127.0.0.1."""

    def __init__(self, app, allowed_hosts: Iterable[str]):
        self.app = app
        self.allowed = {h.lower().strip("[]") for h in allowed_hosts}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket") and host_name(_header(scope, b"host")) not in self.allowed:
            if scope["type"] == "http":
                body = b"invalid Host header: this server answers to its own address only\n"
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})  # fmt: skip
                await send({"type": "http.response.body", "body": body})
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return ""


def host_name(host: str) -> str:
    """The host of a ``Host`` header, lower case, without its port or IPv6 brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


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


def header_timeout_protocol(seconds: float):
    """uvicorn's h11 HTTP protocol, closing a connection that has not sent a whole request head
    within ``seconds`` of connecting (or of its last response)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeadTimeoutProtocol(H11Protocol):
        _head_timer = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(seconds, self._head_too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state is not h11.IDLE:  # a whole request head has come
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

    return HeadTimeoutProtocol


def run_server(args, out: TextIO, replays: dict[str, str] | None = None) -> int:
    """The ``fof serve`` command: bind, print the address, serve until interrupted (``replays``: as
    :func:`create_app`; ``fof replay --serve`` prints the board's address of each)."""
    import uvicorn

    from fof_env.app.engine_flags import engine_options

    if args.host not in _LOCAL:
        print(
            f"fof serve: warning: binding to {args.host} lets other machines play on this server "
            "(the protocol has no authentication); use the default 127.0.0.1 unless you mean it",
            file=sys.stderr,
        )
    extra = {"max_connections": args.max_connections, "header_timeout_s": args.header_timeout}
    engine = Engine(name="fof serve", extra_limits=extra, **engine_options(args))
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"fof serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    app = create_app(engine, allowed_hosts=(*LOCAL_HOSTS, args.host), max_connections=args.max_connections,
                     replays=replays)
    config = uvicorn.Config(
        app,
        http=header_timeout_protocol(args.header_timeout),
        log_level="warning",
        ws_max_size=args.max_message,
        ws_ping_interval=20,
        lifespan="on",
        timeout_graceful_shutdown=1,
        h11_max_incomplete_event_size=16 << 10,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:  # SIGINT / SIGTERM: stop every bot now
            engine.close()
            super().handle_exit(sig, frame)

    server = Server(config)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"fof serve: board http://{shown}:{port}/  protocol ws://{shown}:{port}/ws", file=out, flush=True)
    for rid in replays or {}:
        print(f"replay: http://{shown}:{port}/?replay={rid}", file=out, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    return 0
