"""Firing, cover, weapons, saves and hit allocation (002_b69cb091b8d89aa2.txt).

Red fires from x03y11 at blue 12" east (x15y11) unless said otherwise. Dice of a fire: one per Fire Point
per figure, figure by figure in unit order, then one save die per hit.
"""

from fof_env.fubar import events as ev

from .helpers import area, events, figures, game, infantry, kind, legal, position, statuses, vehicle, wall

SEED = "002_b69cb091b8d89aa2.txt"
RED = infantry("r.1", (3, 11), figures(4))
BLUE = infantry("b.1", (15, 11), figures(4))


def aimed(s, *dice: int) -> list[ev.FireHits]:
    """Red activates (roll 5) and takes Aimed Fire at its only target with ``dice``."""
    s.dice.rolls += [5, *dice]
    s.apply("r.1")
    s.apply("aimed_fire")
    return events(s, ev.FireHits)


def test_cover_adds_to_expertise_but_never_past_six():
    """002: "If the target of a firing attack is in cover the number the firer needs to roll to hit (its'
    expertise) is modified as shown below: Soft +1 ... Moderate +2 ... Hard +3 ... No cover modifier can
    make a Unit's expertise worse than 6+." Veteran red (4+) at blue in woods: 5+; in a building: 6+;
    Seasoned red (5+) at blue in a building: 7+ is 6+ (rulings F22)."""
    for feature, training, need in (
        (area("woods", 14, 8, 18, 14), "veteran", 5),
        (area("building", 14, 8, 18, 14), "veteran", 6),
        (area("building", 14, 8, 18, 14), "seasoned", 6),
        (area("fortified_position", 14, 8, 18, 14), "elite", 6),
    ):
        g = game(infantry("r.1", (3, 11), figures(4), training=training), BLUE, features=(feature,))
        (fire,) = aimed(position(g), *[1] * 8)
        assert fire.need == need, (feature["kind"], training)


def test_aimed_fire_adds_one_but_a_one_still_misses():
    """002: "Aimed Fire 0" All figures in Unit get +1 to firing." and "Any unmodified roll of a One is a
    failure." Blue in woods: 5+. 4 + 1 hits, 3 + 1 does not, a 1 never does, a 6 always does (rulings F1, F14)."""
    g = game(RED, BLUE, features=(area("woods", 14, 8, 18, 14),))
    s = position(g)
    (fire,) = aimed(s, 4, 4, 3, 1, 1, 6, 2, 2)
    assert (fire.need, fire.hits, fire.save, fire.unsaved) == (5, 3, 0, 3)
    assert kind(s) == "allocate_hits" and s.decision.player == 1


def test_battlesuit_saves_on_two_but_never_on_one():
    """002: "Battlesuit 2+ Tactical Dreadnought" and "Any unmodified roll of a One is a failure." Three
    hits: saves 2, 6 and 1: the 1 fails (rulings F1, F25)."""
    g = game(RED, infantry("b.1", (15, 11), figures(4), armour="battlesuit"))
    s = position(g)
    (fire,) = aimed(s, 6, 6, 6, 1, 1, 1, 1, 1, 2, 6, 1)
    assert (fire.hits, fire.save, fire.saves, fire.unsaved) == (3, 2, (2, 6, 1), 1)


def test_assault_rifles_get_two_fire_points_at_twelve_inches_or_less():
    """002: "Assault Rifle* 24"/60cm 1FP ... * Assault Rifles get 2FP at 12"/30cm or less." At 12": 4 x 2
    dice; at 14": 4 x 1 (rulings F19)."""
    g = game(RED, BLUE)
    (fire,) = aimed(position(g), *[1] * 8)
    assert len(fire.dice) == 8
    (fire,) = aimed(position(g, {"b.1": {"at": "x17y11"}}), *[1] * 4)
    assert len(fire.dice) == 4


