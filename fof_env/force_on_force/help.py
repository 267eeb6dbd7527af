"""What each Force on Force decision asks, in words, for a person at the ``fof play`` prompt."""

from __future__ import annotations

from fof_env.core.ruleset import Help

# What each decision asks.
DECISION_HELP = {
    "deploy": "choose the point where this unit sets up / enters the table (e.g. 'x19y07')",
    "declare_hidden": "choose a Taliban team in woods to start Hidden, or 'pass' when done",
    "attach_leader": "choose the fire team the squad leader joins",
    "call_airstrike": "'yes' calls the air strike (the pilot's TQ check; success ends the scenario), "
    "'pass' does not",
    "declare_overwatch": "choose a unit to put on Overwatch, or 'pass' when done",
    "select_unit": "choose a unit to activate, or 'pass' to end your activations this turn",
    "choose_action": "what the activated unit does: 'move', 'fire', 'hold', 'spot', 'escort', 'handoff'",
    "move_target": "choose the point to move to (more than 6 inches is a Rapid move), or 'exit' "
    "to leave by your table edge",
    "fire_target": "choose the enemy unit to fire at ('pass' after a move: do not fire)",
    "split_target": "choose a second target to split your fire, or 'pass' to fire at one",
    "split_dice": "how many figures' firepower dice go to the second target ('n1', 'n2', ...)",
    "split_support": "choose which target this support weapon fires at",
    "handoff_target": "choose the unit the pilot goes with",
    "declare_interrupt": "react to the acting unit: 'interrupt_fire', 'interrupt_move', or 'pass'",
    "overwatch_fire": "choose a reacting enemy unit for your Overwatch unit to fire at, or 'pass'",
    "return_fire": "'interrupt_fire' fires back at the unit that fired on you, 'pass' does not",
    "fog_of_war_unit": "choose the unit the Fog of War result applies to",
    "reinforce_point": "choose the point on the Taliban table edge where the reinforcements appear",
}

LOST_AND_FOUND_HELP = """Type one of the legal actions listed, exactly as shown:
  a table point like 'x19y07' (x then y, in inches), a unit like 'tal.1' or 'usmc.A',
  an action word ('move', 'fire', 'hold', 'spot', 'escort', 'handoff', 'interrupt_fire',
  'interrupt_move', 'exit', 'yes'), a count like 'n2', or 'pass' (decline / end).
The table you see shows no enemy unit hidden from you."""

SCENARIO_HELP = """Type one of the legal actions listed, exactly as shown:
  a table point like 'x19y07' (x then y, in inches), a unit by its id like {units},
  an action word ('move', 'fire', 'hold', 'spot', 'interrupt_fire', 'interrupt_move', 'exit' ...),
  a count like 'n2', or 'pass' (decline / end). The table you see shows no enemy unit hidden from you."""

# "Lost & Found" names its own units; any other scenario shows examples of its unit ids.
LOST_AND_FOUND = Help(LOST_AND_FOUND_HELP, DECISION_HELP)
HELP = Help(SCENARIO_HELP, DECISION_HELP)
