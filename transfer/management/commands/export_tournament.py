"""Write a tournament and everything that belongs to it as JSON on standard output."""
from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from transfer.export import tournament_export_json
from transfer.owned import TransferError


class Command(BaseCommand):
    help = "Export a tournament as JSON (python manage.py export_tournament 3 > torneo-3.json)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)

    def handle(self, *args, tournament_id, **options):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"no tournament {tournament_id}", returncode=2)
        try:
            text = tournament_export_json(tournament=tournament)
        except TransferError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(text)
