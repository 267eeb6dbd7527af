"""Random-play fuzzing with invariant checks at every decision.

``python -m evaluation.fuzz`` (``make fuzz``) plays 10,000 random Strike Force One
games over many seeds, half under the basic rules and half under the optional
rules; ``python -m evaluation.fuzz --game lost_and_found`` plays 5,000 random
Force on Force "Lost & Found" games, split evenly over four option sets (the
defaults, ``rules=quick``, three Taliban teams without Fog of War, no ambush and
no capture). ``make fuzz`` runs both. At every step it checks, via :func:`check_state`:

* the legal list is sorted, non-empty while the game runs, and equals the mask;
* ``current_player`` and ``decision.player`` agree;
* a clone has the same fingerprint, and applying the same action to both keeps them equal;
* every player's observation has the game's shape, dtype float32, finite values
  within the game's observation bounds;
* game-specific position invariants (Strike Force One: stacking limits, one side
  per hex, no unit in woods under the basic rules, units on the map; Lost & Found:
  figures conserved per unit (set-up strength, +1 for the fire team the squad
  leader joins; ``tal.R`` holds no more figures than the Taliban KIA it brought
  back), no negative count, units on the table grid, only Taliban hidden, the
  pilot on the point of the Marine unit he is with, and the USMC observation blank for hidden
  Taliban units but their flag);
* an illegal action is refused with ``IllegalActionError`` and leaves the state unchanged;
* ``to_json``/``from_json`` rebuilds an equal state (every step by default;
  ``--json-every N`` checks every N-th step, for speed);
* at the end: returns in [-1, 1] summing to 0, decisions within ``game.max_decisions``,
  and the record round-trips.

``--agent SIDE=KIND`` plays a side with an agent (``--agent usmc=heuristic``):
random Marines practically never reach the pilot, so only such runs check the
pilot rules' positions. A failure raises ``AssertionError`` naming the game, seed
and step, and the record to reproduce it (``State.from_json``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import fof_env
from evaluation.executors import make_executor
from fof_env.core.errors import IllegalActionError
from fof_env.core.game import State
from fof_env.envs.support import observation_bounds


@dataclass
class FuzzReport:
    game: str
    options: dict
    games: int
    decisions: int
    seconds: float
    wins: tuple[int, int, int]  # player 0, player 1, draws
    agents: dict | None = None  # sides not played at random

    def line(self) -> str:
        played = "".join(f" {side}={kind}" for side, kind in (self.agents or {}).items())
        return (
            f"{self.game} {self.options}{played}: {self.games} games, {self.decisions} decisions checked, "
            f"wins {self.wins[0]}/{self.wins[1]}/draws {self.wins[2]}, {self.seconds:.1f} s"
        )


def check_strike_force_one_position(state) -> None:
    """Stacking, woods and map invariants of Strike Force One."""
    limit = state.stack_limit
    per_hex: dict[int, list[int]] = {}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            assert 0 <= h < 68, f"unit {u} off the map at {h}"
            per_hex.setdefault(h, []).append(u)
    for h, units in per_hex.items():
        sides = {0 if u < 6 else 1 for u in units}
        assert len(sides) == 1, f"hex {state.hex_name(h)} holds both sides"
        # Retreating/advancing units are placed one at a time; the limit holds after every action.
        assert len(units) <= limit, f"hex {state.hex_name(h)} holds {len(units)} units (limit {limit})"
        if not state.optional:
            assert not state.sc.woods[h], f"unit in woods hex {state.hex_name(h)} under the basic rules"


def check_lost_and_found_position(state) -> None:
    """Figure conservation, unit, pilot and hidden-unit invariants of a Force on Force scenario
    ("Lost & Found" and every other)."""
    from fof_env.force_on_force import observation as fo
    from fof_env.force_on_force.constants import GONE

    sc = state.sc
    profiles = sc.profiles
    names, unit_side = state.UNIT_NAMES, state.UNIT_SIDE
    reinforcements = sc.reinforcements
    for u in range(state.NUM_UNITS):
        f = state.figs[u]
        name = names[u]
        assert min(f) >= 0, f"{name} has a negative figure count {f}"
        p = state.pos[u]
        assert -1 <= p < state.NUM_POINTS, f"{name} at point {p}"
        if u == reinforcements:
            continue
        expected = profiles[u].figures + (1 if u == state.leader_unit else 0)
        assert sum(f) == expected, f"{name} has {sum(f)} figures {f}, expected {expected}"
        if state.hidden[u]:
            assert unit_side[u] == sc.ambush_side, f"{name} is hidden"
    if reinforcements >= 0:
        side = unit_side[reinforcements]
        returned = sum(state.figs[u][GONE] for u in state.SIDE_UNITS[side] if u != reinforcements)
        raised = sum(state.figs[reinforcements])
        assert raised <= returned, f"{names[reinforcements]} has {raised} figures, only {returned} KIA returned"
    if state.leader_unit >= 0:
        assert unit_side[state.leader_unit] == sc.attachment.side, "the attachment joined an enemy unit"
    if state.pilot_unit >= 0:
        carrier = state.pilot_unit
        assert unit_side[carrier] == sc.pilot.side, "the pilot is with an enemy unit"
        assert state.pilot_pos >= 0 and state.pos[carrier] >= 0, "the pilot's unit is off the table"
        assert state.pilot_pos == state.pos[carrier], "the pilot is not on his team's point"
        assert state.contact, "the pilot is with a unit but contact was never made"
    if state.pilot_exit:
        assert state.pilot_pos < 0 and state.pilot_unit < 0, "the pilot exited yet is on the table"
    check_card_invariant(state)  # the WWII Fog of War deck: no card made or lost
    if sc.ambush_side >= 0:
        viewer = 1 - sc.ambush_side
        obs = state.observation(viewer)
        for u in state.SIDE_UNITS[sc.ambush_side]:
            if state.hidden[u] and any(state.figs[u]):
                base = fo.unit_row(state.LAYOUT, viewer, u)
                row = obs[base : base + fo.UNIT_FEATURES]
                assert row[14] == 1.0 and np.count_nonzero(row) == 1, f"the enemy sees hidden {names[u]}"


def check_card_invariant(state) -> None:
    """A Force on Force game with the WWII Fog of War deck: deck + hands + discards are the deck list, and a
    hand is secret: swapping a held card for a different one still in the deck changes nothing the other
    side observes or is shown (its observation, its view, its legal actions)."""
    cards = getattr(state, "cards", None)
    if cards is None:
        return
    from fof_env.core.view import view
    from fof_env.force_on_force.rules.wwii_fog import check_card_invariant as check

    check(state)
    for side in (0, 1):
        hand = cards.hands[side]
        other = next((k for k, c in enumerate(cards.deck) if hand and c != hand[0]), None)
        if other is None:
            continue
        swapped = state.clone()
        deck = list(cards.deck)
        deck[other], new_hand = hand[0], (cards.deck[other], *hand[1:])
        hands = (new_hand, cards.hands[1]) if side == 0 else (cards.hands[0], new_hand)
        swapped.cards = cards._replace(deck=tuple(deck), hands=hands)
        opponent = 1 - side
        assert np.array_equal(state.observation(opponent), swapped.observation(opponent)), "a hand shows in the observation"
        assert view(state, opponent) == view(swapped, opponent), "a hand shows in the other side's view"
        if state.current_player == opponent:
            assert state.legal_actions() == swapped.legal_actions(), "a hand shows in the other side's mask"


def check_fubar_position(state) -> None:
    """FUBAR's invariants (:func:`fof_env.fubar.invariants.check_position`)."""
    from fof_env.fubar.invariants import check_position

    check_position(state)


