"""Fog of War deck ``wwii_deck`` (004 "Generic WWII Fog of War Cards"): a scenario whose ``fog_of_war``
block says ``{"table": "wwii_deck"}`` draws a card where the quick start rolls its D10 table.

004: "This deck may be drawn from by both sides when indicated by a Reaction Test. There is no need to
use two decks." 003: "a player draws a Fog of War card if he rolls an unmodified "1" on a Reaction Test.
The Fog of War card will indicate whether the player must play the card immediately or may hold it in
his hand and play it later."

The deck is data (``data/wwii_fog_of_war.json``: every card with its count, timing and effect key).
Its state lives in one immutable :class:`CardState` (``state.cards``; None in a scenario without the
deck): the deck in draw order, each side's secret hand, the discards, and the lasting effects of cards
(You're Grounded, Friendly Gremlins, the Colonel, Swiss Cheese, Give 'em Hell). Rulings R60-R67:

* R60: one deck of 31 cards, shuffled with the state's dice when set-up ends (Fisher-Yates, one die
  per card; these rolls are hidden from both sides' views); the side of the unit that rolled the
  unmodified 1 draws the top card ("your" on a card is that side); an empty deck gives no card.
* R61: "held" cards (An Excellent Position, Medic!) go to the drawer's secret hand and are offered to
  him at the start of every later turn (after initiative and casualties), newest first: a unit plays
  it, ``pass`` keeps it. Every other card is resolved when drawn and discarded.
* The opponent may know how many cards a hand holds, never which: views, observations, text and
  search (``determinize`` redraws the unseen hand from the deck's remaining cards plus that hand).
* R66, R70: Hunted!, Browning's Buzz-Saw, Tank Busters! and Tank Support bring the scenario's card
  reserve for the card (:mod:`~fof_env.force_on_force.rules.wwii_reserves`), placed by its owner.
* R71: Where'd THEY Come From? (the drawer's opponent) and Unexpected Help! (the drawer) draw one of the
  receiving side's Asset Cards, reconstructed as its scenario's ``"reserve": "asset"`` units.

Queue entries (``state.fow_queue``, owner = the entry's side): ``(DRAW, side)`` draw a card,
``(RESOLVE + card, side)`` resolve an immediate card, ``(OFFER + k, side)`` offer the card at index
``k`` of ``side``'s hand.
"""

from __future__ import annotations

import functools
import json
import random
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from fof_env.core.events import Event, EventLog
from fof_env.core.tabletop import COVER_DICE
from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import D_FOW_POINT, D_FOW_UNIT
from fof_env.force_on_force.rule_module import ObservationPiece, PositionKeys, RuleModule, Slot

DECK_FILE = Path(__file__).resolve().parent.parent / "data" / "wwii_fog_of_war.json"
DECK_TABLE = "wwii_deck"  # the scenario's ``fog_of_war.table`` that switches the deck on
DRAW, RESOLVE, OFFER = 0, 100, 200
SHUFFLE = "shuffle the Fog of War deck"  # the purpose of the shuffle's rolls (hidden from both views)
GROUNDED_RANGE_IN = 6.0  # You're Grounded!: "All units have their Optimum Range reduced to 6"."
SOLID_KINDS = tuple(k for k, dice in COVER_DICE.items() if dice == 1)  # Solid Cover area features
# the cards whose unit goes to the drawer's OPPONENT ("Your opponent gains a sniper team", "Your opponent
# may draw an Asset Card"): the opponent places it (rulings R70, R71)
OPPONENT_RECEIVES = ("hunted", "whered_they_come_from")
FORTIFIED_DICE = 3  # fortified position and reinforced fortification: no Excellent Position there
NO_KNOWN_SPOTTER = "no unit the opponent knows of: no effect (rulings R72)"  # Watch Where You Step!


@dataclass(frozen=True)
class CardSpec:
    key: str
    name: str
    count: int
    timing: str  # "immediate" | "held"
    effect: str
    status: str  # "implemented" | "reserve" (a unit card: R70) | "asset_reconstruction" (R71)
    quote: str


@functools.cache
def card_specs() -> tuple[CardSpec, ...]:
    """The card types of the deck file, in its order (a card is its index here)."""
    data = json.loads(DECK_FILE.read_text(encoding="utf-8"))
    return tuple(CardSpec(c["key"], c["name"], c["count"], c["timing"], c["effect"], c["status"], c["quote"])
                 for c in data["cards"])  # fmt: skip


@functools.cache
def card_keys() -> tuple[str, ...]:
    return tuple(c.key for c in card_specs())


@functools.cache
def full_deck() -> tuple[int, ...]:
    """Every card of the deck (card type indices, each as many times as its count), unshuffled."""
    return tuple(i for i, c in enumerate(card_specs()) for _ in range(c.count))


