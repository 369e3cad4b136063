"""The organiser's downloads: standings and results as CSV (the whole tournament as JSON is in
`transfer.views`).

CSV cells that a spreadsheet would run as a formula (OWASP "CSV injection": a text starting with
= + - @, a tab or a carriage return) are written with a leading apostrophe, in every CSV export, and
so is such a start after a comma, a semicolon or a tab inside a text: a file opened with the other
format's separator splits the text there ("Mario;=1+1" in the comma file would give a cell "=1+1"; it
is written "Mario;'=1+1"). A text holding a separator of either format is written between quotes.
Two CSV formats: "csv" (comma, decimal point) and "excel-it" (semicolon, decimal comma: what a
spreadsheet set to Italian opens in columns); ?format= chooses, else the page's language does.
"""
import re
from decimal import Decimal

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.numeric import shown_for
from tables.rounds.selectors import tournament_seats
from tables.standings.selectors import standings_lead, tournament_standings
from tournaments.rules import tournament_for_organiser

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
FORMATS = {"csv": {"delimiter": ",", "decimal": "."}, "excel-it": {"delimiter": ";", "decimal": ","}}


# A separator of either format (or a tab) with a formula's start after it: where the other format's
# reading begins a cell.
FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t])(?=[=+\-@\t\r])")


def safe_cell(text):
    """A text cell a spreadsheet shows as text, never runs as a formula, whichever separator it is
    opened with."""
    text = FORMULA_AFTER_SEPARATOR.sub(r"\1'", text)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_format(request):
    chosen = request.GET.get("format", "")
    if chosen in FORMATS:
        return chosen
    return "excel-it" if (get_language() or "").startswith("it") else "csv"


# A cell holding one of these is quoted in either format: the separators of both, and what csv quotes.
QUOTED_WHEN = re.compile(r'[,;\t"\r\n]')


def quoted(cell):
    """The cell as a CSV field: between quotes (quotes doubled) when it holds a separator of either format."""
    cell = str(cell)
    return '"' + cell.replace('"', '""') + '"' if QUOTED_WHEN.search(cell) else cell


class SafeCsvWriter:
    """A CSV writer that escapes formula-like text, quotes a text holding either format's separator and
    writes decimals in the chosen format (lines end with CRLF, as csv.writer's)."""

    def __init__(self, stream, fmt):
        self.decimal = FORMATS[fmt]["decimal"]
        self.delimiter = FORMATS[fmt]["delimiter"]
        self.stream = stream

    def cell(self, value):
        if value is None:
            return ""
        if isinstance(value, str):
            return safe_cell(value)
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, (Decimal, float)):
            return format(value, "f").replace(".", self.decimal)
        return value

    def writerow(self, row):
        """Text quoted when it holds a separator of either format; a number never (its decimal comma
        is no separator of the format that writes it)."""
        self.stream.write(self.delimiter.join(quoted(self.cell(value)) if isinstance(value, str) else
                                              str(self.cell(value)) for value in row) + "\r\n")


def _csv_download(request, filename):
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")  # so that spreadsheet programs read UTF-8
    return response, SafeCsvWriter(response, csv_format(request))


def _phase_label(row):
    if row.final is not None:  # parallel finals (SCORING.md 13.9)
        return _("final %(n)d, %(place)d°") % {"n": row.final, "place": row.place}
    if row.phase == "semifinal":
        return _("qualifying + semifinal")
    return {"final": _("final"), "finalina": _("finalina")}.get(row.phase, _("qualifying"))


@login_required
@require_safe
def standings_csv(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    result = tournament_standings(tournament)
    response, writer = _csv_download(request, f"classifica-{tournament.pk}.csv")
    medals = result.shows_medals
    lead = standings_lead(tournament)
    final = {row.registration.pk: row for row in lead.final_rows} if lead is not None else {}
    rows = result.rows
    if final:
        # SCORING.md section 6: the final order first, then everyone else in qualifying order.
        order = {reg_id: i for i, reg_id in enumerate(final)}
        rows = sorted(rows, key=lambda r: order.get(r.registration_id, len(order)))
    writer.writerow(([_("Final position"), _("Decided by")] if final else [])
                    + [_("Rank"), _("Player"), _("Club"), _("Total"), _("Wins")]
                    + ([_("%(n)s° places") % {"n": n} for n in result.medal_places] if medals else [])
                    + [_("Round %(n)d") % {"n": n} for n in result.round_numbers])
    shown = shown_for(result.decimals)  # 3 decimals under millesimi (SCORING.md 13.4), else 2
    for r in rows:
        decided = final.get(r.registration_id)
        writer.writerow(([decided.position, _phase_label(decided)] if decided else [None, None] if final else [])
                        + [r.rank, r.player.full_name, r.club, shown(r.total), r.wins]
                        + (list(r.medals) if medals else [])
                        + [None if p is None else shown(p) for p in r.rounds])
    return response


@login_required
@require_safe
def results_csv(request, pk):
    tournament = tournament_for_organiser(request.user, pk)
    response, writer = _csv_download(request, f"risultati-{tournament.pk}.csv")
    writer.writerow([_("Round"), _("Table"), _("Seat"), _("Player"), _("Club"), _("Table points"), "RisiKo!",
                     _("Eliminated (order)"), _("Place if tied"), _("Objective territories held")])
    for s in tournament_seats(tournament):
        player = s.registration.player
        writer.writerow([s.table.round.number, s.table.number, s.position, player.full_name,
                         player.club.name if player.club else "", s.table_points,
                         int(s.risiko), s.eliminated or "", s.place or "", "; ".join(s.territories)])
    return response
