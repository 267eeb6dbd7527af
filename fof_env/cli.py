"""The ``fof`` command line: list the games and agents, play a game in the terminal.

Examples::

    fof list
    fof play strike_force_one --soviet heuristic --us random --seed 1
    fof play strike_force_one --soviet human --us heuristic --optional-rules
    fof play strike_force_one --soviet heuristic --us heuristic --quiet --record game.json
    fof play lost_and_found --taliban random --usmc human --option rules=quick

Each game has one flag per side, named after ``game.player_names``
(``--soviet``/``--us`` for Strike Force One, ``--taliban``/``--usmc`` for Lost &
Found); a side left out is played by ``heuristic`` where the game has one, else
by ``random``. A side played by ``human`` is asked for each of its decisions at
a prompt: the decision, its context and the legal actions are shown as canonical
strings (``sov.A``, ``0504``, ``pass``, ``resolve``; ``tal.1``, ``x19y07``,
``move``, ``n2`` ...); type one of them or its number, or ``help``, ``map``, ``legal``,
``undo``, ``save PATH``, ``pass-all`` or ``quit`` (``fof_env/app/play.py``). A side may also be
any agent spec of ``fof evaluate`` (``mcts:200``, ``ppo:PATH``); ``--resume RECORD`` continues a game.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import sys
import textwrap
from typing import Any, TextIO

from fof_env.core.errors import OptionError, PositionError
from fof_env.core.options import parse_assignments
from fof_env.core.registry import list_games, make_game
from fof_env.fubar.help import DECISION_HELP as _FUBAR_DECISION_HELP
from fof_env.fubar.help import HUMAN_HELP as _FUBAR_HUMAN_HELP

# Plain-words results of the Strike Force One Combat Results Table.
_RESULT_WORDS = {
    "DE": "Defender Eliminated",
    "DR": "Defender Retreats One Hex",
    "AR": "Attacker Retreats One Hex",
    "AE": "Attacker Eliminated",
}

# What each decision asks, for the human prompt's help.
DECISION_HELP = {
    "select_unit": "choose one of your units to move (one from the legal list), or 'pass' to end your movement phase",
    "move_target": "choose the hex the selected unit moves to (e.g. '0504'); its own hex leaves it in place",
    "attack_target": "choose an enemy hex to attack (e.g. '0506'), or 'pass' to end your combat phase",
    "attack_add": "add a hex of your adjacent units to the attack (e.g. '0605'), or 'resolve' to roll the die",
    "retreat_hex": "choose the hex your unit retreats to",
    "advance": "choose a unit that advances into the vacated hex, or 'pass' to stay",
}

_HUMAN_HELP = """Type one of the legal actions listed, exactly as shown:
  a hex like '0504', a unit like 'sov.A' or 'us.B' (a bare letter like 'A' names your own unit),
  'pass' (end the phase / decline) or 'resolve' (roll the die for the declared attack)."""


# Force on Force "Lost & Found": what each decision asks.
LAF_DECISION_HELP = {
    "deploy": "choose the point where this unit sets up / enters the table (e.g. 'x19y07')",
    "declare_hidden": "choose a Taliban team in woods to start Hidden, or 'pass' when done",
    "attach_leader": "choose the fire team the squad leader joins",
    "call_airstrike": "'yes' calls the air strike (the pilot's TQ check; success ends the scenario), "
    "'pass' does not",
    "declare_overwatch": "choose a unit to put on Overwatch, or 'pass' when done",
    "select_unit": "choose a unit to activate, or 'pass' to end your activations this turn",
    "choose_action": "what the activated unit does: 'move', 'fire', 'hold', 'spot', 'escort', 'handoff'",
    "move_target": "choose the point to move to (more than 6 inches is a Rapid move), or 'exit' "
    "to leave by your table edge",
    "fire_target": "choose the enemy unit to fire at ('pass' after a move: do not fire)",
    "split_target": "choose a second target to split your fire, or 'pass' to fire at one",
    "split_dice": "how many figures' firepower dice go to the second target ('n1', 'n2', ...)",
    "split_support": "choose which target this support weapon fires at",
    "handoff_target": "choose the unit the pilot goes with",
    "declare_interrupt": "react to the acting unit: 'interrupt_fire', 'interrupt_move', or 'pass'",
    "overwatch_fire": "choose a reacting enemy unit for your Overwatch unit to fire at, or 'pass'",
    "return_fire": "'interrupt_fire' fires back at the unit that fired on you, 'pass' does not",
    "fog_of_war_unit": "choose the unit the Fog of War result applies to",
    "reinforce_point": "choose the point on the Taliban table edge where the reinforcements appear",
}

_LAF_HUMAN_HELP = """Type one of the legal actions listed, exactly as shown:
  a table point like 'x19y07' (x then y, in inches), a unit like 'tal.1' or 'usmc.A',
  an action word ('move', 'fire', 'hold', 'spot', 'escort', 'handoff', 'interrupt_fire',
  'interrupt_move', 'exit', 'yes'), a count like 'n2', or 'pass' (decline / end).
