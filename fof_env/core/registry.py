"""Game registry: ``make_game(name, **options)``, ``list_games()`` and the rulesets behind them.

A rules package registers its :class:`~fof_env.core.ruleset.Ruleset` when its ``ruleset`` module is
imported (:func:`register_ruleset`); the registry imports the ``ruleset`` module of every package of
``fof_env`` that has one the first time it is asked anything, so nothing here names a ruleset or a
game. :func:`register_game` adds a single game without a ruleset (it gets the generic view, no
shaping, no heuristic).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fof_env.core.errors import OptionError
from fof_env.core.ruleset import GameSpec, Ruleset, resolve

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # fof_env/
_PACKAGE = "fof_env"

_GAMES: dict[str, str | Callable[..., Any]] = {}  # name -> factory ("module:attr" or a callable)
_RULESETS: dict[str, Ruleset] = {}
_OWNER: dict[str, Ruleset] = {}  # game name -> its ruleset
_HOOKS: dict[tuple[str, str], Any] = {}  # (game name, hook name) -> the resolved hook
_discovered = False
_DISCOVERY = threading.RLock()


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    """Register ``ruleset`` and every game it declares (a game name already taken by another ruleset
    is an error); returns it, so a ``ruleset`` module may end with ``RULESET = register_ruleset(...)``."""
    for spec in ruleset.games:
        owner = _OWNER.get(spec.name)
        if owner is not None and owner.name != ruleset.name:
            raise ValueError(f"game {spec.name!r} of ruleset {ruleset.name!r} is already ruleset {owner.name!r}'s")
    _HOOKS.clear()
    old = _RULESETS.get(ruleset.name)
    if old is not None:
        for spec in old.games:
            _GAMES.pop(spec.name, None)
            _OWNER.pop(spec.name, None)
    _RULESETS[ruleset.name] = ruleset
    for spec in ruleset.games:
        _GAMES[spec.name] = spec.factory  # type: ignore[assignment]
        _OWNER[spec.name] = ruleset
    return ruleset


def register_game(name: str, target: str | Callable[..., Any]) -> None:
    """Register a game factory under ``name`` ("module:attr" string or a callable), outside any ruleset."""
    _discover()
    _GAMES[name] = target
    _OWNER.pop(name, None)
    _HOOKS.clear()


def _discover() -> None:
    """Import the ``ruleset`` module of every package of ``fof_env`` that has one (once; a second thread
    waits until the first has imported them all)."""
    global _discovered
    if _discovered:
        return
    with _DISCOVERY:
        if _discovered:  # another thread imported them meanwhile
            return
        for folder in sorted(_PACKAGE_DIR.iterdir()):
            if (folder / "ruleset.py").is_file() and (folder / "__init__.py").is_file():
                importlib.import_module(f"{_PACKAGE}.{folder.name}.ruleset")
        _discovered = True


def list_games() -> list[str]:
    """Names accepted by :func:`make_game`, sorted."""
    _discover()
    return sorted(_GAMES)


def rulesets() -> list[Ruleset]:
    """Every registered ruleset, by name."""
    _discover()
    return [_RULESETS[name] for name in sorted(_RULESETS)]


def ruleset_of(game: Any) -> Ruleset | None:
    """The ruleset of a game (a game object or its name); None for a game registered on its own."""
    _discover()
    return _OWNER.get(game if isinstance(game, str) else game.name)


def game_spec(game: Any) -> GameSpec | None:
    """The :class:`~fof_env.core.ruleset.GameSpec` of a game (object or name); None outside a ruleset."""
    name = game if isinstance(game, str) else game.name
    ruleset = ruleset_of(name)
    return None if ruleset is None else ruleset.game(name)


def game_specs() -> list[GameSpec]:
    """The specs of every game of every ruleset, sorted by game name."""
    return sorted((spec for r in rulesets() for spec in r.games), key=lambda s: s.name)


def game_hook(game: Any, name: str) -> Any:
    """Hook ``name`` of a game (object or name), resolved: the game's own, else its ruleset's; None
    for a game without a ruleset or without that hook."""
    game_name = game if isinstance(game, str) else game.name
    key = (game_name, name)
    try:
        return _HOOKS[key]
    except KeyError:
        pass
    ruleset = ruleset_of(game_name)
    hook = _HOOKS[key] = None if ruleset is None else ruleset.hook(game_name, name)
    return hook


def examples(command: str) -> list[str]:
    """Every game's example command lines for the ``fof`` subcommand ``command``, featured games first."""
    specs = sorted(game_specs(), key=lambda spec: not spec.featured)
    return [line for spec in specs for line in spec.examples.get(command, ())]


def is_scenario_engine(game_name: str) -> bool:
    """Whether ``game_name`` is its ruleset's game for any scenario file (its ``scenario`` option names
    one; with its defaults it plays a shipped scenario that is also a game of its own)."""
    ruleset = ruleset_of(game_name)
    files = None if ruleset is None else ruleset.scenario_files
    return files is not None and files.game == game_name


def fixed_scenario_games() -> list[str]:
    """Every registered game but the scenario engines (:func:`is_scenario_engine`), sorted: the games a
    tool plays when it plays "every game"."""
    return [name for name in list_games() if not is_scenario_engine(name)]


def make_game(name: str, **options: Any):
    """Build the game ``name`` with its scenario ``options``.

    Raises :class:`OptionError` for an unknown name or option.
    """
    _discover()
    try:
        target = _GAMES[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r}; known games: {', '.join(list_games())}") from None
    return resolve(target)(**options)
