"""What one side may know of a FUBAR position: the ruleset's view (see :mod:`fof_env.core.view`).

FUBAR has no hidden information, so both sides see the same board: every unit on the table (its point,
figures by status, standing figures, statuses, the scenario's name, its weapons' longest range and the
enemy units in its line of sight with their range), the pilot when he is on his own, and the points of a
move under way; the decision's context goes to its owner only, as for every ruleset. Legal actions get
labels and pointers (a point's ``x``/``y``, a unit's id and point, a member's weapons), and every fire
target the chances of its fire (:func:`fire_preview`). The victory conditions and the score come in words.
"""

from __future__ import annotations

from typing import Any

from fof_env.core.view import RulesetView, point_ref, table_board
from fof_env.fubar.constants import F_AIMED, F_WALK, OK, STATUS_NAMES
from fof_env.fubar.tables import succeeds

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
        titles = [spec.name for spec in sc.scenario.units]
        shown = [u for u in range(sc.n_units) if state.pos[u] >= 0 and not state.gone[u] and state.live(u)]
        units = []
        for u in shown:
            p = state.pos[u]
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
                "name": titles[u],
                "side": names[sc.unit_side[u]],
                "label": uid.split(".")[-1],
                **point_ref(table, p),
                "range": max((sc.reach[f] for f in state.members[u]), default=0.0),
                "sees": _sight(state, u, shown),
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

    def title(self, state) -> str:
        return f"FUBAR: {state.sc.scenario.name}".replace(" (under FUBAR)", "")

    def colours(self, state) -> dict[str, str]:
        from fof_env.core.drawing import DEFAULT_SIDE_COLOURS

        sides = state.sc.scenario.sides
        return {state.game.player_names[p]: sides[p].colour or DEFAULT_SIDE_COLOURS[p] for p in (0, 1)}

    def victory(self, state) -> list[str]:
        return victory_words(state)

    def score_text(self, state) -> str:
        titles = [side.name for side in state.sc.scenario.sides]
        vp = state.victory_points()
        text = f"{titles[0]} {vp[0]} VP, {titles[1]} {vp[1]} VP"
        if state.auto_win >= 0:
            text += f"; {titles[state.auto_win]} automatic victory"
        elif not state.is_terminal:
            text += f" (so far; turn {state.turn} of {state.sc.scenario.turns})"
        return text

    def previews(self, state, actions: list[int]) -> dict[int, dict[str, Any]]:
        kind = state.decision.kind
        if kind not in ("fire_target", "split_target") or state.fshooter < 0:
            return {}
        sc = state.sc
        out = {}
        for a in actions:
            if sc.unit0 <= a < sc.fig0:
                slots = [state.fsel] if kind == "split_target" and state.fsel >= 0 else None
                out[a] = fire_preview(state, state.fshooter, a - sc.unit0, slots)
        return out

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


def _sight(state, u: int, shown: list[int]) -> list[dict[str, Any]]:
    """The other side's units of ``shown`` in line of fire of ``u`` (the scenario geometry's own), with the
    range in inches."""
    sc = state.sc
    here = state.pos[u]
    los = sc.geo.fire_los[here]
    return [{"unit": sc.unit_ids[t], "range": round(float(sc.table.dist[here][state.pos[t]]), 1)}
            for t in shown if sc.unit_side[t] != sc.unit_side[u] and los[state.pos[t]]]


def _chance(need: int, bonus: int = 0) -> float:
    """The chance one die succeeds against ``need`` with ``bonus`` (FUBAR's dice: :func:`succeeds`)."""
    return sum(1 for r in range(1, 7) if succeeds(r, r + bonus, need)) / 6


def fire_preview(state, s: int, t: int, slots: list[int] | None = None) -> dict[str, Any]:
    """The chances of the fire of unit ``s`` (its members ``slots``; default: every able member that can hit
    ``t``) at unit ``t``, from the engine's own parts as the fire resolves them
    (:meth:`~fof_env.fubar.fire.FireMixin._op_resolve`): each figure's Fire Points at the range
    (``FigureSpec.fire``), the number needed (the firer's Expertise plus the target's cover, never worse
    than 6; Aimed Fire +1 on the die), the target's save (a vehicle's armour, else
    :meth:`~fof_env.fubar.fire.FireMixin.unit_save`). ``dice``, ``need``, ``p_hit`` (one die),
    ``save`` (0: none), ``p_save`` (one hit saved), ``expected_hits``, ``expected_unsaved`` and ``p_any``
    (the chance of one unsaved hit or more)."""
    sc = state.sc
    walking = bool(state.fmode & F_WALK)
    aimed = 1 if state.fmode & F_AIMED else 0
    ps, pt = state.pos[s], state.pos[t]
    d = sc.table.dist[ps][pt]
    los = bool(sc.geo.fire_los[ps][pt])
    members = state.members[s]
    if slots is None:
        slots = [i for i in state.able(s) if t in state.member_targets(s, i, walking=walking)]
    chances: list[float] = []
    need_shown = 0
    for i in slots:
        f = members[i]
        if state.fs[f] != OK:
            continue
        fp, ignores, indirect = sc.figs[f].fire(d, walking)
        if not fp or (not los and not indirect):
            continue
        level = 0 if ignores else state.cover_level(t, ps, los)
        need = min(6, sc.expertise[s] + level)
        need_shown = max(need_shown, need)
        chances += [_chance(need, aimed)] * fp
    save = sc.vsave[t] if state.is_veh(t) else state.unit_save(t, ps)
    p_save = _chance(save) if save else 0.0
    miss_all = 1.0
    for p in chances:
        miss_all *= 1 - p * (1 - p_save)
    hits = sum(chances)
    return {
        "dice": len(chances),
        "need": need_shown,
        "p_hit": round(hits / len(chances), 3) if chances else 0.0,
        "save": int(save),
        "p_save": round(p_save, 3),
        "expected_hits": round(hits, 3),
        "expected_unsaved": round(hits * (1 - p_save), 3),
        "p_any": round(1 - miss_all, 3),
    }


_TERM_WORDS = {
    "casualties": "per {of} casualty",
    "captured": "per {of} figure captured",
    "units_broken": "per {of} unit broken or with no figure standing",
    "vehicles_destroyed": "per {of} vehicle destroyed",
    "vehicles_immobilised": "per {of} vehicle immobilised",
    "hold": "if they alone hold the {feature} at the end",
    "pilot_contact": "for reaching the downed pilot",
    "pilot_exit": "for escorting the pilot off the table",
}


def victory_words(state) -> list[str]:
    """The scenario's victory terms in words (as :meth:`~fof_env.fubar.state.FubarState.victory_points`
    counts them), its automatic victory, and who wins at the end."""
    scenario = state.sc.scenario
    sides = [side.name for side in scenario.sides]
    out = []
    for term in scenario.terms:
        words = _TERM_WORDS.get(term.kind, term.kind.replace("_", " "))
        of = sides[term.of] if isinstance(term.of, int) and 0 <= term.of < 2 else ""
        text = f"{sides[term.side]}: {term.vp} VP " + words.format(of=of, feature=term.feature)
        if term.kind == "pilot_exit" and term.before_turn:
            text += f" before turn {term.before_turn} (the best escort term counts)"
        out.append(text + ".")
    if scenario.auto_pilot is not None:
        side, turn = scenario.auto_pilot
        out.append(f"{sides[side]} win at once if the pilot is still on the table at the end of turn {turn}.")
    out.append(f"After turn {scenario.turns} the side with more VP wins; equal VP is a draw.")
    return out
