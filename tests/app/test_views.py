"""The view layer: the generic view, the fire preview's arithmetic, event filtering."""

from __future__ import annotations

import random

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
    r = engine.handle({"cmd": "new", "game": "lost_and_found", "seed": 5, "bots": {"taliban": "heuristic"}})
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
