"""Play a whole tournament of each format with random results: phases, knockout, Como, 2vs2 teams.

Everything goes through the services (so the audit log, the standings and the pages are those of a
real tournament); the round clock is started for every round and, to show the end roll, moved back
by its length before the tables roll. Same --seed, same tournaments.
"""
import datetime
import random
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from phases import draw
from phases import selectors as phase_selectors
from phases import services as phase_services
from scoring.endroll import end_roll
from tables.clock import services as clock
from tables.results import services as table_results
from tables.rounds import services as table_services
from tables.models import Round
from tables.standings import selectors as standings
from tournaments import services
from tournaments.teams import services as teams
from tournaments.management.commands.load_demo import DEMO_PASSWORD, PLAYERS
from tournaments.models import Club, Phase, TeamMatch, Tournament
from tournaments.accounts.services import grant_organiser

# preset -> (players, format options, tournament settings)
DEMOS = {
    "sum3": (16, {"discards": 1}, {"formula": "conversione150"}),
    "sum3_final": (16, {}, {"formula": "standard"}),
    "semis16": (24, {}, {}),
    "evenings_final": (20, {"games": 5, "discards": 1, "finalina": True}, {"formula": "spartaco"}),
    "championship": (12, {"games": 8, "discards": 2, "final": True}, {"formula": "faentino"}),
    "knockout": (64, {}, {"table_size": 4}),
    "knockout_second_chance": (37, {}, {"table_size": 4}),
    "como": (14, {}, {}),
    "teams_2vs2": (12, {}, {}),
}
END_ROLL = {"como": "lariana", "knockout": "firenze", "knockout_second_chance": "firenze", "sum3": "or_less"}