POSITION_CHECKS: dict[str, Callable[[State], None]] = {
    "strike_force_one": check_strike_force_one_position,
    "lost_and_found": check_lost_and_found_position,
    "compound_raid": check_lost_and_found_position,
    "fubar_lost_and_found": check_fubar_position,
    "fubar_village_patrol": check_fubar_position,
    "force_on_force": lambda state: check_card_invariant(state),  # a scenario file: its Fog of War deck
    "wwii_hedgerow_hamlet": check_card_invariant,
}

# option sets fuzzed per game (``--games`` is split evenly over them) and the default number of games
MODES: dict[str, list[dict]] = {
    "strike_force_one": [{"optional_rules": False}, {"optional_rules": True}],
    "lost_and_found": [
        {},
        {"rules": "quick"},
        {"taliban_teams": 3, "fog_of_war": False},
        {"ambush": False, "capture": False},
    ],
    "compound_raid": [{}],
    "fubar_lost_and_found": [{}, {"taliban_teams": 3}],
    "fubar_village_patrol": [{}, {"optional_units": False}],
    "wwii_hedgerow_hamlet": [{}],
}
DEFAULT_GAMES = {"strike_force_one": 10_000, "lost_and_found": 5_000, "compound_raid": 5_000,
                 "fubar_lost_and_found": 5_000, "fubar_village_patrol": 5_000, "wwii_hedgerow_hamlet": 5_000}  # fmt: skip


