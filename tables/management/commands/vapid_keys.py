"""A new VAPID key pair for the push notifications ("your table is ready", docs/admin/notifications.md),
printed as the lines to add to .env:

    docker compose run --rm --no-deps web python manage.py vapid_keys >> .env

A new pair makes every phone's subscription useless (the players turn notifications on again)."""
from django.core.management.base import BaseCommand, CommandError

from tables.push.keys import generate


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as VAPID_PUBLIC_KEY=... and VAPID_PRIVATE_KEY=... lines."

    def add_arguments(self, parser):
        parser.add_argument("--subject", default="",
                            help="also print VAPID_SUBJECT (mailto:you@club.it or an https:// address)")

    def handle(self, *args, subject="", **options):
        if subject and not subject.startswith(("mailto:", "https://")):
            raise CommandError("--subject must be mailto:<address> or an https:// address", returncode=2)
        public, private = generate()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        if subject:
            self.stdout.write(f"VAPID_SUBJECT={subject}")
