"""The view layer: the generic view, the fire preview's arithmetic, event filtering, what both sides may see."""

from __future__ import annotations

import json
import random

import pytest

import fof_env
from fof_env.core.view import RulesetView, register_view, view, view_for
from fof_env.force_on_force import combat
from fof_env.force_on_force.view import expected_casualties


def monte_carlo(attack, att_die, defense, def_die, cap, n=40000, seed=0):
    rng = random.Random(seed)
    total = hits = 0
    for _ in range(n):
        a = [rng.randint(1, att_die) for _ in range(attack)]
        d = [rng.randint(1, def_die) for _ in range(defense)]
        c = min(cap, combat.casualties(a, d))
        total += c
        hits += c > 0
    return total / n, hits / n


def test_expected_casualties_is_exact():
    assert expected_casualties(1, 6, 0, 6, 5) == (0.5, 0.5)  # one d6: a 4+ half the time
    mean, p_any = expected_casualties(1, 6, 1, 6, 5)  # P(a>=4 and not blocked): 3/6 * (1 - P(d>=a))
    assert abs(mean - (1 / 6) * ((1 - 3 / 6) + (1 - 2 / 6) + (1 - 1 / 6))) < 1e-12 and mean == p_any
    for args in ((5, 6, 3, 8, 5), (8, 10, 6, 6, 4), (3, 12, 4, 10, 3)):
        mean, p_any = expected_casualties(*args)
        mc_mean, mc_any = monte_carlo(*args)
        assert abs(mean - mc_mean) < 0.03 and abs(p_any - mc_any) < 0.01, (args, mean, mc_mean)
    assert expected_casualties(0, 6, 3, 6, 5) == (0.0, 0.0)


def test_fire_targets_carry_a_preview():
    from fof_env.app.protocol import Engine

    engine = Engine()
    # a practice game: the seed is the client's, so the game (and its fire targets) is the same each run
    r = engine.handle({"cmd": "new", "game": "lost_and_found", "seed": 5, "bots": {"taliban": "heuristic"}, "practice": True})
    gid, v = r["game"], r["view"]
    rng = random.Random(2)
    seen = 0
    for _ in range(400):
        if v["terminal"]:
            break
        if v["decision"]["kind"] == "fire_target":
            entries = [e for e in v["legal"] if "unit" in e]
            assert entries and all(set(e["preview"]) == {"firepower", "attack_die", "defense", "defense_die", "expected_casualties", "p_any"} for e in entries)
            seen += 1
            action = entries[0]["action"]
        else:
            wants = [e["action"] for e in v["legal"] if e["action"] in ("fire", "interrupt_fire")]
            action = wants[0] if wants else rng.choice(v["legal"])["action"]
        v = engine.handle({"cmd": "play", "game": gid, "action": action})["view"]
    assert seen > 0
    engine.close()


class _Plain(RulesetView):
    pass


def test_a_game_without_a_view_gets_the_generic_one():
    game = fof_env.make_game("strike_force_one")
    state = game.new_initial_state(1)
    register_view("strike_force_one", _Plain)
    try:
        v = view(state, 0)
        assert v["board"] == {"type": "text"} and v["text"] == str(state)
        assert v["legal"][0] == {"action": "sov.A", "label": "sov.A"}
        assert v["decision"] == {"kind": "select_unit", "side": "soviet", "player": 0, "reaction": False, "context": {"turn": 1, "phase": "soviet_move"}}
        assert view(state, 1)["legal"] == [] and "context" not in view(state, 1)["decision"]
    finally:
        register_view("strike_force_one", "fof_env.strike_force_one.view:StrikeForceOneView")
    assert view_for("strike_force_one").board(state, 0)["type"] == "hexmap"


def test_secret_setup_and_hidden_units_stay_out_of_the_usmc_view():
    import agents

    game = fof_env.make_game("lost_and_found")
    state = game.new_initial_state(3)
    bot = agents.make_agent("heuristic", game, 0, seed=3)
    state.apply(bot.act(state))  # one Taliban team deployed, in secret
    usmc = view(state, 1)
    assert usmc["board"]["units"] == [] or all(u["side"] == "usmc" for u in usmc["board"]["units"])
    assert usmc["decision"] == {"kind": "secret", "side": "taliban", "player": 0, "reaction": False}
    assert "tal.1" not in str(usmc["board"])
    taliban = view(state, 0)
    assert [u["id"] for u in taliban["board"]["units"]] == ["tal.1"]
    assert taliban["board"]["edges"] == {"taliban": "east", "usmc": "west"}


