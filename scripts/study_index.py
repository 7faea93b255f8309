"""The study's report index, OUT/report/index.html (docs/reports.md, "The study index"), written by
`study_merge.py summary` from the summary and participants tables it has just made.

One self-contained page: no script, no external resource, no date or path of the machine in it, so that the same
study gives the same bytes. It holds the study's counts, one row per participant (the participants table), the
inputs that failed with the tool's message, and one row per input (kind, participant, session, status, duration,
lost %, anomalies by severity) linking to the page its unit's tool run wrote with `--report`
(OUT/<kind>/<unit>.html, made by scripts/study-run.sh).
"""
import html
import math
import os
import urllib.parse

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2733;margin:24px auto;
max-width:1180px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d5dde6}
p.lead{color:#4a5868;margin:0 0 16px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid #e4e9ef;text-align:left;vertical-align:top}
th{background:#f1f4f8;font-weight:600}td.n,th.n{text-align:right}
.ok{color:#1f7a3a}.failed{color:#b3261e;font-weight:600}.missing{color:#8a6d00}
.counts{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0 0}
.count{border:1px solid #d5dde6;border-radius:6px;padding:8px 14px;min-width:110px}
.count b{display:block;font-size:20px}
td.page{word-break:break-all;min-width:120px}
td.msg{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;white-space:pre-wrap;word-break:break-word}
"""


def _text(value):
    """A cell's text: NA for a missing value, integers without a decimal point."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "NA"
    try:
        import pandas as pd
        if value is pd.NA:
            return "NA"
    except ImportError:
        pass
    if isinstance(value, float):
        return f"{value:.1f}" if abs(value) >= 10 else f"{value:.2f}"
    return str(value)


def _cell(value, numeric=False, css=None):
    classes = " ".join(c for c in ("n" if numeric else None, css) if c)
    attribute = f' class="{classes}"' if classes else ""
    return f"<td{attribute}>{html.escape(_text(value))}</td>"


def _header(names):
    return "<tr>" + "".join(f'<th class="n">{html.escape(label)}</th>' if numeric else f"<th>{html.escape(label)}</th>"
                            for label, numeric in names) + "</tr>"


def page_link(out, row):
    """The unit's report page relative to OUT/report, or None when the unit has none (it failed as a whole, or
    it ran before reports were written)."""
    unit_output = os.path.join(out, str(row["output"]))
    page = unit_output[:-len(".h5")] + ".html" if unit_output.endswith(".h5") else None
    if page is None or not os.path.exists(page):
        return None
    return urllib.parse.quote(os.path.relpath(page, os.path.join(out, "report")).replace(os.sep, "/"))


def write_index(out, summary, participants):
    """Writes OUT/report/index.html (atomically: a temporary beside it, then a rename)."""
    total = len(summary)
    ok = int((summary["status"] == "ok").sum())
    failed = int((summary["status"] == "failed").sum())
    missing = total - ok - failed
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width,initial-scale=1">',
             "<title>BrainBatch study report</title>", f"<style>{STYLE}</style></head><body>",
             "<h1>BrainBatch study report</h1>",
             '<p class="lead">Every input of the study, its status and quality figures, and a link to the page of '
             "the tool run that read it. The numbers are those of <code>study/summary.csv</code> and "
             "<code>study/participants.csv</code>.</p>", '<div class="counts">']
    for label, value in (("inputs", total), ("ok", ok), ("failed", failed), ("not run", missing),
                         ("participants", int(participants["participant"].notna().sum()))):
        parts.append(f'<div class="count"><b>{value}</b>{label}</div>')
    parts.append("</div>")

    parts.append("<h2>Participants</h2><table>")
    columns = [("participant", False), ("inputs", True), ("Brainiac", True), ("InteractLog", True),
               ("BrainTracker", True), ("MYND", True), ("MindAffect", True), ("failed", True), ("sessions", True),
               ("recorded (s)", True), ("lost (%)", True), ("trials", True), ("errors", True), ("warnings", True),
               ("notes", True)]
    parts.append(_header(columns))
    for row in participants.to_dict("records"):
        name = row["participant"] if _text(row["participant"]) != "NA" else "(no participant in the path)"
        cells = [_cell(name)] + [_cell(row[key], numeric=True) for key in (
            "n_inputs", "n_brainiac", "n_interactlog", "n_braintracker", "n_mynd", "n_mindaffect", "n_failed",
            "n_sessions", "recording_s", "lost_pct", "n_trials", "n_errors", "n_warnings", "n_info")]
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</table>")

    bad = summary[summary["status"] != "ok"]
    parts.append(f"<h2>Failed inputs ({len(bad)})</h2>")
    if len(bad):
        parts.append("<table>" + _header([("kind", False), ("input", False), ("status", False), ("message", False)]))
        for row in bad.to_dict("records"):
            parts.append("<tr>" + _cell(row["kind"]) + _cell(row["input"]) + _cell(row["status"], css=row["status"])
                         + f'<td class="msg">{html.escape(_text(row["message"]))}</td></tr>')
        parts.append("</table>")
    else:
        parts.append("<p>None: every input was read.</p>")

    parts.append("<h2>Inputs</h2><table>")
    parts.append(_header([("kind", False), ("input", False), ("participant", False), ("session", False),
                          ("status", False), ("duration (s)", True), ("lost (%)", True), ("errors", True),
                          ("warnings", True), ("notes", True), ("page", False)]))
    for row in summary.to_dict("records"):
        link = page_link(out, row)
        page = f'<td class="page"><a href="{html.escape(link)}">{html.escape(str(row["unit"]))}</a></td>' if link else "<td>—</td>"
        parts.append("<tr>" + _cell(row["kind"]) + _cell(row["input"]) + _cell(row["participant"])
                     + _cell(row["session"]) + _cell(row["status"], css=row["status"])
                     + "".join(_cell(row[key], numeric=True)
                               for key in ("duration_s", "lost_pct", "n_errors", "n_warnings", "n_info"))
                     + page + "</tr>")
    parts.append("</table></body></html>\n")

    folder = os.path.join(out, "report")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "index.html")
    temporary = os.path.join(folder, f".index.html.tmp-{os.getpid()}")
    with open(temporary, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    os.replace(temporary, path)
    return path
