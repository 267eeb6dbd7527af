"""What one side may know of a Force on Force position: the ruleset's view (see
:mod:`fof_env.core.view`), and the fire preview (firepower, defence, expected casualties).

No peeking: an enemy unit hidden from the viewer (``visible_to`` false) is not on the board,
not in any label or context, and events naming it are not shown; while the Taliban set up in
secret (``is_secret_from``), none of their units is shown to the USMC at all. Dice rolls whose
purpose names a hidden unit are hidden too, and so is a "random unit" roll while an enemy unit
is hidden (its number of faces counts the hidden units).

Everything this module reads of a state goes through :class:`_Facts` (one place to change when
the engine's attribute names change): the public names ``pos``, ``figs``, ``hidden``,
``visible_to``, ``event_hidden_from``, ``is_secret_from``, ``decision``, ``legal_actions``,
``action_to_str``, ``score``, ``turn``, ``table``, ``sc``, the unit names, and for statuses
and the fire preview ``pinned``, ``overwatch``, ``activated``, ``pilot_pos``, ``pilot_unit``,
``tq``, ``attack_firepower``, ``defense_dice``, ``shooting_figures``, ``usable_support``,
``effective`` (read with defaults where a status may be missing).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from fof_env.core.view import RulesetView, point_ref, table_board

_NAMED_LABELS = {
    "pass": "Pass",
    "move": "Move",
    "fire": "Fire",
    "hold": "Hold (stay, try to get In Cover)",
    "spot": "Spot for hidden enemies",
    "escort": "Escort casualties off the table",
    "handoff": "Hand the pilot to another team",
    "interrupt_fire": "Fire (interrupt / fire back)",
    "interrupt_move": "Reaction move",
    "exit": "Leave by your table edge",
    "yes": "Call the air strike",
}
_PASS_BY_KIND = {
    "select_unit": "End your activations this turn",
    "declare_hidden": "Done hiding teams",
    "declare_overwatch": "No (more) Overwatch",
    "fire_target": "Do not fire",
    "split_target": "Fire at one target only",
    "declare_interrupt": "No reaction",
    "overwatch_fire": "Overwatch does not fire",
    "return_fire": "Do not fire back",
    "call_airstrike": "Do not call the air strike",
    "fog_of_war_unit": "Keep the Fog of War card for later",  # a held WWII card (rules/wwii_fog.py)
    "reinforce_point": "Do not play the card",  # Swiss Cheese (rules/wwii_fog.py)
    "call_medic": "Call no medic",
}
_WALKING_WOUNDED_LABELS = {  # rule module wwii_first_aid (rulings R46)
    "hold": "The walking wounded stays and fights (Casualty penalty)",
    "exit": "The walking wounded goes to the rear (removed, no penalty)",
}


class _Facts:
    """Every read of a Force on Force state, in one place."""

    @staticmethod
    def unit_names(state) -> tuple[str, ...]:
        names = getattr(state, "UNIT_NAMES", None)
        if names is None:
            from fof_env.force_on_force import state as st

            names = st.UNIT_NAMES
        return tuple(names)

    @staticmethod
    def side_units(state) -> tuple[tuple[int, ...], tuple[int, ...]]:
        units = getattr(state, "SIDE_UNITS", None)
        if units is None:
            from fof_env.force_on_force import state as st

            units = st.SIDE_UNITS
        return (tuple(units[0]), tuple(units[1]))

    @staticmethod
    def figure_states() -> tuple[str, ...]:
        from fof_env.force_on_force import state as st

        return tuple(st.FIGURE_STATES)

    @staticmethod
    def edges(state) -> dict[str, str]:
        """Side name -> its friendly table edge (``sc.edges`` by side index, or the older
        ``taliban_edge``/``usmc_edge``)."""
        sides = state.game.player_names
        sc = state.sc
        edges = getattr(sc, "edges", None)
        if edges is not None:
            pairs = edges.items() if isinstance(edges, dict) else enumerate(edges)
            return {sides[k] if isinstance(k, int) else str(k): str(v) for k, v in pairs if v}
        old = {sides[0]: getattr(sc, "taliban_edge", None), sides[1]: getattr(sc, "usmc_edge", None)}
        return {k: v for k, v in old.items() if v}

    @staticmethod
    def flag(state, name: str, u: int) -> bool:
        values = getattr(state, name, None)
        return bool(values[u]) if values is not None and u < len(values) else False

    @staticmethod
    def flag_value(state, name: str) -> bool:
        return bool(getattr(state, name, False))

    @staticmethod
    def number(state, name: str, default: int = -1) -> int:
        value = getattr(state, name, default)
        return int(value) if isinstance(value, int) else default


class ForceOnForceView(RulesetView):
    """The view of a Force on Force game (``lost_and_found``)."""

    REACTION_KINDS = frozenset({"declare_interrupt", "overwatch_fire", "return_fire", "split_support"})

    # ---- who may know what -----------------------------------------------------------------
    def known_units(self, state, player: int) -> list[int]:
        """Units ``player`` may know about: its own, and enemy units visible to it (none of the
        enemy's while the enemy sets up in secret)."""
        own, other = _Facts.side_units(state)
        mine, theirs = (own, other) if player == 0 else (other, own)
        if self.secret_from(state, player):
            return list(mine)
        return sorted([*mine, *(u for u in theirs if state.visible_to(u, player))])

    def _hidden_names(self, state, player: int) -> set[str]:
        names = _Facts.unit_names(state)
        known = set(self.known_units(state, player))
        return {names[u] for u in range(len(names)) if u not in known}

    def event_visible(self, state, event, player: int) -> bool:
        if state.event_hidden_from(event, player):
            return False
        hidden = self._hidden_names(state, player)
        if not hidden:
            return True
        for value in event.to_dict().values():
            if isinstance(value, str) and any(_mentions(value, name) for name in hidden):
                return False
        purpose = getattr(event, "purpose", "")
        return not (isinstance(purpose, str) and purpose == "random unit")

    def action_visible(self, state, player: int, action: str | None = None) -> bool:
        """Not while the enemy sets up in secret, nor when the decision's context or the action
        names a unit hidden from ``player`` (a hidden team activated, asked to react ...)."""
        if state.current_player == player:
            return True
        if self.secret_from(state, player):
            return False
        hidden = self._hidden_names(state, player)
        if action in hidden:
            return False
        context = state.decision.context
        return not any(isinstance(v, str) and v in hidden for v in context.values())

    def context(self, state, player: int) -> dict[str, Any]:
        hidden = self._hidden_names(state, player)
        out = {}
        for key, value in state.decision.context.items():
            if isinstance(value, (list, tuple)):
                out[key] = [v for v in value if v not in hidden]
            elif not (isinstance(value, str) and value in hidden):
                out[key] = value
        return out

    # ---- the board ---------------------------------------------------------------------------
    def board(self, state, player: int) -> dict[str, Any]:
        table = state.table
        names = _Facts.unit_names(state)
        own, _ = _Facts.side_units(state)
        states = _Facts.figure_states()
        sides = state.game.player_names
        focus = self._focus(state, player)
        titles = _unit_titles(state)
        known = [u for u in self.known_units(state, player) if state.pos[u] >= 0 and any(state.figs[u])]
        units = []
        for u in known:
            p = state.pos[u]
            figs = state.figs[u]
            side = 0 if u in own else 1
            status = [
                name
                for name, flag in (
                    ("hidden", "hidden"),
                    ("pinned", "pinned"),
                    ("overwatch", "overwatch"),
                    ("activated", "activated"),
                )
                if _Facts.flag(state, flag, u)
            ]
            if _Facts.number(state, "pilot_unit") == u:
                status.append("pilot")
            counts = {states[i]: int(n) for i, n in enumerate(figs) if n}
            effective = int(counts.get("ok", 0) + counts.get("light", 0))
            units.append(
                {
                    "id": names[u],
                    "name": titles.get(names[u], names[u]),
                    "side": sides[side],
                    "label": names[u].split(".")[-1],
                    **point_ref(table, p),
                    "figures": counts,
                    "effective": effective,
                    "out_of_action": effective == 0,
                    "status": status,
                    "focus": names[u] in focus,
                    "optimum_range": int(state.tq[u]),
                    "sees": _sight(state, u, [t for t in known if (t in own) != (u in own)]),
                }
            )
            if getattr(state.sc, "vehicles", None):  # a WWII AFV: drawn as a vehicle (rules/wwii_vehicles.py)
                units[-1]["vehicle"] = bool(state.is_afv(u))
        markers = []
        pilot = _Facts.number(state, "pilot_pos")
        if pilot >= 0 and _Facts.number(state, "pilot_unit") < 0:
            markers.append({"kind": "pilot", "label": "P", **point_ref(table, pilot)})
        extra = {}
        if getattr(state, "cards", None) is not None:  # the WWII deck: the enemy's hand by its size only
            extra["fog_of_war"] = seen = state.fog_cards_seen_by(player)
            seen["hand_titles"] = _card_titles(seen["hand"])
        return table_board(table, units, markers, edges=_Facts.edges(state), **extra)

    def umpire_board(self, state) -> dict[str, Any]:
        out = super().umpire_board(state)
        if getattr(state, "cards", None) is not None:  # both hands (a finished game's replay)
            sides = state.game.player_names
            out["fog_of_war"] = {**state.fog_cards_seen_by(0), "hand": None, "hand_titles": None,
                                 "hands": {sides[p]: _card_titles(state.hand_names(p)) for p in (0, 1)}}
        return out

    def public_board(self, state) -> dict[str, Any]:
        out = super().public_board(state)
        out.pop("fog_of_war", None)  # each side's own hand: never what both may see, even when the hands agree
        if getattr(state, "cards", None) is not None:  # the WWII deck: how many cards each side holds, no more
            seen = [state.fog_cards_seen_by(p) for p in (0, 1)]
            sides = state.game.player_names
            public = {k: v for k, v in seen[0].items() if k not in ("hand", "enemy_hand") and seen[1].get(k) == v}
            out["fog_of_war"] = {**public, "hand": None, "hand_titles": None,
                                 "hand_sizes": {sides[0]: seen[1]["enemy_hand"], sides[1]: seen[0]["enemy_hand"]}}  # fmt: skip
        return out

    def title(self, state) -> str:
        module = " WWII" if any(rule.startswith("wwii") for rule in state.sc.scenario.rules) else ""
        return f"Force on Force{module}: {state.sc.scenario.name}"

    def colours(self, state) -> dict[str, str]:
        from fof_env.core.drawing import DEFAULT_SIDE_COLOURS

        sides = state.game.player_names
        return {sides[p]: state.sc.sides[p].colour or DEFAULT_SIDE_COLOURS[p] for p in (0, 1)}

    def victory(self, state) -> list[str]:
        return victory_words(state)

    def score_text(self, state) -> str:
        titles = [state.sc.sides[p].name for p in (0, 1)]
        vp = state.victory_points()
        text = f"{titles[0]} {vp[0]} VP, {titles[1]} {vp[1]} VP"
        pilot = state.sc.pilot
        if pilot is not None:
            hunters = titles[1 - pilot.side]
            if _Facts.flag_value(state, "auto_win"):
                text += f"; {hunters} automatic victory (the pilot was still on the table)"
            elif _Facts.number(state, "pilot_exit", 0) > 0:
                text += f"; the pilot was escorted off the table in turn {_Facts.number(state, 'pilot_exit', 0)}"
            elif not state.is_terminal:
                where = "with a team" if _Facts.number(state, "pilot_unit") >= 0 else "on his own"  # no name: both sides read it
                text += f"; the pilot is {where}: {hunters} win if he is still on the table at the end of turn {pilot.deadline_turn}"
        if not state.is_terminal:
            text += f" (so far; turn {state.turn} of {state.sc.turns})"
        return text

    def _focus(self, state, player: int) -> set[str]:
        if state.is_terminal or state.current_player != player:
            return set()
        ctx = self.context(state, player)
        return {v for k, v in ctx.items() if k in ("unit", "actor", "fired_on_by") and isinstance(v, str)}

    # ---- legal actions ---------------------------------------------------------------------
    def annotate(self, state, action: int, text: str) -> dict[str, Any]:
        names = _Facts.unit_names(state)
        if text in names:
            u = names.index(text)
            out: dict[str, Any] = {"unit": text}
            if state.pos[u] >= 0:
                out.update(point_ref(state.table, state.pos[u]))
            return out
        if _POINT.fullmatch(text):
            return point_ref(state.table, state.table.index(text))
        return {}

    def label(self, state, action: int, text: str) -> str:
        kind = state.decision.kind
        if text == "pass":
            return _PASS_BY_KIND.get(kind, "Pass")
        if kind == "walking_wounded" and text in _WALKING_WOUNDED_LABELS:
            return _WALKING_WOUNDED_LABELS[text]
        if kind == "choose_action" and text == "yes":  # a WWII AFV's hatch (rules/wwii_vehicles.py, R87)
            return "Close the hatch (button up)" if not state.veh[state.actor].buttoned else "Open the hatch (unbutton)"
        if text in _NAMED_LABELS:
            return _NAMED_LABELS[text]
        if text.startswith("n") and text[1:].isdigit():
            return f"Give {text[1:]} figures' dice to the second target"
        names = _Facts.unit_names(state)
        if text in names:
            verb = {
                "select_unit": "Activate",
                "fire_target": "Fire at",
                "split_target": "Also fire at",
                "split_support": "Support weapon fires at",
                "overwatch_fire": "Overwatch fires at",
                "declare_overwatch": "Put on Overwatch",
                "declare_hidden": "Hide",
                "attach_leader": "Attach the squad leader to",
                "handoff_target": "Hand the pilot to",
                "fog_of_war_unit": "Fog of War applies to",
                "call_medic": "Call the medic",
            }.get(kind, "Choose")
            return f"{verb} {text}"
        verb = {"deploy": "Set up at", "move_target": "Move to", "reinforce_point": "Reinforcements at"}.get(
            kind, "Choose"
        )
        return f"{verb} {text}"

    def previews(self, state, actions: list[int]) -> dict[int, dict[str, Any]]:
        kind = state.decision.kind
        if kind not in ("fire_target", "split_target"):
            return {}
        names = _Facts.unit_names(state)
        actor = names.index(state.decision.context["unit"])
        out = {}
        for a in actions:
            text = state.action_to_str(a)
            if text in names:
                out[a] = fire_preview(state, actor, names.index(text))
        return out


_POINT = re.compile(r"x\d\dy\d\d")


def _card_titles(keys: list[str]) -> list[str]:
    """The names of WWII Fog of War cards ("excellent_position" -> "An Excellent Position")."""
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    names = {c.key: c.name for c in card_specs()}
    return [names.get(k, k) for k in keys]


def _unit_titles(state) -> dict[str, str]:
    """Unit id -> the scenario's name for it ("Rifle Team Able")."""
    return {spec.id: spec.name for spec in state.sc.scenario.units}


def _sight(state, u: int, others: list[int]) -> list[dict[str, Any]]:
    """The units of ``others`` (the other side's, as the viewer knows them) in line of sight of unit
    ``u``, with the range in inches (the table's own line of sight and distances)."""
    table = state.sc.table
    here = state.pos[u]
    los = table.los[here]
    names = _Facts.unit_names(state)
    return [{"unit": names[t], "range": round(float(table.dist[here][state.pos[t]]), 1)}
            for t in others if los[state.pos[t]]]


_ENEMY_FIGURES = {
    "enemy_kia": "killed",
    "enemy_serious": "seriously wounded",
    "enemy_captured": "captured",
    "enemy_casualties": "killed, seriously wounded or captured",
}


def victory_words(state) -> list[str]:
    """The scenario's victory conditions in words: its VP terms (:mod:`fof_env.force_on_force.victory`),
    the downed pilot's VP and automatic victory, and who wins at the end."""
    sides = [state.sc.sides[p].name for p in (0, 1)]
    out = []
    for term in state.sc.victory:
        who, enemy = sides[term.side], sides[1 - term.side]
        vp = f"{term.points} VP"
        if term.kind in _ENEMY_FIGURES:
            out.append(f"{who}: {vp} per {enemy} figure {_ENEMY_FIGURES[term.kind]}.")
        elif term.kind == "units_destroyed":
            out.append(f"{who}: {vp} per {enemy} unit with no figure left able to fight.")
        elif term.kind == "feature_held":
            out.append(f"{who}: {vp} if they alone hold the {term.feature} at the end.")
        else:
            out.append(f"{who}: {vp} per {term.kind.replace('_', ' ')}.")
    pilot = state.sc.pilot
    if pilot is not None:
        who, hunters = sides[pilot.side], sides[1 - pilot.side]
        out.append(f"{who}: {pilot.contact_vp} VP for reaching the downed pilot; {pilot.early_escort_vp} VP for "
                   f"escorting him off the table before turn {pilot.early_escort_before_turn}, "
                   f"{pilot.escort_vp} VP later.")
        out.append(f"{hunters} win at once if the pilot is still on the table at the end of turn "
                   f"{pilot.deadline_turn}.")
        if state.sc.airstrike:
            out.append(f"{who}: from turn 2 the pilot may call an air strike; a passed TQ check ends the game "
                       "there and VP decide.")
    out.append(f"After turn {state.sc.turns} the side with more VP wins; equal VP is a draw.")
    return out


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text) is not None


