"""The :class:`RuleModule` protocol: what a concern or scenario rule module of the Force on Force engine declares.

A module (``sequence``, ``reaction``, ``fire``, ``casualties``, ``movement``, ``fog`` and the rule modules of
:mod:`fof_env.force_on_force.rules`) ends with one ``MODULE = RuleModule(...)`` record, as an OpenSpiel game
file ends with its registration; the engine's module list (:mod:`fof_env.force_on_force.modules`) names the
modules, and :mod:`fof_env.force_on_force.state` builds everything below from it, so nothing is found by a
method's name:

* ``kinds``: the decision kinds the module owns (:class:`DecisionKind`): for each, the function listing its
  legal actions, the function applying the chosen one, the function naming the player who decides and the
  function adding the decision's context. A kind has exactly one owner (:func:`kind_table` refuses two).
* ``steps``: the automatic steps of the turn machine (``state.kind == AUTO``) the module runs, by step number.
* ``mixin``: the class whose methods the state has (the module's queries, handlers and hooks); None for a
  module of plain functions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

Legal = Callable[[Any], list[int]]
Handler = Callable[[Any, int], None]
Owner = Callable[[Any], int]
Context = Callable[[Any, dict[str, Any]], None]
Step = Callable[[Any], None]


@dataclass(frozen=True)
class DecisionKind:
    """One decision kind (``state.kind``, a ``D_*`` number of :mod:`~fof_env.force_on_force.constants`):
    ``legal(state)`` its sorted legal actions, ``handle(state, action)`` applies one, ``owner(state)`` the
    player deciding, ``context(state, ctx)`` adds its entries to the decision's context (after ``turn`` and
    ``initiative``)."""

    kind: int
    legal: Legal
    handle: Handler
    owner: Owner
    context: Context | None = None


@dataclass(frozen=True)
class RuleModule:
    """What one module of the engine declares (see the module docstring)."""

    name: str
    mixin: type | None = None
    kinds: tuple[DecisionKind, ...] = ()
    steps: dict[int, Step] = field(default_factory=dict)


def kind_table(modules: Iterable[RuleModule], size: int) -> tuple[DecisionKind | None, ...]:
    """The decision kinds of ``modules`` indexed by kind number (``size`` entries; None: no module owns it).
    Raises ValueError for a kind two modules claim or one out of range."""
    table: list[DecisionKind | None] = [None] * size
    owners: dict[int, str] = {}
    for module in modules:
        for k in module.kinds:
            if not 0 <= k.kind < size:
                raise ValueError(f"rule module {module.name}: decision kind {k.kind} is not in [0, {size})")
            if k.kind in owners:
                raise ValueError(f"decision kind {k.kind} is claimed by {owners[k.kind]} and {module.name}")
            owners[k.kind] = module.name
            table[k.kind] = k
    return tuple(table)


def step_table(modules: Iterable[RuleModule]) -> dict[int, Step]:
    """The automatic steps of ``modules`` by step number (ValueError for a step two modules claim)."""
    table: dict[int, Step] = {}
    owners: dict[int, str] = {}
    for module in modules:
        for number, step in module.steps.items():
            if number in owners:
                raise ValueError(f"turn machine step {number} is claimed by {owners[number]} and {module.name}")
            owners[number] = module.name
            table[number] = step
    return table


# owners shared by several kinds
def queued_unit_side(state) -> int:
    """The side of the unit at the head of ``state.queue`` (deployment, reaction declarations)."""
    return state.UNIT_SIDE[state.queue[0]]


def actor_side(state) -> int:
    """The side of the acting unit ``state.actor``."""
    return state.UNIT_SIDE[state.actor]


def actor_context(state, ctx: dict[str, Any]) -> None:
    """``unit``: the acting unit's name."""
    ctx["unit"] = state.UNIT_NAMES[state.actor]
