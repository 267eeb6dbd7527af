"""The ``fof`` command line: list the games and agents, play a game in the terminal.

Examples::

    fof list
    fof play strike_force_one --soviet heuristic --us random --seed 1
    fof play strike_force_one --soviet human --us heuristic --optional-rules
    fof play strike_force_one --soviet heuristic --us heuristic --quiet --record game.json

A side played by ``human`` is asked for each of its decisions at a prompt: the
decision, its context and the legal actions are shown as canonical strings
(``sov.A``, ``0504``, ``pass``, ``resolve``); type one of them, or ``help``,
``map``, ``legal`` or ``quit``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from fof_env.core.errors import OptionError, PositionError
from fof_env.core.options import parse_assignments
from fof_env.core.registry import list_games, make_game

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
  'pass' (end the phase / decline) or 'resolve' (roll the die for the declared attack).
Other commands: 'map' shows the board, 'legal' lists the legal actions, 'help' shows this,
'quit' (or end of input) leaves the game."""


class QuitGame(Exception):
    """A human player left the game (``quit`` or end of input)."""


class HumanAgent:
    """An agent that asks a person at a prompt; re-prompts on bad input, never loses the game."""

    def __init__(
        self,
        game,
        player: int,
        seed: int | None = None,
        *,
        input_fn: Callable[[str], str] | None = None,
        out: TextIO | None = None,
    ):
        self.game = game
        self.player = player
        self.side = game.player_names[player]
        self._input = input_fn
        self._out = out

    def __repr__(self) -> str:
        return "human"

    @property
    def out(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def _print(self, text: str = "") -> None:
        print(text, file=self.out)

    def _read(self, prompt: str) -> str:
        try:
            return (self._input or input)(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None

    def show_decision(self, state) -> None:
        d = state.decision
        ctx = {k: v for k, v in d.context.items()}
        where = []
        for key in ("turn", "phase"):
            if key in ctx:
                where.append(f"{key} {ctx.pop(key)}")
        self._print(f"[{self.side}] {', '.join(where)}: decision {d.kind}")
        if d.kind in DECISION_HELP:
            self._print(f"  ({DECISION_HELP[d.kind]})")
        if ctx:
            self._print("  context: " + ", ".join(f"{k}={_fmt(v)}" for k, v in ctx.items()))
        self._print("  legal: " + " ".join(state.legal_action_strings()))

    def act(self, state) -> int:
        self.show_decision(state)
        legal = state.legal_actions()
        while True:
            text = self._read(f"{self.side}> ").strip()
            low = text.lower()
            if not text:
                self._print("Please type an action (or 'help').")
                continue
            if low in ("quit", "exit", "q"):
                raise QuitGame
            if low in ("help", "?", "h"):
                self._print(_HUMAN_HELP)
                kind = state.decision.kind
                if kind in DECISION_HELP:
                    self._print(f"Now: {kind}: {DECISION_HELP[kind]}.")
                self._print("Legal: " + " ".join(state.legal_action_strings()))
                continue
            if low in ("map", "board", "show"):
                self._print(str(state))
                continue
            if low in ("legal", "list", "moves"):
                self._print("Legal: " + " ".join(state.legal_action_strings()))
                continue
            try:
                action = state.str_to_action(text)
            except ValueError as exc:
                self._print(f"Not understood: {exc}")
                self._print("Legal: " + " ".join(state.legal_action_strings()) + "   (type 'help' for help)")
                continue
            if action not in legal:
                self._print(
                    f"Illegal: {text!r} is not a legal action for decision {state.decision.kind!r} now."
                )
                self._print("Legal: " + " ".join(state.legal_action_strings()) + "   (type 'help' for help)")
                continue
            return action


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
    if kind == "unit_moved":
        return f"  {d['unit']} moves {d['origin']} -> {d['destination']}"
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


def _all_sides() -> list[str]:
    sides: list[str] = []
    for name in list_games():
        try:
            game = make_game(name)
        except Exception:  # noqa: BLE001 - a game that needs options still lists
            continue
        for side in game.player_names:
            if side not in sides:
                sides.append(side)
    return sides


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
        epilog="Example: fof play strike_force_one --soviet heuristic --us random --seed 1 --optional-rules",
    )
    play.add_argument("game", choices=list_games(), help="the game to play")
    for side in _all_sides():
        play.add_argument(
            f"--{side}",
            metavar="KIND",
            default="heuristic",
            help=f"who plays the {side} side: {', '.join(kinds)} (default: heuristic)",
        )
    play.add_argument("--seed", type=int, default=None, help="dice seed (and the agents' seeds); random if omitted")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. --option optional_rules=true (repeatable)",
    )
    play.add_argument(
        "--optional-rules",
        action="store_true",
        help="strike_force_one: use the optional rules 7.0-9.0 (stacking, woods, differential)",
    )
    play.add_argument("--quiet", action="store_true", help="print only the result (human prompts still show)")
    play.add_argument("--record", metavar="PATH", help="write the game record (JSON, replayable) to PATH")
    return parser


