"""Rulesets as plugins: what a rules package tells the generic layers about itself.

Each rules package (``fof_env/<package>/``) declares one :class:`Ruleset` in its ``ruleset.py``
and registers it on import (:func:`fof_env.core.registry.register_ruleset`), as an OpenSpiel game
module ends with ``register_game(_GAME_TYPE, Game)``. The record names the package's games and
scenario files and every hook the floors above need: the state and observation, the view, the
environment's observation bounds, the shaping potential, the RGB renderer, the fuzz invariants and
random positions, the event narration, the human help, the search's position value and the
heuristic bot. The generic layers (core, envs, agents, training, evaluation, app) ask the record
and never test a game's name.

A hook is a callable or a lazy ``"module:attr"`` (or ``"module"``) string (:func:`resolve`), so declaring a ruleset
imports nothing. A few hooks have conventional names (:data:`CONVENTIONS`: ``observation:encode``,
``render:render_rgb``, ``narration:NARRATION``, ``endings:termination``): a record that leaves one out
gets it from its package's module of that name. A hook is resolved by the floor that uses it and lies at or below that floor: the
``heuristic`` hook names an ``agents`` module and only the agents resolve it; every other hook names
a module of the rules package itself.

A :class:`GameSpec` is one registered game of the ruleset. Its own hooks (``potential``,
``invariants``, ``heuristic``, ``help``) win over the ruleset's; its plans (``fuzz``, ``bench``,
``position_fuzz``) say how the evaluation tools exercise it.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

Hook = str | Callable[..., Any] | None

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def resolve(hook: Hook) -> Any:
    """The object a ``"module:attr"`` hook names, or the module a ``"module"`` hook names (callables
    and None pass through)."""
    if hook is None or not isinstance(hook, str):
        return hook
    module, colon, attr = hook.partition(":")
    imported = importlib.import_module(module)
    return getattr(imported, attr) if colon else imported


def camel_case(name: str) -> str:
    """``"a_game_name"`` -> ``"AGameName"`` (the default Gymnasium name of a game)."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


@dataclass(frozen=True)
class Help:
    """What a person at the ``fof play`` prompt is told: ``text`` in general (``{units}`` is filled
    with examples of the game's own unit ids) and, per decision kind, what that decision asks."""

    text: str
    decisions: Mapping[str, str] = field(default_factory=dict)


GENERIC_HELP = Help("Type one of the legal actions listed, exactly as shown.")


@dataclass(frozen=True)
class Variant:
    """One option set of a game that the speed benchmarks measure, under ``label`` (the key of
    ``evaluation/bench_ratios.json``); ``decisions_target`` and ``median_ms_target`` are the
    engine's speed targets there (None: none)."""

    label: str
    options: Mapping[str, Any] = field(default_factory=dict)
    decisions_target: int | None = None
    median_ms_target: float | None = None


@dataclass(frozen=True)
class FuzzPlan:
    """How ``python -m evaluation.fuzz`` plays a game: ``games`` random games by default, split evenly
    over the option sets ``modes``, the record round trip checked every ``json_every`` decisions."""

    modes: tuple[Mapping[str, Any], ...] = (_EMPTY,)  # one option set: the defaults
    games: int = 1000
    json_every: int = 1


@dataclass(frozen=True)
class ScenarioFiles:
    """How a ruleset reads scenario files: ``catalog`` (a module with ``scenario_ids()`` and
    ``register_scenario(id, path)``), ``game`` (the game whose ``scenario`` option names one) and
    whether a file without a ``"ruleset"`` field is this ruleset's (``claims_unmarked``)."""

    catalog: Hook
    game: str
    claims_unmarked: bool = False


@dataclass(frozen=True)
class GameSpec:
    """One registered game: ``name`` (the id of :func:`~fof_env.core.registry.make_game`),
    ``factory`` (the :class:`~fof_env.core.game.Game` class or a callable taking its options),
    ``title`` (its scenario's name for people), ``env_name`` (the Gymnasium id is ``fof_env/<env_name>-v0``; default
    the name in CamelCase) and the game's own hooks and plans (module docstring).

    ``featured``: one of the games a tool shows when it shows a few (the search and training
    benchmarks, the server load test, ``fof list``'s examples). ``counterpart``: a game of another
    ruleset that plays the same scenario (``fof compare`` puts the two side by side). ``demo``: the
    demo's (most games per ordered pairing, most MCTS simulations) for this game, None for the
    defaults. ``examples``: command lines for people, per ``fof`` subcommand (``"play"``,
    ``"train"``, ``"evaluate"`` ...). ``endings``: what a termination (one of the ruleset's
    ``terminations``) means in this game, in words.
    """

    name: str
    factory: Hook
    title: str
    env_name: str = ""
    potential: Hook = None
    invariants: Hook = None
    heuristic: Hook = None
    help: Help | None = None
    fuzz: FuzzPlan = field(default_factory=FuzzPlan)
    position_fuzz: tuple[Mapping[str, Any], ...] = ()
    bench: tuple[Variant, ...] = ()
    featured: bool = False
    counterpart: str | None = None
    demo: tuple[int, int] | None = None
    examples: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    endings: Mapping[str, str] = field(default_factory=dict)

    @property
    def gym_name(self) -> str:
        return self.env_name or camel_case(self.name)


@dataclass(frozen=True)
class Ruleset:
    """One rules package (module docstring). ``package`` is its module path (its events are
    narrated by its ``narration``); ``terminations`` are the reasons its games end and
    ``termination(state)`` says which one ended a finished game
    (:class:`~fof_env.core.outcome.Outcome`)."""

    name: str
    title: str
    package: str
    games: tuple[GameSpec, ...]
    state: Hook = None
    view: Hook = None
    observation: Hook = None
    observation_bounds: tuple[float, float] | None = None
    potential: Hook = None
    renderer: Hook = None
    invariants: Hook = None
    random_position: Hook = None
    position_value: Hook = None
    narration: Hook = None
    termination: Hook = None
    heuristic: Hook = None
    help: Help = GENERIC_HELP
    scenario_files: ScenarioFiles | None = None
    terminations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, target in CONVENTIONS.items():
            if getattr(self, name) is None and _has_module(f"{self.package}.{target.partition(':')[0]}"):
                object.__setattr__(self, name, f"{self.package}.{target}")

    def game_names(self) -> list[str]:
        return [spec.name for spec in self.games]

    def game(self, name: str) -> GameSpec:
        """The spec of this ruleset's game ``name`` (KeyError if it has none)."""
        for spec in self.games:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def hook(self, game_name: str, name: str) -> Any:
        """Hook ``name`` of game ``game_name``, resolved: the game's own, else the ruleset's (None: none)."""
        own = getattr(self.game(game_name), name, None) if name in _GAME_HOOKS else None
        return resolve(own if own is not None else getattr(self, name))

    def game_help(self, game_name: str) -> Help:
        spec = self.game(game_name)
        return spec.help if spec.help is not None else self.help


def _has_module(name: str) -> bool:
    """Whether module ``name`` exists (found, not imported; False when its parent is no package)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_GAME_HOOKS = frozenset({"potential", "invariants", "heuristic"})

# hooks a rules package keeps under these names (module:attribute, in the package); a record that
# leaves one out gets it when the package has that module
CONVENTIONS = {
    "observation": "observation:encode",
    "renderer": "render:render_rgb",
    "narration": "narration:NARRATION",
    "termination": "endings:termination",
}