class CardState(NamedTuple):
    """The deck's state (immutable: a state replaces it, so clones share it safely; a tuple, so
    it is part of the state's fingerprint and digest)."""

    deck: tuple[int, ...]  # draw order, top first
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # by player: secret from the other
    discards: tuple[int, ...] = ()  # played and resolved cards, public
    grounded: int = 0  # You're Grounded! is in play
    gremlins: tuple[int, int] = (0, 0)  # by player: initiative dice lost at the next initiative check
    colonel: int = -1  # the player who automatically gains the next turn's initiative; -1: none
    swiss: tuple[str, ...] = ()  # features that no longer count as Solid Cover
    burning: tuple[str, ...] = ()  # buildings set ablaze by Fire! Fire!: impassable
    markers: tuple[tuple[int, int], ...] = ()  # Watch Where You Step!: (point, side kept 4" away)
    spotter: int = -1  # Watch Where You Step!: the unit that spotted it, while the marker is placed
    hell: tuple[int, ...] = ()  # units under Give 'em Hell! this turn (TQ check at its end)
    asset: int = -1  # Where'd THEY Come From? / Unexpected Help!: the asset drawn, while it is placed (R71)

    def all_cards(self) -> list[int]:
        return sorted(self.deck + self.hands[0] + self.hands[1] + self.discards)


@dataclass(frozen=True, slots=True)
class FogCardDrawn(Event):
    """A side drew a Fog of War card; a ``held`` card's name is for the drawer only."""

    side: str
    card: str
    held: bool


@dataclass(frozen=True, slots=True)
class FogCardPlayed(Event):
    """A Fog of War card takes effect (``target``: the unit or feature it is played on, if any)."""

    side: str
    card: str
    target: str


_crossings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> any-wall crossing matrix
_feature_points: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> {area feature id: points}


def feature_points(table, fid: str) -> tuple[int, ...]:
    """The grid points inside area feature ``fid`` (its boundary included), in index order."""
    cache = _feature_points.get(table)
    if cache is None:
        cache = _feature_points[table] = {}
    if fid not in cache:
        f = table.feature_by_id[fid]
        cache[fid] = tuple(p for p in range(len(table)) if f.is_area and f.contains(*table.xy[p]))
    return cache[fid]


def _wall_crossed(table, q: int, p: int) -> int:
    """1 if a wall gives intervening cover to a unit at ``p`` fired on from ``q`` (-1: no line)."""
    if q < 0:
        return 0
    m = _crossings.get(table)
    if m is None:
        m = np.zeros((len(table), len(table)), dtype=bool)
        for f in table.features:
            if not f.is_area:
                m |= table.wall_crossings(f)
        _crossings[table] = m
    return int(m[q, p])


