"""python -m evaluation.agreement: an agent's agreement with its teacher, by decision kind."""

from __future__ import annotations

import pytest

from evaluation import agreement
from evaluation.agreement import Agreement, format_agreement, measure


def test_the_table_lists_kinds_by_decisions_with_agreement_and_legal_actions():
    tally = Agreement()
    for agreed, legal in [(True, 4), (False, 2), (True, 3)]:
        tally.add("select_unit", agreed, legal)
    tally.add("move_target", False, 90)
    assert format_agreement(tally).splitlines() == [
        "  decision kind  decisions  agreement   legal",
        "  select_unit            3      66.7%     3.0",
        "  move_target            1       0.0%    90.0",
        "  all                    4      50.0%    24.8",
    ]


def test_a_teacher_agrees_with_itself_and_random_does_not():
    same = measure("strike_force_one", "soviet", "heuristic", "heuristic", "random", 2, 0)
    assert sum(same.decisions.values()) > 0 and same.agreed == same.decisions
    other = measure("strike_force_one", "soviet", "random", "heuristic", "random", 2, 0)
    assert other.decisions == same.decisions  # the teacher's choices are played: the same games
    assert sum(other.agreed.values()) < sum(other.decisions.values())


def test_with_plays_agent_the_agents_choices_are_played():
    """Random's own games differ from the teacher's: other decisions are met."""
    teacher_games = measure("strike_force_one", "soviet", "random", "heuristic", "random", 2, 0, plays="teacher")
    agent_games = measure("strike_force_one", "soviet", "random", "heuristic", "random", 2, 0, plays="agent")
    assert agent_games.decisions != teacher_games.decisions


def test_the_command_prints_the_table(capsys):
    assert agreement.main(["--game", "strike_force_one", "--side", "soviet", "--agent", "heuristic",
                           "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("heuristic against heuristic as soviet of strike_force_one, 1 games against random, "
                      "the teacher's choices played:")
    assert out[1] == "  decision kind  decisions  agreement   legal"
    assert out[-1].split()[:1] == ["all"] and out[-1].split()[2] == "100.0%"


@pytest.mark.parametrize("flags, message", [
    (["--side", "nobody"], "error: unknown side 'nobody'; sides of strike_force_one: soviet, us"),
    (["--side", "soviet", "--opponent", "nobody"], "error: unknown agent kind 'nobody'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, flags, message):
    assert agreement.main(["--game", "strike_force_one", *flags]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(message)


def test_games_below_one_are_refused(capsys):
    with pytest.raises(SystemExit):
        agreement.main(["--game", "strike_force_one", "--side", "soviet", "--games", "0"])
    assert "--games must be at least 1, got 0" in capsys.readouterr().err