def test_a_figure_fires_its_weapon_with_the_most_fire_points():
    """002: "Each figure in a Unit throws one die per Fire Point": a grenadier with an assault rifle and a
    grenade launcher ("Grenade Launcher 16"/40cm 3FP") throws 3 dice at 12" and 14", and 1 (the rifle) at
    20" (rulings F19)."""
    red = infantry("r.1", (3, 11), figures(1, "assault_rifle", "grenade_launcher", role="Grenadier"))
    g = game(red, BLUE)
    for where, dice in (("x15y11", 3), ("x17y11", 3), ("x23y11", 1)):
        (fire,) = aimed(position(g, {"b.1": {"at": where}}), *[1] * dice)
        assert len(fire.dice) == dice, where


def test_flamethrowers_and_cannon_ignore_cover():
    """002: "Flamethrower2 8"/ 20cm 4FP ... Light Cannon2 32"/80cm 4FP ... 2. Flamethrowers & Tank Cannons
    ignore cover." Blue in a building: a flamethrower 8" away and a cannon need red's plain 4+ (rulings F22)."""
    house = area("building", 14, 8, 18, 14)
    red = infantry("r.1", (7, 11), figures(1, "flamethrower", role="Flamer"))
    g = game(red, BLUE, features=(house,))
    (fire,) = aimed(position(g), 1, 1, 1, 1)
    assert (len(fire.dice), fire.need) == (4, 4)
    tank = vehicle("r.1", (3, 11), "light_tank", "medium", ("light_cannon",))
    g = game(tank, BLUE, features=(house,))
    s = position(g, dice=[5, 1, 1, 1, 1])
    s.apply("r.1")
    s.apply("fire")
    (fire,) = events(s, ev.FireHits)
    assert (len(fire.dice), fire.need) == (4, 4)


def test_a_wall_covers_only_against_fire_across_it():
    """002: "Moderate +2 Stone or Brick Walls": a wall 1" in front of blue covers it (6+); the same wall 1"
    in front of red, with blue 10" beyond it, does not (4+) (rulings F22)."""
    g = game(RED, BLUE, features=(wall(14, 4, 14, 18),), wall_reach=3)
    (fire,) = aimed(position(g), *[1] * 8)
    assert fire.need == 6
    (fire,) = aimed(position(g, {"r.1": {"at": "x13y11"}, "b.1": {"at": "x23y11"}}), *[1] * 8)
    assert fire.need == 4


def test_split_fire_retargets_figures_one_at_a_time():
    """002: "It can split its fire amongst more than one target." Red picks b.1 (all four figures on it),
    then moves one figure to b.2 and fires: 3 x 2 dice at b.1, 1 x 1 die at b.2 (12.6" away) (rulings F21)."""
    g = game(RED, BLUE, infantry("b.2", (15, 15), figures(4)))
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("aimed_fire")
    assert (kind(s), legal(s)) == ("fire_target", ["b.1", "b.2"])
    s.apply("b.1")
    assert (kind(s), legal(s)) == ("split_fire", ["f0", "fire"])  # four interchangeable figures: one offer
    s.apply("f0")  # the only other target is taken at once
    assert (kind(s), legal(s)) == ("split_fire", ["f1", "fire"])  # f0 was moved once and for all
    s.dice.rolls += [1] * 7
    s.apply("fire")
    hits = events(s, ev.FireHits)
    assert [(f.target, len(f.dice)) for f in hits] == [("b.1", 6), ("b.2", 1)]


def test_duck_and_weave_counts_as_soft_cover():
    """002: "Duck & Weave 8"/20cm Cannot fire weapons or throw grenades. Figures count as being in Soft
    Cover." (rulings F12)"""
    g = game(RED, BLUE)
    (fire,) = aimed(position(g, {"b.1": {"status": ["duck_weave"]}}), *[1] * 8)
    assert fire.need == 5


def test_gone_to_ground_adds_one_cover_level_up_to_hard():
    """002: "Gone to Ground ... Drop into nearest cover. Increase the level of that cover by one." Blue gone
    to ground in woods: Moderate (6+ for Veteran red); in a bunker it stays Hard (rulings F13)."""
    g = game(RED, BLUE, features=(area("woods", 14, 8, 18, 14),))
    (fire,) = aimed(position(g, {"b.1": {"status": ["gone_to_ground"]}}), *[1] * 8)
    assert fire.need == 6
    g = game(RED, BLUE, features=(area("fortified_position", 14, 8, 18, 14),))
    s = position(g, {"b.1": {"status": ["gone_to_ground"]}})
    assert s.cover_level(1, s.pos[0], True) == 3


