"""Text and RGB pictures of a Force on Force state (god's view: hidden units are shown)."""

from __future__ import annotations

import numpy as np

from fof_env.core.drawing import rgb
from fof_env.force_on_force.constants import DOWN, FIGURE_STATES, KIA, SERIOUS
from fof_env.force_on_force.rules.wwii_vehicles import vehicle_words
from fof_env.force_on_force.table_render import render_table_ascii, render_table_rgb


def label(name: str) -> str:
    """A unit's two-letter label on the map: the first letter of its id and its last character
    (``tal.1`` -> ``T1``, ``usmc.A`` -> ``UA``, ``tal.R`` -> ``TR``)."""
    return (name[0] + name[-1]).upper()


def _status(s, u: int) -> str:
    words = [
        w
        for w, flag in (("pinned", s.pinned[u]), ("hidden", s.hidden[u]), ("overwatch", s.overwatch[u]))
        if flag
    ]
    if s.sc.vehicles and s.sc.vehicles[u] is not None:  # a WWII AFV (rules/wwii_vehicles.py)
        words += vehicle_words(s, u)
    return " ".join(words)


def render_text(s, viewer: int | None = None) -> str:
    """The table with unit labels, then one line per unit, the pilot, VP and the decision.

    ``viewer`` None is the umpire's view; a player index shows only what that player may
    know (hidden enemy units and the other player's decision context are left out).
    """
    shown = [u for u in range(s.NUM_UNITS) if viewer is None or s.visible_to(u, viewer)]
    names = s.UNIT_NAMES
    marks = {}
    for u in shown:
        if s.pos[u] >= 0:
            marks[s.pos[u]] = label(names[u])
    if s.pilot_pos >= 0 and s.pilot_unit < 0:
        marks[s.pilot_pos] = "P"
    lines = [render_table_ascii(s.sc.table, marks)]
    for u in shown:
        f = s.figs[u]
        if not any(f):
            continue
        where = s.point_name(s.pos[u])
        counts = " ".join(f"{n}={f[i]}" for i, n in enumerate(FIGURE_STATES) if f[i])
        status = _status(s, u)
        pilot = " +pilot" if s.pilot_unit == u else ""
        lines.append(f"{label(names[u])} {names[u]:7} {where:9} {counts}{pilot} {status}".rstrip())
    side_names = [side.name for side in s.sc.sides]
    vp = s.victory_points()
    score = f"VP {side_names[0]} {vp[0]}, {side_names[1]} {vp[1]}"
    if s.sc.pilot is not None:
        pilot = "off table" if s.pilot_pos < 0 else s.point_name(s.pilot_pos)
        score = f"pilot: {pilot}; contact: {bool(s.contact)}; {score}"
    lines.append(score)
    if s.cards is not None:  # the WWII Fog of War deck: a hand is shown to its holder only
        for p in (0, 1):
            if viewer is None or viewer == p:
                lines.append(f"{s.SIDES[p]} Fog of War hand: {', '.join(s.hand_names(p)) or '-'}")
            else:
                lines.append(f"{s.SIDES[p]} Fog of War hand: {s.hand_size(p)} card(s)")
    if s.is_terminal:
        auto = f" ({side_names[1 - s.sc.pilot.side]} automatic victory)" if s.auto_win else ""
        lines.append("game over" + auto)
    else:
        d = s.decision
        context = d.context if viewer is None or d.player == viewer else {}
        lines.append(f"turn {s.turn}, initiative {s.SIDES[s.initiative]}: {s.SIDES[d.player]} {d.kind} {context}")
    return "\n".join(lines)


def render_rgb(s, scale: int = 16) -> np.ndarray:
    """A picture of the table: terrain, units (effective/total figures, status) and the pilot."""
    from fof_env.core.view import view_for

    xy = s.sc.table.xy
    colours = view_for(s.game.name).colours(s)  # the board's colours (the scenario's)
    units = []
    for u in range(s.NUM_UNITS):
        if s.pos[u] < 0 or not any(s.figs[u]):
            continue
        f = s.figs[u]
        x, y = xy[s.pos[u]]
        units.append({
            "x": x, "y": y, "side": s.SIDES[s.UNIT_SIDE[u]], "player": s.UNIT_SIDE[u],
            "label": s.UNIT_NAMES[u].split(".")[-1],  # as on the browser board
            "colour": rgb(colours[s.game.player_names[s.UNIT_SIDE[u]]]),
            "effective": s.effective(u), "casualties": f[DOWN] + f[SERIOUS] + f[KIA],
            "status": _status(s, u),
        })  # fmt: skip
    pilot = xy[s.pilot_pos] if s.pilot_pos >= 0 else None
    return render_table_rgb(s.sc.table, units, pilot, scale=scale)
