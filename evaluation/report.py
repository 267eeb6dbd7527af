"""Tournament reports: ``results.json``, ``results.csv``, ``report.md`` and a self-contained ``report.html``.

>>> paths = write_report(result, "reports/strike_force_one")   # doctest: +SKIP
>>> print(markdown_report(result))                              # doctest: +SKIP

* ``results.json``: everything (:meth:`TournamentResult.to_dict`): game, options,
  specs, seeds and the seeding rule, per-pairing and per-agent-side tallies,
  ratings, agent cards, timing, and every game.
* ``results.csv``: one row per ordered pairing: both sides' wins/draws/losses,
  win rates with Wilson 95 % bounds, mean VP (games that count VP) and mean score entries.
* ``report.md``: the Markdown tables (:func:`markdown_report`): pairings with both
  sides, each agent on each side, ratings.
* ``report.html``: the same tables plus figures embedded as base64 PNG (no external
  file, script or style sheet): the side-0 win-rate matrix, the ratings with error
  bars, and the training curve of every PPO agent whose model card has one (a note
  where an agent has no card or no curve).
"""

from __future__ import annotations

import base64
import csv
import html
import json
from pathlib import Path
from typing import Any

from evaluation.stats import wilson_interval
from evaluation.tournament import TournamentResult

Table = tuple[list[str], list[list[str]]]  # header, rows (cells as text)


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


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def pairing_table(result: TournamentResult) -> Table:
    """One row per ordered pairing: both sides' W/D/L and win rates, VP or score means, cost."""
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
    for t in result.tallies:
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


def agent_side_table(result: TournamentResult) -> Table:
    """One row per agent and side, over every opponent it met there."""
    names = result.player_names
    has_vp = any(t.vp_mean is not None for t in result.agent_tallies)
    header = ["agent", "side", "games", "W/D/L", "win rate [95% CI]", "score (draw = 1/2) [95% CI]"]
    if has_vp:
        header += ["own VP mean", "opponent VP mean"]
    rows = []
    for t in result.agent_tallies:
        r = t.record
        if r.games == 0:  # an agent that plays one side only
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
        rows.append(row)
    return header, rows


def ratings_table(result: TournamentResult) -> Table:
    """Rank, agent, rating (Elo), 95 % half-width, games and points (wins + draws / 2)."""
    header = ["rank", "agent", "rating (Elo)", "+/- 95%", "games", "points"]
    rows = [
        [str(i), r.agent, f"{r.elo:.0f}", f"{r.interval:.0f}", str(r.games), f"{r.points:g}"]
        for i, r in enumerate(result.ratings.ratings, start=1)
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
    right = {"games", "decisions/game", "ms/game", "rank", "rating (Elo)", "+/- 95%", "points"}
    lines = ["| " + " | ".join(_md_cell(h) for h in header) + " |"]
    lines.append("|" + "|".join("---:" if h in right else "---" for h in header) + "|")
    for row in rows:
        lines.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
    return lines


def _title(result: TournamentResult) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    return f"Tournament: {result.game}" + (f" ({opts})" if opts else "")


def _summary(result: TournamentResult) -> str:
    d = result.to_dict(games=False)["timing"]
    text = (
        f"Agents: {', '.join(result.agents)}. {result.games_per_pairing} games per ordered pairing "
        f"({len(result.pairings)} pairings{', mirror pairings included' if result.mirror else ''}), "
        f"{result.total_games} games, seed {result.seed}, {result.workers} worker(s): "
        f"{d['wall_seconds']:.1f} s wall, {d['ms_per_game']:.1f} ms per game, "
        f"{d['decisions']} decisions. Started {result.started}."
    )
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


def write_csv(result: TournamentResult, path: str | Path) -> Path:
    rows = csv_rows(result)
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["game"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def write_json(result: TournamentResult, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(result.to_dict(), indent=1, default=str) + "\n", encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- html
_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; }
p.note { color: #555; font-style: italic; }
"""


def html_table(table: Table) -> str:
    header, rows = table
    numeric = {"games", "decisions/game", "ms/game", "rank", "rating (Elo)", "+/- 95%", "points"}
    out = ["<table>", "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"]
    for row in rows:
        cells = "".join(
            f'<td class="num">{html.escape(c)}</td>' if h in numeric else f"<td>{html.escape(c)}</td>"
            for h, c in zip(header, row, strict=True)
        )
        out.append(f"<tr>{cells}</tr>")
    out.append("</table>")
    return "\n".join(out)


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _agent_kind(name: str) -> str:
    return name.partition(":")[0]


def training_sections(result: TournamentResult) -> list[tuple[str, bytes | None, str]]:
    """(title, PNG or None, note) for every agent with a model card or of kind ``ppo``."""
    from evaluation import plots

    out: list[tuple[str, bytes | None, str]] = []
    for agent in result.agents:
        cards = result.cards.get(agent, {})
        if not cards and _agent_kind(agent) != "ppo":
            continue
        for side in result.player_names:
            card = cards.get(side)
            title = f"{agent} playing {side}"
            if not card:
                out.append((title, None, "no model card beside the model: training curve skipped"))
                continue
            curve = card.get("curve")
            if not curve:
                out.append((title, None, "the model card has no training curve: plot skipped"))
                continue
            try:
                png = plots.training_curve(curve, f"training curve: {title}", side)
            except (KeyError, TypeError, ValueError) as exc:
                out.append((title, None, f"the card's curve cannot be plotted ({exc!r}): skipped"))
                continue
            steps = card.get("timesteps") or card.get("total_timesteps")
            points = plots.curve_points(curve, side)
            note = f"{len(points)} evaluations" + (f", {steps} timesteps in all" if steps else "")
            out.append((title, png, note))
    return out


def html_report(result: TournamentResult) -> str:
    """The report as one self-contained HTML page (tables, and figures as data: URIs)."""
    from evaluation import plots

    a, b = result.player_names
    title = _title(result)
    body = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(_summary(result))}</p>",
        f"<h2>Pairings (side 0 = {html.escape(a)}, side 1 = {html.escape(b)})</h2>",
        "<p>Win rates with Wilson 95% intervals.</p>",
        html_table(pairing_table(result)),
        _img(plots.win_rate_matrix(result.agents, result.tallies, result.player_names), "win-rate matrix"),
        "<h2>Each agent on each side</h2>",
        html_table(agent_side_table(result)),
        "<h2>Ratings</h2>",
        html_table(ratings_table(result)),
        f"<p>{html.escape(ratings_note(result))}</p>",
        _img(plots.ratings_chart(result.ratings), "ratings"),
    ]
    sections = training_sections(result)
    if sections:
        body.append("<h2>Training curves</h2>")
        for heading, png, note in sections:
            body.append(f"<h3>{html.escape(heading)}</h3>")
            if png is not None:
                body.append(_img(png, f"training curve of {heading}"))
                body.append(f"<p>{html.escape(note)}</p>")
            else:
                body.append(f'<p class="note">{html.escape(note)}</p>')
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def write_report(result: TournamentResult, out_dir: str | Path, *, with_html: bool = True) -> dict[str, Path]:
    """Write the report files into ``out_dir`` (created); returns {"json", "csv", "md"[, "html"]: path}.

    ``with_html=False`` skips the HTML page (and matplotlib).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": write_json(result, out / "results.json"),
        "csv": write_csv(result, out / "results.csv"),
    }
    md = out / "report.md"
    md.write_text(markdown_report(result), encoding="utf-8")
    paths["md"] = md
    if with_html:
        page = out / "report.html"
        page.write_text(html_report(result), encoding="utf-8")
        paths["html"] = page
    return paths
