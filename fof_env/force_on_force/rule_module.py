"""The :class:`RuleModule` protocol: what a concern or scenario rule module of the Force on Force engine declares.

A module (``sequence``, ``reaction``, ``fire``, ``casualties``, ``movement``, ``fog`` and the rule modules of
:mod:`fof_env.force_on_force.rules`) ends with one ``MODULE = RuleModule(...)`` record, as an OpenSpiel game
file ends with its registration; the engine's module list (:mod:`fof_env.force_on_force.modules`) names the
modules, and :mod:`fof_env.force_on_force.state` (with :mod:`~fof_env.force_on_force.observation` for the
pieces and :mod:`~fof_env.force_on_force.position` for the position keys) builds everything below from it, so
nothing is found by a method's name:

* ``kinds``: the decision kinds the module owns (:class:`DecisionKind`): for each, the function listing its
  legal actions, the function applying the chosen one, the function naming the player who decides and the
  function adding the decision's context. A kind has exactly one owner (:func:`kind_table` refuses two).
* ``steps``: the automatic steps of the turn machine (``state.kind == AUTO``) the module runs, by step number.
* ``slots``: the state the module keeps (:class:`Slot`): each slot's name, how a clone copies it, whether it
  is a list by unit, when it is cleared, and its value in a blank state. The state's ``__slots__``, ``clone``,
  the flags cleared at the end of a turn and the flags cleared for a unit entering play are assembled from
  these declarations.
* ``hooks``: the module's functions for the engine's named hook points (:data:`HOOK_POINTS`), which the
  shared code calls at that point of play for every module the scenario switches on (``active``); a rule
  that only reacts to what happens in play is one file with no edit elsewhere.
* ``pieces``: the module's pieces of the observation (:class:`ObservationPiece`, as OpenSpiel observers name
  theirs), after the shared pieces, in module order; a layout without the module's rule has none of them.
* ``position``: the module's keys of the position format (:class:`PositionKeys`), read and written by the
  module itself.
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


# how a clone copies a slot
VALUE = "value"  # shared: an immutable value (a number, a tuple, a NamedTuple) or the game's static set-up
LIST = "list"  # a list of immutable values: the clone gets a shallow copy
ROWS = "rows"  # a list of lists: the clone copies every row
BOOKKEEPING = "bookkeeping"  # the kernel's own (game, dice, history, events ...): State._copy_bookkeeping
# when a slot's per-unit flags are cleared (to 0)
TURN = "turn"  # at the end of every turn, for every unit (and for a unit entering play)
UNIT = "unit"  # for a unit entering play with its order of battle (a card reserve placed, a re-sampled Hidden unit)
NO_DEFAULT = object()


@dataclass(frozen=True)
class Slot:
    """One slot of the state. ``default`` is its value in a blank state (before the position is read): a
    constant (for a ``per_unit`` slot every unit's value; for a ``LIST`` slot the list's items, copied), or a
    function of the blank state (``state.game`` and ``state.sc`` set) giving the value; NO_DEFAULT: set by the
    engine itself (``_clear_context``, the position reader)."""

    name: str
    copy: str = VALUE
    per_unit: bool = False
    reset: str = ""  # "", TURN or UNIT (per-unit flags only)
    default: Any = NO_DEFAULT

    def initial(self, state) -> Any:
        """The slot's value in the blank ``state``."""
        d = self.default
        if callable(d):
            return d(state)
        if self.per_unit:
            return [d] * state.NUM_UNITS
        return list(d) if self.copy == LIST else d


def unit_flag(name: str, reset: str = "") -> Slot:
    """A per-unit 0/1 flag or count (0 for every unit in a blank state), cleared as ``reset`` says."""
    return Slot(name, LIST, per_unit=True, reset=reset, default=0)


def context(name: str, copy: str = VALUE) -> Slot:
    """A slot of the decision context, set by ``_clear_context`` when an activation ends."""
    return Slot(name, copy)


