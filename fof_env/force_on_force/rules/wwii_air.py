"""Scenario rule module ``wwii_close_air_support`` (004 "Close Air Support in WWII"): a side with air
support calls a strafing run or a bomb run on an enemy unit through a unit with a radio.

004: "The process for calling in the strike is the same as those for contemporary games, although WWII
units obviously won't have laser designators and spotty radio communications is the norm unless the
scenario states otherwise." "Only units with equipped with radios and possessing the frequencies for
assigned CAS assets may call for an air strike." "the Danger Close distance is extended from 4" to 8.""
"Air Strikes in WWII are limited to Strafing Runs and Bomb Runs." "The Firepower of the Strafing Run and
Bombing Runs are defined by the air support Asset Card in play."

The modern procedure is not in the seeds; rulings R68-R69 reconstruct it minimally:

* scenario: ``"rules": {"wwii_close_air_support": {"side": ..., "asset": "p47_strafing", "sorties": 1,
  "from_turn": 2, "radio": "spotty" | "reliable"}}``; the asset is a card of the reconstruction file
  ``data/wwii_air_assets.json``; a unit "has a radio" when one of its figures has the role ``radio``;
* at the start of every turn from ``from_turn`` (2 or later: turn 1 starts straight from set-up; after initiative, casualties and Fog of War card offers),
  while sorties are left, You're Grounded! is not in play, and an active, unpinned radio unit of the side
  sees an enemy unit, the side decides (``call_airstrike``): an enemy unit seen by one of its radio units
  (the target) or ``pass``;
* the first radio unit (unit order) that sees the target calls: unless the radio is ``reliable`` it
  passes a TQ check (a failed call keeps the sortie); the sortie is spent;
* Danger Close 8": if a friendly active unit is within 8" of the target, a d6; on a 1 the run strikes the
  nearest such friendly unit instead (ties: unit order);
* a strafing run attacks the struck unit with the asset's Firepower; a bomb run attacks every active unit
  within the asset's radius of the struck unit's point, friend or foe, in unit order; no line of fire
  (the unit's own terrain cover), defence and morale as usual, no reaction.

The module's state is the state's slot ``cas_left`` (sorties left; 0 without the rule); its settings are
``state.sc.cas`` (:class:`CasRule`) and ``state.sc.radio`` (by unit).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fof_env.core.errors import PositionError
from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import ST_OVERWATCH
from fof_env.force_on_force.position_fields import count
from fof_env.force_on_force.rule_module import PositionKeys, RuleModule, Slot

ASSETS_FILE = Path(__file__).resolve().parent.parent / "data" / "wwii_air_assets.json"
DANGER_CLOSE_IN = 8.0  # 004: "the Danger Close distance is extended from 4" to 8.""
RULE = "wwii_close_air_support"
RULE_KEYS = {"side", "asset", "sorties", "from_turn", "radio", "option", "seed_quote"}


@dataclass(frozen=True)
class AirAsset:
    key: str
    name: str
    run: str  # "strafing" | "bomb"
    firepower: int
    die: int
    radius_in: float


@dataclass(frozen=True)
class CasRule:
    side: int
    asset: AirAsset
    sorties: int
    from_turn: int
    reliable_radio: bool


@functools.cache
def air_assets() -> dict[str, AirAsset]:
    data = json.loads(ASSETS_FILE.read_text(encoding="utf-8"))
    return {a["key"]: AirAsset(a["key"], a["name"], a["run"], a["firepower"], a["die"], float(a["radius_in"]))
            for a in data["assets"]}  # fmt: skip


def check_rule(cfg: dict[str, Any], where: str, fail) -> None:
    """The scenario's settings of the rule (ScenarioError through ``fail`` naming the field)."""
    if cfg.get("asset") not in air_assets():
        raise fail(
            f"{where}.asset",
            f"{cfg.get('asset')!r} is not an air asset card; cards: {', '.join(air_assets())}",
        )
    for key, lo in (("sorties", 1), ("from_turn", 2)):
        v = cfg.get(key, lo)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= 20:
            raise fail(f"{where}.{key}", f"must be an integer {lo}..20, got {v!r}")
    if cfg.get("radio", "spotty") not in ("spotty", "reliable"):
        raise fail(f"{where}.radio", f"must be 'spotty' or 'reliable', got {cfg.get('radio')!r}")