def test_gone_to_ground_in_the_open_counts_as_soft():
    """002: "Drop into nearest cover. Increase the level of that cover by one." With no cover in reach the
    unit drops where it is: no cover, one level better, Soft (rulings F13)."""
    g = game(RED, BLUE)
    (fire,) = aimed(position(g, {"b.1": {"status": ["gone_to_ground"]}}), *[1] * 8)
    assert fire.need == 5


def test_a_mortar_fires_at_what_a_friend_sees():
    """002: "Light Mortars3 40"/100cm 3FP ... 3. If you have any figure with line of sight, mortars can fire
    at enemies they cannot directly see." A wood hides blue from the mortar; with a red spotter in sight of
    blue the mortar fires (3 dice, 4+: blue in the open); without one it has no target (rulings F23)."""
    mortar = infantry("r.1", (3, 11), figures(1, "light_mortar", role="Mortar"))
    spotter = infantry("r.2", (13, 3), figures(2))
    g = game(mortar, spotter, BLUE, features=(area("woods", 6, 0, 10, 24),))
    s = position(g)
    (fire,) = aimed(s, 1, 1, 1)
    assert (fire.shooter, len(fire.dice), fire.need) == ("r.1", 3, 4)
    s = position(g, {"r.2": None}, dice=[5])
    s.apply("r.1")
    assert "aimed_fire" not in legal(s)


def test_an_infantry_hmg_needs_a_second_crewman():
    """002: "1. Vehicle & Bunker mounted HMG's need only one crew. Infantry HMG's need two crew to serve
    them." An HMG and a rifleman: the HMG's 4 dice, the rifleman serves it; with the rifleman down the HMG
    cannot fire; with two riflemen, one serves and one fires (rulings F24)."""
    team = infantry("r.1", (3, 11), figures(1, "heavy_machine_gun", role="HMG"), figures(2))
    g = game(team, BLUE)
    (fire,) = aimed(position(g, {"r.1": {"figures": ["ok", "ok", "casualty"]}}), 1, 1, 1, 1)
    assert len(fire.dice) == 4
    s = position(g, {"r.1": {"figures": ["ok", "casualty", "casualty"]}}, dice=[5])
    s.apply("r.1")
    assert "aimed_fire" not in legal(s)
    (fire,) = aimed(position(g), *[1] * 6)
    assert len(fire.dice) == 6


def test_saves_use_the_majority_armour():
    """002: "Once hits have been determined the Unit can make armour saves against the majority type in the
    Unit." Three Medium and one without: 5+; two Medium and two Light: a tie, the lighter Light 6+
    (rulings F25)."""
    blue = infantry("b.1", (15, 11), figures(3, armour="medium"), figures(1, armour="none"))
    g = game(RED, blue)
    (fire,) = aimed(position(g), 6, 1, 1, 1, 1, 1, 1, 1, 4)
    assert (fire.hits, fire.save, fire.unsaved) == (1, 5, 1)
    blue = infantry("b.1", (15, 11), figures(2, armour="medium"), figures(2, armour="light"))
    g = game(RED, blue)
    (fire,) = aimed(position(g), 6, 1, 1, 1, 1, 1, 1, 1, 5)
    assert (fire.save, fire.unsaved) == (6, 1)


