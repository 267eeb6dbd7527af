"""A small version of ``make fuzz``: random games with invariants at every step."""

import pytest

from evaluation import fuzz as fz
from evaluation.fuzz import fuzz
from fof_env.core.registry import game_spec
from fof_env.force_on_force.fuzzing import check_position as check_force_on_force_position

LAF_MODES = [dict(m) for m in game_spec("lost_and_found").fuzz.modes]


@pytest.mark.parametrize("optional", [False, True])
def test_random_games_keep_every_invariant(optional):
    report = fuzz("strike_force_one", {"optional_rules": optional}, games=60, seed=7)
    assert report.games == 60 and report.decisions > 60 * 20


def test_lost_and_found_random_games_keep_every_invariant():
    report = fuzz("lost_and_found", {}, games=30, seed=7)
    assert report.games == 30 and report.decisions > 30 * 20
    assert sum(report.wins) == 30


@pytest.mark.parametrize("options", LAF_MODES[1:], ids=lambda o: ",".join(o))
def test_lost_and_found_other_options_keep_every_invariant(options):
    report = fuzz("lost_and_found", options, games=8, seed=11, json_every=2)
    assert report.games == 8 and report.decisions > 8 * 20


def test_lost_and_found_checks_catch_broken_states():
    import fof_env

    state = fof_env.make_game("lost_and_found").new_initial_state(0)
    check_force_on_force_position(state)
    state.figs[0][0] += 1  # a figure from nowhere
    with pytest.raises(AssertionError, match="tal.1 has 8 figures"):
        check_force_on_force_position(state)
    state.figs[0][0] -= 1
    state.figs[4][0] = 2  # reinforcements with no KIA returned
    with pytest.raises(AssertionError, match="tal.R has 2 figures"):
        check_force_on_force_position(state)


def test_tasks_split_games_over_modes_and_workers():
    tasks = fz.plan_tasks("lost_and_found", 5000, 2, 0, 1)
    assert len(tasks) == 8 and sum(t[2] for t in tasks) == 5000
    assert {str(t[1]) for t in tasks} == {str(m) for m in LAF_MODES} and len(LAF_MODES) == 4
    assert len({t[3] for t in tasks}) == 8  # every task its own seed range
    assert sum(t[2] for t in fz.plan_tasks("strike_force_one", 10_001, 2, 0, 1)) == 10_001


def test_lost_and_found_with_a_heuristic_usmc_reaches_the_pilot():
    # random Marines practically never find the pilot; the heuristic does, so the pilot invariants run
    report = fuzz(
        "lost_and_found", {"rules": "quick"}, games=4, seed=3, json_every=3, agents={"usmc": "heuristic"}
    )
    assert report.games == 4 and report.agents == {"usmc": "heuristic"}
    assert "usmc=heuristic" in report.line()


@pytest.mark.parametrize("game", ["strike_force_one", "lost_and_found"])
def test_random_and_near_valid_positions_are_refused_in_one_line_or_play_with_records_that_round_trip(game):
    """A small version of ``python -m evaluation.position_fuzz`` (``make fuzz`` runs 5,000 per game)."""
    from evaluation.position_fuzz import fuzz_positions

    report = fuzz_positions(game, positions=120, seed=3, actions=12)
    assert report.accepted + report.refused == 120
    assert report.accepted >= 40 and report.refused >= 20  # both kinds are exercised
    assert report.decisions >= report.accepted  # every accepted position was played on


def test_the_position_fuzz_catches_a_refusal_that_is_not_a_position_error(monkeypatch):
    import fof_env
    from evaluation import position_fuzz as pf

    game = fof_env.make_game("strike_force_one")

    def broken(position, dice=None):
        raise KeyError("units")

    monkeypatch.setattr(game, "state_from_position", broken)
    monkeypatch.setattr(fof_env, "make_game", lambda name, **o: game)
    with pytest.raises(AssertionError, match="position 0: KeyError"):
        pf.fuzz_positions("strike_force_one", positions=1)


def test_the_command_refuses_fewer_than_one_worker_in_one_line(capsys):
    with pytest.raises(SystemExit) as exit_info:
        fz.main(["--game", "compound_raid", "--games", "4", "--workers", "0"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith("error: --workers must be at least 1, got 0")


def test_the_command_plays_its_games_on_a_pool(capsys):
    assert fz.main(["--game", "compound_raid", "--games", "4", "--workers", "2"]) == 0
    assert "compound_raid: all invariants held: 4 games" in capsys.readouterr().out
