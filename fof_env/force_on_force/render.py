"""Text and RGB pictures of a Force on Force state (god's view: hidden units are shown)."""

from __future__ import annotations

import numpy as np

from fof_env.force_on_force import state as st
from fof_env.force_on_force.table_render import render_table_ascii, render_table_rgb

LABELS = ("T1", "T2", "T3", "T4", "TR", "UA", "UB", "UC")


def _status(s: st.ForceOnForceState, u: int) -> str:
    words = [
        w
        for w, flag in (("pinned", s.pinned[u]), ("hidden", s.hidden[u]), ("overwatch", s.overwatch[u]))
        if flag
    ]
    return " ".join(words)


def render_text(s: st.ForceOnForceState, viewer: int | None = None) -> str:
    """The table with unit labels, then one line per unit, the pilot, VP and the decision.

    ``viewer`` None is the umpire's view; a player index shows only what that player may
    know (hidden enemy units and the other player's decision context are left out).
    """
    shown = [u for u in range(st.NUM_UNITS) if viewer is None or s.visible_to(u, viewer)]
    marks = {}
    for u in shown:
        if s.pos[u] >= 0:
            marks[s.pos[u]] = LABELS[u]
    if s.pilot_pos >= 0 and s.pilot_unit < 0:
        marks[s.pilot_pos] = "P"
    lines = [render_table_ascii(s.sc.table, marks)]
    for u in shown:
        f = s.figs[u]
        if not any(f):
            continue
        where = s.point_name(s.pos[u])
        counts = " ".join(f"{n}={f[i]}" for i, n in enumerate(st.FIGURE_STATES) if f[i])
        status = _status(s, u)
        pilot = " +pilot" if s.pilot_unit == u else ""
        lines.append(f"{LABELS[u]} {st.UNIT_NAMES[u]:7} {where:9} {counts}{pilot} {status}".rstrip())
    pilot = "off table" if s.pilot_pos < 0 else s.point_name(s.pilot_pos)
    tal, usmc = s.victory_points()
    lines.append(f"pilot: {pilot}; contact: {bool(s.contact)}; VP Taliban {tal}, USMC {usmc}")
    if s.is_terminal:
        lines.append("game over" + (" (Taliban automatic victory)" if s.auto_win else ""))
    else:
        d = s.decision
        context = d.context if viewer is None or d.player == viewer else {}
        lines.append(
            f"turn {s.turn}, initiative {st.SIDES[s.initiative]}: {st.SIDES[d.player]} {d.kind} {context}"
        )
    return "\n".join(lines)


def render_rgb(s: st.ForceOnForceState, scale: int = 16) -> np.ndarray:
    """A picture of the table: terrain, units (effective/total figures, status) and the pilot."""
    xy = s.sc.table.xy
    units = []
    for u in range(st.NUM_UNITS):
        if s.pos[u] < 0 or not any(s.figs[u]):
            continue
        f = s.figs[u]
        x, y = xy[s.pos[u]]
        units.append({
            "x": x, "y": y, "side": st.SIDES[st.UNIT_SIDE[u]], "label": LABELS[u],
            "effective": s.effective(u), "casualties": f[st.DOWN] + f[st.SERIOUS] + f[st.KIA],
            "status": _status(s, u),
        })  # fmt: skip
    pilot = xy[s.pilot_pos] if s.pilot_pos >= 0 else None
    return render_table_rgb(s.sc.table, units, pilot, scale=scale)
