"""``fof engine`` (stdio) and ``fof serve`` (WebSocket) in child processes: clients in Python and
Node.js play whole games; a fuzz of bad messages and abrupt disconnects leaves the server serving."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "clients"))
import python_client  # noqa: E402


def engine_lines(lines: list[str]) -> list[dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "fof_env.cli", "engine"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_stdio_engine_answers_every_line_and_survives_bad_ones():
    huge = '{"cmd": "hello", "pad": "' + "x" * (1 << 21) + '"}'
    replies = engine_lines(
        ['{"cmd": "hello"}', "not json", huge, "[]", '{"cmd": "fly"}', "", '{"cmd": "new", "game": "strike_force_one", "seed": 1}']
    )
    assert [r["ok"] for r in replies] == [True, False, False, False, False, True]
    assert replies[1]["error"].startswith("not JSON: ")
    assert replies[2]["error"].startswith("message too long: ") and "the limit is 1048576" in replies[2]["error"]
    assert replies[3]["error"] == "a request is a JSON object with 'cmd', got list"
    assert replies[4]["error"].startswith("unknown command 'fly'")
    assert replies[5]["view"]["sides"] == ["soviet", "us"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_client_plays_a_whole_game_over_stdio():
    engine = f"{sys.executable} -m fof_env.cli engine"
    proc = subprocess.run(
        ["node", str(ROOT / "docs" / "clients" / "node_client.mjs"), "--engine", engine, "--game", "lost_and_found", "--side", "usmc", "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["side"] == "usmc" and out["result"]["winner"] in ("taliban", "usmc", None) and out["moves"] > 5


def test_python_client_plays_a_whole_game_over_websocket(server):
    view = python_client.play(f"ws://{server}/ws", "strike_force_one", "us", "heuristic", seed=3)
    assert view["terminal"] and view["side"] == "us" and view["result"]["winner"] in ("soviet", "us")
    view = python_client.play(f"ws://{server}/ws", "lost_and_found", "usmc", "heuristic", seed=4)
    assert view["terminal"] and view["side"] == "usmc"


def test_the_page_and_its_files_are_served(server):
    import urllib.request

    with urllib.request.urlopen(f"http://{server}/") as r:
        assert b"<svg id=\"board\"" in r.read()
    with urllib.request.urlopen(f"http://{server}/static/board.js") as r:
        assert b"fof-protocol/1" in r.read()


def test_a_page_of_another_origin_may_not_connect(server):
    with pytest.raises(Exception, match="403"), connect(f"ws://{server}/ws", origin="http://evil.example"):
        pass


def test_fuzz_bad_messages_and_disconnects_leave_the_server_serving(server):
    url = f"ws://{server}/ws"
    with connect(url, max_size=None) as keeper:
        keeper.send(json.dumps({"cmd": "new", "game": "lost_and_found", "seed": 5, "bots": {"taliban": "heuristic"}}))
        kept = json.loads(keeper.recv())
        gid = kept["game"]

        def kept_view() -> dict:
            keeper.send(json.dumps({"cmd": "view", "game": gid}))
            return json.loads(keeper.recv())["view"]

        before = kept_view()
        with connect(url, max_size=None) as ws:

            def bad(payload) -> dict:
                ws.send(payload)
                reply = json.loads(ws.recv())
                assert reply["ok"] is False and reply["error"], reply
                return reply

            bad("{")
            bad("\x00\xff")
            bad("null")
            bad('"cmd"')
            bad(json.dumps({"cmd": None}))
            bad(json.dumps({"cmd": "play"}))
            bad(json.dumps({"cmd": "play", "game": gid, "action": "pass"}))  # another connection's game
            bad(json.dumps({"cmd": "new", "game": "chess"}))
            bad(json.dumps({"cmd": "new", "game": "strike_force_one", "options": {"optional_rules": "maybe"}}))
            bad(json.dumps({"cmd": "new", "game": "strike_force_one", "seed": -1}))
            bad(json.dumps({"cmd": "new", "game": "strike_force_one", "bots": {"martians": "random"}}))
            bad(json.dumps({"cmd": "load", "record": "x" * 1000}))
            bad(json.dumps({"cmd": "hello", "extra": [[[[[]]]]]}))
            bad("[" * 100000 + "]" * 100000)
            assert "nested more than" in bad("[" * 100 + "]" * 100)["error"]
            ws.send(json.dumps({"cmd": "new", "game": "strike_force_one", "seed": 1, "bots": {"us": "random"}}))
            mine = json.loads(ws.recv())
            bad(json.dumps({"cmd": "play", "game": mine["game"], "action": "us.A", "side": "us"}))
            bad(json.dumps({"cmd": "resign", "game": mine["game"], "side": "us"}))
            ws.send(json.dumps({"cmd": "resign", "game": mine["game"], "side": "soviet"}))
            assert json.loads(ws.recv())["view"]["terminal"]
            assert bad(json.dumps({"cmd": "play", "game": mine["game"], "action": "pass"}))["error"] == "the game is over: soviet resigned"
        # abrupt disconnects: mid-request, and with a bot thinking
        for payload in ({"cmd": "new", "game": "lost_and_found", "seed": 1, "bots": {"taliban": "mcts:50"}}, {"cmd": "hello"}):
            host, port = server.rsplit(":", 1)
            raw = socket.create_connection((host, int(port)))
            with contextlib.suppress(Exception), connect(url, sock=raw) as ws2:
                ws2.send(json.dumps(payload))
                raw.shutdown(socket.SHUT_RDWR)  # gone without a closing handshake
        with pytest.raises(ConnectionClosed) as closed, connect(url, max_size=None) as ws3:
            ws3.send("z" * ((1 << 20) + 1))  # over the 1 MiB limit: the server closes the connection
            ws3.recv()
        assert closed.value.rcvd is None or closed.value.rcvd.code == 1009
        assert kept_view() == before  # the other game is untouched
        keeper.send(json.dumps({"cmd": "play", "game": gid, "action": before["legal"][0]["action"]}))
        assert json.loads(keeper.recv())["ok"]
    with connect(url) as ws:  # and the server still serves
        ws.send(json.dumps({"cmd": "hello"}))
        assert json.loads(ws.recv())["ok"]


def test_loadtest_reports_latencies_and_stops_by_itself():
    proc = subprocess.run(
        [sys.executable, "-m", "fof_env.cli", "loadtest", "--games", "4", "--duration", "3", "--max-requests", "300"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["games_at_once"] == 4 and report["errors"] == 0 and report["seconds"] < 20
    assert report["play"]["count"] > 10 and report["bot"]["count"] > 10
    assert 0 < report["play"]["p50_ms"] <= report["play"]["p99_ms"] <= report["play"]["max_ms"]


def _post(url: str, body: bytes, origin: str | None = None) -> tuple[int, dict]:
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json", **({"Origin": origin} if origin else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers)) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _finished_record(name: str = "strike_force_one", seed: int = 2) -> str:
    import agents
    from fof_env.core.registry import make_game

    game = make_game(name)
    state = game.new_initial_state(seed)
    bots = [agents.make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    while not state.is_terminal:
        state.apply(bots[state.current_player].act(state))
    return state.to_json()


def test_the_server_replays_a_record_for_the_board(server):
    """POST /replay: a record's frames (gzip on the wire); a bad record, a page of another origin or a body
    over the message limit gets one line and its status."""
    import urllib.request

    record = _finished_record()
    status, reply = _post(f"http://{server}/replay", record.encode())
    assert status == 200 and reply["ok"] and reply["replay"]["viewers"] == ["umpire", "soviet", "us"]
    request = urllib.request.Request(f"http://{server}/replay", data=record.encode(), headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as r:
        assert r.headers["Content-Encoding"] == "gzip"
    status, reply = _post(f"http://{server}/replay", b'{"format": "fof-record/2"}')
    assert status == 400 and not reply["ok"] and reply["error"]
    status, reply = _post(f"http://{server}/replay", record.encode(), origin="http://evil.example")
    assert status == 403 and "another origin" in reply["error"]
    status, reply = _post(f"http://{server}/replay", b"x" * ((1 << 20) + 1))
    assert status == 413 and reply["error"] == "record too long: over 1048576 bytes, the limit"
