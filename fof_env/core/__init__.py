"""Ruleset-agnostic kernel: game/state protocol, dice, errors, hex grid, records."""