HEDGEROW_STACK = {  # three U.S. teams on one point, the Sherman 4" south, the German 1 team 12" east
    "turn": 1, "initiative": "us",
    "units": {
        "us.A": {"at": "x09y17", "figures": {"ok": 4}}, "us.B": {"at": "x09y17", "figures": {"ok": 4}},
        "us.BAR": {"at": "x09y17", "figures": {"ok": 3}}, "us.Sherman": {"at": "x09y21", "figures": {"ok": 5}},
        "us.HQ": {"at": "x05y13", "figures": {"ok": 2}}, "us.Doc": {"at": "x05y13", "figures": {"ok": 1}},
        "ger.MG": {"at": "x29y15", "figures": {"ok": 3}}, "ger.1": {"at": "x21y17", "figures": {"ok": 4}},
        "ger.2": {"at": "x27y25", "figures": {"ok": 4}}, "ger.San": {"at": "x29y05", "figures": {"ok": 1}},
        "ger.PzIV": {"at": "x31y07", "figures": {"ok": 5}},
    },
}  # fmt: skip


def _units(game_name: str, position: dict | None = None, player: int = 0) -> dict[str, dict]:
    """The units on ``player``'s board: at ``position``, else once the heuristic bots have set up."""
    import agents

    game = fof_env.make_game(game_name)
    state = game.state_from_position(position) if position else game.new_initial_state(1)
    if position is None:
        bots = [agents.make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
        while not state.turn:
            state.apply(bots[state.current_player].act(state))
    return {u["id"]: u for u in view(state, player)["board"]["units"]}


def test_counters_carry_the_scenarios_own_unit_names_and_side_colours():
    """Labels are the scenario's unit ids without the side's prefix, names its unit names, colours its sides'
    (hedgerow_hamlet.json: "us.Sherman" "M4 Sherman", sides "#3a6030" and "#52606e"; compound_raid.json:
    "mil.1" "DShK Crew")."""
    units = _units("wwii_hedgerow_hamlet", HEDGEROW_STACK)
    us = {u["label"]: u["name"] for u in units.values() if u["side"] == "us"}
    assert us == {"A": "Rifle Team Able", "B": "Rifle Team Baker", "BAR": "BAR Team", "Sherman": "M4 Sherman",
                  "HQ": "Squad Leader and Radioman", "Doc": "Aid Man"}
    assert {u["label"] for u in units.values() if u["side"] == "ger"} == {"MG", "1", "2", "San", "PzIV"}
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    assert view(game.new_initial_state(1), 0)["colours"] == {"us": "#3a6030", "ger": "#52606e"}
    militia = _units("compound_raid", player=1)
    assert {u["label"]: u["name"] for u in militia.values() if u["side"] == "militia"} == {
        "1": "DShK Crew", "2": "Gate Guard", "3": "House Fighters", "4": "Reserve"}
    patrol = _units("fubar_village_patrol", player=0)
    assert {u["label"]: u["name"] for u in patrol.values() if u["side"] == "patrol"} == {
        "V": "APC", "A": "Section Alpha", "B": "Section Bravo", "T": "Medium Tank"}
    assert view(fof_env.make_game("strike_force_one").new_initial_state(1), 0)["colours"] == {
        "soviet": "#b23426", "us": "#3a6030"}


def test_the_gif_draws_each_side_in_the_boards_colour():
    """The pictures (GIFs, rgb_array) fill a unit's disc with its side's colour from the scenario, as the board."""
    from fof_env.core.drawing import rgb
    from fof_env.envs.support import rgb_renderer

    game = fof_env.make_game("wwii_hedgerow_hamlet")
    state = game.state_from_position(HEDGEROW_STACK)
    picture = rgb_renderer(state)(state)
    for point, colour in (("x05y13", "#3a6030"), ("x21y17", "#52606e")):
        x, y = state.sc.table.xy[state.sc.table.index(point)]
        assert tuple(picture[int((y - 0.7) * 16), int(x * 16)]) == rgb(colour), point  # above the label


def test_sight_and_range_of_each_unit():
    """Each unit lists the other side's units in its line of sight with the range (inches, centre to centre:
    x09y17 to x21y17 is 12"), and its Optimum Range (000: "Optimum Range" = TQ inches: D8 = 8")."""
    units = _units("wwii_hedgerow_hamlet", HEDGEROW_STACK)
    assert units["us.A"]["sees"] == [{"unit": "ger.1", "range": 12.0}]
    assert units["us.A"]["optimum_range"] == 8
    assert {s["unit"] for s in units["ger.1"]["sees"]} == {"us.A", "us.B", "us.BAR", "us.Sherman"}


def test_a_unit_with_no_figure_able_to_fight_is_out_of_action():
    position = {**HEDGEROW_STACK, "units": {**HEDGEROW_STACK["units"], "us.B": {"at": "x09y17", "figures": {"kia": 4}}}}
    units = _units("wwii_hedgerow_hamlet", position)
    assert units["us.B"]["out_of_action"] and units["us.B"]["effective"] == 0
    assert not units["us.A"]["out_of_action"]


def test_strike_force_one_attack_odds_come_from_the_combat_results_table():
    """DESIGN's Combat Results Table, one die: column One (0) reads DR DR AR AR AE AE; Two (+1) DE DR DR AR AR AE;
    Three (+2) DE DE DR DR AR AR; Six (+5) DE DE DE DE DE DR, and above +5 uses +5."""
    from fof_env.strike_force_one.view import attack_odds, attack_preview

    state = fof_env.make_game("strike_force_one").new_initial_state(1)
    assert attack_odds(state, 0) == {"DE": 0, "DR": 2 / 6, "AR": 2 / 6, "AE": 2 / 6}
    assert attack_odds(state, 1) == {"DE": 1 / 6, "DR": 2 / 6, "AR": 2 / 6, "AE": 1 / 6}
    assert attack_odds(state, 2) == {"DE": 2 / 6, "DR": 2 / 6, "AR": 2 / 6, "AE": 0}
    assert attack_odds(state, 7) == attack_odds(state, 5) == {"DE": 5 / 6, "DR": 1 / 6, "AR": 0, "AE": 0}
    # two Soviet units next to one U.S. unit in clear ground: attacking with both is +1 (5.5: units - defenders)
    position = {"turn": 1, "phase": "soviet_combat", "units": {"soviet": {"A": "0503", "B": "0604"},
                                                                  "us": {"A": "0504", "B": "0109"}}}
    game = fof_env.make_game("strike_force_one")
    state = game.state_from_position(position)
    legal = {e["action"]: e for e in view(state, 0)["legal"]}
    assert legal["0504"]["preview"] == {"attackers": 2, "defense": 1, "differential": 1, "column": "+1",
                                        "odds": {"DE": 1 / 6, "DR": 2 / 6, "AR": 2 / 6, "AE": 1 / 6}}
    state.apply("0504")
    state.apply("0503")
    legal = {e["action"]: e for e in view(state, 0)["legal"]}
    assert legal["resolve"]["preview"]["differential"] == 0 and legal["0604"]["preview"]["differential"] == 1
    assert attack_preview(state, state.str_to_action("resolve"))["odds"]["AE"] == 2 / 6


def test_fubar_fire_targets_show_the_chance_to_hit_and_to_save():
    """002: Veteran expertise 4+, "Soft +1" in woods: 5+; "Aimed Fire ... +1 to firing": a 4, 5 or 6 hits
    (3 in 6); "Assault Rifles get 2FP at 12" or less": 4 figures at 12" roll 8 dice; the majority's Medium
    armour saves on 5+ (2 in 6). Expected unsaved hits 8 x 1/2 x 4/6; P(one or more) 1 - (1 - 1/2 x 4/6)^8."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.fubar.helpers import area, figures, game, infantry, position

    g = game(infantry("r.1", (3, 11), figures(4)), infantry("b.1", (15, 11), figures(3, armour="medium"), figures(1)),
             infantry("b.2", (3, 21), figures(2)), features=(area("woods", 14, 8, 18, 14),))
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("aimed_fire")
    legal = {e["action"]: e for e in view(s, 0)["legal"]}
    p = legal["b.1"]["preview"]
    assert (p["dice"], p["need"], p["p_hit"], p["save"], p["p_save"]) == (8, 5, 0.5, 5, 0.333)
    assert p["expected_hits"] == 4.0 and p["expected_unsaved"] == round(8 * 0.5 * 4 / 6, 3)
    assert p["p_any"] == round(1 - (1 - 0.5 * 4 / 6) ** 8, 3)
    assert legal["b.2"]["preview"]["need"] == 4 and legal["b.2"]["preview"]["save"] == 0  # open ground, no armour


def test_victory_conditions_and_the_score_in_words():
    sfo = view(fof_env.make_game("strike_force_one").new_initial_state(1), 0)
    assert sfo["score_text"] == "Soviets hold 0 of 3 towns (they need 2 at the end of turn 4); units left: Soviet 6, U.S. 4"
    assert any("at least two of the three towns (0303, 0506, 0208)" in line for line in sfo["victory"])
    laf = view(fof_env.make_game("lost_and_found").new_initial_state(1), 1)
    assert laf["victory"][:3] == ["Taliban: 2 VP per USMC figure killed.", "Taliban: 1 VP per USMC figure seriously wounded.",
                                  "Taliban: 3 VP per USMC figure captured."]
    assert "Taliban win at once if the pilot is still on the table at the end of turn 8." in laf["victory"]
    assert laf["score_text"].startswith("Taliban 0 VP, USMC 0 VP; the pilot is on his own: Taliban win if he is still")
    patrol = view(fof_env.make_game("fubar_village_patrol").new_initial_state(1), 0)
    assert "Patrol: 6 VP if they alone hold the mosque at the end." in patrol["victory"]
    assert patrol["score_text"].startswith("Patrol ") and "VP" in patrol["score_text"]


def test_each_decision_keeps_its_place_among_the_events():
    """A side's log interleaves decisions and events as they happened: the Soviets end their movement
    phase (before "=== Turn 1: us move ==="), the U.S. bot's decisions come after it."""
    import agents
    from fof_env.app.session import GameSession
    from fof_env.core.narration import describe_event

    game = fof_env.make_game("strike_force_one")
    session = GameSession(game.new_initial_state(3), {1: "heuristic"}, seed=3,
                          make_agent=lambda spec, g, p, s: agents.make_agent(spec, g, p, seed=s), describe=describe_event)
    session.play("pass", "soviet")
    while session.bot_to_move():
        session.apply(session.agents[1].act(session.state), "bot")
    events, played = session.log.events[0], session.log.played[0]
    us_move = next(i for i, e in enumerate(events) if e["text"] == "=== Turn 1: us move ===")
    assert played[0].action == "pass" and played[0].events_before <= us_move and played[0].turn == 1
    bot = [p for p in played if p.by == "bot"]
    assert bot and all(p.events_before > us_move for p in bot)
    assert [p.events_before for p in played] == sorted(p.events_before for p in played)
    first_move = next(i for i, e in enumerate(events) if e["kind"] == "unit_moved")
    assert bot[0].events_before <= first_move  # the bot's first choice is logged before what it did


def test_the_public_view_of_a_game_without_secrets_is_the_whole_board():
    """Strike Force One hides nothing: what both sides may see is each side's board (the same units and
    markers), and the text lists every unit."""
    state = fof_env.make_game("strike_force_one").new_initial_state(1)
    v = view_for("strike_force_one")
    public = v.public_view(state)
    assert public["board"]["units"] and sorted(u["id"] for u in public["board"]["units"]) == sorted(
        u["id"] for u in v.board(state, 0)["units"])
    assert public["board"]["hexes"] == v.board(state, 1)["hexes"]
    assert all(f"{u['id']} at {u['hex']}" in public["text"] for u in public["board"]["units"])


def _hedgerow_with_hands(us: list[str], ger: list[str]):
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    deck = [c.key for c in card_specs() for _ in range(c.count)]
    for key in us + ger:
        deck.remove(key)
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    return game.state_from_position({**HEDGEROW_STACK, "fog_cards": {"deck": deck, "hands": {"us": us, "ger": ger}}})


@pytest.mark.parametrize("hands", [(["excellent_position"], ["excellent_position"]), (["medic"], []), ([], [])])
def test_the_spectator_never_sees_a_card_hand(hands):
    """Hedgerow Hamlet: each side's board shows its own Fog of War hand; the spectator's says how many
    cards each side holds and never which, also when both hands are the same (then the two boards'
    "hand" entries agree, and are still no one's to see but their owners')."""
    state = _hedgerow_with_hands(*hands)
    rview = view_for("wwii_hedgerow_hamlet")
    assert [rview.board(state, p)["fog_of_war"]["hand"] for p in (0, 1)] == list(hands)
    public = rview.public_view(state)
    fog = public["board"]["fog_of_war"]
    assert fog["hand"] is None and fog["hand_titles"] is None and "enemy_hand" not in fog
    assert fog["hand_sizes"] == {"us": len(hands[0]), "ger": len(hands[1])} and fog["deck"] == 31 - sum(map(len, hands))
    for key in {*hands[0], *hands[1]}:
        assert key not in json.dumps(public)
