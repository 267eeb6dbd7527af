"""What each FUBAR decision asks, in words, for a human at the ``fof play`` prompt."""

from __future__ import annotations

HUMAN_HELP = """Type one of the legal actions listed, exactly as shown:
  a table point like 'x19y07' (x then y, in inches), a unit like 'tal.1' or 'pat.V',
  a member of the unit concerned 'f0', a hit taken as a casualty 'c0' or as Suppressed 's0',
  or a word: walk, run, duck_weave, on_guard, gone_to_ground, aimed_fire, assault, move, fire,
  fight, withdraw, exit, yes, handoff, pass. The rules: fof_env/fubar/rulings.md."""

DECISION_HELP = {
    "deploy": "choose the point where this unit sets up",
    "attach_leader": "choose the unit the leader joins",
    "call_airstrike": "'yes' calls the air strike (the pilot's activation roll; success ends the game), 'pass' does not",
    "close_combat": "your unit is locked in close combat: 'fight' another round or try to 'withdraw' (activation roll, 1D6\")",
    "withdraw_point": "choose where your unit withdraws to, away from its opponent",
    "follow_up": "'yes' follows the withdrawing enemy (activation roll, 1D6\"; catch them and the fight goes on)",
    "move_up": "choose a figure to move up into the close combat ('f<i>'), or 'pass' when enough fight",
    "select_unit": "choose a unit to activate: the engine rolls; a failure hands the initiative over",
    "choose_action": "walk 6\" (and fire), run 12\", duck_weave 8\" (Soft Cover), on_guard, gone_to_ground, "
    "aimed_fire (+1), assault 8\"; a vehicle: move, fire (all weapons), aimed_fire, on_guard, assault",
    "move_target": "choose where the unit moves (a point), or 'exit' to leave by your table edge",
    "fire_point": "choose the point of the move where the unit fires, or 'pass' for no fire",
    "choose_weapon": "choose the one weapon the moving vehicle fires ('f<i>')",
    "fire_target": "choose the enemy unit to fire at (every figure that can hit it fires)",
    "split_fire": "'fire' resolves; 'f<i>' moves that figure's fire to another target",
    "split_target": "choose the other target for that figure",
    "on_guard": "your On Guard unit may fire at the moving enemy: choose the point of its path, or 'pass'",
    "allocate_hits": "take one unsaved hit: 'c<i>' makes figure i a casualty, 's<i>' Suppresses it",
    "weapon_destroyed": "choose which of the vehicle's weapons is destroyed ('f<i>')",
    "withdraw_target": "your unit failed with over 50% casualties: choose where it withdraws (6\")",
    "get_out_of_the_way": "a vehicle runs at your unit and it got out of the way: choose where it goes",
    "assault_target": "choose the enemy unit to assault",
    "handoff_target": "choose the unit the pilot goes with",
}
