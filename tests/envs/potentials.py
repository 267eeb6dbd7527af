"""The shaping potentials written out again from the docstrings of the rulesets' ``potential`` modules,
independently of the code under test, so reward tests expect numbers worked out from the definition."""

from __future__ import annotations

import math


def strike_force_one_phi(state, player: int) -> float:
    """phi = 0.1 x towns held by the Soviets + 0.02 x (Soviet units - U.S. units); the U.S. gets minus that."""
    score = state.score
    value = 0.1 * score["soviet_towns"] + 0.02 * (score["soviet_units"] - score["us_units"])
    return value if player == 0 else -value


def lost_and_found_phi(state, player: int) -> float:
    """0.3 x clip((Taliban VP - USMC VP) / 20) for the Taliban; minus that plus 0.2 x pilot progress
    for the USMC (progress: 1 off the table; 0.5 + 0.5 (1 - inches to the West edge / 36) with a
    Marine unit; else 0.5 (1 - inches from the nearest effective Marine unit / the diagonal))."""
    tal, usmc = state.victory_points()
    vp = max(-1.0, min(1.0, (tal - usmc) / 20))
    if player == 0:
        return 0.3 * vp
    if state.pilot_exit:
        progress = 1.0
    elif state.pilot_pos < 0:
        progress = 0.0
    else:
        px, py = state.table.xy[state.pilot_pos]
        if state.pilot_unit >= 0:
            progress = 0.5 + 0.5 * (1 - min(max(px, 0.0), 36.0) / 36)
        else:
            marines = [state.table.xy[state.pos[u]] for u in (5, 6, 7)
                       if state.pos[u] >= 0 and state.figs[u][0] + state.figs[u][1] > 0]  # fmt: skip
            diag = math.hypot(36, 36)
            near = min((math.hypot(x - px, y - py) for x, y in marines), default=None)
            progress = 0.0 if near is None else 0.5 * (1 - min(near, diag) / diag)
    return -0.3 * vp + 0.2 * progress
