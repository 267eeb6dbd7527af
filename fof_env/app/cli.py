"""The ``fof`` command line: list the games and agents, play a game in the terminal.

Examples: ``fof list``; ``fof play GAME --SIDE KIND ...``; every game's own examples are in
``fof play --help`` (each ruleset's :class:`~fof_env.core.ruleset.GameSpec` lists them).

Each game has one flag per side, named after ``game.player_names`` (``fof list`` shows them); a
side left out is played by ``heuristic`` where the game has one, else by ``random``. A side played
by ``human`` is asked for each of its decisions at a prompt: the decision, its context and the legal
actions are shown as canonical strings (a hex, a table point, a unit, ``pass``, ``resolve`` ...);
type one of them or its number, or ``help``, ``map``, ``legal``, ``undo``, ``save PATH``,
``pass-all`` or ``quit`` (``fof_env/app/play.py``). A side may also be any agent spec of
``fof evaluate`` (``mcts:200``, ``ppo:PATH``); ``--resume RECORD`` continues a game.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from typing import TextIO

from fof_env.app.terminal import all_sides
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.registry import examples, list_games, make_game

# Modules that add subcommands: each has ``add_parsers(subparsers)``, which gives every
# parser it adds ``set_defaults(run=f)`` with ``f(args, out) -> exit status``. They must
# import their heavy dependencies (torch, matplotlib) lazily, inside ``f``.
PLUGIN_COMMANDS = ("training.commands", "evaluation.commands", "fof_env.app.commands")


def build_parser() -> argparse.ArgumentParser:
    from agents.base import agent_kinds

    kinds = [*agent_kinds(), "human"]
    parser = argparse.ArgumentParser(
        prog="fof",
        description="Wargame rules engines as game-AI environments: list games and agents, play games.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Example: " + next(iter(examples("play")), "fof play GAME --SIDE KIND"),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub.add_parser("list", help="list the games (with their sides and options) and the agent kinds")
    play = sub.add_parser(
        "play",
        help="play one game in the terminal, printed turn by turn",
        description=(
            "Play one game. Each side is played by an agent kind ("
            + ", ".join(kinds)
            + "); 'human' asks you at a prompt. The map is printed at the start of each phase, "
            "then every decision and action (canonical strings) and every combat result."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Examples:\n" + "\n".join(f"  {line}" for line in examples("play")),
    )
    play.add_argument("game", nargs="?", choices=list_games(), help="the game to play (not needed with --resume)")
    for side, games in all_sides().items():
        play.add_argument(
            f"--{side}",
            metavar="KIND",
            default=None,
            help=f"{', '.join(games)}: who plays the {side} side: an agent spec as in fof evaluate "
            f"({', '.join(kinds)}, mcts:200, ppo:PATH ...) "
            "(default: heuristic where the game has one, else random)",
        )
    play.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SIDE=SPEC",
        help="who plays a side, by its name (any game, e.g. a scenario file's sides: --agent red=human); "
        "repeatable",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="dice seed (and the agents' seeds); random if omitted"
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. --option optional_rules=true, --option rules=quick (repeatable)",
    )
    play.add_argument(
        "--optional-rules",
        action="store_true",
        help="the same as --option optional_rules=true (the games with optional rules: fof list shows options)",
    )
    play.add_argument("--quiet", action="store_true", help="print only the result (human prompts still show)")
    play.add_argument("--record", metavar="PATH", help="write the game record (JSON, replayable) to PATH")
    play.add_argument("--resume", metavar="RECORD", help="continue the game of a record (e.g. one 'save PATH' wrote)")
    for module in PLUGIN_COMMANDS:
        importlib.import_module(module).add_parsers(sub)
    return parser


def _cmd_list(out: TextIO) -> int:
    from agents.base import agent_kinds
    from agents.heuristic import heuristic_games
    from agents.ppo import shipped_model_path
    from fof_env.envs.registration import env_id

    print("Games (gym id; sides, * where a trained model ships for the side: 'ppo' plays it):", file=out)
    for name in list_games():
        try:
            game = make_game(name)
        except Exception as exc:  # noqa: BLE001
            print(f"  {name}  (cannot build with default options: {exc})", file=out)
            continue
        sides = [side + ("*" if shipped_model_path(name, side).exists() else "") for side in game.player_names]
        print(f"  {name}  gym id: {env_id(name)}  sides: {', '.join(sides)}  options: {game.options}", file=out)
    print("Agent kinds:", file=out)
    for kind in [*agent_kinds(), "human"]:
        note = ""
        if kind == "heuristic":
            note = f"  (games: {', '.join(heuristic_games())})"
        elif kind == "human":
            note = "  (you, at a prompt; fof play only)"
        print(f"  {kind}{note}", file=out)
    return 0


def _cmd_play(args, out: TextIO) -> int:
    from fof_env.app.play import run_play  # the application shell plays (fof_env/app/play.py)

    return run_play(args, out)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``fof`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command as typed, for records
    out = sys.stdout
    try:
        if args.command == "list":
            return _cmd_list(out)
        if args.command == "play":
            return _cmd_play(args, out)
        if hasattr(args, "run"):
            return args.run(args, out)
    except (PositionError, OptionError) as exc:
        print(f"fof: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`: stop quietly (Python's documented recipe)
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover
    return 2  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
