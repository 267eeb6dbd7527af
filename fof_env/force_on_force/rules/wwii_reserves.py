"""Card reserves of the WWII Fog of War deck (004 "Generic WWII Fog of War Cards"; rulings R70).

Four cards of 004 bring a new unit: Hunted! ("Your opponent gains a sniper team"), Browning's Buzz-Saw
("A Medium Machinegun (MMG) team has been dispatched to assist your force"), Tank Busters! ("An AT team
has been dispatched to assist your force") and Tank Support ("A single tank has become available to your
force!"). A game's units (its action space and observation) are fixed by its scenario file, so the
scenario declares each such unit as a *card reserve*: a unit of ``units`` with ``"reserve": <card key>``
(at most one per side and card), off the table and not in play (no figure, no point: its observation row
is all zeros) until its card is drawn. For Hunted! the reserve is a unit of the side that GAINS the
sniper, the drawer's opponent.

When the card is drawn (``rules/wwii_fog.py``) the reserve's owner places it: a ``reinforce_point``
decision (``D_FOW_POINT``, reused from the quick start's reinforcements and the other point cards) over
the points the card allows, with no ``pass`` (the unit comes; only where it goes is chosen):

* Browning's Buzz-Saw, Tank Busters!: "anywhere within 4" of a friendly unit but no closer than 6" to an
  enemy unit" (friendly: an active unit of the owner on the table; enemy: an active enemy unit on the
  table that is not Hidden: a Hidden unit is unknown to the owner, and its point must not shape the mask);
* Hunted!: "anywhere within 24" of one of your units" (the drawer's active units not Hidden), on a woods
  point not held by such a unit (the engine's Hidden is the woods' concealment, rulings R27); the team is
  "In Cover" (the In Cover flag, R23) and "Hidden" (revealed as any Hidden unit, when it moves or fires);
* Tank Support: "The tank enters the game from your force's table edge": a grid point of the outermost
  column or row on the owner's friendly edge (the scenario side's ``edge``), not held by a visible enemy.

The unit enters with every figure of its order of battle unhurt and the card's Troop Quality and Morale
(``CARD_STATS``: the scenario's reserve may not say otherwise). With no reserve declared, a reserve already
in play, or no point the card allows, the card is discarded with no effect and its event says why.

**Asset Cards (reconstruction, rulings R71).** Where'd THEY Come From? ("Your opponent may draw an Asset
Card. The asset described on the card becomes available to your opponent immediately and may be placed
anywhere on the table within 6" of one of his units and no closer than 6" from one of yours.") and
Unexpected Help! (the same for the drawer) need Asset Cards, which no seed lists. A scenario reconstructs a
side's Asset Cards as its *asset reserves*: units with ``"reserve": "asset"`` (any number a side), each one
card, with the scenario's own Troop Quality and Morale. The side receiving the asset draws one of its asset
reserves not yet in play, each as likely (a die with one face per asset left, rolled in the open: the unit
is placed on the table in sight of both), and places it at once on a ``reinforce_point`` decision over the
points within 6" of one of its active units and 6" or more from every enemy unit it knows of (active, not
Hidden). "May draw" is taken as always drawing: a free unit placed out of the enemy's reach never hurts its
side, and declining would be a decision no player takes. With no asset left or no such point, the card is
discarded with no effect and its event says why.
"""

from __future__ import annotations

from typing import Any

from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import D_FOW_POINT, FIGURE_STATES, OK
from fof_env.force_on_force.rule_module import RuleModule

# the card key -> (Troop Quality, Morale) the card gives its unit (004's words in CARD_QUOTES)
CARD_STATS = {
    "hunted": (10, 10),  # "It is a two man team with a Troop Quality and Morale of D10."
    "brownings_buzz_saw": (8, 10),  # "It has a Troop Quality of d8 and Morale of d10."
    "tank_busters": (8, 10),  # "It has a Troop Quality of d8 and Morale of d10."
    "tank_support": (8, 8),  # "It has a Confident crew with a Troop Quality and Morale of d8."
}
RESERVE_CARDS = tuple(CARD_STATS)
ASSET = "asset"  # ``"reserve": "asset"``: one of a side's Asset Cards (reconstruction, rulings R71)
CARD_NAMES = {"hunted": "Hunted!", "brownings_buzz_saw": "Browning's Buzz-Saw", "tank_busters": "Tank Busters!",
              "tank_support": "Tank Support"}  # fmt: skip
SUPPORT_RANGE_IN = 4.0  # "within 4" of a friendly unit"
ENEMY_CLEAR_IN = 6.0  # "but no closer than 6" to an enemy unit"
SNIPER_RANGE_IN = 24.0  # "within 24" of one of your units"
ASSET_RANGE_IN = 6.0  # an asset: "within 6" of one of his units"
ASSET_CLEAR_IN = 6.0  # "and no closer than 6" from one of yours"
_EPS = 1e-9


