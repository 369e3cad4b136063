"""`manage.py play_demo_formats`: whole tournaments of each format, played with random results."""
from io import StringIO

import pytest
from django.core.management import call_command

from tables.standings import selectors as standings_selectors
from tournaments.models import Tournament


def _run(*names, seed=7):
    out = StringIO()
    call_command("play_demo_formats", *[f"--format={n}" for n in names], f"--seed={seed}", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_demo_plays_every_phase_of_a_multi_phase_tournament():
    output = _run("evenings_final", "knockout_second_chance")
    for name in ("Demo · 4-6 games with discards + final (+ finalina)", "Demo · Knockout with second chance"):
        tournament = Tournament.objects.get(name=name)
        result = standings_selectors.final_standings(tournament)
        assert result.complete is True
        assert [r.position for r in result.rows[:4]] == [1, 2, 3, 4]
        assert result.rows[0].phase == "final"
        assert name in output
    evenings = Tournament.objects.get(name="Demo · 4-6 games with discards + final (+ finalina)")
    assert [r.phase for r in standings_selectors.final_standings(evenings).rows[4:8]] == ["finalina"] * 4
    assert evenings.rounds.filter(tables__end_rolls__isnull=False).exists()


@pytest.mark.django_db
def test_demo_plays_como_and_teams_and_is_not_played_twice():
    _run("como", "teams_2vs2")
    como = Tournament.objects.get(format_preset="como")
    assert (como.rounds.count(), como.best_of, como.como_reference) == (4, 3, 5)
    team_tournament = Tournament.objects.get(format_preset="teams_2vs2")
    assert team_tournament.team_matches.filter(reported_at__isnull=True).count() == 0
    assert [r.played for r in standings_selectors.team_standings(team_tournament)] == [4] * 5
    assert "already there" in _run("como")
    assert Tournament.objects.filter(format_preset="como").count() == 1
