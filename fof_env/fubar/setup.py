"""The static side of a FUBAR game (``state.sc``): the scenario, its flat figure list and the action space.

Figures are numbered once per game: every unit's infantry figures in unit order, then each vehicle's
weapon mounts, then each vehicle's crew. A unit's *members* (``state.members[u]``) are the figures it
holds now: its own figures (plus an attached leader's), a vehicle's mounts, a destroyed vehicle's crew.

The action space (``Discrete(num_actions)``), derived from the scenario (P points, U units, M the most
members a unit can hold):

================================  ===============================================================
``[0, P)``                        table point ``xNNyNN``: deployment, move destination, firing point
                                  of a Walk, the point where an On Guard unit fires, withdrawal ...
``[P, P+U)``                      unit (its id, ``tal.1``): the unit to activate, a fire or assault
                                  target, the unit an attachable leader joins, the pilot's new unit
``[P+U, P+U+M)``                  ``f<i>``: member i of the unit concerned (a figure to re-target or
                                  to move up into close combat, a vehicle weapon)
``[P+U+M, P+U+2M)``               ``c<i>``: member i becomes a casualty (hit allocation)
``[P+U+2M, P+U+3M)``              ``s<i>``: member i is Suppressed (hit allocation)
``P+U+3M`` ...                    ``pass``, ``walk``, ``run``, ``duck_weave``, ``on_guard``,
                                  ``gone_to_ground``, ``aimed_fire``, ``assault``, ``move``, ``fire``,
                                  ``fight``, ``withdraw``, ``exit``, ``yes``, ``handoff``
================================  ===============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from fof_env.core.tabletop import Table
from fof_env.fubar.geometry import Geometry
from fof_env.fubar.scenario import FigureSpec, Scenario
from fof_env.fubar.tables import TANKS_THROUGH_MODERATE, TRAINING

WORDS = ("pass", "walk", "run", "duck_weave", "on_guard", "gone_to_ground", "aimed_fire", "assault", "move",
         "fire", "fight", "withdraw", "exit", "yes", "handoff")  # fmt: skip
# offsets of the words from ``Setup.word0``
(W_PASS, W_WALK, W_RUN, W_DUCK_WEAVE, W_ON_GUARD, W_GONE_TO_GROUND, W_AIMED_FIRE, W_ASSAULT, W_MOVE, W_FIRE, W_FIGHT,
 W_WITHDRAW, W_EXIT, W_YES, W_HANDOFF) = range(len(WORDS))  # fmt: skip


@dataclass(frozen=True, eq=False)
class Setup:
    """Everything static a FUBAR state reads (see the module docstring)."""

    scenario: Scenario
    table: Table
    geo: Geometry
    n_points: int
    n_units: int
    m: int  # most members of one unit
    unit0: int
    fig0: int
    cas0: int
    sup0: int
    word0: int
    num_actions: int
    unit_ids: tuple[str, ...]
    unit_side: tuple[int, ...]
    side_units: tuple[tuple[int, ...], tuple[int, ...]]
    present: tuple[bool, ...]  # in play with these options (an optional unit left out: False)
    figs: tuple[FigureSpec, ...]  # every figure, flat
    fig_class: tuple[int, ...]  # interchangeable figures share a class
    unit_figs: tuple[tuple[int, ...], ...]  # a unit's starting members (a vehicle: its mounts)
    crew_figs: tuple[tuple[int, ...], ...]  # a vehicle's crew (empty for infantry)
    vehicle: tuple[bool, ...]
    vsave: tuple[int, ...]  # a vehicle's armour save (0 for infantry)
    tank: tuple[bool, ...]  # may move through Moderate Cover
    capacity: tuple[int, ...]
    activation: tuple[int, ...]
    expertise: tuple[int, ...]
    suppress: tuple[int, ...]
    edges: tuple[str, str]
    may_exit: tuple[bool, bool]
    deploy_points: tuple[tuple[int, ...], ...]
    carrier0: tuple[int, ...]  # the vehicle a unit starts in, or -1
    attachable: tuple[bool, ...]
    lead: tuple[int, ...]  # a leader figure's Activation number (0: not a leader)
    armour: tuple[str, ...]  # each figure's personal armour
    hmg: tuple[bool, ...]  # an infantry HMG (two crew)
    reach: tuple[float, ...]  # longest range of each figure's weapons
    walk_reach: tuple[float, ...]  # longest range of its small arms and grenades
    indirect: tuple[bool, ...]  # carries a mortar

    def word(self, name: str) -> int:
        return self.word0 + WORDS.index(name)


def build_setup(scenario: Scenario, optional_units: bool = True) -> Setup:
    """The :class:`Setup` of ``scenario``; ``optional_units`` False leaves the units marked optional out."""
    table = scenario.table
    units = scenario.units
    figs: list[FigureSpec] = []
    unit_figs: list[tuple[int, ...]] = []
    for u in units:
        start = len(figs)
        figs.extend(u.figures)
        unit_figs.append(tuple(range(start, len(figs))))
    unit_figs = list(unit_figs)
    crew: list[tuple[int, ...]] = [()] * len(units)
    for i, u in enumerate(units):
        if u.vehicle is not None:
            start = len(figs)
            figs.extend(u.vehicle.mounts)
            unit_figs[i] = tuple(range(start, len(figs)))
    for i, u in enumerate(units):
        if u.vehicle is not None:
            start = len(figs)
            figs.extend(u.vehicle.crew)
            crew[i] = tuple(range(start, len(figs)))
    keys: dict[tuple, int] = {}
    fig_class = tuple(keys.setdefault(f.key, len(keys)) for f in figs)
    n_units = len(units)
    m = scenario.max_members
    p = table.n
    unit0 = p
    fig0 = unit0 + n_units
    cas0 = fig0 + m
    sup0 = cas0 + m
    word0 = sup0 + m
    present = tuple(optional_units or not u.optional for u in units)
    return Setup(
        scenario=scenario, table=table, geo=scenario.geometry, n_points=p, n_units=n_units, m=m,
        unit0=unit0, fig0=fig0, cas0=cas0, sup0=sup0, word0=word0, num_actions=word0 + len(WORDS),
        unit_ids=tuple(u.id for u in units), unit_side=tuple(u.side for u in units),
        side_units=(tuple(i for i, u in enumerate(units) if u.side == 0),
                    tuple(i for i, u in enumerate(units) if u.side == 1)),
        present=present, figs=tuple(figs), fig_class=fig_class, unit_figs=tuple(unit_figs),
        crew_figs=tuple(crew), vehicle=tuple(u.vehicle is not None for u in units),
        vsave=tuple(u.vehicle.save if u.vehicle else 0 for u in units),
        tank=tuple(bool(u.vehicle and u.vehicle.cls in TANKS_THROUGH_MODERATE) for u in units),
        capacity=tuple(u.vehicle.capacity if u.vehicle else 0 for u in units),
        activation=tuple(u.training.activation for u in units),
        expertise=tuple(u.training.expertise for u in units),
        suppress=tuple(u.training.suppress for u in units),
        edges=(scenario.sides[0].edge, scenario.sides[1].edge),
        may_exit=(scenario.sides[0].exit, scenario.sides[1].exit),
        deploy_points=tuple(u.deployment.points for u in units),
        carrier0=tuple(u.deployment.carrier for u in units),
        attachable=tuple(u.attachable for u in units),
        lead=tuple(TRAINING[f.leader].activation if f.leader else 0 for f in figs),
        armour=tuple(f.armour for f in figs),
        hmg=tuple(f.infantry_hmg for f in figs),
        reach=tuple(f.max_range for f in figs),
        walk_reach=tuple(f.walk_range for f in figs),
        indirect=tuple(f.indirect for f in figs),
    )  # fmt: skip