class WWIIFogDeck:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------ deck
    def _shuffle_deck(self) -> None:
        """Fisher-Yates with the state's dice (rulings R60): one roll per card after the first."""
        deck = list(self.cards.deck)
        for i in range(len(deck) - 1, 0, -1):
            j = self.roll(i + 1, SHUFFLE) - 1
            deck[i], deck[j] = deck[j], deck[i]
        self.cards = self.cards._replace(deck=tuple(deck))

    def _shuffle_deck_for_position(self, seed: int | None) -> None:
        """A position written without its deck: the deck shuffled by a generator seeded from the
        position's seed (0 without one), so no die is rolled: a position's scripted dice stay as they
        are, and the same position always has the same deck (rulings R60)."""
        deck = list(self.cards.deck)
        random.Random(seed or 0).shuffle(deck)
        self.cards = self.cards._replace(deck=tuple(deck))

    def hand_size(self, player: int) -> int:
        return len(self.cards.hands[player]) if self.cards is not None else 0

    def hand_names(self, player: int) -> list[str]:
        """``player``'s own hand (card keys): for that player's eyes only."""
        keys = card_keys()
        return [keys[c] for c in self.cards.hands[player]] if self.cards is not None else []

    def fog_cards_seen_by(self, player: int) -> dict:
        """What ``player`` may know of the deck (its view's ``fog_of_war``): its own hand, the size of
        the other hand, the cards left in the deck, the discards and the lasting effects."""
        c = self.cards
        keys = card_keys()
        return {
            "hand": self.hand_names(player), "enemy_hand": len(c.hands[player ^ 1]), "deck": len(c.deck),
            "discards": [keys[x] for x in c.discards], "grounded": bool(c.grounded),
            "swiss_cheese": list(c.swiss),
            "burning": list(c.burning),
            "markers": [[self.sc.table.name(m), self.SIDES[side]] for m, side in c.markers],
        }  # fmt: skip

    def _card_key(self) -> str:
        """The card the queue's first entry is about (the decision context's ``result``)."""
        code, side = self.fow_queue[0]
        if code >= OFFER:
            return card_keys()[self.cards.hands[side][code - OFFER]]
        return card_keys()[code - RESOLVE] if code >= RESOLVE else "draw"

    def _card_obs_slot(self, player: int) -> int:
        """The quick start table's result one-hot slot that stands for the card offered to ``player``
        in its observation (Excellent Position 1, Medic 3); 0 for anything else or another player."""
        code, side = self.fow_queue[0]
        if side != player or code < OFFER:
            return 0
        return {"excellent_position": 1, "medic": 3}.get(self._card_key(), 0)

    def _draw_card(self, side: int) -> None:
        c = self.cards
        if not c.deck:
            self.events.append(ev.Note(f"{self.SIDES[side]}: the Fog of War deck is empty, no card (R60)"))
            return
        card = c.deck[0]
        spec = card_specs()[card]
        if spec.timing == "held":
            hands = list(c.hands)
            hands[side] = hands[side] + (card,)
            self.cards = c._replace(deck=c.deck[1:], hands=(hands[0], hands[1]))
            self.events.append(FogCardDrawn(self.SIDES[side], spec.key, True))
            self.events.append(ev.Note(f"{self.SIDES[side]} draws a Fog of War card and keeps it"))
            return
        self.cards = c._replace(deck=c.deck[1:], discards=c.discards + (card,))
        self.events.append(FogCardDrawn(self.SIDES[side], spec.key, False))
        decider = side ^ 1 if spec.effect in ("swiss_cheese", "marker") else side  # "Your opponent may ..."
        if spec.key in OPPONENT_RECEIVES:  # "Your opponent gains" / "may draw": it places the unit
            decider = side ^ 1
        self.fow_queue.insert(0, (RESOLVE + card, decider))

    def _offer_held_cards(self) -> None:
        """Start of a turn: offer every held card to its holder, newest first (rulings R61)."""
        for side in (self.initiative, self.initiative ^ 1):
            for k in range(len(self.cards.hands[side]) - 1, -1, -1):
                self.fow_queue.append((OFFER + k, side))

    # ------------------------------------------------------------------ resolution
    def _resolve_card(self) -> None:
        code, side = self.fow_queue[0]
        if code == DRAW:
            self.fow_queue.pop(0)
            self._draw_card(side)
            return
        if code >= OFFER:
            self.kind = (
                D_FOW_UNIT  # always asked, ``pass`` keeps the card: the asks show only the hand's size
            )
            return
        spec = card_specs()[code - RESOLVE]
        if spec.effect == "reserve":  # a card reserve enters, placed by its owner (rules/wwii_reserves.py, R70)
            why = self.reserve_missing(side, spec.key)
            if not why:
                self.kind = D_FOW_POINT
                return
            self.fow_queue.pop(0)
            self._played(self._drawer(side, spec), spec, why)
            return
        if spec.effect == "asset":  # an Asset Card, drawn by the side receiving it (reconstruction, R71)
            why = self.asset_missing(side)
            if not why:
                self.cards = self.cards._replace(asset=self.draw_asset(side))
                self.kind = D_FOW_POINT
                return
            self.fow_queue.pop(0)
            self._played(self._drawer(side, spec), spec, why)
            return
        if spec.effect == "marker" and self.cards.spotter < 0:
            # "Randomly determine the unit that has spotted": one the placing opponent knows of (R72)
            t = self._victim(side ^ 1, known_to=side)
            if t >= 0:
                self.cards = self.cards._replace(spotter=t)
        if spec.effect in ("swiss_cheese", "fire", "marker"):  # a point chosen at once (or pass: "may")
            if self._card_points():
                self.kind = D_FOW_POINT
                return
            self.fow_queue.pop(0)
            drawer = side if spec.effect == "fire" else side ^ 1
            why = "no feature to play it on"
            if spec.effect == "marker":
                why = "no room" if self.cards.spotter >= 0 else NO_KNOWN_SPOTTER
            self.cards = self.cards._replace(spotter=-1)
            self._played(drawer, spec, why)
            return
        self.fow_queue.pop(0)
        IMMEDIATE_EFFECTS[spec.effect](self, side, spec)

    def _played(self, side: int, spec: CardSpec, target: str = "") -> None:
        self.events.append(FogCardPlayed(self.SIDES[side], spec.key, target))

    def _victim(self, side: int, purpose: str = "random unit", known_to: int = -1, riflemen: bool = False) -> int:
        """ "Randomly determine which unit": one of ``side``'s active units on the table (-1: none); with
        ``known_to``, only those that player may see (a Hidden unit must not shape his choices, R72); with
        ``riflemen``, only infantry units with a figure that shoots (no AFV, no unit of medics: R73)."""
        victims = [u for u in self.SIDE_UNITS[side]
                   if self.active(u) and (known_to < 0 or self.visible_to(u, known_to))
                   and (not riflemen or self._fires_as_infantry(u))]  # fmt: skip
        if not victims:
            return -1
        return victims[self.roll(len(victims), purpose) - 1] if len(victims) > 1 else victims[0]

    @staticmethod
    def _drawer(receiver: int, spec: CardSpec) -> int:
        """The side that drew a card bringing a unit, from the side receiving it (the drawer's opponent for
        Hunted! and Where'd THEY Come From?)."""
        return receiver ^ 1 if spec.key in OPPONENT_RECEIVES else receiver

    def _card_bell_tolls(self, side: int, spec: CardSpec) -> None:
        roll = self.roll(6, "The Bell Tolls")
        for u in self.SIDE_UNITS[side]:
            m = self.morale[u]
            self.morale[u] = (max(6, m - 2) if m > 6 else m) if roll <= 3 else min(12, m + 2)
        self._played(side, spec, "morale down" if roll <= 3 else "morale up")

    def _card_grounded(self, side: int, spec: CardSpec) -> None:
        self.cards = self.cards._replace(grounded=1)
        self._played(side, spec)

    def _card_tougher(self, side: int, spec: CardSpec) -> None:
        for u in self.SIDE_UNITS[side ^ 1]:
            for values in (self.tq, self.morale):
                if values[u] < 10:
                    values[u] = min(10, values[u] + 2)
        self._played(side, spec, self.SIDES[side ^ 1])

    def _card_poorly_supplied(self, side: int, spec: CardSpec) -> None:
        for u in self.SIDE_UNITS[side]:
            self.supply[u] = -1
        self._played(side, spec)

    def _card_morale_down(self, side: int, spec: CardSpec) -> None:
        for u in self.SIDE_UNITS[side]:
            if self.morale[u] > 6:
                self.morale[u] = max(6, self.morale[u] - 2)
        self._played(side, spec)

    def _card_colonel(self, side: int, spec: CardSpec) -> None:
        self.cards = self.cards._replace(colonel=side ^ 1)
        self._played(side, spec, f"{self.SIDES[side ^ 1]} gains the next initiative")

    def _card_gremlins(self, side: int, spec: CardSpec) -> None:
        g = list(self.cards.gremlins)
        g[side ^ 1] += 1
        self.cards = self.cards._replace(gremlins=(g[0], g[1]))
        self._played(side, spec, self.SIDES[side ^ 1])

    def _card_boom(self, side: int, spec: CardSpec) -> None:
        t = self._victim(side)
        self._played(side, spec, self.UNIT_NAMES[t] if t >= 0 else "")
        if t >= 0:
            self._attack(t, 4, 10, -1, "BOOM!! (booby-trap)")

    def _card_incoming(self, side: int, spec: CardSpec) -> None:
        t = self._victim(side)
        self._played(side, spec, self.UNIT_NAMES[t] if t >= 0 else "")
        if t >= 0:
            self._attack(t, 6, 6, -1, "Incoming! (mortar fire)")

    def _card_friendly_fire(self, side: int, spec: CardSpec) -> None:
        """Infantry: "each figure in the unit must roll a 4+ to avoid becoming a casualty" (R64); a vehicle
        takes two hits on the Vehicle Damage Results chart (R76)."""
        t = self._victim(side)
        self._played(side, spec, self.UNIT_NAMES[t] if t >= 0 else "")
        if t < 0:
            return
        if getattr(self.sc, "vehicles", None) and self.is_afv(t):
            # "If a vehicle is struck, roll on the 2 Hits column of the Vehicle Damage Results chart.": two
            # hits, so its applied armour ("+1 dice until first hit") is gone too (R76)
            self.strike_vehicle(t, 2)
            return
        rolls = [self.roll(6, f"friendly fire on {self.UNIT_NAMES[t]}") for _ in range(self.effective(t))]
        hits = sum(1 for r in rolls if r < combat.SUCCESS)
        if hits:
            self._take_hits(t, hits)
            if not self.effective(t):
                self._wiped_out(t)

    def _fires_as_infantry(self, u: int) -> bool:
        """An infantry unit (not a crewed AFV) with a figure that shoots (a medic does not: R47)."""
        return self.shooting_figures(u) > 0 and not (self.sc.vehicles and self.is_afv(u))

    def _card_give_em_hell(self, side: int, spec: CardSpec) -> None:
        """ "One of your infantry units gets carried away and blazes away at the enemy": a random one of
        the drawer's infantry units that fire (rulings R73)."""
        t = self._victim(side, riflemen=True)
        self._played(side, spec, self.UNIT_NAMES[t] if t >= 0 else "no infantry unit that fires: no effect (rulings R73)")
        if t >= 0:
            self.mad[t] = 1  # an extra Firepower die for every fire this turn (as the D10 Mad Minute)
            self.cards = self.cards._replace(hell=self.cards.hell + (t,))

    def _give_em_hell_checks(self) -> None:
        """End of the turn: "Make a Troop Quality check for the unit ... If the unit fails the check,
        it is considered to be Poorly Supplied for the duration of the game." """
        for t in self.cards.hell:
            if (
                self.active(t)
                and self.roll(self.tq[t], f"Give 'em Hell! TQ check of {self.UNIT_NAMES[t]}") < combat.SUCCESS
            ):
                self.supply[t] = -1
                self.events.append(ev.Note(f"{self.UNIT_NAMES[t]} is now Poorly Supplied (Give 'em Hell!)"))
        self.cards = self.cards._replace(hell=())

    def _card_initiative(self) -> bool:
        """The initiative check's cards: the Colonel gives it without a roll (True: no roll);
        Friendly Gremlins are read by the roll itself (:meth:`_initiative_dice_lost`)."""
        c = self.cards
        if c.colonel < 0:
            return False
        self.initiative = c.colonel
        self.cards = c._replace(colonel=-1)
        self.events.append(
            ev.Note(f"{self.SIDES[self.initiative]} gains the initiative (Wait, the Colonel Said WHAT?!)")
        )
        return True

    def _initiative_dice_lost(self, side: int) -> int:
        return self.cards.gremlins[side] if self.cards is not None else 0

    def _initiative_rolled(self) -> None:
        if self.cards is not None and any(self.cards.gremlins):
            self.cards = self.cards._replace(gremlins=(0, 0))

    # ------------------------------------------------------------------ decisions
    def _card_unit_choices(self) -> list[int]:
        code, side = self.fow_queue[0]
        key = self._card_key()
        units = [u for u in self.SIDE_UNITS[side] if self.active(u)]
        if key == "excellent_position":  # "This card may not be played on a fortified position."
            return [u for u in units if not self.excellent[u]
                    and self.sc.table.terrain_cover[self.pos[u]] < FORTIFIED_DICE]  # fmt: skip
        return [u for u in units if not self.medic[u]]

    def _card_point_actions(self) -> list[int]:
        """Legal actions of the card's ``reinforce_point`` decision: its points and ``pass`` ("may"), but a
        card reserve's or an asset's points only (the unit comes; its owner chooses where, rulings R70, R71)."""
        code, _side = self.fow_queue[0]
        points = self._card_points()
        return points if card_specs()[code - RESOLVE].effect in ("reserve", "asset") else points + [self.PASS]

    def _card_points(self) -> list[int]:
        """The ``reinforce_point`` choices of the card being resolved (Swiss Cheese, Fire! Fire!, a reserve)."""
        code, side = self.fow_queue[0]
        spec = card_specs()[code - RESOLVE]
        effect = spec.effect
        if effect == "reserve":
            return self.reserve_points(side, spec.key)
        if effect == "asset":
            return self.asset_points(side)
        if effect == "swiss_cheese":
            return self._swiss_points()
        if effect == "marker":
            return self._marker_points(side)
        return self._fire_points(side)

    def _marker_points(self, placer: int) -> list[int]:
        """Watch Where You Step!: "at least 6" from that unit and at least 4" from nearby units"; the
        device is "in the path" of the unit, so at most 12" from it (rulings R62). "Nearby units" are
        those ``placer`` knows of: a Hidden enemy unit does not shape his mask (rulings R72)."""
        t = self.cards.spotter
        if t < 0:
            return []
        dist = self.sc.table.dist
        here = self.pos[t]
        others = [self.pos[u] for u in range(self.NUM_UNITS)
                  if self.pos[u] >= 0 and any(self.figs[u]) and self.visible_to(u, placer)]  # fmt: skip
        return [p for p in range(self.NUM_POINTS)
                if 6.0 - 1e-9 <= dist[here][p] <= 12.0 + 1e-9 and all(dist[q][p] >= 4.0 - 1e-9 for q in others)]  # fmt: skip

    def marker_barred(self, side: int) -> frozenset[int]:
        """Points ``side``'s units may not move to: "None of your units may approach within 4" of the marker"."""
        dist = self.sc.table.dist
        return frozenset(p for m, s in self.cards.markers if s == side for p in range(self.NUM_POINTS)
                         if dist[m][p] < 4.0 - 1e-9)  # fmt: skip

    def _fire_points(self, side: int) -> list[int]:
        """Fire! Fire!: "any building within LOS of one of your units (or anywhere on the table if you have
        air support with offensive capabilities)": one point per building not yet burning, its first."""
        table = self.sc.table
        los = table.los
        eyes = [self.pos[u] for u in self.SIDE_UNITS[side] if self.active(u)]
        cas = getattr(self.sc, "cas", None)
        air = cas is not None and cas.side == side and self.cas_left > 0 and not self.cards.grounded
        out = []
        for f in table.features:
            if f.kind != "building" or f.id in self.cards.burning:
                continue
            points = feature_points(table, f.id)
            if points and (air or any(los[e][p] for e in eyes for p in points)):
                out.append(points[0])
        return sorted(out)

    def burning_points(self) -> frozenset[int]:
        """Points inside a burning building (Fire! Fire!: "The building is impassable")."""
        table = self.sc.table
        return frozenset(p for fid in self.cards.burning for p in feature_points(table, fid))

    def _card_fire(self, side: int, spec: CardSpec, point: int) -> None:
        """Set the building at ``point`` ablaze: "Any figures in the building must immediately evacuate to
        a point at least 4" from the building" (each unit to the nearest such point, rulings R62)."""
        table = self.sc.table
        fid = next(
            f.id for f in table.features if f.kind == "building" and point in feature_points(table, f.id)
        )
        self.cards = self.cards._replace(burning=self.cards.burning + (fid,))
        self._played(side, spec, fid)
        inside = set(feature_points(table, fid))
        feature = table.feature_by_id[fid]
        barred = self.burning_points()
        for u in range(self.NUM_UNITS):
            here = self.pos[u]
            if here < 0 or here not in inside or not any(self.figs[u]):
                continue
            side_u = self.UNIT_SIDE[u]
            # a Hidden enemy's point stays open: an evacuee runs into it, as a move does (R27, R72)
            enemy = {self.pos[t] for t in range(self.NUM_UNITS)
                     if self.UNIT_SIDE[t] != side_u and self.pos[t] >= 0 and not self.hidden[t]}  # fmt: skip
            dist = table.dist[here]
            clear = [q for q in range(self.NUM_POINTS)
                     if q not in barred and q not in enemy and feature.distance_to(*table.xy[q]) >= 4.0 - 1e-9]  # fmt: skip
            if clear:
                self._do_move(u, min(clear, key=lambda q: (dist[q], q)), False)

    def _swiss_points(self) -> list[int]:
        """One point per Solid Cover area feature not yet degraded: its first point on the grid."""
        table = self.sc.table
        kinds = {f.id: f.kind for f in table.features}
        out, seen = [], set(self.cards.swiss)
        for p, fid in enumerate(table.feature_at):
            if fid is not None and fid not in seen and kinds[fid] in SOLID_KINDS:
                seen.add(fid)
                out.append(p)
        return out

    def _on_card_unit(self, action: int) -> None:
        code, side = self.fow_queue.pop(0)
        if action == self.PASS:
            return
        k = code - OFFER
        c = self.cards
        card = c.hands[side][k]
        hand = c.hands[side][:k] + c.hands[side][k + 1 :]
        hands = (hand, c.hands[1]) if side == 0 else (c.hands[0], hand)
        self.cards = c._replace(hands=hands, discards=c.discards + (card,))
        u = action - self.UNIT0
        spec = card_specs()[card]
        if spec.effect == "excellent_position":
            self.excellent[u] = 1
        else:  # medic: the unit's Medic, as the quick start's Fog of War result 3 (rulings R65)
            self.medic[u] = 1
        self._played(side, spec, self.UNIT_NAMES[u])

    def _on_card_point(self, action: int) -> None:
        code, side = self.fow_queue.pop(0)
        spec = card_specs()[code - RESOLVE]
        if spec.effect == "reserve":  # side: the reserve's owner; Hunted!'s drawer is the other side
            target = self.enter_reserve(side, spec.key, action)
            self._played(self._drawer(side, spec), spec, target)
            return
        if spec.effect == "asset":  # side: the asset's receiver
            target = self.enter_reserve(side, spec.key, action, self.cards.asset)
            self.cards = self.cards._replace(asset=-1)
            self._played(self._drawer(side, spec), spec, target)
            return
        if spec.effect == "fire":
            if action == self.PASS:
                self._played(side, spec, "not played")
            else:
                self._card_fire(side, spec, action)
            return
        if spec.effect == "marker":
            c = self.cards
            markers = c.markers + ((action, side ^ 1),) if action != self.PASS else c.markers
            self.cards = c._replace(markers=markers, spotter=-1)
            self._played(side ^ 1, spec, self.sc.table.name(action) if action != self.PASS else "not placed")
            return
        if action == self.PASS:
            self._played(side ^ 1, spec, "not played")
            return
        fid = self.sc.table.feature_at[action]
        self.cards = self.cards._replace(swiss=self.cards.swiss + (fid,))
        self._played(side ^ 1, spec, fid)

    # ------------------------------------------------------------------ effects read by the rules
    def _swiss_cover(self, here: int, shooter_pos: int) -> int | None:
        """Terrain cover dice at ``here`` when its feature no longer counts as Solid Cover: only a
        crossing wall's (None: the feature is intact)."""
        table = self.sc.table
        if table.feature_at[here] not in self.cards.swiss:
            return None
        return _wall_crossed(table, shooter_pos, here)

    def _determinize_cards(self, other, player: int, rng) -> None:
        """Redraw what ``player`` cannot know: the deck's order and the other side's hand, drawn from
        the deck's cards plus that hand (both public as a multiset), canonically sorted first."""
        c = self.cards
        enemy = player ^ 1
        pool = sorted(c.deck + c.hands[enemy])
        rng.shuffle(pool)
        n = len(c.hands[enemy])
        hands = list(c.hands)
        hands[enemy] = tuple(pool[:n])
        other.cards = c._replace(deck=tuple(pool[n:]), hands=(hands[0], hands[1]))
        other.history = []
        other.events = EventLog()
        other._rolls = []
        other._legal_cache = None
        other._mask_cache = None