def test_owner_allocates_casualties_and_suppression_within_the_limit():
    """002: "Unsaved hits against a Unit must be taken as casualties, suppressed figures, or a combination of
    both to the allowable limits the Unit can support." and "The maximum number of Suppressed figures a
    Unit can have is related to its Training/Experience." A Seasoned unit (limit 2) with one figure already
    Suppressed takes three hits: its owner suppresses one more, then must take casualties (rulings F26)."""
    blue = infantry("b.1", (15, 11), figures(4), training="seasoned")
    g = game(RED, blue)
    s = position(g, {"b.1": {"figures": ["suppressed", "ok", "ok", "ok"]}})
    (fire,) = aimed(s, 3, 3, 3, 1, 1, 1, 1, 1)
    assert fire.unsaved == 3 and s.decision.player == 1
    assert legal(s) == ["c0", "c1", "s1"]
    s.apply("s1")
    assert legal(s) == ["c0", "c2"]  # at the limit; figure 1 is out of this bout
    s.apply("c2")
    s.apply("c3")
    assert statuses(s, "b.1") == ["suppressed", "suppressed", "casualty", "casualty"]


def test_a_figure_is_never_suppressed_and_a_casualty_from_one_bout():
    """002: "A figure cannot be made both suppressed and a casualty from the same bout of received fire."
    Two hits on two figures: after s0, figure 0 is not offered again (rulings F26)."""
    g = game(RED, infantry("b.1", (15, 11), figures(2)))
    s = position(g)
    aimed(s, 3, 3, 1, 1, 1, 1, 1, 1)
    assert legal(s) == ["c0", "s0"]
    s.apply("s0")
    assert legal(s) == ["c1", "s1"]
    s.apply("c1")
    assert statuses(s, "b.1") == ["suppressed", "casualty"]


def test_hits_beyond_the_unit_are_lost():
    """002: "... to the allowable limits the Unit can support": five hits on two figures; two casualties and
    the rest is lost (rulings F26)."""
    g = game(RED, infantry("b.1", (15, 11), figures(2)))
    s = position(g)
    (fire,) = aimed(s, 6, 6, 6, 6, 6, 1, 1, 1)
    assert fire.unsaved == 5
    s.dice.rolls += [6, 1]  # blue has nobody left: turn 2's initiative
    s.apply("c0")
    s.apply("c1")
    assert statuses(s, "b.1") == ["casualty", "casualty"] and kind(s) != "allocate_hits"


def test_suppressed_figures_cannot_fire():
    """002: "A figure cannot fire if they are Suppressed." Red, On Guard with three of four figures
    Suppressed, fires at blue running past 12" away: one figure, 2 dice (rulings F27)."""
    g = game(RED, BLUE)
    s = position(g, {"r.1": {"figures": ["suppressed"] * 3 + ["ok"], "status": ["on_guard"]}}, initiative="blue",
                 dice=[5, 1, 1])  # fmt: skip
    s.apply("b.1")
    s.apply("run")
    s.apply("x15y13")
    s.apply("x15y11")
    (fire,) = events(s, ev.FireHits)
    assert (fire.shooter, len(fire.dice)) == ("r.1", 2)


def test_a_walking_unit_fires_small_arms_and_grenades_only():
    """002: "Walk ... The unit can also fire small arms or throw grenades": the RPG (a Support Weapon) does
    not fire on the walk; the rifle (2) and the grenades (3FP within 8") do. Standing with Aimed Fire the
    RPG's 3 dice join them (rulings F18)."""
    red = infantry("r.1", (3, 11), figures(1, "rpg", role="RPG"), figures(1, "assault_rifle"),
                   figures(1, "assault_rifle", "grenades", role="Grenadier"))  # fmt: skip
    blue = infantry("b.1", (13, 11), figures(4))
    g = game(red, blue)
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("walk")
    s.apply("x05y11")
    s.dice.rolls += [1] * 5
    s.apply("x05y11")
    (fire,) = events(s, ev.FireHits)
    assert len(fire.dice) == 5
    (fire,) = aimed(position(g, {"r.1": {"at": "x05y11"}}), *[1] * 8)
    assert len(fire.dice) == 8


def test_a_target_in_the_corner_can_be_fired_at():
    """Any point of the table is a place to be shot at, the first (x01y01) included."""
    g = game(infantry("r.1", (5, 5), figures(4)), infantry("b.1", (1, 1), figures(4)))
    (fire,) = aimed(position(g), *[1] * 8)
    assert (fire.target, len(fire.dice)) == ("b.1", 8)
