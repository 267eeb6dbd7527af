"""What one side may know of a FUBAR position: the ruleset's view (see :mod:`fof_env.core.view`).

FUBAR has no hidden information, so both sides see the same board: every unit on the table (its point,
figures by status, standing figures, statuses), the pilot when he is on his own, and the points of a
move under way; the decision's context goes to its owner only, as for every ruleset. Legal actions get
labels and pointers (a point's ``x``/``y``, a unit's id and point, a member's weapons).
"""

from __future__ import annotations

from typing import Any

from fof_env.core.view import RulesetView, point_ref, table_board
from fof_env.fubar.constants import STATUS_NAMES

_WORDS = {
    "walk": 'Walk 6" (fire at one point)',
    "run": 'Run 12"',
    "duck_weave": 'Duck & Weave 8" (Soft Cover)',
    "on_guard": "On Guard (react to enemy movement)",
    "gone_to_ground": "Gone to Ground (nearest cover, one level better)",
    "aimed_fire": "Aimed Fire (+1)",
    "assault": "Assault (close combat)",
    "move": "Move (fire one weapon)",
    "fire": "Fire",
    "fight": "Fight on",
    "withdraw": "Try to withdraw",
    "exit": "Leave by your table edge",
    "yes": "Yes",
    "handoff": "Hand the pilot to another unit",
}
_PASS = {
    "fire_point": "Do not fire",
    "on_guard": "Do not fire",
    "move_up": "No more figures move up",
    "follow_up": "Do not follow",
    "call_airstrike": "Do not call the air strike",
}
_UNIT_VERBS = {
    "select_unit": "Activate",
    "fire_target": "Fire at",
    "split_target": "Fire at",
    "assault_target": "Assault",
    "attach_leader": "Join",
    "handoff_target": "Hand the pilot to",
}


class FubarView(RulesetView):
    """The FUBAR view (see the module docstring)."""

    REACTION_KINDS = frozenset({"on_guard", "allocate_hits", "move_up", "close_combat", "follow_up",
                                "weapon_destroyed", "get_out_of_the_way", "withdraw_point"})  # fmt: skip

    def board(self, state, player: int) -> dict[str, Any]:
        sc = state.sc
        table = sc.table
        names = state.game.player_names
        units = []
        for u in range(sc.n_units):
            p = state.pos[u]
            if p < 0 or state.gone[u] or not state.live(u):
                continue
            counts: dict[str, int] = {}
            for f in state.members[u]:
                key = STATUS_NAMES[state.fs[f]]
                counts[key] = counts.get(key, 0) + 1
            status = [w for w, on in (("on_guard", state.guard[u]), ("gone_to_ground", state.gtg[u]),
                                      ("duck_weave", state.dw[u]), ("tried", state.tried[u]),
                                      ("stunned", state.stunned[u]), ("immobilised", state.immob[u]),
                                      ("engaged", state.engaged[u] >= 0), ("aboard", state.carried[u] >= 0),
                                      ("pilot", state.pilot_unit == u)) if on]  # fmt: skip
            uid = sc.unit_ids[u]
            units.append({
                "id": uid,
                "side": names[sc.unit_side[u]],
                "label": uid.split(".")[0][:1].upper() + uid.split(".")[-1],
                **point_ref(table, p),
                "vehicle": bool(state.is_veh(u)),
                "figures": counts,
                "effective": int(state.standing(u)),
                "status": status,
                "focus": u in (state.actor, state.ask, state.mover) and not state.is_terminal,
            })  # fmt: skip
        markers = []
        if state.pilot_pos >= 0 and state.pilot_unit < 0:
            markers.append({"kind": "pilot", "label": "P", **point_ref(table, state.pilot_pos)})
        for q in state.path:
            if q >= 0:
                markers.append({"kind": "path", "label": "", **point_ref(table, q)})
        edges = dict(zip(state.game.player_names, sc.edges, strict=True))  # side name -> its friendly edge
        return table_board(table, units, markers, edges=edges)

    def annotate(self, state, action: int, text: str) -> dict[str, Any]:
        sc = state.sc
        if action < sc.n_points:
            return point_ref(sc.table, action)
        if action < sc.fig0:
            u = action - sc.unit0
            out: dict[str, Any] = {"unit": text}
            if state.pos[u] >= 0:
                out.update(point_ref(sc.table, state.pos[u]))
            return out
        return {}

    def label(self, state, action: int, text: str) -> str:
        sc = state.sc
        kind = state.decision.kind
        if text == "pass":
            return _PASS.get(kind, "Pass")
        if text in _WORDS:
            return _WORDS[text]
        if sc.unit0 <= action < sc.fig0:
            return f"{_UNIT_VERBS.get(kind, 'Choose')} {text}"
        if sc.fig0 <= action < sc.word0:
            owner = {"allocate_hits": state.aunit, "split_fire": state.fshooter, "choose_weapon": state.fshooter,
                     "move_up": state.ccb, "weapon_destroyed": state.ask}.get(kind, -1)  # fmt: skip
            i = int(text[1:])
            weapons = ""
            if owner >= 0 and i < len(state.members[owner]):
                weapons = "/".join(w.name for w in sc.figs[state.members[owner][i]].weapons) or "unarmed"
            what = {"c": "Casualty:", "s": "Suppress:", "f": "Figure"}[text[0]]
            return f"{what} {i} ({weapons})" if weapons else f"{what} {i}"
        if action < sc.n_points:
            return f"{'Move to' if kind == 'move_target' else 'At'} {text}"
        return text
