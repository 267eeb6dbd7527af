"""Force on Force (Osprey / Ambush Alley Games): the quick start and full infantry rules, on any scenario.

Sources: ``../shared/seeds/000_294bccfd88f0ebda.txt`` (quick start and "Lost & Found") and
``003_b1b2d2a6d4b3bab2.txt`` (infantry combat). Scenarios are data files
(``scenarios/<id>.json``, read by :mod:`fof_env.force_on_force.scenario`); the "Lost & Found"
map was a picture and is shipped as a reconstruction. The table geometry (distances, line of
sight, cover) comes from :mod:`fof_env.core.tabletop`; the engine is
:class:`fof_env.force_on_force.state.ForceOnForceState` and the games
:mod:`fof_env.force_on_force.game`.
"""
