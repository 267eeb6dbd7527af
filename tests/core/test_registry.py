"""make_game / list_games and option errors."""

import pytest

import fof_env
from fof_env.core.errors import OptionError


def test_list_games_names_strike_force_one():
    assert "strike_force_one" in fof_env.list_games()


def test_unknown_game_lists_known_games():
    with pytest.raises(OptionError, match="strike_force_one"):
        fof_env.make_game("chess")


def test_unknown_option_is_named():
    with pytest.raises(OptionError, match="optinal_rules"):
        fof_env.make_game("strike_force_one", optinal_rules=True)


def test_side_names_resolve():
    game = fof_env.make_game("strike_force_one")
    assert game.player_index("us") == 1 and game.player_index(0) == 0
    with pytest.raises(ValueError, match="soviet, us"):
        game.player_index("nato")


def test_a_typed_side_name_resolves_in_any_case_but_the_exact_lookup_stays_exact():
    game = fof_env.make_game("lost_and_found")
    assert [game.side_in_any_case(n) for n in ("USMC", "Taliban", "usmc", "nato")] == [1, 0, 1, None]
    with pytest.raises(ValueError, match="taliban, usmc"):
        game.player_index("USMC")
