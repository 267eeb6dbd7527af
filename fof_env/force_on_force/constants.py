"""Numbers every Force on Force module shares: decision kinds, figure states, reaction roles, the turn
machine's automatic steps, movement distances and the quick start's Fog of War table.

What depends on a scenario (unit names and sides, the action index ranges) is not here: it is
the scenario's :class:`~fof_env.force_on_force.layout.Layout`, read from the state class
(``state.PASS``, ``state.UNIT_NAMES`` ...).
"""

from __future__ import annotations

# decisions (``state.kind``; ``AUTO`` while the turn machine advances by itself)
(
    D_DEPLOY, D_HIDE, D_ATTACH, D_AIRSTRIKE, D_OVERWATCH, D_SELECT, D_ACTION, D_MOVE, D_TARGET,
    D_SPLIT_TARGET, D_SPLIT_COUNT, D_SPLIT_SUPPORT, D_HANDOFF, D_DECLARE, D_OW, D_RETURN, D_FOW_UNIT,
    D_FOW_POINT, TERMINAL,
) = range(19)  # fmt: skip
KIND_NAMES = (
    "deploy", "declare_hidden", "attach_leader", "call_airstrike", "declare_overwatch", "select_unit",
    "choose_action", "move_target", "fire_target", "split_target", "split_dice", "split_support",
    "handoff_target", "declare_interrupt", "overwatch_fire", "return_fire", "fog_of_war_unit",
    "reinforce_point", "terminal",
    # rule module ``wwii_first_aid`` (rules/wwii.py): after "terminal", so a scenario without it keeps its
    # observation (its layout's ``extra_kinds`` says how many of these its decision one-hot holds)
    "call_medic", "walking_wounded",
)  # fmt: skip
BASE_KINDS = 19  # decision kinds of every scenario, "terminal" included
D_CALL_MEDIC, D_WALKING_WOUNDED = 19, 20  # the wwii_first_aid rule module's decisions (rulings R43-R46)

# figure states (counts per unit). "down": hit this turn, not yet assessed; "gone": an
# escort that left the table; ``evac_*``: casualties escorted off the table.
OK, LIGHT, DOWN, SERIOUS, KIA, CAPTURED, GONE, EVAC_DOWN, EVAC_SERIOUS, EVAC_KIA = range(10)
FIGURE_STATES = (
    "ok", "light", "down", "serious", "kia", "captured", "gone", "evac_down", "evac_serious", "evac_kia",
)  # fmt: skip

# roles in a reaction window
R_ACTOR, R_INT_FIRE, R_INT_MOVE, R_RETURN, R_OW = range(5)
ROLE_NAMES = ("actor", "interrupt_fire", "interrupt_move", "return_fire", "overwatch_fire")
W_MOVE, W_FIRE = 1, 2  # what the actor declared

# automatic steps of the turn machine (``kind == AUTO``)
AUTO = -1
(
    ST_SETUP, ST_TURN_START, ST_OVERWATCH, ST_SELECT, ST_END_ACTIVATION, ST_DECLARE, ST_OW, ST_ROLL,
    ST_RESOLVE, ST_RETURNS, ST_AFTER_WINDOW, ST_END_TURN,
) = range(12)  # fmt: skip
ST_FIRST_AID = 30  # the wwii_first_aid rule module's first aid checks at the start of a turn

TACTICAL_IN, RAPID_IN = 6.0, 12.0
CONTACT_IN = 2.0  # "within 1 inch"/cohesion between two units standing on points 2" apart (rulings.md)

# The quick start's D10 Fog of War table (000), in its own words: "usmc" is the scenario's regular
# side and "taliban" its irregular side (the scenario's ``fog_of_war`` block says which is which).
FOW_RESULTS = (
    "", "excellent_position_usmc", "excellent_position_taliban", "medic_usmc", "reinforcements_taliban",
    "amped_up", "tougher_than_they_look", "incoming_usmc", "mad_minute_usmc", "incoming_taliban",
    "ammunition_usmc",
)  # fmt: skip