def fire_preview(state, shooter: int, target: int) -> dict[str, Any]:
    """What the whole fire of unit ``shooter`` at ``target`` would roll, before it is chosen:
    ``firepower`` dice of type ``attack_die`` (the shooter's TQ), ``defense`` dice of type
    ``defense_die`` (the target's TQ), ``expected_casualties`` (exact, capped at the target's
    effective figures: :func:`expected_casualties`) and ``p_any`` (the chance of one or more)."""
    figures = state.shooting_figures(shooter)
    weapons = state.usable_support(shooter)
    fp = state.attack_firepower(shooter, target, figures, weapons)
    dfn = state.defense_dice(target, state.pos[shooter], fp) if fp > 0 else 0
    att_die, def_die = int(state.tq[shooter]), int(state.tq[target])
    cap = state.effective(target)
    if state.sc.vehicles and state.is_afv(target) and fp > 0:  # a WWII AFV: hits on its armour (R81, R87)
        dfn, def_die = state.afv_defense(target, state.pos[shooter]) if state.at_dice(shooter) else (1, def_die)
        cap = fp if state.at_dice(shooter) else 1
    mean, p_any = expected_casualties(fp, att_die, dfn, def_die, cap)
    return {
        "firepower": int(fp),
        "attack_die": att_die,
        "defense": int(dfn),
        "defense_die": def_die,
        "expected_casualties": round(mean, 3),
        "p_any": round(p_any, 3),
    }


