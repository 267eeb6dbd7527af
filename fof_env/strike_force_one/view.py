"""What one side may know of a Strike Force One position (see :mod:`fof_env.core.view`).

Strike Force One has no hidden units and no cards: both sides see the whole map. The view adds
the hex map for the browser (``board.type == "hexmap"``: every hex with its name, column, row,
centre and terrain; every unit on the map; the decision's markers), labels for the actions, the
odds of every attack (:func:`attack_odds`: the Combat Results Table's column for the
differential, each result's chance on one die), the victory conditions and the score in words.
"""

from __future__ import annotations

from typing import Any

from fof_env.core.view import RulesetView
from fof_env.strike_force_one.data import RESULTS, SIDE_COLOURS, SIDES, UNIT_NAMES, UNIT_SIDE

_PASS = {
    "select_unit": "End the movement phase",
    "attack_target": "End the combat phase",
    "advance": "Do not advance",
}


class StrikeForceOneView(RulesetView):
    """The view of ``strike_force_one`` (both sides see everything but the future dice)."""

    REACTION_KINDS = frozenset({"retreat_hex", "advance"})

    def title(self, state) -> str:
        return "Strike Force One" + (" (optional rules)" if state.game.options.get("optional_rules") else "")

    def colours(self, state) -> dict[str, str]:
        return dict(zip(SIDES, SIDE_COLOURS, strict=True))

    def victory(self, state) -> list[str]:
        towns = ", ".join(state.sc.grid.names[t] for t in state.sc.towns)
        return [
            f"At the end of turn {state.sc.turns} the Soviets win if their units occupy at least two of the three "
            f"towns ({towns}); otherwise the U.S. wins. There are no ties.",
            "Units eliminated do not count towards victory.",
        ]

    def score_text(self, state) -> str:
        score = state.score
        return (
            f"Soviets hold {score['soviet_towns']} of 3 towns (they need 2 at the end of turn {state.sc.turns}); "
            f"units left: Soviet {score['soviet_units']}, U.S. {score['us_units']}"
        )

    def previews(self, state, actions: list[int]) -> dict[int, dict[str, Any]]:
        kind = state.decision.kind
        if kind not in ("attack_target", "attack_add"):
            return {}
        return {a: p for a in actions if (p := attack_preview(state, a)) is not None}

    def board(self, state, player: int) -> dict[str, Any]:
        grid = state.sc.grid
        towns = set(state.sc.towns)
        hexes = []
        for h, (c, r) in enumerate(grid.coords):
            x, y = grid.center(h)
            terrain = "town" if h in towns else ("woods" if state.sc.woods[h] else "clear")
            hexes.append({"id": grid.names[h], "col": c, "row": r, "x": round(x, 4), "y": round(y, 4), "terrain": terrain})
        ctx = state.decision.context if not state.is_terminal else {}
        units = []
        for u, h in enumerate(state.unit_hex):
            if h < 0:
                continue
            side = UNIT_SIDE[u]
            name = UNIT_NAMES[u]
            units.append(
                {
                    "id": name,
                    "name": f"{'Soviet' if side == 0 else 'U.S.'} unit {name.split('.')[1]}",
                    "side": SIDES[side],
                    "label": name.split(".")[1],
                    "hex": grid.names[h],
                    "moved": bool((state.done >> u) & 1) and state.phase % 2 == 0,
                    "focus": name == ctx.get("unit") or name in ctx.get("attackers", ()),
                }
            )
        markers = []
        if "target" in ctx:
            markers.append({"kind": "target", "hex": ctx["target"]})
        if "into" in ctx:
            markers.append({"kind": "target", "hex": ctx["into"]})
        for h in getattr(state, "attack_hexes", ()):
            markers.append({"kind": "attacking", "hex": grid.names[h]})
        eliminated = [UNIT_NAMES[u] for u, h in enumerate(state.unit_hex) if h < 0]
        return {
            "type": "hexmap",
            "columns": grid.columns,
            "hex_size": 1.0,
            "orientation": "flat",
            "hexes": hexes,
            "units": units,
            "markers": markers,
            "eliminated": eliminated,
            "phase": None if state.is_terminal else _phase(state),
            "turns": state.sc.turns,
        }

    def annotate(self, state, action: int, text: str) -> dict[str, Any]:
        if text in state.sc.grid.index:
            return {"hex": text}
        if text in UNIT_NAMES:
            h = state.unit_hex[UNIT_NAMES.index(text)]
            return {"unit": text, **({"hex": state.sc.grid.names[h]} if h >= 0 else {})}
        return {}

    def label(self, state, action: int, text: str) -> str:
        kind = state.decision.kind
        ctx = state.decision.context
        if text == "pass":
            return _PASS.get(kind, "Pass")
        if text == "resolve":
            return f"Roll the die (differential {ctx.get('differential', 0):+d})"
        if kind == "select_unit":
            return f"Move {text} (in {self.annotate(state, action, text).get('hex', '?')})"
        if kind == "move_target":
            return f"Stay in {text}" if text == ctx.get("from") else f"Move to {text}"
        if kind == "attack_target":
            defenders = [UNIT_NAMES[u] for u in state.units_at(action)]
            return f"Attack {text} ({', '.join(defenders)}; defense {state.defense_value(action)})"
        if kind == "attack_add":
            joining = [UNIT_NAMES[u] for u in state.units_at(action)]
            return f"Add {text} ({', '.join(joining)}) to the attack on {ctx.get('target')}"
        if kind == "retreat_hex":
            return f"Retreat {ctx.get('unit')} to {text}"
        if kind == "advance":
            return f"Advance {text} into {ctx.get('into')}"
        return text


def attack_odds(state, differential: int) -> dict[str, float]:
    """Each Combat Results Table result's chance for an attack at ``differential`` (>= 0): the
    table's column for it (the last column above +5, rule 5.6) on one six-sided die."""
    from fof_env.strike_force_one.constants import MAX_COLUMN

    column = min(differential, MAX_COLUMN)
    rows = state.sc.crt
    return {r: sum(1 for row in rows if row[column] == r) / len(rows) for r in RESULTS}


def attack_preview(state, action: int) -> dict[str, Any] | None:
    """The odds an attack choice leads to, from the engine's own rules (a copy of the state plays the
    choice): ``attack_target`` -- the attack on that hex with every unit that may join it;
    ``attack_add`` -- the attack with that hex's units added; ``resolve`` -- the attack as declared.
    ``attackers``, ``defense``, ``differential``, ``column`` and ``odds`` (:func:`attack_odds`);
    None for ``pass``."""
    from fof_env.strike_force_one.constants import COLUMN_NAMES, MAX_COLUMN, PASS, RESOLVE

    if action == PASS:
        return None
    copy = state.clone()
    if action != RESOLVE:
        copy.apply(action)
    if state.decision.kind == "attack_target":
        while True:  # every unit that may join
            adds = [a for a in copy.legal_actions() if a != RESOLVE]
            if not adds:
                break
            copy.apply(adds[0])
    attackers = list(copy.attack_units)
    defense = copy.defense_value(copy.target)
    differential = copy._differential(attackers, copy.target)
    if differential < 0:  # no column: not an attack that may be made (rule 9.1)
        return {"attackers": len(attackers), "defense": defense, "differential": differential, "column": None,
                "odds": None}
    return {
        "attackers": len(attackers),
        "defense": defense,
        "differential": differential,
        "column": COLUMN_NAMES[min(differential, MAX_COLUMN)],
        "odds": attack_odds(state, differential),
    }


def _phase(state) -> str:
    from fof_env.strike_force_one.constants import PHASES

    return PHASES[state.phase]
