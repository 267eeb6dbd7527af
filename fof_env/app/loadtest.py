"""``fof loadtest``: N concurrent games against a ``fof serve`` on localhost; p50/p99 latencies.

Starts ``fof serve`` on a free 127.0.0.1 port in a child process (or uses ``--url``), then
runs ``--games`` WebSocket clients at once. Each plays one side of its own game (in turn each
featured game, :attr:`fof_env.core.ruleset.GameSpec.featured`) with seeded random legal actions against the server's bot
(``--bot``), with ``autoplay`` off so that every front-end decision (``play``) and every bot
decision (``bot``) is its own request, timed from send to reply. Clients start a new game
when one ends. Bounded: it stops after ``--duration`` seconds or ``--max-requests`` requests,
whichever comes first, and only ever talks to the loopback address it started.

``--abandon N`` / ``--saves M`` measure memory instead: the server's resident set size (Linux
``/proc``) after N games left behind (N connections dropped without a word, then one
connection that opens N games and never closes them) and after M saves of one game;
``--server-cmd`` starts another build's server to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shlex
import statistics
import subprocess
import sys
import time
from typing import Any


def featured_games() -> list[tuple[str, tuple[str, str]]]:
    """(name, sides) of the featured games, the games the clients play in turn."""
    from fof_env.core.registry import game_specs, make_game

    return [(spec.name, tuple(make_game(spec.name).player_names)) for spec in game_specs() if spec.featured]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); 0.0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


async def _client(url: str, index: int, bot: str, deadline: float, budget: list[int], times: dict[str, list[float]],
                  errors: list[str], games: list[tuple[str, tuple[str, str]]]) -> int:
    import websockets

    rng = random.Random(index)
    finished = 0
    async with websockets.connect(url, max_size=None) as ws:

        async def ask(msg: dict[str, Any]) -> dict[str, Any]:
            t0 = time.perf_counter()
            await ws.send(json.dumps(msg))
            reply = json.loads(await ws.recv())
            times.setdefault(msg["cmd"], []).append(time.perf_counter() - t0)
            budget[0] -= 1
            if not reply["ok"]:
                errors.append(f"{msg['cmd']}: {reply['error']}")
            return reply

        while time.monotonic() < deadline and budget[0] > 0:
            name, sides = games[index % len(games)]
            mine = sides[(index // 2) % 2]
            other = sides[1 - sides.index(mine)]
            reply = await ask({"cmd": "new", "game": name, "seed": index * 1000 + finished, "bots": {other: bot}, "autoplay": False, "side": mine})
            if not reply["ok"]:
                return finished
            gid, view = reply["game"], reply["view"]
            while not view["terminal"] and time.monotonic() < deadline and budget[0] > 0:
                since = {"since": view["events_total"], "played_since": view["played_total"]}
                if view["your_turn"]:
                    action = rng.choice(view["legal"])["action"]
                    reply = await ask({"cmd": "play", "game": gid, "action": action, **since})
                else:
                    reply = await ask({"cmd": "bot", "game": gid, **since})
                if not reply["ok"]:
                    break
                view = reply["view"]
            await ask({"cmd": "close", "game": gid})
            finished += view["terminal"]
    return finished


async def _run(url: str, games: int, bot: str, duration: float, max_requests: int) -> dict[str, Any]:
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    budget = [max_requests]
    deadline = time.monotonic() + duration
    t0 = time.perf_counter()
    played = featured_games()
    finished = await asyncio.gather(*(_client(url, i, bot, deadline, budget, times, errors, played)
                                      for i in range(games)))  # fmt: skip
    wall = time.perf_counter() - t0
    report: dict[str, Any] = {"games_at_once": games, "bot_spec": bot, "seconds": round(wall, 2), "games_finished": sum(finished), "errors": len(errors)}
    for cmd in ("play", "bot", "new"):
        values = times.get(cmd, [])
        report[cmd] = {
            "count": len(values),
            "p50_ms": round(1000 * percentile(values, 0.50), 2),
            "p99_ms": round(1000 * percentile(values, 0.99), 2),
            "max_ms": round(1000 * max(values, default=0.0), 2),
            "mean_ms": round(1000 * statistics.fmean(values), 2) if values else 0.0,
        }
    report["requests_per_s"] = round(sum(len(v) for v in times.values()) / wall, 1)
    if errors:
        report["first_errors"] = errors[:3]
    return report


def start_local_server(command: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    """``fof serve --port 0`` on 127.0.0.1 in a child process (``command``: another build's
    ``fof serve``, to compare); (process, ws url)."""
    base = command or [sys.executable, "-m", "fof_env.app.cli", "serve"]
    proc = subprocess.Popen(
        [*base, "--port", "0", "--max-games", "1000"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    if "ws://" not in line:
        proc.kill()
        raise RuntimeError(f"fof serve did not start: {line!r}")
    return proc, line.split("protocol ", 1)[1].strip()


def rss_mb(pid: int) -> float:
    """The resident set size of process ``pid`` in MB (Linux ``/proc``; 0.0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


async def _memory(url: str, pid: int, abandon: int, saves: int) -> dict[str, Any]:
    """Server RSS after ``abandon`` games left behind (connections dropped without a word, then one
    connection that opens games and never closes them) and after ``saves`` saves of one game."""
    import websockets

    report: dict[str, Any] = {"rss_start_mb": rss_mb(pid)}
    name, sides = featured_games()[0]
    new = {"cmd": "new", "game": name, "bots": {sides[0]: "heuristic"}}
    for i in range(abandon):  # each on its own connection, dropped without closing its game
        ws = await websockets.connect(url, max_size=None)
        await ws.send(json.dumps({**new, "seed": i}))
        await ws.recv()
        ws.transport.abort()
    await asyncio.sleep(1.0)
    report["abandoned_connections"] = abandon
    report["rss_after_abandoned_connections_mb"] = rss_mb(pid)
    held = refused = 0
    async with websockets.connect(url, max_size=None) as ws:  # one connection that never closes a game
        for i in range(abandon):
            await ws.send(json.dumps({**new, "seed": i}))
            reply = json.loads(await ws.recv())
            held += reply["ok"]
            refused += not reply["ok"]
        report["games_one_connection"] = {"held": held, "refused": refused, "rss_mb": rss_mb(pid)}
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({**new, "seed": 1}))
        gid = json.loads(await ws.recv())["game"]
        kept = refused = 0
        for _ in range(saves):
            await ws.send(json.dumps({"cmd": "save", "game": gid}))
            reply = json.loads(await ws.recv())
            kept += reply["ok"]
            refused += not reply["ok"]
        report["saves"] = {"asked": saves, "kept": kept, "refused": refused, "rss_mb": rss_mb(pid)}
    return report


