"""Services of tournament formats: set a format, its end-roll variant, publish a phase's seating.

Each writes with an audit entry in the same transaction."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from phases.preset_data import PRESETS
from phases.presets import TOURNAMENT_FORMAT_FIELDS, check_composed, phase_specs, snapshot
from phases.selectors import phases_overview, present_ids
from tables.rounds import services as table_services
from tables.models import Round, Seat, Table
from tournaments.audit.services import audit
from tournaments.club_presets import club_preset_for
from tournaments.services import tournament_copy, tournament_save
from tournaments.models import END_ROLL_VARIANTS, Phase, Registration, Tournament


@transaction.atomic
def format_apply(*, user, tournament, preset, games=None, discards=None, final=True, finalina=False,
                 best_of=None, composition=None):
    """Set a tournament's format and build its phases (seed 004 formats, seed 000 Como, seed 001 teams).

    Composed formats (direct finalists, semifinal range, repêchage: SCORING.md section 12) take
    `composition` = {"tiers": [{"up_to", "direct", "semifinal", "repechage"}], "final_size"}, the
    preset's own when None, and may count the `best_of` N results instead of discarding.
    Allowed until a round of a later phase (semifinal, final, knockout) or a team match exists; rounds
    already played stay as rounds of the first phase."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if preset not in PRESETS:
        raise ValidationError({"preset": _("Choose a format.")})
    spec = PRESETS[preset]
    if Round.objects.filter(tournament=tournament, phase__isnull=False).exclude(
            phase__kind=Phase.Kind.QUALIFYING).exists():
        raise ValidationError(_("Phases after the qualifying rounds have started: the format can no longer "
                                "change."))
    if tournament.team_matches.exists():
        raise ValidationError(_("The team schedule is made: the format can no longer change."))
    games = spec.games if games is None else games
    if discards is None and best_of is not None and spec.qualify:
        discards = 0  # counting the best N replaces the preset's discards
    discards = spec.discards if discards is None else discards
    low, high = spec.games_range
    if not spec.knockout and not spec.teams and not low <= games <= high:
        raise ValidationError({"games": _("This format plays %(low)d to %(high)d games.") % {"low": low, "high": high}})
    low, high = spec.discards_range
    high = min(high, max(games - 1, 0))
    optional = spec.discards_optional and discards == 0  # seed 004: "possibilità di scartare"
    if not optional and not low <= discards <= high:
        if spec.discards_optional and low > 0:
            raise ValidationError({"discards": _("This format discards 0 or %(low)d to %(high)d results.")
                                   % {"low": low, "high": high}})
        raise ValidationError({"discards": _("This format discards %(low)d to %(high)d results.")
                               % {"low": low, "high": high}})
    if spec.qualify:
        composition = composition or spec.qualify
        check_composed(composition, games)
        if best_of is not None:
            if not 1 <= best_of <= games:
                raise ValidationError({"best_of": _("Count 1 to %(n)d best results.") % {"n": games}})
            if discards:
                raise ValidationError({"best_of": _("Discard the worst results or count the best ones, not "
                                                    "both.")})
    else:
        composition, best_of = None, None
    final = spec.final == "yes" or (spec.final == "optional" and final)
    finalina = bool(finalina and spec.finalina and final)
    before = snapshot(tournament)
    settings = dict(spec.tournament_settings)
    if spec.end_roll:
        settings["end_roll_variant"] = spec.end_roll  # seed 000 art. 44.1: Como plays the Lariana roll
    if not spec.knockout and not spec.teams:
        settings.setdefault("discard_worst", discards)
        settings["rounds_planned"] = games
    elif spec.knockout:
        settings.update(discard_worst=0, best_of=None)
    if spec.qualify:
        settings["best_of"] = best_of
    if preset != "como":
        settings.setdefault("best_of", None)
        settings.setdefault("como_reference", None)
    settings.setdefault("corrective_scope", "")  # SCORING.md 13.1: only the formats that set it
    # A knockout is planned for the players checked in (or, before check-in, those registered).
    players = len(present_ids(tournament)) or \
        tournament.registrations.filter(status=Registration.Status.CONFIRMED).count()
    table_size = settings.get("table_size", tournament.table_size)
    specs = phase_specs(preset, games=games, final=final, finalina=finalina, players=players,
                         table_size=table_size, composition=composition)
    if spec.knockout:
        settings["rounds_planned"] = len(specs)
    Round.objects.filter(tournament=tournament).update(phase=None)
    tournament.phases.all().delete()
    Phase.objects.bulk_create([
        Phase(tournament=tournament, order=i, kind=kind, name=name, rounds=rounds, settings=phase_settings)
        for i, (kind, name, rounds, phase_settings) in enumerate(specs, start=1)])
    tournament.format_preset = preset
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save(update_fields=list(TOURNAMENT_FORMAT_FIELDS))
    audit(user=user, action="format.apply", obj=tournament, tournament=tournament, before=before,
          after={**snapshot(tournament), "phases": [name for _k, name, _r, _s in specs],
                 **({"qualify": composition} if composition else {})})
    return tournament


