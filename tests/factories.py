import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Player, Registration, Tournament
from tournaments.roles import grant_organiser


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests-123")


class OrganiserFactory(UserFactory):
    @factory.post_generation
    def organiser_role(obj, create, extracted, **kwargs):
        grant_organiser(obj)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    city = "Como"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"Nome{n}")
    last_name = factory.Sequence(lambda n: f"Cognome{n}")
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Torneo {n}")
    start_date = datetime.date(2026, 11, 24)
    organiser = factory.SubFactory(OrganiserFactory)
    published = True


class RegistrationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Registration

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
