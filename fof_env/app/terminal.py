"""What the terminal commands share: legal lists wrapped for a terminal, one ``--SIDE`` flag per side
name, the agent of a side left out, game options from flags."""

from __future__ import annotations

import functools
import textwrap
from typing import Any

from fof_env.core.options import parse_assignments
from fof_env.core.registry import list_games, make_game


def wrap_legal(label: str, strings: list[str], width: int = 100) -> str:
    """``label`` + the legal action strings, wrapped under each other when the list is long."""
    return textwrap.fill(
        " ".join(strings),
        width=width,
        initial_indent=label,
        subsequent_indent=" " * len(label),
        break_long_words=False,
        break_on_hyphens=False,
    )


@functools.cache
def game_sides(name: str) -> tuple[str, ...]:
    """The side names (``game.player_names``) of the registered game ``name``; () if it cannot be
    built with its default options."""
    try:
        return tuple(make_game(name).player_names)
    except Exception:  # noqa: BLE001 - a game that needs options still lists
        return ()


def all_sides() -> dict[str, list[str]]:
    """Every side name of every registered game -> the games it is a side of (one ``--SIDE`` flag each)."""
    sides: dict[str, list[str]] = {}
    for name in list_games():
        for side in game_sides(name):
            sides.setdefault(side, []).append(name)
    return sides


def default_kind(game) -> str:
    """The agent kind of a side left out: ``heuristic`` where the game has one, else ``random``."""
    from agents.heuristic import has_heuristic

    return "heuristic" if has_heuristic(game) else "random"


def game_options(args) -> dict[str, Any]:
    """The game options of ``--option KEY=VALUE`` flags (and ``--optional-rules``)."""
    options = parse_assignments(args.option, "--option")
    if args.optional_rules:
        options["optional_rules"] = True
    return options
