"""Checks a BrainBatch HTML report (`--report`) the way a reader and a browser would meet it.

    check_report.py PAGE [--plots CLASS,CLASS,...] [--readback KIND CSV_FOLDER]

Prints one JSON object: the plots found by class, and for --readback the largest difference between a plot's
data points (read back from the SVG's pixels) and the table they come from. Exits 1 with the reasons when the page
is not well-formed XML, refers to anything outside itself (http/https, script, img, link, url() but #ids), repeats
an id, has an axis without its unit, is not sealed, or lacks a plot class asked for.
"""
import hashlib, json, math, re, sys
import xml.etree.ElementTree as ET

problems = []


def fail(message):
    problems.append(message)


def load(path):
    data = open(path, "rb").read()
    text = data.decode("utf-8")
    # The seal: the last line names the tool and the SHA-256 of every byte before it.
    body, _, last = data.rstrip(b"\n").rpartition(b"\n")
    match = re.fullmatch(rb"<!-- brainbatch-report tool=([a-z-]+) sha256=([0-9a-f]{64}) -->", last)
    if not match:
        fail("no seal line at the end")
    elif hashlib.sha256(body + b"\n").hexdigest().encode() != match.group(2):
        fail("the seal's SHA-256 does not match the page")
    return text


def check_self_contained(text):
    for pattern, what in [(r"https?:", "an http(s) URL"), (r"<script", "a script"), (r"<img", "an image element"),
                          (r"<link", "a link element"), (r"<iframe", "a frame"), (r"\ssrc=", "a src attribute"),
                          (r"@import", "a CSS import"), (r"url\((?!#)", "a url() to something but an id")]:
        if re.search(pattern, text, re.IGNORECASE):
            fail(f"the page holds {what}")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def classes(element):
    return set(element.get("class", "").split())


def check_structure(root):
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        fail(f"repeated ids: {duplicates[:5]}")
    plots = {}
    for svg in root.iter():
        if local(svg.tag) != "svg" or "plot" not in classes(svg):
            continue
        for name in classes(svg) - {"plot"}:
            plots[name] = plots.get(name, 0) + 1
        for attribute in ["data-area", "data-x-domain", "data-y-domain", "data-x-scale", "data-y-scale"]:
            if svg.get(attribute) is None:
                fail(f"plot {svg.get('id')} has no {attribute}")
        categories_y = svg.get("data-y-reversed") == "true" and svg.get("data-y-domain", "").startswith("-0.5")
        for group in svg.iter():
            if local(group.tag) != "g" or not classes(group) & {"x-axis", "y-axis"}:
                continue
            titles = [t for t in group.iter() if local(t.tag) == "text" and "axis-title" in classes(t)]
            title = "".join(titles[0].itertext()) if titles else ""
            needs_unit = "x-axis" in classes(group) or not categories_y
            if needs_unit and not re.search(r"\(.+\)$", title):
                fail(f"plot {svg.get('id')}: axis title {title!r} has no unit")
    return plots


# ---------------------------------------------------------------------------------------------------------------
# Reading data back from a plot

def chart(root, chart_id):
    for svg in root.iter():
        if local(svg.tag) == "svg" and svg.get("id") == chart_id:
            return svg
    raise SystemExit(f"no plot {chart_id}")


class Frame:
    def __init__(self, svg):
        self.area = [float(v) for v in svg.get("data-area").split()]
        self.x = [float(v) for v in svg.get("data-x-domain").split()]
        self.y = [float(v) for v in svg.get("data-y-domain").split()]
        self.xlog = svg.get("data-x-scale") == "log"
        self.ylog = svg.get("data-y-scale") == "log"
        self.xrev = svg.get("data-x-reversed") == "true"
        self.yrev = svg.get("data-y-reversed") == "true"

    @staticmethod
    def invert(t, domain, log):
        if log:
            lo, hi = math.log10(domain[0]), math.log10(domain[1])
            return 10 ** (lo + t * (hi - lo))
        return domain[0] + t * (domain[1] - domain[0])

    def data(self, px, py):
        tx = (px - self.area[0]) / self.area[2]
        ty = (self.area[1] + self.area[3] - py) / self.area[3]
        if self.xrev:
            tx = 1 - tx
        if self.yrev:
            ty = 1 - ty
        return self.invert(tx, self.x, self.xlog), self.invert(ty, self.y, self.ylog)

    def pixel_error(self, axis, value, expected):
        """The difference between a value read back and the expected one, in pixels."""
        domain, log, length = (self.x, self.xlog, self.area[2]) if axis == "x" else (self.y, self.ylog, self.area[3])
        if log:
            span = math.log10(domain[1]) - math.log10(domain[0])
            return abs(math.log10(value) - math.log10(expected)) / span * length
        return abs(value - expected) / (domain[1] - domain[0]) * length


def series(svg, label):
    """The (x, y) pixels of the polylines and points with this data-label, in document order."""
    points = []
    for element in svg.iter():
        if element.get("data-label") != label:
            continue
        name = local(element.tag)
        if name == "polyline":
            points += [tuple(float(v) for v in pair.split(",")) for pair in element.get("points").split()]
        elif name == "circle":
            points.append((float(element.get("cx")), float(element.get("cy"))))
    return points


