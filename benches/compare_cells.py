"""Table cells of benches/compare.py's report: seconds, ratios, peak / X, sizes and rates."""


def fmt_s(s):
    return "—" if s is None else (f"{s:.3g}" if s < 100 else f"{s:.0f}")


def ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:.2f}"


def per_x(t):
    if t is None or t.get("peak_rss_bytes") is None:
        return "—"
    return f"{t['peak_rss_bytes'] / t['input_bytes']:.2f}"


def size_label(rows, cols):
    return f"{rows:,} × {cols}"


def design_label(t):
    """A load task's design: training + test rows, the intercept and the features."""
    return f"{t['rows']:,} × {t['cols']} (train + test, intercept)"


def rate(t, key):
    """`, N MB/s` from a load task's detail (file bytes over its median seconds), if recorded."""
    mb = t and (t.get("load") or {}).get(key)
    return f", {mb:.0f} MB/s" if mb else ""
