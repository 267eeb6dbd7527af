"""Codes shared by the FUBAR engine's modules: figure statuses, decision kinds, move kinds, steps."""

from __future__ import annotations

# figure statuses (``state.fs[f]``)
OK, SUPP, CAS, LOST, CAPT = 0, 1, 2, 3, 4
STATUS_NAMES = ("ok", "suppressed", "casualty", "destroyed", "captured")  # "destroyed": a vehicle weapon

# decisions (``state.kind``); AUTO: the engine is between decisions
AUTO = -1
(
    D_DEPLOY, D_ATTACH, D_AIRSTRIKE, D_CC_CHOICE, D_CC_WITHDRAW, D_CC_FOLLOW, D_MOVE_UP, D_SELECT, D_ACTION,
    D_MOVE, D_FIRE_POINT, D_WEAPON, D_TARGET, D_SPLIT, D_SPLIT_TARGET, D_ON_GUARD, D_ALLOCATE, D_WEAPON_LOST,
    D_WITHDRAW, D_DODGE, D_ASSAULT, D_HANDOFF, TERMINAL,
) = range(23)  # fmt: skip
KIND_NAMES = (
    "deploy", "attach_leader", "call_airstrike", "close_combat", "withdraw_point", "follow_up", "move_up",
    "select_unit", "choose_action", "move_target", "fire_point", "choose_weapon", "fire_target", "split_fire",
    "split_target", "on_guard", "allocate_hits", "weapon_destroyed", "withdraw_target", "get_out_of_the_way",
    "assault_target", "handoff_target", "terminal",
)  # fmt: skip

# move kinds
(M_WALK, M_RUN, M_DW, M_GTG, M_ASSAULT, M_WITHDRAW, M_VEHICLE, M_OVERRUN, M_DODGE, M_CC, M_BAIL) = range(1, 12)
MOVE_NAMES = ("", "walk", "run", "duck_weave", "gone_to_ground", "assault", "withdraw", "vehicle", "overrun",
              "get_out_of_the_way", "close_combat", "bail_out")  # fmt: skip
REACTABLE = frozenset({M_WALK, M_RUN, M_DW, M_GTG, M_ASSAULT, M_WITHDRAW, M_VEHICLE, M_OVERRUN})

# fire modes (bits)
F_AIMED, F_REACT, F_ONE, F_NO_SPLIT, F_WALK = 1, 2, 4, 8, 16

# steps of the driver (``state.stack`` holds tuples ``(op, *args)``)
(
    OP_SETUP, OP_TURN, OP_CC_ALL, OP_CC_PAIR, OP_CC_ROUND, OP_CC_STRIKE, OP_CC_CHECK, OP_SELECT, OP_END_TURN,
    OP_REACT, OP_ADVANCE, OP_MOVE_DONE, OP_FIRE, OP_RESOLVE, OP_ALLOC, OP_DAMAGE, OP_PASSENGERS, OP_END_ACT,
    OP_CC_START, OP_OVERRUN, OP_MOVE, OP_WALK_FIRE, OP_AIRSTRIKE, OP_FOLLOW,
) = range(24)  # fmt: skip

FACING_WORDS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
