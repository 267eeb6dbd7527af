"""Per-game hooks the environment adapters need beyond the kernel contract.

The adapters (:mod:`fof_env.envs.gym_env`, :mod:`fof_env.envs.aec_env`) work for
any game built by :func:`fof_env.make_game`. A few things are not part of the
``Game``/``State`` contract, so they are looked up here, by game name:

* ``env_name``: the Gymnasium id is ``fof_env/<env_name>-v0``
  (default: the game name in CamelCase, ``strike_force_one`` -> ``StrikeForceOne``).
* ``observation_bounds``: ``(low, high)`` of every observation entry, for the
  ``Box`` space. A ``Game.observation_bounds`` attribute, when a game has one,
  wins; otherwise this table; otherwise ``(-inf, inf)``.
* ``potential``: ``potential(state, player) -> float`` for the ``"shaped"``
  reward (see :mod:`fof_env.envs.shaping`). A game without one only offers
  ``reward="win"``.
* ``render_rgb``: ``render_rgb(state) -> np.ndarray`` (H x W x 3 ``uint8``) for
  ``render_mode="rgb_array"``. Looked up in this order: a ``render_rgb()``
  method on the state; this table; the convention ``render_rgb`` in the
  ``render`` module beside the state's module (``fof_env.<ruleset>.render``).

Hooks may be callables or lazy ``"module:attr"`` strings, so registering costs
no imports. Rules packages never import this module (nor gymnasium).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Hook = str | Callable[..., Any] | None


@dataclass(frozen=True)
class GameSupport:
    """Environment-side facts about one game (see the module docstring)."""

    env_name: str
    observation_bounds: tuple[float, float] | None = None
    potential: Hook = None
    render_rgb: Hook = None


_SUPPORT: dict[str, GameSupport] = {
    "strike_force_one": GameSupport(
        env_name="StrikeForceOne",
        observation_bounds=(-1.0, 1.0),
        potential="fof_env.envs.shaping:strike_force_one_potential",
        render_rgb="fof_env.strike_force_one.render:render_rgb",
    ),
    "lost_and_found": GameSupport(
        env_name="LostAndFound",
        observation_bounds=(-1.0, 1.0),
        potential="fof_env.envs.shaping:lost_and_found_potential",
        render_rgb="fof_env.force_on_force.render:render_rgb",
    ),
    # Force on Force scenarios: the shipped ones under their own ids, and any scenario file
    # (make_game("force_on_force", scenario=PATH)); one potential and one renderer serve them all.
    **{
        name: GameSupport(
            env_name=env,
            observation_bounds=(-1.0, 1.0),
            potential="fof_env.envs.shaping:force_on_force_potential",
            render_rgb="fof_env.force_on_force.render:render_rgb",
        )
        for name, env in (("compound_raid", "CompoundRaid"), ("wwii_hedgerow_hamlet", "WwiiHedgerowHamlet"),
                          ("force_on_force", "ForceOnForce"))
    },  # fmt: skip
    # FUBAR (seed 002): any scenario file, and the two shipped ones under their own ids.
    **{
        name: GameSupport(
            env_name=env,
            observation_bounds=(-1.0, 1.0),
            potential="fof_env.envs.shaping:fubar_potential",
            render_rgb="fof_env.fubar.render:render_rgb",
        )
        for name, env in (("fubar", "Fubar"), ("fubar_lost_and_found", "FubarLostAndFound"),
                          ("fubar_village_patrol", "FubarVillagePatrol"))
    },  # fmt: skip
}


def register_game_support(game_name: str, support: GameSupport) -> None:
    """Declare (or replace) the environment hooks of ``game_name``."""
    _SUPPORT[game_name] = support


def camel_case(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def game_support(game_name: str) -> GameSupport:
    """The hooks of ``game_name`` (defaults for a game nobody registered)."""
    return _SUPPORT.get(game_name) or GameSupport(env_name=camel_case(game_name))


def resolve(hook: Hook) -> Callable[..., Any] | None:
    """Import a ``"module:attr"`` hook (callables and None pass through)."""
    if hook is None or callable(hook):
        return hook
    module, _, attr = hook.partition(":")
    return getattr(importlib.import_module(module), attr)


def observation_bounds(game) -> tuple[float, float]:
    bounds = getattr(game, "observation_bounds", None) or game_support(game.name).observation_bounds
    if bounds is None:
        return (-np.inf, np.inf)
    return (float(bounds[0]), float(bounds[1]))


def potential_fn(game) -> Callable[[Any, int], float] | None:
    return resolve(game_support(game.name).potential)


def rgb_renderer(state) -> Callable[[Any], np.ndarray]:
    """The function that draws ``state`` as an RGB array (see the module docstring)."""
    method = getattr(state, "render_rgb", None)
    if callable(method):
        return lambda s: s.render_rgb()
    hook = resolve(game_support(state.game.name).render_rgb)
    if hook is not None:
        return hook
    package = type(state).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.render").render_rgb
    except (ImportError, AttributeError):
        raise NotImplementedError(
            f"game {state.game.name!r} has no RGB renderer: give its state a render_rgb() method, "
            f"add render_rgb to {package}.render, or call fof_env.envs.register_game_support"
        ) from None


def player_text(state, player: int) -> str:
    """The text picture of ``state`` as ``player`` may see it: ``state.view_text(player)`` where the game
    has hidden information (Force on Force, FUBAR: no Hidden enemy, no card of the other hand), else
    ``str(state)`` (Strike Force One shows both sides everything)."""
    picture = getattr(state, "view_text", None)
    return picture(player) if callable(picture) else str(state)


class StateRenderer:
    """``render_mode`` "human" (prints the state's text map, returns None), "ansi" (returns
    that text) or "rgb_array" for any game, resolving the RGB drawing function once (shared by
    both environment adapters).

    With ``player`` None the picture is the umpire's: every unit, Hidden ones included, and both
    Fog of War hands (for replays, debugging and referees, never for a side's eyes). With a
    ``player`` index, the text modes show only what that player may know (:func:`player_text`);
    ``rgb_array`` draws the umpire's picture only and refuses a ``player``.
    """

    def __init__(self, mode: str | None):
        self.mode = mode
        self._rgb: Callable[[Any], np.ndarray] | None = None

    def __call__(self, state, player: int | None = None) -> str | np.ndarray | None:
        if player is not None and self.mode not in ("human", "ansi"):
            raise ValueError(f"render(player=...) shows a player's text view, in render_mode 'ansi' or 'human'; "
                             f"{self.mode!r} draws the umpire's picture only")  # fmt: skip
        if self.mode in ("human", "ansi"):
            text = str(state) if player is None else player_text(state, player)
            if self.mode == "ansi":
                return text
            print(text, flush=True)
            return None
        if self._rgb is None:
            self._rgb = rgb_renderer(state)
        return self._rgb(state)
