"""Checks every ruleset's position format starts with (see ``<ruleset>/position.py``)."""

from __future__ import annotations

from typing import Any

from fof_env.core.errors import PositionError


def check_header(game, position: Any, keys: set[str], module: str) -> None:
    """Raise :class:`PositionError` unless ``position`` is a dict with only ``keys`` whose
    optional ``game`` and ``options`` entries match ``game`` (``module`` documents the format)."""
    if not isinstance(position, dict):
        raise PositionError(f"a position is a dict; see {module}")
    unknown = set(position) - keys
    if unknown:
        raise PositionError(f"unknown position keys {sorted(unknown)}; allowed: {sorted(keys)}")
    if position.get("game", game.name) != game.name:
        raise PositionError(f"position is for game {position['game']!r}, not {game.name!r}")
    if "options" in position and position["options"] != game.options:
        raise PositionError(f"position options {position['options']} differ from the game's {game.options}")
