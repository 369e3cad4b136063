"""A tournament whose players were merged or deleted still exports and imports whole."""
from django.contrib.auth import get_user_model

from tests.factories import PlayerFactory, RegistrationFactory
from tests.transfer.test_transfer import _empty_database, _export, _import
from tournaments import services
from tournaments.registration import services as roster
from tournaments.models import Player, Registration


def test_round_trip_with_a_merged_player(tournament, organiser, tmp_path):
    drop = services.player_save(user=organiser, tournament=tournament,
                                data={"first_name": "Pietro", "last_name": "Forli"})
    services.registration_add(user=organiser, tournament=tournament, player=drop)
    keep = PlayerFactory(first_name="Pietro", last_name="Forlì", created_by=organiser)   # created later: a higher pk
    RegistrationFactory(tournament=tournament)
    roster.player_merge(user=organiser, keep=keep, drop=drop)
    path = tmp_path / "t.json"
    path.write_text(_export(tournament), encoding="utf-8")
    _empty_database()
    _import(path)
    assert get_user_model().objects.filter(username="olga").exists()
    names = sorted(r.player.full_name for r in Registration.objects.all())
    assert "Pietro Forlì" in names and "Pietro Forli" not in names
    assert [p.full_name for p in Player.all_players.filter(removed=True)] == ["Pietro Forli"]
