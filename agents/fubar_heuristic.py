"""Scripted heuristic bots for FUBAR: one strategy per side, for any FUBAR scenario (Lost & Found under
FUBAR, Village Patrol, a scenario file).

**What they look at.** The state's public facts only: FUBAR has no hidden units, so that is the whole
table (positions, figures, statuses, the scenario's terrain and objectives) and the decision's context;
never the dice, never a clone played forward. The bots are deterministic but for their set-up: each
unit's point is drawn among its four best with the bot's own ``random.Random(seed)`` (``agents.mixed_setup``).

**Expected hits.** Fire by unit s at unit t is judged by its expected *unsaved* hits: every able figure's
Fire Points at the range (walking: small arms and grenades only) times the chance a die hits (the need is
Expertise + cover, at most 6; a natural 6 always hits, a natural 1 never; Aimed Fire +1) times the chance
the target fails its save (its majority armour, or a vehicle's). A hit on a vehicle counts 0.6 from the
front, 1.2 from the side and 1.6 from the rear (what the damage table does with it), a hit on infantry 1.
The *threat* to a unit at a point is the expected unsaved hits every enemy unit that could fire could put
on it there (its cover from that enemy, Duck & Weave and Gone to Ground counted).

**Goals** come from the scenario:

* the pilot's side (Lost & Found's Marines): the *rescue* unit (the one with the pilot, else the one
  nearest him) heads for him, then for its own table edge, and leaves by it with him (``exit``); the
  other units close up on the rescue unit; once the pilot is off the table every unit heads home. The
  air strike is called as soon as the Marines lead on VP (it ends the game) or, at the deadline turn
  with the pilot still out of reach, when a draw is the best left.
* the pilot's enemies (the Taliban): close on the pilot (or the unit with him) to keep him on the table,
  shoot the Marines, and capture Marine casualties left alone (3 VP each).
* a ``hold`` term (Village Patrol's mosque): the side that scores it closes on the feature and ends in it;
  the other side stays near it to deny it.
* otherwise: close with the enemy.

**An activation** is the best of its options, each scored as "position value at the end of it + the fire
it makes": Aimed Fire (+1, from where it stands), Walk (to any legal point, firing from the best point of
the path), Run, Duck & Weave (Soft Cover), Gone to Ground, On Guard (a third of its best shot, for the
reaction to come), Assault (when its close-combat odds are good), and for the pilot's unit ``exit``.
Position value = goal (inches gained toward the goal) + 0.5 per cover level - threat (x 0.8; x 0.4 for the
rescue unit, which must go anyway) + a third of its best shot from there. Units are activated in order of
their chance to activate (a failure hands the initiative over), the rescue unit first.

**Reactions and hits.** On Guard units fire at the point of the path where the mover is most exposed,
if that is worth 0.3 expected hits. Unsaved hits are taken as Suppression when the limit allows (the
figure stays in the fight), on the least valuable figure (rifleman before gunner before leader), else as
casualties on it. In close combat a unit fights when its expected hits match the enemy's, else
withdraws; it follows up when it is the stronger; every figure moves up. A destroyed weapon is the one
with the fewest Fire Points; a unit run at by a vehicle steps aside to the point with the most cover.

Every action returned is one of ``state.legal_actions()``.
"""

from __future__ import annotations

import random

from agents.decision_memo import DecisionMemo
from agents.mixed_setup import choose_among_best, setup_choices
from fof_env.fubar.constants import SUPP
from fof_env.fubar.setup import WORDS
from fof_env.fubar.tables import (
    DUCK_WEAVE_IN,
    RUN_IN,
    VEHICLE_OPEN_IN,
    WALK_IN,
)

_EPS = 1e-9


def _hit_chance(need: int, aimed: int) -> float:
    return sum(1 for r in range(1, 7) if r == 6 or (r != 1 and r + aimed >= need)) / 6


P_HIT = {(need, aimed): _hit_chance(need, aimed) for need in range(1, 8) for aimed in (0, 1)}
P_FAIL = {save: (1.0 if not save else sum(1 for r in range(1, 7) if r == 1 or (r != 6 and r < save)) / 6)
          for save in range(0, 7)}  # fmt: skip
ARC_VALUE = (0.6, 1.2, 1.6)  # front, side, rear