def _cmd_list(out: TextIO) -> int:
    from agents.base import agent_kinds
    from agents.heuristic import heuristic_games

    print("Games:", file=out)
    for name in list_games():
        try:
            game = make_game(name)
        except Exception as exc:  # noqa: BLE001
            print(f"  {name}  (cannot build with default options: {exc})", file=out)
            continue
        print(f"  {name}  sides: {', '.join(game.player_names)}  options: {game.options}", file=out)
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
    from agents.base import make_agent

    try:
        game = make_game(args.game, **_game_options(args))
    except OptionError as exc:
        print(f"fof play: {exc}", file=sys.stderr)
        return 2
    seed = args.seed
    agents = []
    for player, side in enumerate(game.player_names):
        kind = getattr(args, side, None) or "heuristic"
        agent_seed = None if seed is None else seed + 1000 * (player + 1)
        if kind == "human":
            agents.append(HumanAgent(game, player, out=out))
            continue
        try:
            agents.append(make_agent(kind, game, player, seed=agent_seed))
        except ValueError as exc:
            print(f"fof play: {side}: {exc}", file=sys.stderr)
            return 2
    names = game.player_names
    state = game.new_initial_state(seed)
    quiet = args.quiet
    shown = 0

    def narrate() -> None:
        nonlocal shown
        events = state.events
        new = events[shown:]
        shown = len(events)
        if quiet:
            return
        last_phase = max((i for i, e in enumerate(new) if e.kind == "phase_started"), default=-1)
        for i, event in enumerate(new):
            line = describe_event(event)
            if line is not None:
                print(line, file=out)
            if i == last_phase and not state.is_terminal:
                print(str(state), file=out)

    print(
        f"{game.name} {game.options} seed={seed}: "
        + ", ".join(f"{names[p]}={agents[p]!r}" for p in (0, 1)),
        file=out,
    )
    narrate()
    decisions = 0
    try:
        while not state.is_terminal:
            player = state.current_player
            kind = state.decision.kind
            action = agents[player].act(state)
            if not quiet:
                print(f"  [{names[player]}] {kind}: {state.action_to_str(action)}", file=out)
            state.apply(action)
            decisions += 1
            narrate()
    except QuitGame:
        print(f"Game abandoned after {decisions} decisions (no result).", file=out)
        return 0
    if not quiet:
        print(str(state), file=out)
    winner = state.winner
    result = "draw" if winner is None else f"{names[winner]} wins"
    score = getattr(state, "score", None)
    print(f"Result: {result}; score {score}; {decisions} decisions", file=out)
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8") as fh:
                fh.write(state.to_json())
        except OSError as exc:
            print(f"fof play: cannot write record: {exc}", file=sys.stderr)
            return 1
        print(f"Record written to {args.record}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``fof`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    out = sys.stdout
    try:
        if args.command == "list":
            return _cmd_list(out)
        if args.command == "play":
            return _cmd_play(args, out)
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