def check_observations(state: State) -> None:
    """Both players' observations: the game's shape, float32, finite, within its bounds."""
    game = state.game
    low, high = observation_bounds(game)
    for player in (0, 1):
        obs = state.observation(player)
        assert isinstance(obs, np.ndarray) and obs.dtype == np.float32, f"observation dtype {obs.dtype}"
        assert obs.shape == tuple(game.observation_shape), f"observation shape {obs.shape}"
        assert np.isfinite(obs).all(), f"non-finite observation of player {player}"
        lo, hi = float(obs.min()), float(obs.max())
        assert low <= lo and hi <= high, (
            f"observation of player {player} in [{lo}, {hi}], not [{low}, {high}]"
        )


def check_state(state: State, rng: np.random.Generator, check_json: bool, position_checks: bool = True) -> None:
    """Invariants every state of every game must satisfy (see module docstring); ``position_checks``
    False leaves out the game-specific ones that assume the scenario's own start (figure
    conservation), for states built from arbitrary positions."""
    game = state.game
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == bool and mask.shape == (game.num_actions,)
    assert list(np.flatnonzero(mask)) == legal, "mask differs from the legal list"
    if state.is_terminal:
        assert legal == [] and state.current_player is None
    else:
        assert legal, "empty legal list in a running game"
        assert legal == sorted(set(legal)), "legal list not sorted/unique"
        assert state.decision.player == state.current_player
    position_check = POSITION_CHECKS.get(game.name) if position_checks else None
    if position_check is not None:
        position_check(state)
    check_observations(state)
    clone = state.clone()
    assert clone.fingerprint() == state.fingerprint(), "clone differs"
    if not state.is_terminal:
        illegal = np.flatnonzero(~mask)
        if len(illegal):
            before = state.fingerprint()
            bad = int(illegal[rng.integers(len(illegal))])
            try:
                state.apply(bad)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"illegal action {bad} was accepted")
            assert state.fingerprint() == before, "refused action changed the state"
    if check_json:
        restored = State.from_json(state.to_json())
        assert restored.fingerprint() == state.fingerprint(), "to_json/from_json differs"
        assert restored.legal_actions() == legal