# the effect key of each card resolved at once with no decision (``data/wwii_fog_of_war.json``) -> its rule
IMMEDIATE_EFFECTS = {
    "bell_tolls": WWIIFogDeck._card_bell_tolls,
    "grounded": WWIIFogDeck._card_grounded,
    "tougher": WWIIFogDeck._card_tougher,
    "poorly_supplied": WWIIFogDeck._card_poorly_supplied,
    "morale_down": WWIIFogDeck._card_morale_down,
    "colonel": WWIIFogDeck._card_colonel,
    "gremlins": WWIIFogDeck._card_gremlins,
    "boom": WWIIFogDeck._card_boom,
    "incoming": WWIIFogDeck._card_incoming,
    "friendly_fire": WWIIFogDeck._card_friendly_fire,
    "give_em_hell": WWIIFogDeck._card_give_em_hell,
}
# the effects resolved through a decision or by the card reserves (``_resolve_card``), and the held cards'
DECISION_EFFECTS = ("reserve", "asset", "swiss_cheese", "fire", "marker")
HELD_EFFECTS = ("excellent_position", "medic")

def _give_em_hell(state) -> None:
    if state.cards is not None and state.cards.hell:  # Give 'em Hell!'s TQ check at the turn's end (R63)
        state._give_em_hell_checks()


