"""What each Strike Force One decision asks, in words, for a person at the ``fof play`` prompt."""

from __future__ import annotations

from fof_env.core.ruleset import Help

DECISION_HELP = {
    "select_unit": "choose one of your units to move (one from the legal list), or 'pass' to end your movement phase",
    "move_target": "choose the hex the selected unit moves to (e.g. '0504'); its own hex leaves it in place",
    "attack_target": "choose an enemy hex to attack (e.g. '0506'), or 'pass' to end your combat phase",
    "attack_add": "add a hex of your adjacent units to the attack (e.g. '0605'), or 'resolve' to roll the die",
    "retreat_hex": "choose the hex your unit retreats to",
    "advance": "choose a unit that advances into the vacated hex, or 'pass' to stay",
}

HUMAN_HELP = """Type one of the legal actions listed, exactly as shown:
  a hex like '0504', a unit like 'sov.A' or 'us.B' (a bare letter like 'A' names your own unit),
  'pass' (end the phase / decline) or 'resolve' (roll the die for the declared attack)."""

HELP = Help(HUMAN_HELP, DECISION_HELP)
