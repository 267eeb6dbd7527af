"""What one side may know of a Strike Force One position (see :mod:`fof_env.core.view`).

Strike Force One has no hidden units and no cards: both sides see the whole map. The view adds
the hex map for the browser (``board.type == "hexmap"``: every hex with its name, column, row,
centre and terrain; every unit on the map; the decision's markers) and labels for the actions.
"""

from __future__ import annotations

from typing import Any

from fof_env.core.view import RulesetView
from fof_env.strike_force_one.data import SIDES, UNIT_NAMES, UNIT_SIDE

_PASS = {
    "select_unit": "End the movement phase",
    "attack_target": "End the combat phase",
    "advance": "Do not advance",
}


class StrikeForceOneView(RulesetView):
    """The view of ``strike_force_one`` (both sides see everything but the future dice)."""

    REACTION_KINDS = frozenset({"retreat_hex", "advance"})

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


def _phase(state) -> str:
    from fof_env.strike_force_one.state import PHASES

    return PHASES[state.phase]