# ---------------------------------------------------------------------- the observation's ``cards`` piece
CARD_EFFECTS = 11  # the cards piece's lasting public effects
HAND_SCALE, ENEMY_HAND_SCALE, DISCARD_SCALE = 2, 5, 2  # counts divided by these


def card_features() -> int:
    """Floats in the ``cards`` piece: my hand and the discards per card type, two sizes, the effects."""
    return 2 * len(card_keys()) + 2 + CARD_EFFECTS


@functools.cache
def _count_scales() -> tuple[tuple[float, ...], tuple[float, ...], int]:
    """The features of every count n of one card type a hand or the discards can hold (min(n, 2) / 2), and
    the deck's size: what the ``cards`` piece divides by."""
    size = len(full_deck())
    return (tuple(min(n, HAND_SCALE) / HAND_SCALE for n in range(size + 1)),
            tuple(min(n, DISCARD_SCALE) / DISCARD_SCALE for n in range(size + 1)), size)  # fmt: skip


def encode_cards(s, player: int, _order=()) -> list[float] | None:
    """The ``cards`` piece of ``player``'s observation (:mod:`fof_env.force_on_force.observation`): only what
    ``fog_cards_seen_by`` lets the player know, so the enemy hand's cards never show."""
    c = s.cards
    if c is None:  # the fog_of_war option off: all zeros
        return None
    in_hand, discarded, deck_size = _count_scales()
    types = len(card_keys())
    mine = [0] * types
    for card in c.hands[player]:
        mine[card] += 1
    discards = [0] * types
    for card in c.discards:
        discards[card] += 1
    enemy = 1 - player
    hell = [s.UNIT_SIDE[u] for u in c.hell]
    markers = [side for _, side in c.markers]  # the side whose units keep away
    return [
        *[in_hand[x] for x in mine],
        min(len(c.hands[enemy]), ENEMY_HAND_SCALE) / ENEMY_HAND_SCALE,
        len(c.deck) / deck_size,
        *[discarded[x] for x in discards],
        float(c.grounded), min(c.gremlins[player], 1), min(c.gremlins[enemy], 1),
        float(c.colonel == player), float(c.colonel == enemy),
        min(len(c.swiss), 2) / 2, min(len(c.burning), 2) / 2,
        min(markers.count(player), 1), min(markers.count(enemy), 1),
        min(hell.count(player), 1), min(hell.count(enemy), 1),
    ]  # fmt: skip