@lru_cache(maxsize=4096)
def expected_casualties(attack: int, attack_die: int, defense: int, defense_die: int, cap: int) -> tuple[float, float]:
    """(mean, P(at least one)) of ``min(casualties, cap)`` when ``attack`` dice of ``attack_die``
    faces meet ``defense`` dice of ``defense_die`` faces, under the fire-combat rules
    (:func:`fof_env.force_on_force.combat.casualties`: successes are 4+, each defence success
    blocks one attack success of equal or lower score, arranged to block the most).

    Exact: the faces are dealt from the highest down; at face ``v`` each die not yet dealt
    shows ``v`` with probability ``1/v`` (uniform on ``1..v`` given it shows at most ``v``),
    defence dice at ``v`` join the pool that can block, and attack dice at ``v`` are blocked
    while the pool lasts (the greedy arrangement, which blocks the most).
    """
    if attack <= 0 or cap <= 0:
        return 0.0, 0.0
    top = max(attack_die, defense_die)
    # (attack dice left, defence dice left, free blockers, casualties) -> probability
    dist: dict[tuple[int, int, int, int], float] = {(attack, defense, 0, 0): 1.0}
    for v in range(top, 3, -1):
        nxt: dict[tuple[int, int, int, int], float] = {}
        for (na, nd, free, cas), p in dist.items():
            pa = 1.0 / v if v <= attack_die else 0.0
            pd = 1.0 / v if v <= defense_die else 0.0
            for ka in range(na + 1) if pa else (0,):
                wa = math.comb(na, ka) * pa**ka * (1 - pa) ** (na - ka) if pa else 1.0
                for kd in range(nd + 1) if pd else (0,):
                    wd = math.comb(nd, kd) * pd**kd * (1 - pd) ** (nd - kd) if pd else 1.0
                    pool = free + kd
                    blocked = min(pool, ka)
                    key = (na - ka, nd - kd, pool - blocked, min(cap, cas + ka - blocked))
                    nxt[key] = nxt.get(key, 0.0) + p * wa * wd
        dist = nxt
    mean = sum(p * key[3] for key, p in dist.items())
    p_any = sum(p for key, p in dist.items() if key[3] > 0)
    return mean, p_any