def compare(svg, label, expected):
    """The largest pixel difference between the plotted series and the expected (x, y) values, in order."""
    frame = Frame(svg)
    got = series(svg, label)
    if len(got) != len(expected):
        fail(f"{svg.get('id')} {label}: {len(got)} points plotted, {len(expected)} in the table")
        return float("inf")
    worst = 0.0
    for (px, py), (ex, ey) in zip(got, expected):
        x, y = frame.data(px, py)
        worst = max(worst, frame.pixel_error("x", x, ex), frame.pixel_error("y", y, ey))
    return worst


def readback(kind, root, folder):
    import numpy as np
    import pandas as pd
    worst = {}
    if kind == "brainiac":
        from scipy.signal import welch
        samples = pd.read_csv(f"{folder}/samples.csv")
        first = samples["source_file"].iloc[0]
        one = samples[samples["source_file"] == first]
        svg = chart(root, "capture-1-psd")
        for channel in ["T3", "O1", "T4", "O2"]:
            f, p = welch(one[f"{channel.lower()}_uv"].to_numpy(), fs=250, nperseg=256)
            worst[f"psd {channel} vs scipy.signal.welch"] = compare(svg, channel, list(zip(f[1:], p[1:])))
        power = pd.read_csv(f"{folder}/band_power.csv")
        rows = power[(power["source_file"] == first) & (power["scope"] == "window") & (power["channel"] == "T3")]
        svg = chart(root, "capture-1-band-power-T3")
        for band, part in rows.groupby("band", sort=False):
            worst[f"band power T3 {band}"] = compare(svg, band, list(zip(part["t_s"] + 5, part["power_uv2"])))
    elif kind == "braintracker":
        sessions = pd.read_csv(f"{folder}/sessions.csv")
        first = sessions["source_file"].iloc[0]
        s = sessions[(sessions["source_file"] == first) & sessions["complete"] & ~sessions["is_warmup"]
                     & sessions["latency_mean_ms"].notna()]
        def seconds(row):
            if isinstance(row["start_utc"], str):
                return pd.Timestamp(row["start_utc"]).timestamp()
            return pd.Timestamp(row["start_local"][:19] + "Z").timestamp()
        expected = [(seconds(row), row["latency_mean_ms"]) for _, row in s.iterrows()]
        worst["latency by date"] = compare(chart(root, "rt-1-latency"), "complete session", expected)
    elif kind == "interactlog":
        strokes = pd.read_csv(f"{folder}/strokes.csv")
        first = strokes["source_file"].iloc[0]
        s = strokes[(strokes["source_file"] == first) & strokes["x_start_coord"].notna() & strokes["x_end_coord"].notna()]
        charts = [e for e in root.iter() if local(e.tag) == "svg" and e.get("id", "").startswith("log-1-replay-")]
        diffs = []
        for _, row in s.iterrows():
            label = f"stroke {row['stroke']}"
            holder = [c for c in charts if series(c, label)]
            if len(holder) != 1:
                fail(f"{label} is in {len(holder)} replay panels")
                continue
            diffs.append(compare(holder[0], label, [(row["x_start_coord"], row["y_start_coord"]),
                                                    (row["x_end_coord"], row["y_end_coord"])]))
        worst["stroke end points"] = max(diffs) if diffs else float("inf")
    elif kind == "mindaffect":
        trials = pd.read_csv(f"{folder}/trials.csv")
        t = trials[trials["cued_target"].notna()]
        worst["cued target per trial"] = compare(chart(root, "savefile-1-targets"), "cued",
                                                 list(zip(t["trial"], t["cued_target"])))
    elif kind == "decode":
        curve = pd.read_csv(f"{folder}/decoding_curve.csv")
        first = curve["source_file"].iloc[0]
        c = curve[curve["source_file"] == first]
        svg = chart(root, "decoded-1-curve")
        worst["error rate"] = compare(svg, "error rate", list(zip(c["length_after_onset_s"], c["error_rate"])))
        worst["estimated error rate"] = compare(svg, "estimated error rate", list(zip(c["length_after_onset_s"], c["error_rate_est"])))
        responses = pd.read_csv(f"{folder}/impulse_response.csv")
        r = responses[(responses["source_file"] == first) & (responses["component"] == 0)]
        svg = chart(root, "decoded-1-responses")
        for event, part in r.groupby("event", sort=False):
            worst[f"impulse response {event}"] = compare(svg, event, list(zip(part["lag_ms"], part["response_uv"])))
    elif kind == "mynd":
        quality = pd.read_csv(f"{folder}/quality.csv")
        svg = chart(root, "recording-1-quality")
        for channel, part in quality.groupby("channel", sort=False):
            worst[f"variance {channel}"] = compare(svg, channel, list(zip(part["t_s"], part["variance_uv2"])))
    else:
        raise SystemExit(f"unknown kind {kind}")
    return worst


def main():
    args = sys.argv[1:]
    page = args.pop(0)
    wanted, kind, folder = [], None, None
    while args:
        option = args.pop(0)
        if option == "--plots":
            wanted = [c for c in args.pop(0).split(",") if c]
        elif option == "--readback":
            kind, folder = args.pop(0), args.pop(0)
    text = load(page)
    check_self_contained(text)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        fail(f"not well-formed XML: {error}")
        root = None
    result = {"plots": {}}
    if root is not None:
        result["plots"] = check_structure(root)
        for name in wanted:
            if name not in result["plots"]:
                fail(f"no plot of class {name}")
        if kind:
            result["readback_px"] = readback(kind, root, folder)
    result["problems"] = problems
    print(json.dumps(result, sort_keys=True))
    sys.exit(1 if problems else 0)


main()
