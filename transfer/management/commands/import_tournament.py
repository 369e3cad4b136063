"""Restore a tournament written by export_tournament into a database that does not hold it."""
import json
import os
import sys

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, transaction

from transfer.load import tournament_import
from transfer.owned import TransferError


def _one_line(exc):
    text = " ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
    return " ".join(text.split()) or type(exc).__name__


class Command(BaseCommand):
    help = ("Import a tournament exported with export_tournament (a path, or - for standard input). "
            "All or nothing: on any error nothing is written and the exit code is 2. The tournament's log "
            "records the import (the file, what was created, and the --user who made it).")

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--user", default="", help="the account recorded in the log as the importer")

    def handle(self, *args, path, user="", **options):
        importer = None
        if user:
            User = get_user_model()
            importer = User._base_manager.filter(**{User.USERNAME_FIELD: user}).first()
            if importer is None:
                raise CommandError(f"--user {user}: no such account", returncode=2)
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {_one_line(exc)}", returncode=2) from None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise CommandError(f"{path} is not valid JSON: {_one_line(exc)}", returncode=2) from None
        try:
            with transaction.atomic():
                tournament = tournament_import(data=data, user=importer,
                                               source="standard input" if path == "-" else os.path.basename(path))
        except TransferError as exc:
            raise CommandError(_one_line(exc), returncode=2) from None
        except (DatabaseError, ValidationError, ValueError, TypeError, OverflowError, RecursionError) as exc:
            # What the checks above let through and the database refused: nothing was written.
            raise CommandError(f"the database refused the file: {_one_line(exc)}", returncode=2) from None
        self.stdout.write(f"Imported tournament {tournament.pk}: {tournament.name}")
