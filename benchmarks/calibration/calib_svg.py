"""The scatter chart: GPGPU-Sim cycles (x) against ptxsim cycles (y), both on log scales,
with the y = x line and the +-10% band. Hand-written SVG, one circle per run, coloured by
set; each circle's <title> names the run (shown on hover)."""
import math

COLOURS = {"micro": "#d62728", "test": "#1f77b4", "small": "#2ca02c", "variants": "#ff7f0e"}
W, H, L, R, T, B = 640, 560, 70, 20, 40, 60  # size and margins


def _esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def chart(rows, title):
    pts = [r for r in rows if r["ratio"] and r["gs_cycles"] and r["ps_cycles"]]
    if not pts:
        return None
    vals = [r["gs_cycles"] for r in pts] + [r["ps_cycles"] for r in pts]
    lo = 10 ** math.floor(math.log10(min(vals)))
    hi = 10 ** math.ceil(math.log10(max(vals)))
    llo, lhi = math.log10(lo), math.log10(hi)
    pw, ph = W - L - R, H - T - B
    x = lambda v: L + (math.log10(v) - llo) / (lhi - llo) * pw
    y = lambda v: T + ph - (math.log10(v) - llo) / (lhi - llo) * ph
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<rect width="%d" height="%d" fill="white"/>' % (W, H),
         '<text x="%d" y="22" text-anchor="middle" font-size="14">%s</text>' % (W // 2, _esc(title))]
    # +-10% band: between y = 0.9 x and y = 1.1 x, clipped to the plot square.
    band = [(lo, lo * 1.1), (hi / 1.1, hi), (hi, hi), (hi, hi * 0.9), (lo / 0.9, lo), (lo, lo)]
    o.append('<polygon points="%s" fill="#999" fill-opacity="0.18" stroke="none"/>' %
             " ".join("%.1f,%.1f" % (x(a), y(b)) for a, b in band))
    d = 0
    while llo + d <= lhi:
        v = 10 ** (llo + d)
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x(v), T, x(v), T + ph))
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (L, y(v), L + pw, y(v)))
        lab = "1e%d" % round(llo + d)
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x(v), T + ph + 16, lab))
        o.append('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>' %
                 (L - 6, y(v), lab))
        d += 1
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>' % (L, T, pw, ph))
    o.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333" stroke-dasharray="4,3"/>' %
             (x(lo), y(lo), x(hi), y(hi)))
    o.append('<text x="%d" y="%d" text-anchor="middle">GPGPU-Sim 4.2 GTX 480 cycles</text>' %
             (L + pw // 2, H - 18))
    o.append('<text transform="translate(18,%d) rotate(-90)" text-anchor="middle">ptxsim gtx480 cycles</text>' %
             (T + ph // 2))
    for r in pts:
        o.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" fill-opacity="0.75" stroke="#222" '
                 'stroke-width="0.5"><title>%s: GS %d, PS %d, PS/GS %.3f</title></circle>' %
                 (x(r["gs_cycles"]), y(r["ps_cycles"]), COLOURS.get(r["set"], "#777"), _esc(r["id"]),
                  r["gs_cycles"], r["ps_cycles"], r["ratio"]))
    ly = T + 10
    for name, col in COLOURS.items():
        if any(r["set"] == name for r in pts):
            o.append('<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (L + 14, ly, col))
            o.append('<text x="%d" y="%d" dominant-baseline="middle">%s</text>' % (L + 24, ly, name))
            ly += 16
    o.append('<text x="%d" y="%d" dominant-baseline="middle" fill="#555">dashed: y = x; band: +-10%%</text>' %
             (L + 10, ly))
    o.append("</svg>")
    return "\n".join(o) + "\n"