def check_reserve(u: dict[str, Any], where: str, fog: dict[str, Any] | None, fail) -> None:
    """A unit's ``reserve`` (schema-checked card key) against its unit block: ScenarioError via ``fail``."""
    card = u["reserve"]
    name = CARD_NAMES.get(card, "its Asset Card")
    if not fog or fog.get("table") != "wwii_deck":
        raise fail(f"{where}.reserve", "a reserve enters only when its card is drawn: the scenario needs "
                                       "\"fog_of_war\": {\"table\": \"wwii_deck\"}")  # fmt: skip
    if "deploy" in u:
        raise fail(
            f"{where}.deploy",
            f"a reserve unit enters when {name} is drawn, not at set-up: leave 'deploy' out",
        )
    if u.get("reinforcements") or u.get("requires"):
        raise fail(
            f"{where}.reserve", "a reserve unit may not also be 'reinforcements' or 'requires' an option"
        )
    if card == ASSET:  # an Asset Card: the scenario's unit as it stands (rulings R71)
        return
    tq, morale = CARD_STATS[card]
    for key, value in (("tq", tq), ("morale", morale)):
        if key in u and u[key] != value:
            raise fail(f"{where}.{key}", f"{u[key]} is not the d{value} that {name} gives its unit")
    figures = u["figures"]
    supports = [f.get("support") for f in figures]
    if card == "tank_support":
        vehicle = u.get("vehicle")
        if vehicle is None:
            raise fail(f"{where}.vehicle", f"{name} brings a tank: the reserve needs a 'vehicle' block")
        if vehicle.get("crew_confidence", "confident") != "confident":
            raise fail(f"{where}.vehicle.crew_confidence", f"{name}: \"It has a Confident crew\", not "
                                                           f"{vehicle['crew_confidence']!r}")  # fmt: skip
        return
    if "vehicle" in u:
        raise fail(f"{where}.vehicle", f"{name} brings a two man team, not a vehicle")
    if len(figures) != 2:
        raise fail(f"{where}.figures", f"{name} brings a two man team, not {len(figures)} figures")
    if card == "brownings_buzz_saw" and "medium" not in supports:
        raise fail(
            f"{where}.figures", f"{name}: \"a MMG (Medium Support)\": one figure needs support 'medium'"
        )
    if card == "tank_busters" and ("heavy" not in supports or not u.get("at_weapon")):
        raise fail(f"{where}.figures", f"{name}: \"an AT weapon ... (Heavy Support)\": one figure needs support "
                                       "'heavy' and the unit an 'at_weapon'")  # fmt: skip


def reserves_of(units) -> tuple[str, ...]:
    """By unit of a scenario: its reserve card key (or ``"asset"``), "" for a unit set up as usual; () when
    none is a reserve."""
    out = tuple(u.reserve or "" for u in units)
    return out if any(out) else ()


