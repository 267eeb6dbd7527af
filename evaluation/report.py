"""Tournament reports: ``results.json``, ``results.csv``, ``report.md`` and a self-contained ``report.html``.

>>> paths = write_report(result, "reports/my-game")   # doctest: +SKIP
>>> print(markdown_report(result))                              # doctest: +SKIP

* ``results.json``: everything (:meth:`TournamentResult.to_dict`): game, options,
  specs, seeds and the seeding rule, per-pairing and per-agent-side tallies,
  ratings, agent cards, timing, and every game; ``records_dir`` relative to the
  file's folder, so the folder can be moved.
* ``results.csv``: one row per ordered pairing played: both sides' wins/draws/losses,
  win rates with Wilson 95 % bounds, mean VP (games that count VP) and mean score entries.
* ``report.md``: the Markdown tables (:func:`markdown_report`): pairings with both
  sides, each agent on each side, ratings. A pairing or side that an agent cannot
  play (a one-sided agent: ``ppo`` where a model ships for one side only) reads "n/a".
* ``report.html``: the answer first, then the evidence, with figures embedded as base64
  images (no script or style sheet): the agents from strongest to weakest, the side-0
  win-rate heatmap ("n/a" cells likewise), the ratings with error bars, the training curve
  of every agent whose model card has one, then, when the records were written, per
  pairing a GIF of its first game (replayed from its record, each frame captioned with the
  turn, the result and the sides' colours: :func:`evaluation.frames.game_gif`) linking that
  game's replay page, and last the tables of every pairing and every agent-side, with
  relative links to the records folders (``gifs=False`` leaves GIFs and replays out).
* ``replays/<side-0 agent>__vs__<side-1 agent>.html``: the first game of each pairing on the
  board's replay viewer, the game inside the page (:mod:`evaluation.replay_page`); the
  viewer's script and style sheet in ``viewer/``.

Every file is written atomically (:func:`fof_env.core.files.write_text_atomic`); a
failed write raises :class:`evaluation.journal.OutputError` naming the file.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import os
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.journal import OutputError
from evaluation.ratings import Ratings
from evaluation.stats import wilson_interval
from evaluation.tallies import PairingTally
from evaluation.tournament import TournamentResult
from fof_env.core.files import write_text_atomic

Table = tuple[list[str], list[list[str]]]  # header, rows (cells as text)
NA = "n/a"  # a pairing or side an agent cannot play


class Html(str):
    """A table cell that is already HTML (:func:`html_table` does not escape it)."""


# ----------------------------------------------------------------------------- tables
def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def rate_text(successes: float, n: int) -> str:
    """``"91.2% [88.4, 93.4]"``: a rate and its Wilson 95 % interval, in percent (``"-"`` for no games)."""
    if n == 0:
        return "-"
    lo, hi = wilson_interval(successes, n)
    return f"{100 * successes / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _wdl(w: int, d: int, lo: int) -> str:
    return f"{w}/{d}/{lo}"


# columns whose cells are numbers: right-aligned in Markdown, class "num" in HTML
NUMERIC_COLUMNS = frozenset(
    {"games", "decisions/game", "ms/game", "ms/decision", "longest ms", "rank", "rating (Elo)", "+/- 95%", "points"}
)


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def plays(result: TournamentResult, agent: str, player: int) -> bool:
    """Whether ``agent`` plays side ``player`` (every agent plays both unless it is one-sided)."""
    return result.player_names[player] in result.sides.get(agent, result.player_names)


def pairing_rows(result: TournamentResult) -> list[tuple[tuple[str, str], PairingTally | None]]:
    """Every ordered pairing of the agents (side 0 in the agents' order, then side 1), with its
    tally, or None where an agent cannot play its side (mirror pairings left out are left out)."""
    tallies = {t.agents: t for t in result.tallies}
    out: list[tuple[tuple[str, str], PairingTally | None]] = []
    for a in result.agents:
        for b in result.agents:
            if (a, b) in tallies:
                out.append(((a, b), tallies[(a, b)]))
            elif (result.mirror or a != b) and not (plays(result, a, 0) and plays(result, b, 1)):
                out.append(((a, b), None))
    return out


def pairing_table(result: TournamentResult) -> Table:
    """One row per ordered pairing: both sides' W/D/L and win rates, VP or score means, cost;
    "n/a" in every cell of a pairing that a one-sided agent cannot play."""
    a, b = result.player_names
    has_vp = any(t.vp_means is not None for t in result.tallies)
    has_score = not has_vp and any(t.score_means for t in result.tallies)
    header = [a, b, "games", f"{a} W/D/L", f"{a} win rate [95% CI]", f"{b} W/D/L", f"{b} win rate [95% CI]"]
    if has_vp:
        header.append(f"VP mean {a} / {b}")
    if has_score:
        header.append("mean score")
    header += ["decisions/game", "ms/game"]
    rows = []
    for agents, t in pairing_rows(result):
        if t is None:
            rows.append([*agents, *[NA] * (len(header) - 2)])
            continue
        s0, s1 = t.side(0), t.side(1)
        row = [
            t.agents[0],
            t.agents[1],
            str(t.games),
            _wdl(s0.wins, s0.draws, s0.losses),
            rate_text(s0.wins, s0.games),
            _wdl(s1.wins, s1.draws, s1.losses),
            rate_text(s1.wins, s1.games),
        ]
        if has_vp:
            row.append("-" if t.vp_means is None else f"{t.vp_means[0]:.1f} / {t.vp_means[1]:.1f}")
        if has_score:
            row.append(", ".join(f"{k} {v:.2f}" for k, v in t.score_means.items()) or "-")
        row += [_num(t.decisions / t.games if t.games else None), _num(1000 * t.seconds / t.games, 2)]
        rows.append(row)
    return header, rows


def endings_table(result: TournamentResult) -> Table | None:
    """One row per ordered pairing: how many of its games each termination ended (the games'
    :class:`~fof_env.core.outcome.Outcome`); None when no game of the log says why it ended."""
    kinds = sorted({o.termination for o in result.outcomes if o.termination is not None})
    if not kinds:
        return None
    counts: dict[tuple[str, str], Counter] = {}
    for o in result.outcomes:
        counts.setdefault(o.agents, Counter())[o.termination or "unknown"] += 1
    unknown = any(c["unknown"] for c in counts.values())
    kinds += ["unknown"] if unknown else []
    a, b = result.player_names
    rows = [[*agents, *(str(counts[agents][k]) for k in kinds)] for agents, t in pairing_rows(result) if t is not None]
    return [a, b, *kinds], rows


def agent_side_table(result: TournamentResult) -> Table:
    """One row per agent and side, over every opponent it met there ("n/a" on a side it cannot play)."""
    names = result.player_names
    has_vp = any(t.vp_mean is not None for t in result.agent_tallies)
    header = ["agent", "side", "games", "W/D/L", "win rate [95% CI]", "score (draw = 1/2) [95% CI]"]
    if has_vp:
        header += ["own VP mean", "opponent VP mean"]
    timed = any(t.thinking is not None for t in result.agent_tallies)
    if timed:
        header += ["ms/decision", "longest ms"]
    rows = []
    for t in result.agent_tallies:
        r = t.record
        if not plays(result, t.agent, t.player):
            rows.append([t.agent, names[t.player], *[NA] * (len(header) - 2)])
            continue
        row = [
            t.agent,
            names[t.player],
            str(r.games),
            _wdl(r.wins, r.draws, r.losses),
            rate_text(r.wins, r.games),
            rate_text(r.points, r.games),
        ]
        if has_vp:
            row += [_num(t.vp_mean), _num(t.opponent_vp_mean)]
        if timed:
            row += [_num(t.ms_per_decision, 2), _num(t.longest_ms)]
        rows.append(row)
    return header, rows


def ratings_table(result: TournamentResult) -> Table:
    """Rank, agent, rating (Elo), 95 % half-width, games and points (wins + draws / 2)."""
    return ratings_rows(result.ratings)


def ratings_rows(ratings: Ratings) -> Table:
    """:func:`ratings_table` of any fit (a tournament's, a ladder's)."""
    header = ["rank", "agent", "rating (Elo)", "+/- 95%", "games", "points"]
    rows = [
        [str(i), r.agent, f"{r.elo:.0f}", f"{r.interval:.0f}", str(r.games), f"{r.points:g}"]
        for i, r in enumerate(ratings.ratings, start=1)
    ]
    return header, rows


def ratings_note(result: TournamentResult) -> str:
    """One paragraph: the side advantage and how to read the ratings."""
    r = result.ratings
    a, b = result.player_names
    anchor = f"{r.anchor} is fixed at 0" if r.anchor else "the mean rating is 0"
    return (
        f"Side advantage of {a} (side 0) over {b}: {r.side_advantage:+.0f} +/- "
        f"{1.96 * r.side_advantage_se:.0f} Elo. Bradley-Terry model fitted to all {r.games} games "
        f"(draws = half wins) with a side-0 advantage term, Elo scale (400/ln 10 per logit), "
        f"Gaussian prior N(0, {r.prior_sd:.0f}^2 Elo) on every parameter; {anchor}; +/- is 1.96 standard "
        "errors (Laplace). An agent that won or lost every game has a rating set mostly by the prior: "
        "read it as a bound."
    )


def markdown_table(table: Table) -> list[str]:
    """The lines of a Markdown table (numeric-looking columns right-aligned)."""
    header, rows = table
    right = NUMERIC_COLUMNS
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---:" if h in right else "---" for h in header) + "|")
    for row in rows:
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    return lines


def _endings_section(result: TournamentResult) -> list[str]:
    """The Markdown section of :func:`endings_table` (nothing when the log does not say)."""
    table = endings_table(result)
    if table is None:
        return []
    return ["## How the games ended (games per termination)", "", *markdown_table(table), ""]


def _title(result: TournamentResult) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    return f"Tournament: {result.game}" + (f" ({opts})" if opts else "")


def _summary(result: TournamentResult) -> str:
    d = result.to_dict(games=False)["timing"]
    text = (
        f"Agents: {', '.join(result.agents)}. {result.games_per_pairing} games per ordered pairing "
        f"({len(result.pairings)} pairings{', mirror pairings included' if result.mirror else ''}), "
        f"{result.total_games} games, seed {result.seed}, {result.workers} worker(s) ({result.backend}): "
        f"{d['wall_seconds']:.1f} s wall, {d['ms_per_game']:.1f} ms per game, "
        f"{d['decisions']} decisions. Started {result.started}."
    )
    if result.resumed:
        text += f" Resumed: {result.resumed} games from an earlier run's log, the wall time is this run's."
    one_sided = [f"{name} plays {sides[0]} only" for name, sides in result.sides.items() if len(sides) == 1]
    if one_sided:
        text += " One-sided agents (nothing to play the other side with): " + "; ".join(one_sided) + "."
    return text


def markdown_report(result: TournamentResult) -> str:
    """The report as Markdown: title, summary, pairing table, agent-side table, ratings."""
    a, b = result.player_names
    parts = [
        f"# {_title(result)}",
        "",
        _summary(result),
        "",
        f"## Pairings (side 0 = {a}, side 1 = {b}; win rates with Wilson 95% intervals)",
        "",
        *markdown_table(pairing_table(result)),
        "",
        *_endings_section(result),
        "## Each agent on each side (all its opponents there, itself included)",
        "",
        *markdown_table(agent_side_table(result)),
        "",
        "## Ratings",
        "",
        *markdown_table(ratings_table(result)),
        "",
        ratings_note(result),
        "",
    ]
    return "\n".join(parts)


# ----------------------------------------------------------------------------- files
CSV_SCORE_PREFIX = "score_mean_"


def csv_rows(result: TournamentResult) -> list[dict[str, Any]]:
    """The rows of ``results.csv`` (one per ordered pairing)."""
    keys = sorted({k for t in result.tallies for k in t.score_means})
    rows = []
    for t in result.tallies:
        row: dict[str, Any] = {"game": result.game}
        for p, name in enumerate(result.player_names):
            row[f"side{p}"] = name
            row[f"side{p}_agent"] = t.agents[p]
        row["games"] = t.games
        for p in (0, 1):
            s = t.side(p)
            lo, hi = s.win_interval
            row.update(
                {
                    f"side{p}_wins": s.wins,
                    f"side{p}_draws": s.draws,
                    f"side{p}_losses": s.losses,
                    f"side{p}_win_rate": s.win_rate,
                    f"side{p}_win_low": lo,
                    f"side{p}_win_high": hi,
                    f"side{p}_vp_mean": "" if t.vp_means is None else t.vp_means[p],
                }
            )
        for k in keys:
            row[CSV_SCORE_PREFIX + k] = t.score_means.get(k, "")
        row["decisions_per_game"] = t.decisions / t.games if t.games else 0.0
        row["seconds"] = t.seconds
        rows.append(row)
    return rows


def _write(path: Path, text: str) -> Path:
    try:
        return write_text_atomic(path, text)
    except OSError as exc:
        raise OutputError.from_os_error(path, exc) from None


def write_csv(result: TournamentResult, path: str | Path) -> Path:
    rows = csv_rows(result)
    buf = io.StringIO(newline="")
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["game"])
    writer.writeheader()
    writer.writerows(rows)
    return _write(Path(path), buf.getvalue())


def _relative(target: str | Path, folder: Path) -> str:
    """``target`` relative to ``folder`` (as given if it cannot be: another drive)."""
    try:
        return Path(os.path.relpath(Path(target).resolve(), folder.resolve())).as_posix()
    except ValueError:
        return str(target)


def write_json(result: TournamentResult, path: str | Path) -> Path:
    """``results.json``: :meth:`TournamentResult.to_dict`, ``records_dir`` relative to the file's folder."""
    path = Path(path)
    data = result.to_dict()
    if data.get("records_dir"):
        data["records_dir"] = _relative(data["records_dir"], path.parent)
    return _write(path, json.dumps(data, indent=1, default=str) + "\n")


# ----------------------------------------------------------------------------- html
_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.na { color: #888; }
img { max-width: 100%; }
img.game { width: 320px; }
p.note { color: #555; font-style: italic; }
p.answer { font-size: 1.15em; background: #fff7d6; border: 1px solid #e0c96a; padding: 0.5em 0.8em; }
nav { margin: 0.5em 0 1em; }
div.games { display: flex; flex-wrap: wrap; gap: 1em; }
figure.game { margin: 0; width: 330px; font-size: 0.85em; }
"""


def html_table(table: Table) -> str:
    """A table; cells are escaped unless they are :class:`Html`."""
    header, rows = table
    numeric = NUMERIC_COLUMNS
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"]
    for row in rows:
        cells = []
        for h, c in zip(header, row, strict=True):
            text = c if isinstance(c, Html) else html.escape(c)
            css = "na" if c == NA else "num" if h in numeric else ""
            cells.append(f'<td class="{css}">{text}</td>' if css else f"<td>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _img(data: bytes, alt: str, mime: str = "image/png", css: str = "") -> str:
    encoded = base64.b64encode(data).decode("ascii")
    cls = f' class="{css}"' if css else ""
    return f'<img{cls} alt="{html.escape(alt)}" src="data:{mime};base64,{encoded}">'


def training_sections(result: TournamentResult) -> list[tuple[str, bytes | None, str]]:
    """(title, PNG or None, note) for every agent and side with a model card (PPO models)."""
    from evaluation import plots

    out: list[tuple[str, bytes | None, str]] = []
    for agent in result.agents:
        cards = result.cards.get(agent, {})
        for side in result.player_names:
            card = cards.get(side)
            if not card:  # not a model, or a side this agent does not play
                continue
            title = f"{agent} playing {side}"
            curve = card.get("curve")
            if not curve:
                out.append((title, None, "the model card has no training curve: plot skipped"))
                continue
            selected = card.get("selected") if isinstance(card.get("selected"), dict) else {}
            shipped = selected.get("timesteps")
            try:
                png = plots.training_curve(curve, f"training curve: {title}", side, shipped=shipped)
            except (KeyError, TypeError, ValueError) as exc:
                out.append((title, None, f"the card's curve cannot be plotted ({exc!r}): skipped"))
                continue
            out.append((title, png, curve_note(card, plots.curve_points(curve, side))))
    return out


def curve_note(card: dict[str, Any], points: list[dict[str, Any]]) -> str:
    """How many evaluations the curve has and up to which step; the step of the model shipped when the
    card says (``selected``: a run finished from its best evaluated checkpoint stops short of its curve)."""
    last = max((float(p["timesteps"]) for p in points), default=None)
    note = f"{len(points)} evaluations" + (f" up to {last:.0f} timesteps" if last is not None else "")
    selected = card.get("selected") if isinstance(card.get("selected"), dict) else {}
    if selected.get("timesteps") is not None:
        rate = selected.get("eval_win_rate")
        note += (f"; the model is the checkpoint at {selected['timesteps']} timesteps (dotted line)"
                 + (f", its best evaluation (win rate {rate:.2f})" if isinstance(rate, (int, float)) else ""))
    elif (steps := card.get("timesteps") or card.get("total_timesteps")) and (last is None or float(steps) != last):
        note += f"; the model: {steps} timesteps"
    return note


@dataclass
class GameMedia:
    """What the report shows of one pairing's first game: its records folder link, its GIF (with a
    caption), and its replay page on the board's viewer (relative links)."""

    records: Html
    picture: Html = Html("")
    replay: Html = Html("")
    caption: str = ""


def pairing_media(
    result: TournamentResult, folder: Path, *, gifs: bool = True, gif_limit: int | None = None,
    replays: bool = True, featured: Collection[tuple[str, str]] | None = None,
) -> dict[tuple[str, str], GameMedia]:
    """Per pairing played with records: a link to its records folder (relative to ``folder``), a GIF of
    its first game (:func:`evaluation.frames.game_gif`: the turn, the result and the sides' colours on
    every frame) and that game's replay page (``folder/replays/<pairing>.html``,
    :func:`evaluation.replay_page.replay_page`), which the GIF links to. GIFs and replays for the first
    ``gif_limit`` pairings only (None: all; ``gifs=False``: none). A game that cannot be pictured gets a
    one-line note instead; ``featured``: only these pairings (None: every one). Empty without records."""
    if not result.records_dir:
        return {}
    from evaluation.frames import game_gif
    from evaluation.replay_page import replay_page, write_viewer

    records = Path(result.records_dir)
    first: dict[tuple[str, str], Any] = {}
    for o in result.outcomes:
        if o.record is not None and (o.agents not in first or o.index < first[o.agents].index):
            first[o.agents] = o
    out: dict[tuple[str, str], GameMedia] = {}
    viewer = None
    a, b = result.player_names
    for count, t in enumerate(result.tallies):
        o = first.get(t.agents)
        if o is None:
            continue
        record = records / o.record
        folder_link = html.escape(_relative(record.parent, folder) + "/", quote=True)
        media = GameMedia(Html(f'<a href="{folder_link}">{t.games} records</a>'))
        media.caption = f"{a}: {t.agents[0]} vs {b}: {t.agents[1]}, game {o.index}: {_outcome_words(o, result.player_names)}"
        out[t.agents] = media
        if not gifs or (gif_limit is not None and count >= gif_limit) or (featured is not None and t.agents not in featured):
            continue
        href = None
        if replays:
            if viewer is None:
                viewer = write_viewer(folder)
            page = folder / "replays" / f"{t.agents[0]}__vs__{t.agents[1]}.html".replace("/", "_").replace(":", "-")
            try:
                replay_page(record, page, viewer)
            except (ValueError, OSError) as exc:  # a record that does not replay
                media.replay = Html(html.escape(f"no replay: {exc}"))
            else:
                href = html.escape(_relative(page, folder), quote=True)
                media.replay = Html(f'<a class="replay" href="{href}">Replay on the board</a>')
        try:
            gif = game_gif(record)
        except (ValueError, NotImplementedError, OSError) as exc:  # ReplayError is a ValueError
            media.picture = Html(html.escape(f"no picture: {exc}"))
        else:
            image = _img(gif, media.caption, "image/gif", "game")
            media.picture = Html(f'<a href="{href}">{image}</a>' if href else image)
    return out


def _outcome_words(o, names) -> str:
    """``"us wins in 84 decisions"`` for a game's outcome (``names``: the side names)."""
    text = "a draw" if o.winner is None else f"{names[o.winner]} wins"
    return f"{text} in {o.decisions} decisions"


def html_pairing_table(result: TournamentResult, media: dict[tuple[str, str], GameMedia]) -> str:
    """The pairing table, plus a records link and a replay link per pairing when ``media`` has them."""
    header, rows = pairing_table(result)
    if not media:
        return html_table((header, rows))
    replays = any(m.replay for m in media.values())
    header = [*header, "records", *(["first game"] if replays else [])]
    extended = []
    for (agents, tally), row in zip(pairing_rows(result), rows, strict=True):
        missing = Html(NA if tally is None else "-")
        m = media.get(agents)
        extended.append([*row, m.records if m else missing, *([(m.replay or missing) if m else missing] if replays else [])])
    return html_table((header, extended))


def strongest_words(result: TournamentResult) -> str:
    """One sentence: the agents from strongest to weakest by rating, and the side advantage."""
    r = result.ratings
    order = ", then ".join(f"{x.agent} ({x.elo:+.0f} Elo, +/- {x.interval:.0f})" for x in r.ratings)
    a = result.player_names[0]
    return (
        f"Strongest: {order}. Side advantage of {a} (side 0): {r.side_advantage:+.0f} +/- "
        f"{1.96 * r.side_advantage_se:.0f} Elo."
    )


def games_section(result: TournamentResult, media: dict[tuple[str, str], GameMedia]) -> list[str]:
    """The "Games" section: one card per pairing with a GIF (linking its replay), its caption, links."""
    cards = []
    for m in media.values():
        if not m.picture and not m.replay:
            continue
        cards.append(
            '<figure class="game">' + m.picture + f"<figcaption>{html.escape(m.caption)}<br>"
            + " · ".join(x for x in (m.replay, m.records) if x) + "</figcaption></figure>"
        )
    if not cards:
        return []
    return [
        '<h2 id="games">Games</h2>',
        "<p>The first game of each pairing shown: click a picture to replay it on the board (move list, step"
        " back and forward, each side's view or the umpire's).</p>",
        '<div class="games">' + "".join(cards) + "</div>",
    ]


def html_report(
    result: TournamentResult, folder: str | Path | None = None, *, gifs: bool = True,
    gif_limit: int | None = None, featured: Collection[tuple[str, str]] | None = None,
) -> str:
    """The report as one HTML page (tables, figures and GIFs as data: URIs), the answer first: who is
    strongest, the win-rate heatmap, the ratings, the learning curves, then the games (GIFs linking
    their replay pages) and the detailed tables. With ``folder`` (where the page will be written) and
    records, each pairing links to its records and its first game's replay (:func:`pairing_media`)."""
    from evaluation import plots

    a, b = result.player_names
    title = _title(result)
    media = {} if folder is None else pairing_media(result, Path(folder), gifs=gifs, gif_limit=gif_limit,
                                                    featured=featured)
    matrix = plots.win_rate_matrix(result.agents, result.tallies, result.player_names, result.sides)
    sections = training_sections(result)
    nav = [("heatmap", "Who beats whom"), ("ratings", "Ratings")]
    if sections:
        nav.append(("curves", "Learning curves"))
    if any(m.picture or m.replay for m in media.values()):
        nav.append(("games", "Games"))
    nav.append(("tables", "Every pairing"))
    body = [
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="answer">{html.escape(strongest_words(result))}</p>',
        "<nav>" + " · ".join(f'<a href="#{k}">{html.escape(t)}</a>' for k, t in nav) + "</nav>",
        '<h2 id="heatmap">Who beats whom</h2>',
        f"<p>Row: the agent playing {html.escape(a)} (side 0); column: the agent playing {html.escape(b)} "
        f"(side 1); colour and number: {html.escape(a)}'s win rate with its Wilson 95% interval.</p>",
        _img(matrix, "win-rate matrix"),
        '<h2 id="ratings">Ratings</h2>',
        html_table(ratings_table(result)),
        _img(plots.ratings_chart(result.ratings), "ratings"),
        f"<p>{html.escape(ratings_note(result))}</p>",
    ]
    if sections:
        body.append('<h2 id="curves">Learning curves</h2>')
        for heading, png, note in sections:
            body.append(f"<h3>{html.escape(heading)}</h3>")
            if png is not None:
                body.append(_img(png, f"training curve of {heading}"))
                body.append(f"<p>{html.escape(note)}</p>")
            else:
                body.append(f'<p class="note">{html.escape(note)}</p>')
    body += games_section(result, media)
    body += [
        f'<h2 id="tables">Every pairing (side 0 = {html.escape(a)}, side 1 = {html.escape(b)})</h2>',
        "<p>Win rates with Wilson 95% intervals; n/a: an agent cannot play that side.</p>",
        html_pairing_table(result, media),
        *_html_endings(result),
        "<h2>Each agent on each side</h2>",
        html_table(agent_side_table(result)),
        f'<p class="note">{html.escape(_summary(result))}</p>',
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _html_endings(result: TournamentResult) -> list[str]:
    table = endings_table(result)
    return [] if table is None else ["<h2>How the games ended</h2>", html_table(table)]


def write_report(
    result: TournamentResult, out_dir: str | Path, *, with_html: bool = True, gifs: bool = True,
    gif_limit: int | None = None, featured: Collection[tuple[str, str]] | None = None,
) -> dict[str, Path]:
    """Write the report files into ``out_dir`` (created); returns {"json", "csv", "md"[, "html"]: path}.

    ``with_html=False`` skips the HTML page (and matplotlib); ``gifs``/``gif_limit``/``featured``: the
    pairings' game GIFs and replays (:func:`pairing_media`). Raises :class:`OutputError` if a file
    cannot be written.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError.from_os_error(out, exc) from None
    paths = {
        "json": write_json(result, out / "results.json"),
        "csv": write_csv(result, out / "results.csv"),
        "md": _write(out / "report.md", markdown_report(result)),
    }
    if with_html:
        paths["html"] = _write(out / "report.html", html_report(result, out, gifs=gifs, gif_limit=gif_limit, featured=featured))
    return paths
