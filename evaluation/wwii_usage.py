"""How often each WWII rule (seed 004) fires in games of a WWII scenario, counted from the games' own events.

    python -m evaluation.wwii_usage --game GAME --games 500                  # heuristic against heuristic
    python -m evaluation.wwii_usage --game GAME --games 200 --agents random heuristic

(``GAME``: a game whose scenario plays the WWII rule modules; ``fof list`` names the games.)

Each rule is recognised by what the engine records when it applies it: a die rolled for that purpose
(``DiceRolled.purpose``), a decision of that kind, or the engine's note. The table prints, per rule, the
games in which it fired at least once and the times it fired in all. A rule at 0 is one the bots never
reach in those games.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable

from agents import make_agent
from fof_env.core.registry import make_game

# rule -> (what 004 calls it, how it shows: ("roll"|"decision"|"note"|"event"|"card", regular expression))
RULES: dict[str, tuple[str, tuple[str, str]]] = {
    "first_aid_check": ("First Aid check (standard or Medic table)", ("roll", r"^first aid check of ")),
    "dead_tq_check": ("Dead: TQ check to act normally", ("roll", r"after a man killed$")),
    "react_only": ("may only react to fire this turn", ("note", r"may only react to fire this turn")),
    "walking_wounded": ("walking wounded: stay or go to the rear", ("decision", r"^walking_wounded$")),
    "call_medic": ("calling for a medic", ("decision", r"^call_medic$")),
    "medic_treats": ("a medic treats a unit (Medic table)", ("note", r"treats the wounded of ")),
    "mg_team_fire": ("an MG weapon team fires (its MG dice)", ("roll", r"^firepower of (us\.BAR|ger\.MG)$")),
    "afv_fires": ("an AFV fires (MGs 3d / main gun class)", ("roll", r"^firepower of (us\.Sherman|ger\.PzIV)$")),
    "armour_roll": ("AFV defence class dice", ("roll", r"^armour of ")),
    "vehicle_damage": ("Vehicle Damage Results (reconstruction)", ("roll", r"^vehicle damage of ")),
    "bail_out_check": ("bail-out Morale Check", ("roll", r"\(bail out\?\)$")),
    "bail_out": ("the crew bails out", ("note", r"^the crew of .* bails out$")),
    "knocked_out": ("an AFV knocked out", ("note", r" is knocked out$")),
    "spotting": ("buttoned-up spotting attempt", ("roll", r"(^spotting TQ check of | tries to spot )")),
    "unbutton": ("unbuttoning", ("note", r" unbuttons$")),
    "air_call": ("Close Air Support called", ("decision", r"^call_airstrike$")),
    "air_strike": ("a strafing run strikes", ("note", r" calls the .* on ")),
    "danger_close": ("Danger Close 8\"", ("roll", r"^danger close ")),
    "fog_card_drawn": ("a WWII Fog of War card drawn", ("event", r"^FogCardDrawn$")),
    "fog_card_kept": ("a card kept in hand", ("note", r"draws a Fog of War card and keeps it$")),
    "fog_card_played": ("a card played or resolved", ("event", r"^FogCardPlayed$")),
    "reserve_enters": ("a card reserve enters play (R70)",
                       ("card", r"^(hunted|brownings_buzz_saw|tank_busters|tank_support): (.* enters at |.* gains a "
                                r"Hidden sniper team$)")),
    "asset_enters": ("an Asset Card's unit enters play (R71)",
                     ("card", r"^(whered_they_come_from|unexpected_help): .* enters at ")),
}


def rules_in_game(decisions: Iterable[str], events: Iterable) -> Counter:
    """Counts of each rule of :data:`RULES` in one game (its decision kinds and its events)."""
    found: Counter = Counter()
    compiled = {rule: (where, re.compile(pattern)) for rule, (_, (where, pattern)) in RULES.items()}
    texts: dict[str, list[str]] = {"decision": list(decisions), "roll": [], "note": [], "event": [], "card": []}
    for event in events:
        name = type(event).__name__
        texts["event"].append(name)
        if name == "DiceRolled":
            texts["roll"].append(event.purpose)
        elif name == "Note":
            texts["note"].append(event.text)
        elif name == "FogCardPlayed":  # "<card key>: <target>"
            texts["card"].append(f"{event.card}: {event.target}")
    for rule, (where, pattern) in compiled.items():
        found[rule] = sum(1 for text in texts[where] if pattern.search(text))
    return found


def count(game_name: str, agents: tuple[str, str], games: int, seed: int = 0,
          progress: Callable[[int], None] | None = None) -> tuple[Counter, Counter]:
    """(games in which each rule fired, times it fired) over ``games`` seeded games."""
    game = make_game(game_name)
    in_games: Counter = Counter()
    total: Counter = Counter()
    for i in range(games):
        state = game.new_initial_state(seed + i)
        players = [make_agent(agents[p], game, p, seed=seed + i) for p in (0, 1)]
        decisions = []
        while not state.is_terminal:
            decisions.append(state.decision.kind)
            state.apply(players[state.current_player].act(state))
        found = rules_in_game(decisions, state.events)
        total.update(found)
        in_games.update({rule for rule, n in found.items() if n})
        if progress:
            progress(i + 1)
    return in_games, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game whose scenario plays the WWII rule modules")
    parser.add_argument("--agents", nargs=2, default=["heuristic", "heuristic"], metavar=("SIDE0", "SIDE1"))
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    in_games, total = count(args.game, tuple(args.agents), args.games, args.seed)
    print(f"# WWII rules in {args.games} games of {args.game} ({args.agents[0]} v {args.agents[1]}, seeds "
          f"{args.seed}..{args.seed + args.games - 1}, {time.perf_counter() - start:.0f} s)\n")
    print("| rule | games | times |\n|---|---:|---:|")
    for rule, (words, _) in RULES.items():
        print(f"| {words} | {in_games[rule]} | {total[rule]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