@transaction.atomic
def club_preset_apply(*, user, tournament, key):
    """A club's rule (SCORING.md 13.12) on the formats page: its tournament format (when this application
    has it) through `format_apply`, then every scoring setting it fills through `tournament_save`, each
    audited. Refused once a table has a result: the standings already counted would change under the
    players; single settings are still changed on the settings page, which shows the change first."""
    preset = club_preset_for(user, key)   # a published rule, or one of the organiser's own
    if preset is None:
        raise ValidationError({"club_preset": _("Choose a club rule.")})
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if Table.objects.filter(round__tournament=tournament, reported_at__isnull=False).exists():
        raise ValidationError(_("Results are already entered: a club rule can no longer be applied from here. "
                                "Change single settings on the tournament's settings page."))
    if preset.format_available and preset.format in PRESETS:
        settings = preset.tournament_settings
        tournament = _rule_format_apply(user=user, tournament=tournament, preset=preset,
                                        rounds=settings["rounds_planned"], discards=settings["discard_worst"])
    return tournament_save(user=user, tournament=tournament,
                           data={**preset.tournament_settings, "club_preset": preset.key})


def club_rule_follow(*, user, tournament, before=""):
    """A club rule that names a tournament format (SCORING.md 13.12: Raduno, Master, the team
    championship) sets it too, when the rule was just picked (`before`, the rule the tournament had)
    and the tournament does not play that format yet; its qualifying rounds are the rounds the
    settings plan when the format allows that many."""
    preset = club_preset_for(user, tournament.club_preset or "")
    if preset is None or tournament.club_preset == before or not preset.format_available \
            or preset.format not in PRESETS or tournament.format_preset == preset.format:
        return tournament
    return _rule_format_apply(user=user, tournament=tournament, preset=preset,
                              rounds=tournament.rounds_planned, discards=tournament.discard_worst)


def _rule_format_apply(*, user, tournament, preset, rounds, discards):
    """The format a club rule names, its qualifying rounds the rounds the rule (or the settings filled from
    it) plans: the one source of that number, on the formats page as on the new-tournament and settings
    pages. The rounds and discards are the format's own: one it cannot play is refused by the settings'
    names, never replaced."""
    try:
        return format_apply(user=user, tournament=tournament, preset=preset.format,
                            games=rounds or None, discards=discards)
    except ValidationError as exc:
        if not hasattr(exc, "error_dict"):
            raise
        names = {"games": "rounds_planned", "discards": "discard_worst"}
        raise ValidationError({names.get(name, name): [
            _("The club rule %(rule)s plays its own format: %(error)s") % {"rule": preset.name, "error": e}
            for e in ValidationError(errors).messages] for name, errors in exc.error_dict.items()}) from None


@transaction.atomic
def tournament_save_following_rule(*, user, data, tournament=None):
    """`tournaments.services.tournament_save`, then the format of a club rule just picked (the
    "New tournament" and settings pages)."""
    before = tournament.club_preset if tournament is not None else ""
    saved = tournament_save(user=user, data=data, tournament=tournament)
    return club_rule_follow(user=user, tournament=saved, before=before)


@transaction.atomic
def tournament_copy_following_rule(*, user, data, source):
    """`tournaments.services.tournament_copy`, then the format of the club rule the form names."""
    saved = tournament_copy(user=user, data=data, source=source)
    return club_rule_follow(user=user, tournament=saved)


@transaction.atomic
def end_roll_variant_set(*, user, tournament, variant):
    """SCORING.md section 10: which sums end a timed game (standard, "or less", Lariana, Firenze)."""
    if variant not in dict(END_ROLL_VARIANTS):
        raise ValidationError({"variant": _("Choose a variant.")})
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = tournament.end_roll_variant
    tournament.end_roll_variant = variant
    tournament.save(update_fields=["end_roll_variant"])
    audit(user=user, action="format.end_roll", obj=tournament, tournament=tournament,
          before={"end_roll_variant": before}, after={"end_roll_variant": variant})
    return tournament


@transaction.atomic
def phase_publish(*, user, phase):
    """Publish the seating of the phase's draft round, once checked: a phase computed from the results
    (semifinal, final, later knockout games) seats exactly its entrants, whatever was changed by hand."""
    view = next(v for v in phases_overview(phase.tournament) if v.phase.pk == phase.pk)
    rnd = view.current
    if rnd is None or rnd.status != Round.Status.DRAFT:
        raise ValidationError(_("This phase has no seating to publish."))
    entrants = phase.settings.get("entrants")
    if entrants is not None:
        seated = sorted(rnd.tables.values_list("seats__registration_id", flat=True))
        if seated != sorted(entrants):
            raise ValidationError(_("The tables of this phase no longer seat exactly its qualified players "
                                    "(re-seated or drawn again by hand): put them back before publishing."))
    return table_services.round_publish(user=user, rnd=rnd)


@transaction.atomic
def firenze_continent_points_set(*, user, tournament, points):
    """SCORING.md 8.1: the points of a conquered continent on the Firenze sheet (default 0). Refused
    once a sheet is saved: the sheets already counted would not add up any more."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = tournament.firenze_continent_points
    if before == points:
        return tournament
    if Seat.objects.filter(table__round__tournament=tournament, firenze__isnull=False).exists():
        raise ValidationError({"points": _("A Firenze sheet is already saved in this tournament: the points of a "
                                           "continent can no longer change.")})
    tournament.firenze_continent_points = points
    tournament.full_clean()
    tournament.save(update_fields=["firenze_continent_points"])
    audit(user=user, action="format.firenze_continents", obj=tournament, tournament=tournament,
          before={"firenze_continent_points": before}, after={"firenze_continent_points": points})
    return tournament
