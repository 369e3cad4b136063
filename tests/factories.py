import datetime

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Player, Registration, Tournament
from tournaments.accounts.services import grant_organiser


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


def seat_round(tournament, tables, number=None, status="published"):
    """A round with the given tables (lists of registrations), already published."""
    from tables.models import Round, Seat, Table
    number = number or (tournament.rounds.count() + 1)
    rnd = Round.objects.create(tournament=tournament, number=number, status=status)
    for t, regs in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=t)
        for pos, reg in enumerate(regs, start=1):
            Seat.objects.create(table=table, registration=reg, position=pos)
    return rnd


def report(table, results, user=None):
    """Save a table result through the service: results = [(tp, eliminated, risiko), ...] in seat order."""
    from tables.results.services import ResultLine, table_result_submit
    seats = list(table.seats.order_by("position"))
    lines = []
    for seat, result in zip(seats, results):
        tp, eliminated, risiko = (tuple(result) + (None, False)[len(result) - 1:])[:3]
        lines.append(ResultLine(seat_id=seat.pk, table_points=tp, eliminated=eliminated, risiko=risiko))
    return table_result_submit(user=user or table.round.tournament.organiser, table=table, lines=lines,
                               version=table.version)