def read_position(s, position: dict, seed: int | None) -> None:
    """The position's ``fog_cards`` block; without one, the whole deck shuffled from the position's seed
    (rulings R60)."""
    if s.cards is not None:
        if "fog_cards" in position:
            read_cards(s, position["fog_cards"])
        else:
            s._shuffle_deck_for_position(seed)
    elif "fog_cards" in position:
        from fof_env.core.errors import PositionError

        raise PositionError("position['fog_cards']: this game has no Fog of War deck (fog_of_war.table 'wwii_deck')")


def write_position(s, out: dict) -> None:
    if s.cards is not None:
        out["fog_cards"] = write_cards(s)


MODULE = RuleModule(
    "wwii_fog",
    WWIIFogDeck,
    pieces=(ObservationPiece("cards", lambda layout: card_features() if layout.fog_deck else 0, encode_cards),),
    position=PositionKeys(("fog_cards",), read_position, write_position),
    hooks={"turn_ended": _give_em_hell},
    active=lambda sc: sc.layout.fog_deck,
    # the deck, unshuffled until set-up ends (None: no deck in this game)
    slots=(Slot("cards", default=lambda s: CardState(deck=full_deck()) if deck_on(s.game) else None),),
)


def check_card_invariant(state) -> None:
    """Deck + hands + discards always equal the deck list (fuzz invariant)."""
    c = state.cards
    if c is None:
        return
    assert c.all_cards() == sorted(full_deck()), "deck + hands + discards differ from the deck list"
    for code, side in state.fow_queue:
        if code >= OFFER:
            assert code - OFFER < len(c.hands[side]), "an offer names a card not in the hand"


