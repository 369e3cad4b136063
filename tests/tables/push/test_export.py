"""A phone's subscription is the phone's, not the tournament's: a tournament's export carries none
(its push address would let whoever reads the file switch the notifications off)."""
from tables.push.services import subscription_save
from tests.factories import RegistrationFactory
from tests.tables.push.conftest import phone
from transfer.export import tournament_export


def test_an_export_carries_no_phone(vapid, tournament):
    reg = RegistrationFactory(tournament=tournament)
    data = phone(1)
    subscription_save(registration=reg, endpoint=data["endpoint"], p256dh=data["keys"]["p256dh"],
                      auth=data["keys"]["auth"], language="it")
    exported = tournament_export(tournament=tournament)
    models = [section["model"] for section in exported["models"]]
    assert "tournaments.registration" in models and "tables.pushsubscription" not in models