def fuzz(
    game_name: str,
    options: dict,
    games: int,
    seed: int = 0,
    json_every: int = 1,
    agents: dict[str, str] | None = None,
) -> FuzzReport:
    """Play ``games`` random games of ``game_name`` checking invariants at every step.

    ``agents`` (side name -> agent kind, e.g. ``{"usmc": "heuristic"}``) plays those sides
    with that agent instead of uniformly random legal actions, to reach positions random
    play never does (random Marines practically never find the pilot).
    """
    from agents.base import make_agent

    game = fof_env.make_game(game_name, **options)
    agents = dict(agents or {})
    for side in agents:
        game.player_index(side)  # ValueError for a side the game does not have
    rng = np.random.default_rng(seed)
    decisions = 0
    wins = [0, 0, 0]
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        state = game.new_initial_state(game_seed)
        players = {
            game.player_index(side): make_agent(kind, game, side, seed=game_seed)
            for side, kind in agents.items()
        }
        step = 0
        try:
            while True:
                check_state(state, rng, check_json=(step % json_every == 0))
                if state.is_terminal:
                    break
                legal = state.legal_actions()
                agent = players.get(state.current_player)
                if agent is None:
                    action = legal[rng.integers(len(legal))]
                else:
                    action = agent.act(state)
                    assert action in legal, f"agent {agent!r} chose illegal action {action!r}"
                twin = state.clone()
                state.apply(action)
                twin.apply(action)
                assert twin.fingerprint() == state.fingerprint(), "clone diverged after the same action"
                step += 1
                assert step <= game.max_decisions, f"more than max_decisions={game.max_decisions}"
            returns = state.returns()
            assert all(-1.0 <= r <= 1.0 for r in returns) and abs(sum(returns)) < 1e-9
            assert len(state.history) == step <= game.max_decisions
            assert State.from_json(state.to_json()).fingerprint() == state.fingerprint()
        except AssertionError as exc:
            raise AssertionError(
                f"{game_name} {options} seed {game_seed} step {step}: {exc}\nrecord: {state.to_json()}"
            ) from exc
        decisions += step
        wins[2 if state.winner is None else state.winner] += 1
    return FuzzReport(game_name, options, games, decisions, time.perf_counter() - start, tuple(wins), agents)


def _fuzz_task(task: tuple) -> FuzzReport:
    return fuzz(*task)


def plan_tasks(
    game_name: str, games: int, workers: int, seed: int, json_every: int, agents: dict[str, str] | None = None
) -> list[tuple]:
    """``games`` split evenly over the game's option sets, then over the workers; each
    (mode, worker) pair fuzzes its own seed range."""
    modes = MODES.get(game_name, [{}])
    tasks = []
    for i, options in enumerate(modes):
        n_mode = games // len(modes) + (1 if i < games % len(modes) else 0)
        for w in range(workers):
            n = n_mode // workers + (1 if w < n_mode % workers else 0)
            if n:
                tasks.append((game_name, options, n, seed + 1000 * i + w, json_every, agents or {}))
    return tasks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default="strike_force_one", choices=fof_env.list_games(), help="the game to fuzz"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games in total, split over the game's option sets "
        f"(default: {', '.join(f'{g} {n:,}' for g, n in DEFAULT_GAMES.items())})",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json-every", type=int, default=1, help="check to_json/from_json every N steps")
    parser.add_argument(
        "--workers", type=int, default=2, help="processes (each plays its own share of seeds)"
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="SIDE=KIND",
        help="play SIDE with agent KIND instead of at random, e.g. --agent usmc=heuristic (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    games = args.games if args.games is not None else DEFAULT_GAMES.get(args.game, 1000)
    agents = {}
    for item in args.agent:
        side, eq, kind = item.partition("=")
        if not eq or not side.strip() or not kind.strip():
            parser.error(f"--agent: expected SIDE=KIND, got {item!r}")
        agents[side.strip()] = kind.strip()
    tasks = plan_tasks(args.game, games, args.workers, args.seed, args.json_every, agents)
    start = time.perf_counter()
    with make_executor("local", args.workers) as executor:  # Ctrl-C stops the workers too
        reports = list(executor.map(_fuzz_task, tasks))
    for report in reports:
        print(report.line(), flush=True)
    games = sum(r.games for r in reports)
    decisions = sum(r.decisions for r in reports)
    print(
        f"{args.game}: all invariants held: {games} games, {decisions} decisions, "
        f"{time.perf_counter() - start:.0f} s wall with {args.workers} worker(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
