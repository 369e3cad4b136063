"""Import a club's past results: a workbook (.xlsx, .xls, .ods) or a CSV file as one finished tournament,
or a folder or zip of them as one tournament each (a season), all or nothing."""
import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournaments.club_presets import CLUB_PRESETS
from tournaments.rules import is_organiser
from transfer.workbooks.forms import PastTournamentForm
from transfer.workbooks.model import WorkbookError
from transfer.workbooks.season import date_in_name, name_from_file, season_files
from transfer.workbooks.services import season_import


def _one_line(text):
    return " ".join(str(text).split())


class Command(BaseCommand):
    help = ("Import past results from a workbook (.xlsx, .xls, .ods) or CSV file in a club's layout (one sheet a "
            "round: Tavolo, Giocatore, Club, Punti tavolo, Eliminato, RisiKo, Posto, Penalità) or GestioneTorneo's "
            "(Iscritti and \"Tavolo N°k\" blocks), as one finished tournament; a folder or .zip of them imports "
            "one tournament per file, named and dated from the file names unless --name or --date. All or "
            "nothing: on any error nothing is written, one line on stderr names the file, sheet, row and "
            "column, and the exit code is 2.")

    def add_arguments(self, parser):
        parser.add_argument("path", help="a workbook, a CSV file, a folder or a .zip of them")
        parser.add_argument("--organiser", required=True, help="the organiser's user name: the tournaments are theirs")
        parser.add_argument("--name", default="", help="the tournament's name (default: from the file name)")
        parser.add_argument("--date", default="", help="YYYY-MM-DD (default: the date in the file name)")
        parser.add_argument("--formula", default="", help="the scoring formula (or --preset)")
        parser.add_argument("--preset", default="",
                            help="a club rule (SCORING.md 13.12) whose settings the tournaments take, the formula "
                                 "and como_reference included: " + ", ".join(CLUB_PRESETS))
        parser.add_argument("--published", action="store_true", help="give the tournaments a public page")
        parser.add_argument("--tiebreak", default="best_results",
                            help="comma-separated: best_results, wins, table_points, head_to_head")
        parser.add_argument("--discard-worst", default="0")
        parser.add_argument("--best-of", default="")
        parser.add_argument("--bonus", default="50")
        parser.add_argument("--new-players", action="store_true",
                            help="a name nearly like a known player's (a typo, another club) is a new player; "
                                 "without it such a name is refused at its cell with the suggestion")

    def handle(self, *args, path, organiser, name, date, formula, published, new_players=False, **options):
        User = get_user_model()
        user = User._base_manager.filter(**{User.USERNAME_FIELD: organiser}).first()
        if user is None or not is_organiser(user):
            raise CommandError(f"--organiser {organiser}: no such organiser", returncode=2)
        if options["preset"] and options["preset"] not in CLUB_PRESETS:
            raise CommandError(f"--preset {options['preset']}: no such club rule; choose one of "
                               f"{', '.join(CLUB_PRESETS)}", returncode=2)
        if not formula and not options["preset"]:
            raise CommandError("give --formula or --preset", returncode=2)
        if date:
            try:
                date = datetime.date.fromisoformat(date)
            except ValueError:
                raise CommandError(f"--date {date}: write the date as YYYY-MM-DD", returncode=2) from None
        date = date or None
        try:
            files = season_files(path)
        except WorkbookError as exc:
            raise CommandError(_one_line(exc), returncode=2) from None
        names, dates = {}, {}
        for filename, _data in files:
            names[filename] = (name if len(files) == 1 else f"{name} · {name_from_file(filename)}") if name \
                else name_from_file(filename)
            # One file: --date, else its name's; a season: each file's own date, else --date.
            dates[filename] = (date or date_in_name(filename)) if len(files) == 1 else (date_in_name(filename) or date)
        if len(files) == 1 and dates[files[0][0]] is None:
            raise CommandError(f"{files[0][0]}: no date in the file name: give --date YYYY-MM-DD", returncode=2)
        settings = self._settings(formula, options, next(iter(names.values())),
                                  next((d for d in dates.values() if d), datetime.date.today()))
        skipped = []
        try:
            imported = season_import(user=user, files=files, settings=settings, published=published, names=names,
                                     dates=dates, new_players=new_players, skipped=skipped)
        except WorkbookError as exc:
            raise CommandError(_one_line(exc), returncode=2) from None
        except ValidationError as exc:
            raise CommandError(_one_line(" ".join(exc.messages)), returncode=2) from None
        for filename, reason in skipped:
            self.stdout.write(f"Skipped {filename}: {_one_line(reason)}")
        for done in imported:
            t = done.tournament
            self.stdout.write(f"Imported tournament {t.pk}: {t.name} ({t.start_date}, {t.rounds.count()} rounds, "
                              f"{t.registrations.count()} players, {done.players_created} new)")

    def _settings(self, formula, options, name, date):
        chain = [item.strip() for item in options["tiebreak"].split(",") if item.strip()]
        data = {"name": name, "start_date": date.isoformat(), "formula": formula, "preset": options["preset"],
                "bonus": options["bonus"],
                "spartaco_malus": "14", "discard_worst": options["discard_worst"], "best_of": options["best_of"],
                **{f"tiebreak_{i}": item for i, item in enumerate(chain, start=1)}}
        form = PastTournamentForm(data=data)
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            flag = {"start_date": "date", "tiebreak_1": "tiebreak", "tiebreak_2": "tiebreak", "tiebreak_3": "tiebreak",
                    "tiebreak_4": "tiebreak", "discard_worst": "discard-worst", "best_of": "best-of"}.get(field, field)
            raise CommandError(_one_line(f"--{flag}: {' '.join(errors)}"), returncode=2)
        return form.settings()
