"""A front end in a few lines: play one whole game against ``fof serve`` over WebSocket.

    fof serve --port 8765 &
    python docs/clients/python_client.py ws://127.0.0.1:8765/ws --game lost_and_found --side usmc --bot heuristic

The client plays its side with seeded random legal actions (a stand-in for a person or an AI)
and prints the result as JSON. It only ever sees its side's view: the server filters it.
Needs the ``websockets`` package (a dependency of fof-env).
"""

from __future__ import annotations

import argparse
import json
import random

from websockets.sync.client import connect


def play(url: str, game: str, side: str | None, bot: str, seed: int) -> dict:
    """Play ``side`` (default: the first) of ``game`` against the server's ``bot``; returns the final view."""
    rng = random.Random(seed)
    with connect(url, max_size=None) as ws:

        def ask(**msg) -> dict:
            ws.send(json.dumps(msg))
            reply = json.loads(ws.recv())
            if not reply["ok"]:
                raise RuntimeError(f"{msg['cmd']}: {reply['error']}")
            return reply

        hello = ask(cmd="hello")
        sides = next(g["sides"] for g in hello["games"] if g["name"] == game)
        side = side or sides[0]
        other = next(s for s in sides if s != side)
        reply = ask(cmd="new", game=game, seed=seed, bots={other: bot})
        game_id, view = reply["game"], reply["view"]
        while not view["terminal"]:
            action = rng.choice(view["legal"])["action"]  # the server answers with the bot's replies
            view = ask(cmd="play", game=game_id, action=action, since=view["events_total"])["view"]
        ask(cmd="close", game=game_id)
        return view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="the server's protocol address, e.g. ws://127.0.0.1:8765/ws")
    parser.add_argument("--game", default="strike_force_one")
    parser.add_argument("--side", default=None, help="the side you play (default: the game's first side)")
    parser.add_argument("--bot", default="heuristic", help="the server's bot for the other side (an agent spec)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    view = play(args.url, args.game, args.side, args.bot, args.seed)
    print(json.dumps({"side": view["side"], "result": view["result"], "decisions": view["decisions"]}))


if __name__ == "__main__":
    main()