# ---------------------------------------------------------------------- position format
CARD_KEYS_IN_POSITION = ("deck", "hands", "discards", "grounded", "gremlins", "colonel", "swiss_cheese",
                         "give_em_hell", "burning", "markers")  # fmt: skip


def deck_on(game) -> bool:
    """Whether ``game`` plays the WWII Fog of War deck (its scenario's table, Fog of War switched on)."""
    fog = game.scenario.fog_of_war
    return bool(game.fog_of_war and fog and fog.get("table") == DECK_TABLE)


def read_cards(s, spec) -> None:
    """The position's ``fog_cards`` block into ``s.cards`` (PositionError naming what is wrong)."""
    from fof_env.core.errors import PositionError

    if s.cards is None:
        raise PositionError(
            "position['fog_cards']: this game has no Fog of War deck (fog_of_war.table 'wwii_deck')"
        )
    if not isinstance(spec, dict) or set(spec) - set(CARD_KEYS_IN_POSITION):
        raise PositionError(f"position['fog_cards'] must be a dict with keys from {CARD_KEYS_IN_POSITION}")
    keys, sides = card_keys(), s.SIDES

    def cards(value, where: str) -> tuple[int, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v in keys for v in value):
            raise PositionError(
                f"fog_cards.{where} must be a list of card keys from {keys}, got {value!r:.200}"
            )
        return tuple(keys.index(v) for v in value)

    hands_spec = spec.get("hands", {})
    if not isinstance(hands_spec, dict) or set(hands_spec) - set(sides):
        raise PositionError(f"fog_cards.hands must map sides {sides} to lists of card keys")
    deck = cards(spec.get("deck", []), "deck")
    hands = tuple(cards(hands_spec.get(side, []), f"hands.{side}") for side in sides)
    for side, hand in zip(sides, hands, strict=True):
        held = [keys[c] for c in hand if card_specs()[c].timing != "held"]
        if held:
            raise PositionError(
                f"fog_cards.hands.{side}: {held[0]!r} is resolved when drawn, never kept in a hand"
            )
    discards = cards(spec.get("discards", []), "discards")
    given = sorted(deck + hands[0] + hands[1] + discards)
    if given != sorted(full_deck()):
        missing, extra = _multiset_diff(full_deck(), given), _multiset_diff(given, full_deck())
        raise PositionError(
            f"fog_cards: deck + hands + discards must be the {len(full_deck())} cards of the deck list; "
            f"missing {[keys[c] for c in missing]}, extra {[keys[c] for c in extra]}"
        )
    grounded = spec.get("grounded", False)
    if not isinstance(grounded, bool):
        raise PositionError(f"fog_cards.grounded must be true or false, got {grounded!r}")
    gremlins = spec.get("gremlins", [])
    if not isinstance(gremlins, list) or not all(isinstance(g, str) and g in sides for g in gremlins):
        raise PositionError(
            f"fog_cards.gremlins must be a list of sides from {sides} (one per initiative die lost)"
        )
    colonel = spec.get("colonel")
    if colonel is not None and (not isinstance(colonel, str) or colonel not in sides):
        raise PositionError(f"fog_cards.colonel must be null or one of {sides}, got {colonel!r}")
    swiss = spec.get("swiss_cheese", [])
    solid = {f.id for f in s.sc.table.features if f.kind in SOLID_KINDS}
    if (
        not isinstance(swiss, list)
        or not all(isinstance(f, str) and f in solid for f in swiss)
        or len(set(swiss)) < len(swiss)
    ):
        raise PositionError(
            f"fog_cards.swiss_cheese must list distinct Solid Cover area features from {sorted(solid)}"
        )
    burning = spec.get("burning", [])
    buildings = {f.id for f in s.sc.table.features if f.kind == "building"}
    if (
        not isinstance(burning, list)
        or not all(isinstance(f, str) and f in buildings for f in burning)
        or len(set(burning)) < len(burning)
    ):
        raise PositionError(f"fog_cards.burning must list distinct buildings from {sorted(buildings)}")
    markers_spec = spec.get("markers", {})
    if not isinstance(markers_spec, dict) or set(markers_spec) - set(sides):
        raise PositionError(
            f'fog_cards.markers must map sides {sides} to the points their units keep 4" from'
        )
    markers = []
    for side, points in markers_spec.items():
        if not isinstance(points, list) or not all(
            isinstance(x, str) and x in s.sc.table.names for x in points
        ):
            raise PositionError(f"fog_cards.markers.{side} must be a list of point names")
        markers += [(s.sc.table.index(x), sides.index(side)) for x in points]
    hell = spec.get("give_em_hell", [])
    if not isinstance(hell, list) or not all(isinstance(u, str) and u in s.UNIT_NAMES for u in hell):
        raise PositionError(f"fog_cards.give_em_hell must be a list of unit names from {s.UNIT_NAMES}")
    s.cards = CardState(
        deck=deck, hands=(hands[0], hands[1]), discards=discards, grounded=int(grounded),
        gremlins=(gremlins.count(sides[0]), gremlins.count(sides[1])),
        colonel=sides.index(colonel) if colonel is not None else -1, swiss=tuple(swiss), burning=tuple(burning), markers=tuple(markers),
        hell=tuple(s.UNIT_NAMES.index(u) for u in hell),
    )  # fmt: skip
    for u in s.cards.hell:
        s.mad[u] = 1


def _multiset_diff(a, b) -> list[int]:
    rest = list(b)
    out = []
    for x in a:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def write_cards(s) -> dict:
    """``s.cards`` as the position's ``fog_cards`` block."""
    c = s.cards
    keys, sides = card_keys(), s.SIDES
    out: dict = {
        "deck": [keys[x] for x in c.deck],
        "hands": {sides[p]: [keys[x] for x in c.hands[p]] for p in (0, 1)},
        "discards": [keys[x] for x in c.discards],
    }
    if c.grounded:
        out["grounded"] = True
    if any(c.gremlins):
        out["gremlins"] = [sides[p] for p in (0, 1) for _ in range(c.gremlins[p])]
    if c.colonel >= 0:
        out["colonel"] = sides[c.colonel]
    if c.swiss:
        out["swiss_cheese"] = list(c.swiss)
    if c.burning:
        out["burning"] = list(c.burning)
    if c.markers:
        out["markers"] = {sides[p]: [s.sc.table.name(m) for m, side in c.markers if side == p]
                          for p in (0, 1) if any(side == p for _, side in c.markers)}  # fmt: skip
    if c.hell:
        out["give_em_hell"] = [s.UNIT_NAMES[u] for u in c.hell]
    return out