class FubarHeuristic:
    """The FUBAR bot for one side (see the module docstring)."""

    def __init__(self, game, player: int, seed: int | None = None):
        self.game = game
        self.player = player
        self.seed = seed
        self.rng = random.Random(seed)  # the set-up's mixed strategy only
        sc = game.setup
        scen = sc.scenario
        self.sc = sc
        self.pilot = scen.pilot
        self.rescuer = self.pilot is not None and self.pilot.side == player
        self.hunter = self.pilot is not None and self.pilot.side != player
        holds = [t for t in scen.terms if t.kind == "hold"]
        self.hold = None
        self.deny = None
        for t in holds:
            f = sc.table.feature_by_id[t.feature]
            centre = ((f.rect[0] + f.rect[2]) / 2, (f.rect[1] + f.rect[3]) / 2)
            if t.side == player:
                self.hold = (f, centre)
            else:
                self.deny = (f, centre)
        w = sc.word0
        self.w = {name: w + i for i, name in enumerate(WORDS)}
        self._memo = DecisionMemo()  # what one act() has computed (agents.decision_memo)

    def __repr__(self) -> str:
        return "heuristic"

    # ================================================================ fire arithmetic
    def _cover(self, s, t: int, ps: int, pt: int, direct: bool, moved: bool = False) -> int:
        geo = self.sc.geo
        level = geo.cover_from[ps][pt] if direct else geo.level[pt]
        if not s.is_veh(t) and not moved:
            if s.dw[t] and level < 1:
                level = 1
            if s.gtg[t]:
                level = min(3, level + 1)
        return level

    def expected(self, s, shooter: int, target: int, ps: int, pt: int, *, walking=False, aimed=0,
                 slots=None, target_moved=False, all_standing=False) -> float:  # fmt: skip
        """Expected unsaved hits (vehicle hits weighted by the arc) of ``shooter`` at ``ps`` on ``target`` at ``pt``."""
        sc = self.sc
        d = sc.table.dist[ps][pt]
        los = sc.geo.fire_los[ps][pt]
        members = s.members[shooter]
        if slots is None:  # all_standing: Suppressed figures too (they stand up at the next activation)
            slots = self._memo.get(("slots", shooter, all_standing), lambda: (
                [i for i, f in enumerate(members) if s.fs[f] <= SUPP] if all_standing else s.able(shooter)))
        expertise = sc.expertise[shooter]
        total = 0.0
        cover_d = cover_i = -1
        for i in slots:
            f = members[i]
            fp, ignores, indirect = sc.figs[f].fire(d, walking)
            if not fp:
                continue
            if not los:
                if not indirect or not s.friend_sees(sc.unit_side[shooter], pt):
                    continue
                if cover_i < 0:
                    cover_i = self._cover(s, target, ps, pt, False, target_moved)
                level = cover_i
            else:
                if cover_d < 0:
                    cover_d = self._cover(s, target, ps, pt, True, target_moved)
                level = cover_d
            need = min(6, expertise + (0 if ignores else level))
            total += fp * P_HIT[(need, aimed)]
        if total <= 0.0:
            return 0.0
        if s.is_veh(target):
            arc = s.arc(target, ps) if not target_moved else 1
            return total * P_FAIL[sc.vsave[target]] * ARC_VALUE[arc]
        return total * P_FAIL[self._memo.get(("save", target, ps), lambda: s.unit_save(target, ps))]

    def enemies(self, s) -> list[int]:
        return self._memo.get(("enemies",), lambda: [t for t in self.sc.side_units[1 - self.player]
                                                     if s.targetable(t)])  # fmt: skip

    def friends(self, s) -> list[int]:
        return [u for u in self.sc.side_units[self.player] if s.live(u)]

    def threat(self, s, u: int, p: int) -> float:
        """Expected unsaved hits the enemy could put on unit ``u`` standing at ``p``."""
        return self._memo.get(("threat", u, p), lambda: self._threat(s, u, p))

    def _threat(self, s, u: int, p: int) -> float:
        total = 0.0
        for e in self.enemies(s):
            if s.engaged[e] >= 0:
                continue
            total += self.expected(s, e, u, s.pos[e], p, target_moved=True, all_standing=True)
        return total

    def best_shot(self, s, u: int, p: int, *, walking=False, aimed=0) -> tuple[float, int]:
        """(value, target) of ``u``'s best shot from ``p``: expected unsaved hits x the target's importance."""
        return self._memo.get(("shot", u, p, walking, aimed), lambda: self._best_shot(s, u, p, walking, aimed))

    def _best_shot(self, s, u: int, p: int, walking, aimed) -> tuple[float, int]:
        best, target = 0.0, -1
        for t in self.enemies(s):
            v = self.expected(s, u, t, p, s.pos[t], walking=walking, aimed=aimed) * self.importance(s, t)
            if v > best:
                best, target = v, t
        return best, target

    def importance(self, s, t: int) -> float:
        """How much hitting ``t`` matters: the unit with the pilot and units close to breaking count more."""
        value = 1.0
        if self.hunter and s.pilot_unit == t:
            value += 1.0
        if self.pilot is not None and not self.hunter and s.pilot_pos >= 0 and self.sc.table.dist[s.pos[t]][s.pilot_pos] <= 14:
            value += 0.5
        if not s.is_veh(t) and s.standing(t) <= 2:
            value += 0.3
        return value

    # ================================================================ goals
    def rescue_unit(self, s) -> int:
        """The unit that goes for the pilot (module docstring), or -1."""
        return self._memo.get(("rescue",), lambda: self._rescue_unit(s))

    def _rescue_unit(self, s) -> int:
        if s.pilot_unit >= 0:
            return s.pilot_unit
        if s.pilot_pos < 0:
            return -1
        dist = self.sc.table.dist[s.pilot_pos]
        cands = [u for u in self.friends(s) if not s.is_veh(u) and s.carried[u] < 0]
        if not cands:
            return -1
        return min(cands, key=lambda u: (dist[s.pos[u]], u))

    def goal(self, s, u: int, p: int) -> float:
        """How far ``u`` standing at ``p`` has got toward its goal (higher is better; roughly VP-like)."""
        sc = self.sc
        table = sc.table
        dist = table.dist
        side = self.player
        if self.rescuer:
            edge = sc.edges[side]
            rescue = self.rescue_unit(s)
            if s.pilot_unit == u:
                return 12.0 - 12.0 * table.distance_to_edge(p, edge) / table.width_in
            if s.pilot_pos >= 0 and (u == rescue or s.pos[u] < 0):
                return 10.0 - 10.0 * dist[p][s.pilot_pos] / table.width_in
            if s.pilot_pos >= 0 and rescue >= 0:
                return -1.5 * max(0.0, dist[p][s.pos[rescue]] - 6.0) / table.width_in
            return -2.0 * table.distance_to_edge(p, edge) / table.width_in
        if self.hunter:
            value = 0.0
            if s.pilot_pos >= 0:
                value -= 2.0 * dist[p][s.pilot_pos] / table.width_in
            capture = sc.scenario.capture
            if capture is not None and not s.is_veh(u):
                for m in sc.side_units[capture[1]]:
                    alone = s.pos[m] >= 0 and not s.gone[m] and s.carried[m] < 0 and not s.standing(m)
                    if alone and dist[p][s.pos[m]] <= 3.0 + _EPS:
                        value += 3.0 * s.casualties(m)
            return value
        if self.hold is not None:
            f, (cx, cy) = self.hold
            x, y = table.xy[p]
            inside = 2.0 if f.contains(x, y) else 0.0
            return inside - 3.0 * ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 / table.width_in
        if self.deny is not None:
            f, (cx, cy) = self.deny
            x, y = table.xy[p]
            here_x, here_y = table.xy[s.pos[u]] if s.pos[u] >= 0 else (x, y)
            if f.contains(here_x, here_y) and not s.is_veh(u):
                return 2.0 if f.contains(x, y) else 0.0  # a unit holding the objective stays in it
            return -0.3 * ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 / table.width_in
        foes = self.enemies(s)
        if not foes:
            return 0.0
        return -0.5 * min(dist[p][s.pos[t]] for t in foes) / table.width_in

    def _fire_weight(self, s, u: int) -> float:
        """The rescue unit (and the pilot's) would rather move than shoot."""
        if self.rescuer and (s.pilot_unit == u or (s.pilot_pos >= 0 and u == self.rescue_unit(s))):
            return 0.25
        return 1.0

    def place_value(self, s, u: int, p: int, *, cover_bonus: int = 0) -> float:
        sc = self.sc
        threat_w = 0.8
        if self.rescuer and (u == self.rescue_unit(s) or s.pilot_unit == u):
            threat_w = 0.25
        level = min(3, sc.geo.level[p] + cover_bonus)
        shot = self.best_shot(s, u, p)[0] * self._fire_weight(s, u)
        return self.goal(s, u, p) + 0.5 * level - threat_w * self.threat(s, u, p) * (0.6 if cover_bonus else 1.0) + shot / 3

    # ================================================================ the decisions
    def act(self, state) -> int:
        kind = state.decision.kind
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        handler = getattr(self, "_" + kind, None)
        with self._memo.deciding():  # the same point is scored for Walk, Run and Duck & Weave
            choice = handler(state, legal) if handler is not None else None
        return choice if choice in legal else legal[0]

    def _deploy(self, s, legal):
        """The best set-up point, or one drawn among the best few where it is unseen (``agents.mixed_setup``)."""
        u = s.ask

        def value(p: int) -> float:
            return 0.5 * self.sc.geo.level[p] + self.goal(s, u, p) - 0.8 * self.threat(s, u, p) + 0.02 * self._view(p)

        return choose_among_best(legal, value, self.rng.randrange, setup_choices(s))

    def _view(self, p: int) -> int:
        cache = self.__dict__.setdefault("_views", {})
        got = cache.get(p)
        if got is None:
            row = self.sc.geo.fire_los[p]
            dist = self.sc.table.dist[p]
            got = cache[p] = sum(1 for q in range(self.sc.n_points) if row[q] and dist[q] <= 24.0)
        return got

    def _attach_leader(self, s, legal):
        return max(legal, key=lambda a: (len(s.members[a - self.sc.unit0]), -a))

    def _call_airstrike(self, s, legal):
        mine, theirs = s.victory_points()[self.player], s.victory_points()[1 - self.player]
        if mine > theirs:
            return self.w["yes"]
        auto = self.sc.scenario.auto_pilot
        if auto is not None and s.turn >= auto[1] and mine >= theirs:
            u = s.pilot_unit
            edge = self.sc.edges[self.player]
            if u < 0 or self.sc.table.distance_to_edge(s.pos[u], edge) > RUN_IN:
                return self.w["yes"]  # no way out by the deadline: a draw beats a defeat
        return self.w["pass"]

    def _select_unit(self, s, legal):
        rescue = self.rescue_unit(s) if self.rescuer else -1

        def order(a):
            u = a - self.sc.unit0
            need = s.activation_need(u)
            chance = P_HIT[(max(1, min(7, need - s.activation_modifier(u))), 0)]
            return (u == rescue, chance, self.best_shot(s, u, s.pos[u])[0], -u)

        return max(legal, key=order)

    # ---------------------------------------------------------------- the activation
    def _choose_action(self, s, legal):
        u = s.actor
        names = {a: WORDS[a - self.sc.word0] for a in legal}
        here = s.pos[u]
        options: list[tuple[float, int, tuple]] = []
        stay = self.place_value(s, u, here)
        fw = self._fire_weight(s, u)
        for a, name in names.items():
            if name == "aimed_fire":
                v, t = self.best_shot(s, u, here, aimed=1)
                options.append((stay + v * fw, a, ()))
            elif name == "fire":
                v, t = self.best_shot(s, u, here)
                options.append((stay + v * fw, a, ()))
            elif name == "on_guard":
                options.append((stay + self.best_shot(s, u, here)[0] * fw / 3 - 0.05, a, ()))
            elif name == "gone_to_ground":
                threat = self.threat(s, u, here)
                options.append((stay + 0.3 * threat - 0.1, a, ()))
            elif name in ("walk", "run", "duck_weave", "move"):
                v, plan = self._best_move(s, u, name)
                options.append((v, a, plan))
            elif name == "assault":
                v, t = self._best_assault(s, u)
                options.append((stay + v, a, (t,)))
            elif name == "handoff":
                options.append((self._handoff_value(s, u), a, ()))
        options.sort(key=lambda o: (o[0], -o[1]))
        value, action, plan = options[-1]
        self._plan = (len(s.history), u, WORDS[action - self.sc.word0], plan)
        return action

    def _move_points(self, s, u: int, name: str) -> list[int]:
        if name == "move":
            pts = s.vehicle_points(u)[0]
        elif name == "walk":
            pts = s.move_points(u, WALK_IN, stay=True)
            if s.carried[u] >= 0:
                pts = [p for p in pts if p != s.pos[u]]
        else:
            limit = RUN_IN if name == "run" else DUCK_WEAVE_IN
            pts = [p for p in s.move_points(u, limit, stay=False) if p != s.pos[u]]
        return pts

    def _best_move(self, s, u: int, name: str) -> tuple[float, tuple]:
        pts = self._move_points(s, u, name)
        best = (-1e9, ())
        exit_ok = False
        limit = {"walk": WALK_IN, "run": RUN_IN, "duck_weave": DUCK_WEAVE_IN, "move": VEHICLE_OPEN_IN}[name]
        if s.can_exit(u, limit):
            exit_ok = True
        for p in pts:
            v = self.place_value(s, u, p, cover_bonus=1 if name == "duck_weave" else 0)
            if name == "walk":
                v += self._fire_weight(s, u) * max(self.best_shot(s, u, p, walking=True)[0],
                                                   self.best_shot(s, u, s.pos[u], walking=True)[0])
            elif name == "move":
                v += 0.5 * self.best_shot(s, u, p)[0]
            elif name == "run" and not (self.rescuer and (u == self.rescue_unit(s) or s.pilot_unit == u)):
                v -= 0.1
            if v > best[0] + _EPS:
                best = (v, (p,))
        if exit_ok and self._wants_exit(s, u):
            best = (100.0, (-1,))
        return best

    def _wants_exit(self, s, u: int) -> bool:
        """Leave the table: the pilot's unit, and every unit once he is off."""
        if not self.rescuer:
            return False
        return s.pilot_unit == u or (s.pilot_exit > 0 and not s.is_veh(u))

    def _best_assault(self, s, u: int) -> tuple[float, int]:
        best = (-1e9, -1)
        mine_e = self.sc.expertise[u]
        for t in s.assault_targets(u):
            if s.is_veh(u):
                n = s.standing(t)
                v = n * 0.5 - 0.5 * self.threat(s, u, s.pos[t]) + 0.5
            else:
                mine = s.standing(u) * P_HIT[(mine_e, 0)] * P_FAIL[s.unit_save(t)]
                theirs = s.standing(t) * P_HIT[(self.sc.expertise[t], 0)] * P_FAIL[s.unit_save(u)]
                v = (mine - theirs) * 1.2 + (0.5 if s.standing(t) <= 2 else 0.0)
                if self.rescuer and u == self.rescue_unit(s):
                    v -= 2.0
            if v > best[0]:
                best = (v, t)
        return best

    def _handoff_value(self, s, u: int) -> float:
        others = s._handoff_targets(u)
        if not others:
            return -1e9
        best = max(s.standing(t) for t in others)
        return 50.0 if best >= s.standing(u) + 2 else -1e9

    def _planned(self, s, word: str):
        plan = getattr(self, "_plan", None)
        if plan and plan[1] == s.actor and plan[2] == word and len(s.history) <= plan[0] + 3:
            return plan[3]
        return None

    def _move_target(self, s, legal):
        u = s.ask if s.ask >= 0 else s.actor
        plan = self._planned(s, "walk") or self._planned(s, "run") or self._planned(s, "duck_weave") or self._planned(
            s, "move"
        )
        if plan:
            p = plan[0]
            a = self.w["exit"] if p == -1 else p
            if a in legal:
                return a
        if self.w["exit"] in legal and self._wants_exit(s, u):
            return self.w["exit"]
        best = None
        for a in legal:
            if a >= self.sc.n_points:
                continue
            v = self.place_value(s, u, a)
            if best is None or v > best[0] + _EPS:
                best = (v, a)
        return best[1] if best else legal[0]

    def _fire_point(self, s, legal):
        u = s.mover if s.mover >= 0 else s.actor
        walking = not s.is_veh(u)
        best = (0.05, self.w["pass"])
        for a in legal:
            if a >= self.sc.n_points:
                continue
            v = self.best_shot(s, u, a, walking=walking)[0]
            if v > best[0] + _EPS:
                best = (v, a)
        return best[1]

    def _fire_target(self, s, legal):
        u = s.fshooter
        walking = bool(s.fmode & 16)
        aimed = 1 if s.fmode & 1 else 0
        slots = [s.fweapon] if s.fweapon >= 0 else None
        best = None
        for a in legal:
            t = a - self.sc.unit0
            v = self.expected(s, u, t, s.pos[u], s.pos[t], walking=walking, aimed=aimed, slots=slots)
            v *= self.importance(s, t)
            if best is None or v > best[0] + _EPS:
                best = (v, a)
        return best[1]

    def _choose_weapon(self, s, legal):
        u = s.fshooter
        best = None
        for a in legal:
            i = a - self.sc.fig0
            v = max((self.expected(s, u, t, s.pos[u], s.pos[t], slots=[i]) * self.importance(s, t)
                     for t in s.member_targets(u, i)), default=0.0)  # fmt: skip
            if best is None or v > best[0] + _EPS:
                best = (v, a)
        return best[1]

    def _split_fire(self, s, legal):
        return self.w["fire"]

    def _split_target(self, s, legal):
        return legal[0]

    def _on_guard(self, s, legal):
        r = s.ask
        mover = s.mover
        best = (0.3, self.w["pass"])
        for a in legal:
            if a >= self.sc.n_points:
                continue
            v = self.expected(s, r, mover, s.pos[r], a, target_moved=True) * self.importance(s, mover)
            if v > best[0] + _EPS:
                best = (v, a)
        return best[1]

    def _figure_value(self, s, f: int) -> float:
        spec = self.sc.figs[f]
        return spec.fire(12.0)[0] + spec.fire(20.0)[0] + (3 if spec.leader else 0)

    def _allocate_hits(self, s, legal):
        t = s.aunit
        members = s.members[t]
        sups = [a for a in legal if a >= self.sc.sup0]
        pool = sups or legal
        return min(pool, key=lambda a: (self._figure_value(s, members[(a - self.sc.sup0) if a >= self.sc.sup0
                                                                      else (a - self.sc.cas0)]), a))  # fmt: skip

    def _move_up(self, s, legal):
        figs = [a for a in legal if a != self.w["pass"]]
        return figs[0] if figs else self.w["pass"]

    def _weapon_destroyed(self, s, legal):
        v = s.ask
        return min(legal, key=lambda a: (self._figure_value(s, s.members[v][a - self.sc.fig0]), a))

    def _cc_odds(self, s, u: int, v: int) -> tuple[float, float]:
        mine = s.standing(u) * P_HIT[(self.sc.expertise[u], 0)] * P_FAIL[s.unit_save(v)]
        theirs = s.standing(v) * P_HIT[(self.sc.expertise[v], 0)] * P_FAIL[s.unit_save(u)]
        return mine, theirs

    def _close_combat(self, s, legal):
        u, v = s.cca, s.ccb
        mine, theirs = self._cc_odds(s, u, v)
        return self.w["fight"] if mine >= 0.8 * theirs else self.w["withdraw"]

    def _follow_up(self, s, legal):
        mine, theirs = self._cc_odds(s, s.cca, s.ccb)
        return self.w["yes"] if mine > theirs else self.w["pass"]

    def _points_away(self, s, u: int, legal) -> int:
        best = None
        for a in legal:
            if a >= self.sc.n_points:
                continue
            v = 0.6 * self.sc.geo.level[a] - self.threat(s, u, a) + 0.3 * self.goal(s, u, a)
            if best is None or v > best[0] + _EPS:
                best = (v, a)
        return best[1] if best else legal[0]

    def _withdraw_point(self, s, legal):
        return self._points_away(s, s.cca if s.cca >= 0 else s.ask, legal)

    def _withdraw_target(self, s, legal):
        return self._points_away(s, s.ask, legal)

    def _get_out_of_the_way(self, s, legal):
        return self._points_away(s, s.ask, legal)

    def _assault_target(self, s, legal):
        plan = self._planned(s, "assault")
        if plan and plan[0] >= 0 and self.sc.unit0 + plan[0] in legal:
            return self.sc.unit0 + plan[0]
        return legal[0]

    def _handoff_target(self, s, legal):
        return max(legal, key=lambda a: (s.standing(a - self.sc.unit0), -a))


def make_fubar_heuristic(game, player: int, seed: int | None = None) -> FubarHeuristic:
    """The FUBAR heuristic bot of ``player`` (see the module docstring)."""
    return FubarHeuristic(game, player, seed)