class Command(BaseCommand):
    help = "Play a whole tournament of each format with random results (demo data)."

    def add_arguments(self, parser):
        parser.add_argument("--format", action="append", dest="formats", choices=sorted(DEMOS),
                            help="Only this format (repeatable). Default: every format.")
        parser.add_argument("--seed", type=int, default=2026, help="Random seed (default 2026).")

    def handle(self, *args, formats=None, seed=2026, **options):
        self.rng = random.Random(seed)
        self.organiser, self.arbiter = self._users()
        for preset in formats or list(DEMOS):
            name = f"Demo · {dict(Tournament._meta.get_field('format_preset').flatchoices)[preset]}"
            if Tournament.objects.filter(name=name).exists():
                self.stdout.write(f"{name}: already there (delete it to play it again)")
                continue
            tournament = self._tournament(name, preset)
            if preset == "teams_2vs2":
                self._play_teams(tournament)
            else:
                self._play_phases(tournament, preset)
        self.stdout.write(self.style.SUCCESS(f"Done. Logins: organizzatore / arbitro, password {DEMO_PASSWORD}"))

    # --- setting up ------------------------------------------------------------------------------

    def _users(self):
        User = get_user_model()
        organiser, created = User.objects.get_or_create(username="organizzatore",
                                                        defaults={"first_name": "Olga"})
        if created:
            organiser.set_password(DEMO_PASSWORD)
            organiser.save()
        grant_organiser(organiser)
        arbiter, created = User.objects.get_or_create(username="arbitro", defaults={"first_name": "Arturo"})
        if created:
            arbiter.set_password(DEMO_PASSWORD)
            arbiter.save()
        return organiser, arbiter

    @transaction.atomic
    def _tournament(self, name, preset):
        count, options, settings = DEMOS[preset]
        user = self.organiser
        club = Club.objects.filter(name="Demo Formati").first() or \
            services.club_save(user=user, data={"name": "Demo Formati", "city": "Como"})
        tournament = services.tournament_save(user=user, data={
            "name": name, "start_date": datetime.date.today(), "venue": "Circolo demo", "club": club,
            "published": True, "table_size": 4, "tiebreak": "best_results,wins", **settings})
        services.tournament_set_arbiters(user=user, tournament=tournament, arbiters=[self.arbiter])
        for i in range(count):
            first, last, nick = PLAYERS[i % len(PLAYERS)]
            last = f"{last} {i // len(PLAYERS) + 1}" if i >= len(PLAYERS) else last
            player = services.player_find_duplicate(first_name=first, last_name=last, club=club) or \
                services.player_save(user=user, data={"first_name": first, "last_name": last, "nickname": nick,
                                                      "club": club})
            reg = services.registration_add(user=user, tournament=tournament, player=player, fee_paid=True)
            services.registration_check_in(user=user, registration=reg, present=True)
        phase_services.format_apply(user=user, tournament=tournament, preset=preset, **options)
        phase_services.end_roll_variant_set(user=user, tournament=tournament, variant=END_ROLL.get(preset, "standard"))
        tournament.refresh_from_db()
        return tournament

    # --- tournaments with phases -----------------------------------------------------------------

    def _play_phases(self, tournament, preset):
        while True:
            views = phase_selectors.phases_overview(tournament)
            todo = next((v for v in views if v.status != "done" and v.phase.kind != Phase.Kind.FINALINA), None)
            if todo is None:
                break
            if preset == "como":
                self._como_attendance(tournament)
            plan = self.rng.randrange(2) if todo.phase.kind == Phase.Kind.SEMIFINAL else 0
            rnd = todo.current or draw.phase_draw(user=self.organiser, phase=todo.phase, plan_choice=plan,
                                                     seed=self.rng.randrange(1_000_000))
            self._play_round(tournament, rnd)
        result = standings.final_standings(tournament)
        podium = ", ".join(f"{r.position}. {r.registration.player.full_name}" for r in result.rows[:3])
        self.stdout.write(f"{tournament.name}: {tournament.rounds.count()} rounds, "
                          f"{len(result.rows)} players; {podium}")

    def _como_attendance(self, tournament):
        """Como evenings: not everyone comes every Tuesday (seed 000 rule 2)."""
        regs = list(tournament.registrations.all())
        for reg in regs:
            present = self.rng.random() > 0.15
            if reg.present != present:
                services.registration_check_in(user=self.organiser, registration=reg, present=present)
        if sum(1 for r in tournament.registrations.filter(present=True)) < 6:
            for reg in regs:
                services.registration_check_in(user=self.organiser, registration=reg, present=True)

    def _play_round(self, tournament, rnd):
        if rnd.status == Round.Status.DRAFT:
            rnd = table_services.round_publish(user=self.organiser, rnd=rnd)
        # Demo only: time passes at once, so that the tables play their end roll.
        clock.clock_start(user=self.organiser, rnd=rnd, minutes=rnd.clock_minutes,
                          started_at=timezone.now() - datetime.timedelta(minutes=rnd.clock_minutes + 1))
        for table in rnd.tables.order_by("number"):
            seats = list(table.seats.select_related("registration").order_by("position"))
            if self.rng.random() < 0.5:
                self._end_roll(tournament, table, seats)
            table_results.table_result_submit(user=self.arbiter, table=table, version=table.version,
                                               lines=self._random_result(seats))
        table_services.round_close(user=self.organiser, rnd=rnd)

    def _end_roll(self, tournament, table, seats):
        by_arbiter = end_roll(tournament.end_roll_variant, 1).by_arbiter
        for turn in range(60):
            seat = seats[(len(seats) - 1 + turn) % len(seats)]
            if by_arbiter:
                entry = clock.end_roll_record(user=self.arbiter, table=table, roll=self.rng.randint(1, 6))
            else:
                entry = clock.end_roll_record(user=self.arbiter, table=table, registration=seat.registration,
                                              roll=self.rng.randint(1, 6) + self.rng.randint(1, 6),
                                              skipped=self.rng.random() < 0.1)
            if entry.ends_game:
                return

    def _random_result(self, seats):
        """A valid table: distinct table points (so knockout tables have one winner), sometimes an
        eliminated player, sometimes a RisiKo!."""
        n = len(seats)
        order = list(range(n))
        self.rng.shuffle(order)
        points = self.rng.sample(range(8, 96), n)
        lines = []
        risiko = order[0] if self.rng.random() < 0.12 else None
        eliminated = order[-1] if self.rng.random() < 0.25 else None
        for i, seat in enumerate(seats):
            tp = Decimal(points[i])
            if i == eliminated:
                tp = Decimal(0)
            lines.append(table_results.ResultLine(seat_id=seat.pk, table_points=tp, risiko=i == risiko,
                                                   eliminated=1 if i == eliminated else None))
        return lines

    # --- 2vs2 teams ------------------------------------------------------------------------------

    def _play_teams(self, tournament):
        regs = list(tournament.registrations.select_related("player").order_by("pk"))
        sizes = [3, 3, 2, 2, 2]
        start = 0
        for i, size in enumerate(sizes):
            members = regs[start:start + size]
            start += size
            teams.team_create(user=self.organiser, tournament=tournament, name=f"Squadra {'ABCDE'[i]}",
                              registrations=members, captain=members[0])
        teams.schedule_create(user=self.organiser, tournament=tournament)
        for match in tournament.team_matches.select_related("home", "away").order_by("round", "pk"):
            for team, lineup in ((match.home, match.home_lineup), (match.away, match.away_lineup)):
                if lineup.count() != 2:
                    members = [m.registration for m in team.members.select_related("registration__player")]
                    teams.lineup_set(user=self.arbiter, match=match, team=team,
                                     registrations=self.rng.sample(members, 2))
            self._team_result(match)
        rows = standings.team_standings(tournament)
        table = ", ".join(f"{r.rank}. {r.team.name} {r.points}" for r in rows)
        self.stdout.write(f"{tournament.name}: {tournament.team_matches.count()} matches; {table}")

    def _team_result(self, match):
        ending = self.rng.choices(["time", "wipeout", "risiko", "forfeit"], weights=[60, 20, 10, 10])[0]
        home = self.rng.randint(12, 30)
        away = 42 - home - self.rng.randint(0, 4)
        territories = (home, away) if ending != "wipeout" else (42, 0)
        best = tuple(self.rng.randint((t + 1) // 2, t) for t in territories)
        points = tuple(Decimal(self.rng.randint(0, 3 * t)) for t in territories)
        decided = None if ending == "time" else self.rng.choice([match.home, match.away])
        if ending == "wipeout":
            territories, best = ((42, 0), (21, 0)) if decided == match.home else ((0, 42), (0, 21))
        teams.match_result_submit(user=self.arbiter, match=TeamMatch.objects.get(pk=match.pk), ending=ending,
                                  decided_by=decided, territories=territories, best=best,
                                  territory_points=points, version=0)
