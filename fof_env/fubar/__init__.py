"""FUBAR (seed ``002_b69cb091b8d89aa2.txt``): one-page modern/SF small-unit rules, 4th edition.

The engine (:mod:`fof_env.fubar.state`) plays any scenario file of ``scenarios/`` on the shared
tabletop geometry; :mod:`fof_env.fubar.game` registers "Lost & Found" under FUBAR and the vehicle
scenario "Village Patrol". Every reading of the seed is in ``rulings.md`` beside this file.
"""
