"""Text and RGB pictures of a FUBAR state.

``render_text`` draws one 3-character cell per grid point (north at the top; ``T`` woods, ``B`` building,
``~`` stream bank, ``#`` a point within 1" of a wall, ``.`` open) with the units' labels over it
(the side's initial and the unit id's suffix, ``tA``/``u1``; ``P`` the pilot on his own), then one line
per unit, the VP and the decision. FUBAR has no hidden information: every player sees the same table.
``render_rgb`` draws the same with Pillow (imported lazily).
"""

from __future__ import annotations

import numpy as np

from fof_env.core.drawing import font, rgb
from fof_env.fubar.constants import KIND_NAMES, STATUS_NAMES, TERMINAL

_TERRAIN = {"woods": "T", "building": "B", "stream_bank": "~", "open": "."}
_FILL = {"woods": (120, 170, 110), "building": (170, 140, 110), "stream_bank": (150, 190, 220),
         "improved_position": (190, 180, 130), "fortified_position": (140, 140, 140),
         "reinforced_fortification": (110, 110, 110)}  # fmt: skip


def label(s, u: int) -> str:
    uid = s.sc.unit_ids[u]
    side, _, suffix = uid.partition(".")
    return (side[:1] + suffix[:1]) if suffix else uid[:2]


def _flags(s, u: int) -> str:
    words = [w for w, on in (("on_guard", s.guard[u]), ("reacted", s.reacted[u]), ("gone_to_ground", s.gtg[u]),
                             ("duck_weave", s.dw[u]), ("tried", s.tried[u]), ("stunned", s.stunned[u]),
                             ("immobilised", s.immob[u]), ("destroyed", s.wreck[u])) if on]  # fmt: skip
    if s.engaged[u] >= 0:
        words.append(f"engaged:{s.sc.unit_ids[s.engaged[u]]}")
    if s.carried[u] >= 0:
        words.append(f"in:{s.sc.unit_ids[s.carried[u]]}")
    if s.pilot_unit == u:
        words.append("+pilot")
    return " ".join(words)


def render_text(s, viewer: int | None = None) -> str:
    """The table, the units, the VP and the decision (``viewer`` is accepted for the CLI: FUBAR has no
    hidden information, so every view is the same)."""
    sc = s.sc
    table = sc.table
    marks: dict[int, str] = {}
    for u in range(sc.n_units):
        if s.pos[u] >= 0 and s.carried[u] < 0 and s.live(u):
            marks[s.pos[u]] = label(s, u)
    if s.pilot_pos >= 0 and s.pilot_unit < 0:
        marks.setdefault(s.pilot_pos, "P")
    walls = {p for p, (x, y) in enumerate(table.xy) for f in table.features
             if f.segment is not None and f.distance_to(x, y) <= 1.0 + 1e-9}  # fmt: skip
    lines = ["    " + "".join(f"{int(x):>3d}" for x in table.col_x)]
    for r, y in enumerate(table.row_y):
        cells = []
        for c in range(table.ncols):
            p = r * table.ncols + c
            mark = marks.get(p)
            if mark is None:
                mark = "#" if p in walls else _TERRAIN.get(table.kind_at[p], "+")
            cells.append(f"{mark:>3}")
        lines.append(f"{int(y):>3d} " + "".join(cells))
    for u in range(sc.n_units):
        if not sc.present[u] or (s.pos[u] < 0 and not s.gone[u]):
            continue
        where = "off table" if s.gone[u] else s.point_name(s.pos[u])
        figs = ",".join(STATUS_NAMES[s.fs[f]][:3] for f in s.members[u])
        kind = "vehicle" if s.is_veh(u) else "infantry"
        lines.append(f"{label(s, u)} {sc.unit_ids[u]:8} {where:9} {kind:8} [{figs}] {_flags(s, u)}".rstrip())
    names = s.game.player_names
    vp = s.victory_points()
    line = f"turn {s.turn}: VP {names[0]} {vp[0]}, {names[1]} {vp[1]}"
    if sc.scenario.pilot is not None:
        line += f"; pilot {'off table' if s.pilot_pos < 0 else s.point_name(s.pilot_pos)}, contact {bool(s.contact)}"
    lines.append(line)
    if s.kind == TERMINAL:
        auto = f" ({names[s.auto_win]} automatic victory)" if s.auto_win >= 0 else ""
        lines.append("game over" + auto)
    elif s.kind >= 0:
        d = s.decision
        lines.append(f"{names[d.player]} {KIND_NAMES[s.kind]} {d.context}")
    return "\n".join(lines)


def render_rgb(s, scale: int = 14) -> np.ndarray:
    """A picture of the table: terrain, walls, units (side colour, label, standing figures) and the pilot."""
    from PIL import Image, ImageDraw

    sc = s.sc
    table = sc.table
    w, h = int(table.width_in * scale), int(table.height_in * scale)
    img = Image.new("RGB", (w, h + 2 * scale), (226, 214, 180))
    draw = ImageDraw.Draw(img)
    for f in table.features:
        if f.rect is not None:
            x0, y0, x1, y1 = (v * scale for v in f.rect)
            draw.rectangle([x0, y0, x1, y1], fill=_FILL.get(f.kind, (160, 160, 160)), outline=(80, 80, 80))
    for f in table.features:
        if f.segment is not None:
            x0, y0, x1, y1 = (v * scale for v in f.segment)
            draw.line([x0, y0, x1, y1], fill=(90, 90, 90), width=max(2, scale // 4))
    small = font(max(8, scale - 3))
    from fof_env.core.view import view_for

    colours = [rgb(c) for c in view_for(s.game.name).colours(s).values()]  # the board's (the scenario's)
    for u in range(sc.n_units):
        if s.pos[u] < 0 or s.carried[u] >= 0 or not s.live(u):
            continue
        x, y = (v * scale for v in table.xy[s.pos[u]])
        r = scale * 0.9
        colour = colours[sc.unit_side[u]]
        if s.is_veh(u):
            draw.rectangle([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=colour, outline=(0, 0, 0))
        else:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=(0, 0, 0))
        draw.text((x - r * 0.7, y - r * 0.6), f"{label(s, u)}{s.standing(u) if not s.is_veh(u) else ''}",
                  fill=(255, 255, 255), font=small)  # fmt: skip
    if s.pilot_pos >= 0:
        x, y = (v * scale for v in table.xy[s.pilot_pos])
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=(250, 230, 40), outline=(0, 0, 0))
    names = s.game.player_names
    vp = s.victory_points()
    draw.text((4, h + 2), f"turn {s.turn}  VP {names[0]} {vp[0]} - {names[1]} {vp[1]}", fill=(0, 0, 0), font=small)
    return np.asarray(img, dtype=np.uint8)