class WWIIReserves:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def reserve_unit(self, side: int, card: str) -> int:
        """The unit of ``side`` held in reserve for ``card`` (-1: the scenario declares none)."""
        reserves = self.sc.reserves
        if not reserves:
            return -1
        return next((u for u in self.SIDE_UNITS[side] if reserves[u] == card), -1)

    def reserve_being_placed(self, player: int) -> int:
        """The reserve unit ``player`` is placing in the open ``reinforce_point`` decision (-1: none, or
        another player's; the observation's "asked unit" slot)."""
        from fof_env.force_on_force.rules.wwii_fog import OFFER, RESOLVE, card_specs

        if self.kind != D_FOW_POINT or self.cards is None or not self.fow_queue:
            return -1
        code, side = self.fow_queue[0]
        if side != player or not RESOLVE <= code < OFFER:
            return -1
        spec = card_specs()[code - RESOLVE]
        if spec.effect == ASSET:
            return self.cards.asset
        return self.reserve_unit(side, spec.key) if spec.effect == "reserve" else -1

    def reserve_points(self, side: int, card: str) -> list[int]:
        """The points where ``side`` may place its reserve for ``card`` (module docstring, rulings R70)."""
        if card not in ("tank_support", "hunted"):
            return self._points_near_friends(side, SUPPORT_RANGE_IN, ENEMY_CLEAR_IN)
        table = self.sc.table
        dist = table.dist
        enemies = self._known_enemy_points(side)
        if card == "tank_support":
            held = set(enemies)
            return [p for p in table.edge_points(self.sc.edges[side]) if p not in held]
        if card == "hunted":  # the drawer (side ^ 1) is hunted: within 24" of one of its units
            woods = table.in_woods
            held = set(enemies)
            return [p for p in range(self.NUM_POINTS) if woods[p] and p not in held
                    and any(dist[q][p] <= SNIPER_RANGE_IN + _EPS for q in enemies)]  # fmt: skip

    def _known_enemy_points(self, side: int) -> list[int]:
        """The points of the enemy units ``side`` knows of: active and not Hidden (a Hidden unit must not
        shape a mask)."""
        pos, hidden = self.pos, self.hidden
        return [pos[t] for t in self.SIDE_UNITS[side ^ 1] if self.active(t) and not hidden[t]]

    def _points_near_friends(self, side: int, near: float, clear: float) -> list[int]:
        """The points within ``near`` inches of one of ``side``'s active units and ``clear`` inches or
        more from every enemy unit it knows of (active and not Hidden: a Hidden unit must not shape a mask)."""
        table = self.sc.table
        dist = table.dist
        friends = [self.pos[f] for f in self.SIDE_UNITS[side] if self.active(f)]
        enemies = self._known_enemy_points(side)
        reach = set(friends)  # each friend's own point, and the points near it (Table.within, cached)
        for q in friends:
            reach.update(table.within(q, near))
        return [p for p in sorted(reach) if all(dist[q][p] >= clear - _EPS for q in enemies)]

    def reserve_missing(self, side: int, card: str) -> str:
        """Why ``side``'s reserve for ``card`` cannot enter now ("" when it can)."""
        u = self.reserve_unit(side, card)
        if u < 0:
            return (
                f"no reserve unit of {self.SIDES[side]} for it in this scenario: no effect (rulings R66, R70)"
            )
        if any(self.figs[u]):
            return f"{self.UNIT_NAMES[u]} is already in play: no effect (rulings R70)"
        if not self.reserve_points(side, card):
            return f"no point where the card lets {self.UNIT_NAMES[u]} enter: no effect (rulings R70)"
        return ""

    # ------------------------------------------------------------------ Asset Cards (rulings R71)
    def assets_left(self, side: int) -> list[int]:
        """``side``'s asset reserves not yet in play (a unit with no figure has never entered)."""
        reserves = self.sc.reserves
        if not reserves:
            return []
        return [u for u in self.SIDE_UNITS[side] if reserves[u] == ASSET and not any(self.figs[u])]

    def asset_points(self, side: int) -> list[int]:
        """Where ``side`` may place a drawn asset: within 6" of one of its active units, 6" or more from
        every enemy unit it knows of (active and not Hidden)."""
        return self._points_near_friends(side, ASSET_RANGE_IN, ASSET_CLEAR_IN)

    def asset_missing(self, side: int) -> str:
        """Why ``side`` cannot receive an asset now ("" when it can)."""
        if not self.assets_left(side):
            return (f"no Asset Card of {self.SIDES[side]} left in this scenario: no effect "
                    "(rulings R66, R71)")  # fmt: skip
        if not self.asset_points(side):
            return f"no point where {self.SIDES[side]} may place an asset: no effect (rulings R71)"
        return ""

    def draw_asset(self, side: int) -> int:
        """``side`` draws one of its asset reserves left, each as likely (one die roll when more than one)."""
        left = self.assets_left(side)
        return left[self.roll(len(left), "draw an Asset Card") - 1] if len(left) > 1 else left[0]

    def enter_reserve(self, side: int, card: str, point: int, u: int = -1) -> str:
        """``side``'s reserve for ``card`` (or its drawn asset ``u``) enters at ``point``: every figure
        unhurt, the card's TQ and Morale (an asset: its own), the sniper In Cover and Hidden. Returns the
        card's target text for its event."""
        if u < 0:
            u = self.reserve_unit(side, card)
        prof = self.sc.profiles[u]
        self.figs[u] = [0] * len(FIGURE_STATES)
        self.figs[u][OK] = prof.figures
        self.pos[u] = point
        self.tq[u], self.morale[u] = CARD_STATS.get(card, (prof.tq, prof.morale))
        for name in self._UNIT_FLAGS:  # a unit just placed: not activated, not moved, nothing this turn
            getattr(self, name)[u] = 0
        self.hidden[u] = 0
        if card == "hunted":  # "The sniper team is In Cover and Hidden."
            self.in_cover[u] = 1
            self.hidden[u] = 1
        self.events.append(ev.UnitMoved(self.UNIT_NAMES[u], "off table", self.point_name(point), False))
        if card == "hunted":  # the target text must not name the Hidden team (views filter on its name)
            return f"{self.SIDES[side]} gains a Hidden sniper team"
        return f"{self.UNIT_NAMES[u]} enters at {self.point_name(point)}"


MODULE = RuleModule("wwii_reserves", WWIIReserves)

__all__ = ["WWIIReserves", "ASSET", "CARD_STATS", "RESERVE_CARDS", "check_reserve", "reserves_of"]