# the engine's hook points: where the shared code calls them, and with what
HOOK_POINTS = {
    "unit_pinned": "(state, u): unit u has just become pinned (a failed morale check, a crew bailing out)",
    "unit_moved": "(state, u, here, dest): u has moved from point here to dest (-1: off its edge); pos is dest",
    "unit_arrived": "(state, u, dist): active unit u stands at a point of the table after a move, Hidden "
                    "units there revealed; dist is the table's distance row of that point",
    "unit_wiped": "(state, u): fire has left unit u with no effective figure",
    "turn_ended": "(state): the End Phase, after the turn's flags are cleared",
    "turn_end_victory": "(state) -> bool: at the end of a turn, True ends the scenario now (a victory "
                        "condition met); the first hook that says so ends it",
    "victory_points": "(state, vp): add the module's VP to the list vp (by side)",
    "auto_victory": "(state) -> int: the side that has won outright (-1: none)",
    "score": "(state, score): add the module's entries to the score dict",
}


@dataclass(frozen=True)
class Hooks:
    """The hook functions of a game's active modules, by hook point (module order)."""

    unit_pinned: tuple[Callable, ...] = ()
    unit_moved: tuple[Callable, ...] = ()
    unit_arrived: tuple[Callable, ...] = ()
    unit_wiped: tuple[Callable, ...] = ()
    turn_ended: tuple[Callable, ...] = ()
    turn_end_victory: tuple[Callable, ...] = ()
    victory_points: tuple[Callable, ...] = ()
    auto_victory: tuple[Callable, ...] = ()
    score: tuple[Callable, ...] = ()


@dataclass(frozen=True)
class ObservationPiece:
    """A named piece of the observation that a module adds after the board: ``size(layout)`` its floats in
    a scenario's layout (0: that layout has no such piece), ``encode(state, player, order)`` its values
    for ``player`` with the units in ``order`` (the player's own first; None: all zeros)."""

    name: str
    size: Callable[[Any], int]
    encode: Callable[[Any, int, tuple[int, ...]], Any]


@dataclass(frozen=True)
class PositionKeys:
    """The keys a module adds to the position format (:mod:`fof_env.force_on_force.position`): top-level
    ``keys``, read by ``read(state, position, seed)`` once the board is read (every position but a set-up one;
    PositionError for a bad value or a key this game has no use for) and written by ``write(state, out)``;
    per-unit ``unit_keys``, read by ``read_unit(state, u, unit_spec)`` and written by
    ``write_unit(state, u, unit_out)``."""

    keys: tuple[str, ...] = ()
    read: Callable[[Any, dict[str, Any], int | None], None] | None = None
    write: Callable[[Any, dict[str, Any]], None] | None = None
    unit_keys: tuple[str, ...] = ()
    read_unit: Callable[[Any, int, dict[str, Any]], None] | None = None
    write_unit: Callable[[Any, int, dict[str, Any]], None] | None = None


@dataclass(frozen=True)
class RuleModule:
    """What one module of the engine declares (see the module docstring). ``active(setup)``: whether a
    game's set-up (:class:`~fof_env.force_on_force.game.Setup`) switches the module on (None: always); only
    an active module's hooks run."""

    name: str
    mixin: type | None = None
    kinds: tuple[DecisionKind, ...] = ()
    steps: dict[int, Step] = field(default_factory=dict)
    slots: tuple[Slot, ...] = ()
    pieces: tuple[ObservationPiece, ...] = ()
    position: PositionKeys | None = None
    hooks: dict[str, Callable] = field(default_factory=dict)
    active: Callable[[Any], bool] | None = None

    def __post_init__(self) -> None:
        unknown = set(self.hooks) - set(HOOK_POINTS)
        if unknown:
            raise ValueError(f"rule module {self.name}: no hook point {sorted(unknown)}; points: {list(HOOK_POINTS)}")


def hook_table(modules: Iterable[RuleModule], setup) -> Hooks:
    """The hooks of the modules ``setup`` switches on, by hook point, in module order."""
    points: dict[str, list[Callable]] = {point: [] for point in HOOK_POINTS}
    for module in modules:
        if module.active is None or module.active(setup):
            for point, hook in module.hooks.items():
                points[point].append(hook)
    return Hooks(**{point: tuple(hooks) for point, hooks in points.items()})


def slot_table(modules: Iterable[RuleModule], core: tuple[Slot, ...] = ()) -> tuple[Slot, ...]:
    """The ``core`` slots, then every module's, in module order (ValueError for a name declared twice)."""
    out = list(core)
    owners = {slot.name: "the state" for slot in core}
    for module in modules:
        for slot in module.slots:
            if slot.name in owners:
                raise ValueError(f"state slot {slot.name!r} is declared by {owners[slot.name]} and {module.name}")
            owners[slot.name] = module.name
            out.append(slot)
    return tuple(out)


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
