"""Load a demo club tournament: 20 players in 5 clubs, an organiser and an arbiter account."""
import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import services
from tournaments.management.demo import load_parts
from tournaments.models import Club, Tournament
from tournaments.accounts.services import grant_organiser

DEMO_PASSWORD = "torneo-demo"
CLUBS = [("RisiKo Club Lariano", "Como"), ("Carri Armati Milano", "Milano"), ("I Maialini", "Modena"),
         ("Tana dei Goblin Verona", "Verona"), ("Spartaco Roma", "Roma")]
PLAYERS = [
    ("Marco", "Rossi", "Il Generale"), ("Giulia", "Bianchi", ""), ("Luca", "Ferrari", "Kamchatka"),
    ("Sara", "Romano", ""), ("Andrea", "Colombo", "Carrarmato"), ("Chiara", "Ricci", ""),
    ("Matteo", "Marino", ""), ("Francesca", "Greco", "Jacuzia"), ("Davide", "Bruno", ""),
    ("Elena", "Gallo", ""), ("Simone", "Conti", "Dado Tre"), ("Valentina", "De Luca", ""),
    ("Alessandro", "Mancini", ""), ("Martina", "Costa", "Ural"), ("Federico", "Giordano", ""),
    ("Alice", "Rizzo", ""), ("Stefano", "Lombardi", "Il Kraken"), ("Laura", "Moretti", ""),
    ("Paolo", "Barbieri", ""), ("Silvia", "Fontana", "Siam"),
]


class Command(BaseCommand):
    help = "Load the demo tournament (idempotent) and print the demo logins."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        organiser, created = User.objects.get_or_create(
            username="organizzatore", defaults={"first_name": "Olga", "last_name": "Organizzatrice"})
        if created:
            organiser.set_password(DEMO_PASSWORD)
            organiser.save()
        grant_organiser(organiser)
        arbiter, created = User.objects.get_or_create(
            username="arbitro", defaults={"first_name": "Arturo", "last_name": "Arbitro"})
        if created:
            arbiter.set_password(DEMO_PASSWORD)
            arbiter.save()
        if not Tournament.objects.filter(name="Torneo del Martedì (demo)").exists():
            clubs = []
            for name, city in CLUBS:
                clubs.append(Club.objects.filter(name=name).first()
                             or services.club_save(user=organiser, data={"name": name, "city": city}))
            tournament = services.tournament_save(user=organiser, data={
                "name": "Torneo del Martedì (demo)", "start_date": datetime.date.today(),
                "venue": "Circolo Arci, Como", "club": clubs[0], "formula": "conversione150",
                "table_size": 4, "rounds_planned": 3, "entry_fee": 5, "published": True, "signup_open": True,
                "tiebreak": "best_results,wins"})
            services.tournament_set_arbiters(user=organiser, tournament=tournament, arbiters=[arbiter])
            for i, (first, last, nick) in enumerate(PLAYERS):
                club = clubs[i % len(clubs)]
                player = services.player_find_duplicate(first_name=first, last_name=last, club=club) or \
                    services.player_save(user=organiser, data={
                        "first_name": first, "last_name": last, "nickname": nick, "club": club, "city": club.city})
                reg = services.registration_add(user=organiser, tournament=tournament, player=player,
                                                fee_paid=i % 3 != 0)
                services.registration_check_in(user=organiser, registration=reg, present=True)
        tournament = Tournament.objects.get(name="Torneo del Martedì (demo)")
        for line in load_parts(organiser=organiser, arbiter=arbiter, tournament=tournament):
            if line:
                self.stdout.write(line)
        self.stdout.write(self.style.SUCCESS("Demo ready. Logins (password for both: %s):" % DEMO_PASSWORD))
        self.stdout.write("  organiser: organizzatore")
        self.stdout.write("  arbiter:   arbitro")
