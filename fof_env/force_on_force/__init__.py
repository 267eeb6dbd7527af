"""Force on Force (Osprey / Ambush Alley Games): the quick start rules and the "Lost & Found" scenario.

Source: ``../shared/seeds/000_294bccfd88f0ebda.txt``. The scenario map was a picture
and is shipped as a reconstruction (``data/lost_and_found.json``, loaded by
:mod:`fof_env.force_on_force.scenario`); the table geometry (distances, line of
sight, cover) comes from :mod:`fof_env.core.tabletop`.
"""
