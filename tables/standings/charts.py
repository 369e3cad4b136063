"""A player's rank after each round as a small inline SVG, drawn on the server (no script)."""
from django.utils.html import escape
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD_X, PAD_TOP, PAD_BOTTOM = 320, 170, 36, 18, 30


def rank_chart_svg(history, players):
    """`history`: [(round number, rank)]; `players`: how many are ranked (the bottom of the scale).
    Rank 1 is at the top. Presentation attributes only: the page's policy allows no inline style."""
    if not history:
        return ""
    worst = max(players, max(rank for _n, rank in history), 2)
    inner_w, inner_h = WIDTH - 2 * PAD_X, HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / max(len(history) - 1, 1)

    def y(rank):
        return PAD_TOP + (rank - 1) * inner_h / (worst - 1)

    points = [(PAD_X + (i * step if len(history) > 1 else inner_w / 2), y(rank))
              for i, (_n, rank) in enumerate(history)]
    words = ", ".join(_("round %(n)s: %(rank)s°") % {"n": n, "rank": rank} for n, rank in history)
    title = _("Rank after each round") + f" ({words})"
    parts = [f'<svg class="rank-chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
             f'aria-labelledby="rank-chart-title" data-rank-chart>',
             f'<title id="rank-chart-title">{escape(title)}</title>',
             f'<line x1="{PAD_X}" y1="{PAD_TOP}" x2="{WIDTH - PAD_X}" y2="{PAD_TOP}" stroke="#c9ced6" />',
             f'<line x1="{PAD_X}" y1="{PAD_TOP + inner_h}" x2="{WIDTH - PAD_X}" y2="{PAD_TOP + inner_h}" '
             f'stroke="#c9ced6" />',
             f'<text x="{PAD_X - 6}" y="{PAD_TOP + 5}" text-anchor="end" font-size="13" fill="#333">1°</text>',
             f'<text x="{PAD_X - 6}" y="{PAD_TOP + inner_h + 5}" text-anchor="end" font-size="13" '
             f'fill="#333">{worst}°</text>']
    if len(points) > 1:
        path = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#0b5394" stroke-width="3" />')
    for (x, yy), (n, rank) in zip(points, history):
        parts.append(f'<circle cx="{x:.1f}" cy="{yy:.1f}" r="5" fill="#0b5394" data-round="{n}" data-rank="{rank}" />')
        parts.append(f'<text x="{x:.1f}" y="{yy - 9:.1f}" text-anchor="middle" font-size="13" fill="#111">'
                     f'{rank}°</text>')
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - 8}" text-anchor="middle" font-size="13" fill="#333">'
                     f'{escape(_("R%(n)s") % {"n": n})}</text>')
    parts.append("</svg>")
    return "".join(parts)