The table you see shows no enemy unit hidden from you."""

_FOF_HUMAN_HELP = """Type one of the legal actions listed, exactly as shown:
  a table point like 'x19y07' (x then y, in inches), a unit by its id like {units},
  an action word ('move', 'fire', 'hold', 'spot', 'interrupt_fire', 'interrupt_move', 'exit' ...),
  a count like 'n2', or 'pass' (decline / end). The table you see shows no enemy unit hidden from you."""

_GENERIC_HUMAN_HELP = """Type one of the legal actions listed, exactly as shown."""

# game name -> (general help, help per decision kind)
GAME_HELP: dict[str, tuple[str, dict[str, str]]] = {
    "strike_force_one": (_HUMAN_HELP, DECISION_HELP),
    "lost_and_found": (_LAF_HUMAN_HELP, LAF_DECISION_HELP),
    **{name: (_FOF_HUMAN_HELP, LAF_DECISION_HELP) for name in ("compound_raid", "wwii_hedgerow_hamlet", "force_on_force")},
    **{name: (_FUBAR_HUMAN_HELP, _FUBAR_DECISION_HELP) for name in ("fubar", "fubar_lost_and_found", "fubar_village_patrol")},
}


def _wrap_legal(label: str, strings: list[str], width: int = 100) -> str:
    """``label`` + the legal action strings, wrapped under each other when the list is long."""
    return textwrap.fill(
        " ".join(strings),
        width=width,
        initial_indent=label,
        subsequent_indent=" " * len(label),
        break_long_words=False,
        break_on_hyphens=False,
    )


def _fmt(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return str(value)


def describe_event(event) -> str | None:
    """One line of text for an event; None for events not worth printing (dice: the attack shows them)."""
    kind = event.kind
    d = event.to_dict()
    if kind == "dice_rolled":
        return None
    if kind == "phase_started":
        return f"=== Turn {d['turn']}: {d['phase'].replace('_', ' ')} ==="
    if kind == "turn_started":
        return f"=== Turn {d['turn']}: initiative {d['initiative']} ==="
    if kind == "unit_moved":
        how = " (rapid)" if d.get("rapid") else ""
        if d.get("how") == "deploy":  # FUBAR's set-up
            return f"  {d['unit']} sets up at {d['destination']}"
        if d.get("how") and d["how"] not in ("vehicle",):  # FUBAR: walk, run, duck & weave ...
            how = f" ({d['how'].replace('_', ' ')})"
        if d["origin"] == "off table":  # a set-up or an arrival from a table edge
            return f"  {d['unit']} arrives at {d['destination']}{how}"
        if d["destination"] == "off table":
            return f"  {d['unit']} leaves the table from {d['origin']}{how}"
        return f"  {d['unit']} moves {d['origin']} -> {d['destination']}{how}"
    if kind in ("fire_hits", "close_combat"):  # FUBAR: one unit's fire or close-combat strike
        what = "FIRE" if kind == "fire_hits" else "CLOSE COMBAT"
        saves = f"saves {d['save']}+ {_fmt(d['saves'])}" if d["save"] else "no save"
        late = " (the suppressed strike last)" if d.get("late") else ""
        return (
            f"  {what} {d.get('shooter') or d.get('unit')} -> {d['target']}: {len(d['dice'])} dice {_fmt(d['dice'])} "
            f"need {d['need']}+: {d['hits']} hits; {saves}: {d['unsaved']} unsaved{late}"
        )
    if kind == "hit_taken":
        return f"  {d['unit']} figure {d['figure']} " + ("becomes a casualty" if d["result"] == "casualty" else "is suppressed")
    if kind == "activation_rolled":
        result = "succeeds" if d["success"] else "fails"
        return f"  {d['unit']} {d['purpose']}: die {d['die']} ({d['modified']} modified), needs {d['need']}+: {result}"
    if kind == "initiative_rolled":
        winner = f"{d['winner']} has the initiative" if d["winner"] else "a tie: rolled again"
        return f"  initiative: dice {_fmt(d['rolls'])}, totals {_fmt(d['totals'])}: {winner}"
    if kind == "vehicle_damaged":
        return f"  {d['unit']} hit ({d['facing']}): damage dice {_fmt(d['rolls'])} -> {d['effect'].replace('_', ' ')}"
    if kind in ("fog_card_drawn", "fog_card_played"):  # the WWII Fog of War deck
        card = _card_name(d["card"])
        if kind == "fog_card_drawn":
            return f"  {d['side']} draws a Fog of War card: {card}" + (" (held for later)" if d["held"] else "")
        return f"  {d['side']} plays {card}" + (f": {d['target']}" if d["target"] else "")
    if kind == "reaction_test":
        result = "passed" if d["passed"] else "failed"
        return f"  reaction test: {d['unit']} ({d['role'].replace('_', ' ')}) die {d['die']} -> {d['modified']}: {result}"
    if kind == "fire_resolved":
        return (
            f"  FIRE {d['shooter']} -> {d['target']}: {d['firepower']} dice {_fmt(d['attack'])} vs "
            f"{d['defense']} defense dice {_fmt(d['defense_rolls'])}: {d['casualties']} casualties"
        )
    if kind == "morale_checked":
        return f"  {d['unit']} morale {_fmt(d['rolls'])}: {'passed' if d['passed'] else 'failed, pinned'}"
    if kind == "fog_of_war":
        unit = f" ({d['unit']})" if d["unit"] else ""
        return f"  FOG OF WAR {d['roll']}: {d['result'].replace('_', ' ')}{unit}"
    if kind == "note":
        return f"  {d['text']}"
    if kind == "attack_resolved":
        result = _RESULT_WORDS.get(d["result"], d["result"])
        return (
            f"  ATTACK on {d['target']} ({', '.join(d['defenders'])}) by {', '.join(d['attackers'])}: "
            f"differential {d['differential']:+d}, column {d['column']}, die {d['roll']} -> "
            f"{d['result']} ({result})"
        )
    if kind == "unit_retreated":
        return f"  {d['unit']} retreats {d['origin']} -> {d['destination']}"
    if kind == "unit_eliminated":
        return f"  {d['unit']} eliminated in {d['hex']} ({d['reason']})"
    if kind == "unit_advanced":
        return f"  {d['unit']} advances {d['origin']} -> {d['destination']}"
    if kind == "game_ended":
        rest = ", ".join(f"{k}={v}" for k, v in d.items() if k not in ("kind", "winner"))
        return f"=== Game over: {d['winner']} wins ({rest}) ==="
    rest = ", ".join(f"{k}={_fmt(v)}" for k, v in d.items() if k != "kind")
    return f"  {kind}: {rest}"


def _card_name(key: str) -> str:
    """The name of the WWII Fog of War card ``key`` ("incoming" -> "Incoming!")."""
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    return next((c.name for c in card_specs() if c.key == key), key.replace("_", " "))


@functools.cache
def game_sides(name: str) -> tuple[str, ...]:
    """The side names (``game.player_names``) of the registered game ``name``; () if it cannot be
    built with its default options."""
    try:
        return tuple(make_game(name).player_names)
    except Exception:  # noqa: BLE001 - a game that needs options still lists
        return ()


def _all_sides() -> dict[str, list[str]]:
    """Every side name of every registered game -> the games it is a side of (one ``--SIDE`` flag each)."""
    sides: dict[str, list[str]] = {}
    for name in list_games():
        for side in game_sides(name):
            sides.setdefault(side, []).append(name)
    return sides


def default_kind(game) -> str:
    """The agent kind of a side left out: ``heuristic`` where the game has one, else ``random``."""
    from agents.heuristic import heuristic_games

    return "heuristic" if game.name in heuristic_games() else "random"


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
        epilog="Example: fof play strike_force_one --soviet heuristic --us human --seed 1",
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
        epilog=(
            "Examples:\n  fof play strike_force_one --soviet heuristic --us random --seed 1 --optional-rules\n"
            "  fof play lost_and_found --taliban random --usmc human --option rules=quick"
        ),
    )
    play.add_argument("game", nargs="?", choices=list_games(), help="the game to play (not needed with --resume)")
    for side, games in _all_sides().items():
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
        help="strike_force_one: use the optional rules 7.0-9.0 (stacking, woods, differential)",
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


def _game_options(args) -> dict[str, Any]:
    options = parse_assignments(args.option, "--option")
    if args.optional_rules:
        options["optional_rules"] = True
    return options


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