def run_memory(args, out) -> int:
    """``fof loadtest --abandon N --saves M``: the server's memory after games left behind and saves."""
    proc, url = start_local_server(shlex_split(args.server_cmd))
    try:
        time.sleep(0.5)
        report = asyncio.run(_memory(url, proc.pid, args.abandon, args.saves))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(json.dumps(report, indent=1), file=out)
    return 0


def run_loadtest(args, out) -> int:
    """The ``fof loadtest`` command."""
    if args.abandon or args.saves:
        return run_memory(args, out)
    proc = None
    url = args.url
    if url is None:
        proc, url = start_local_server(shlex_split(args.server_cmd))
    elif not url.startswith(("ws://127.", "ws://localhost", "ws://[::1]")):
        print("fof loadtest: --url must be a loopback address (ws://127.0.0.1:PORT/ws)", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(_run(url, args.games, args.bot, args.duration, args.max_requests))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    print(json.dumps(report, indent=1), file=out)
    return 0 if report["errors"] == 0 else 1


def add_parser(sub) -> None:
    p = sub.add_parser(
        "loadtest",
        help="concurrent games against a local fof serve: p50/p99 latency of play and bot moves",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--games", type=int, default=50, help="games played at once (50)")
    p.add_argument("--bot", default="heuristic", help="the server's bot (an agent spec; heuristic)")
    p.add_argument("--duration", type=float, default=30.0, help="seconds at most (30)")
    p.add_argument("--max-requests", type=int, default=20000, help="requests at most (20000)")
    p.add_argument("--url", default=None, help="a running server's ws://127.0.0.1:PORT/ws (default: start one)")
    p.add_argument("--abandon", type=int, default=0,
                   help="instead of the load: the server's RSS after N games left behind (N dropped connections, "
                        "then one connection opening N games)")  # fmt: skip
    p.add_argument("--saves", type=int, default=0, help="instead of the load: the server's RSS after N saves of one game")
    p.add_argument("--server-cmd", default=None,
                   help="the command that starts the server to measure (default: this fof serve), e.g. another "
                        "checkout's 'python -m fof_env.cli serve', to compare")  # fmt: skip
    p.set_defaults(run=lambda args, out: run_loadtest(args, out))


def shlex_split(command: str | None) -> list[str] | None:
    return shlex.split(command) if command else None