def cas_rule(sc, options: dict[str, Any]) -> CasRule | None:
    cfg = sc.rules.get(RULE)
    if cfg is None or (cfg.get("option") and not options[cfg["option"]]):
        return None
    return CasRule(cfg["side"], air_assets()[cfg["asset"]], cfg.get("sorties", 1), cfg.get("from_turn", 2),
                   cfg.get("radio", "spotty") == "reliable")  # fmt: skip


def radio_units(sc) -> tuple[bool, ...]:
    """By unit: one of its figures has the role ``radio`` (the scenario's radioman)."""
    return tuple(any(f.role.strip().lower() == "radio" for f in u.figures) for u in sc.units)


class WWIICloseAirSupport:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _radio_callers(self) -> list[int]:
        radio = self.sc.radio
        return [
            u for u in self.SIDE_UNITS[self.sc.cas.side] if radio[u] and self.active(u) and not self.pinned[u]
        ]

    def cas_targets(self) -> list[int]:
        """Enemy units the air support may be called on now (none: no call this turn)."""
        cas = self.sc.cas
        if cas is None or self.cas_left <= 0 or self.turn < cas.from_turn:
            return []
        if self.cards is not None and self.cards.grounded:  # You're Grounded!: "grounding all air assets"
            return []
        callers = self._radio_callers()
        los = self.sc.table.los
        return [t for t in self.SIDE_UNITS[cas.side ^ 1] if self.active(t) and not self.hidden[t]
                and any(los[self.pos[c]][self.pos[t]] for c in callers)]  # fmt: skip

    def _on_cas(self, action: int) -> None:
        self._auto(ST_OVERWATCH)
        if action == self.PASS:
            return
        cas = self.sc.cas
        t = action - self.UNIT0
        los = self.sc.table.los
        caller = next(c for c in self._radio_callers() if los[self.pos[c]][self.pos[t]])
        name = self.UNIT_NAMES[caller]
        if not cas.reliable_radio and self.roll(self.tq[caller], f"radio call of {name}") < combat.SUCCESS:
            self.events.append(ev.Note(f"{name} cannot raise the {cas.asset.name} on the radio"))
            return
        self.cas_left -= 1
        dist = self.sc.table.dist
        near = [u for u in self.SIDE_UNITS[cas.side]
                if self.active(u) and dist[self.pos[u]][self.pos[t]] <= DANGER_CLOSE_IN + 1e-9]  # fmt: skip
        struck = t
        if near and self.roll(6, f"danger close ({name})") == 1:
            struck = min(near, key=lambda u: (dist[self.pos[u]][self.pos[t]], u))
            self.events.append(
                ev.Note(f"danger close: the {cas.asset.name} strikes {self.UNIT_NAMES[struck]}")
            )
        self.events.append(ev.Note(f"{name} calls the {cas.asset.name} on {self.UNIT_NAMES[t]}"))
        asset = cas.asset
        if asset.run == "strafing":
            self._attack(struck, asset.firepower, asset.die, -1, asset.name)
            return
        at = self.pos[struck]
        for u in range(self.NUM_UNITS):
            if self.active(u) and dist[self.pos[u]][at] <= asset.radius_in + 1e-9:
                self._attack(u, asset.firepower, asset.die, -1, asset.name)


def read_position(s, position: dict[str, Any], _seed) -> None:
    """The position's ``cas_sorties``: sorties left (0..20)."""
    if "cas_sorties" in position:
        if s.sc.cas is None:
            raise PositionError("position['cas_sorties']: this game has no close air support (rule wwii_close_air_support)")
        s.cas_left = count(position["cas_sorties"], "cas_sorties", 20)


def write_position(s, out: dict[str, Any]) -> None:
    if s.sc.cas is not None:
        out["cas_sorties"] = s.cas_left


MODULE = RuleModule(
    "wwii_close_air_support",
    WWIICloseAirSupport,
    slots=(Slot("cas_left", default=lambda s: s.sc.cas.sorties if s.sc.cas is not None else 0),),  # sorties left
    position=PositionKeys(("cas_sorties",), read_position, write_position),
)
