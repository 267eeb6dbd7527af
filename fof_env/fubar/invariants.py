"""Invariants every FUBAR position satisfies, checked by the fuzzer (``evaluation/fuzz.py``) at every step."""

from __future__ import annotations

from fof_env.fubar.constants import CAPT, LOST, OK, SUPP


def check_position(s) -> None:
    """Raise ``AssertionError`` naming the broken invariant: figures conserved (each figure in exactly one
    unit, where the scenario put it, the attached leader's in his host's), statuses in range and a vehicle's
    weapons only ``ok``/``destroyed``, Suppressed figures within the unit's limit, the ``up`` counts right,
    one unit per point, passengers on their vehicle's point, close combat paired, the pilot with his unit,
    and the observation of both players finite."""
    sc = s.sc
    seen: dict[int, int] = {}
    for u in range(sc.n_units):
        name = sc.unit_ids[u]
        members = s.members[u]
        for f in members:
            assert f not in seen, f"figure {f} is in {name} and {sc.unit_ids[seen[f]]}"
            seen[f] = u
        if sc.attachable[u] and s.attached[u] >= 0:
            assert not members, f"attached {name} still holds figures"
        elif s.wreck[u]:
            assert members == list(sc.crew_figs[u]), f"{name} (destroyed) holds {members}"
        elif not sc.attachable[u]:
            own = list(sc.unit_figs[u])
            assert members[: len(own)] == own, f"{name} lost its own figures: {members}"
        for f in members:
            st = s.fs[f]
            if sc.vehicle[u] and not s.wreck[u]:
                assert st in (OK, LOST), f"{name}: vehicle weapon status {st}"
            else:
                assert st in (OK, SUPP, 2, CAPT), f"{name}: figure status {st}"
        supp = sum(1 for f in members if s.fs[f] == SUPP)
        assert supp <= sc.suppress[u], f"{name}: {supp} Suppressed over its limit {sc.suppress[u]}"
        assert s.up[u] == sum(1 for f in members if s.fs[f] <= SUPP), f"{name}: stale standing count"
        assert -1 <= s.pos[u] < sc.n_points, f"{name} at point {s.pos[u]}"
        if s.gone[u]:
            assert s.pos[u] < 0, f"{name} left the table but is at {s.pos[u]}"
        c = s.carried[u]
        if c >= 0:
            assert sc.vehicle[c] and s.is_veh(c) and s.pos[u] == s.pos[c], f"{name} is not aboard {sc.unit_ids[c]}"
        t = s.engaged[u]
        if t >= 0:
            assert s.engaged[t] == u and sc.unit_side[t] != sc.unit_side[u], f"{name}: close combat not paired"
    assert len(seen) == sum(len(m) for m in s.members)
    if s.kind >= 0 and s.mover < 0 and s.ovehicle < 0:  # mid-move a unit passes others' points
        where: dict[int, int] = {}
        for u in range(sc.n_units):
            if s.pos[u] >= 0 and s.carried[u] < 0 and s.live(u):
                assert s.pos[u] not in where, (
                    f"{sc.unit_ids[u]} and {sc.unit_ids[where[s.pos[u]]]} share {sc.table.name(s.pos[u])}"
                )
                where[s.pos[u]] = u
    if s.pilot_unit >= 0:
        assert s.pos[s.pilot_unit] == s.pilot_pos >= 0, "the pilot is not with his unit"
        assert s.contact, "the pilot is with a unit but contact was never made"
    if s.pilot_exit:
        assert s.pilot_pos < 0 and s.pilot_unit < 0, "the pilot left yet is on the table"
