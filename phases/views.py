"""Pages of tournament formats: choose a format, play its phases, the bracket, the final standings."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe, require_POST

from phases import bracket as brackets
from phases import draw, selectors, services
from phases.forms import ClubPresetForm, EndRollVariantForm, FirenzeContinentsForm, FormatForm
from phases.preset_data import PRESETS
from phases.presets import fixed_qualify, knockout_advice

COMPOSABLE = {key for key, spec in PRESETS.items() if spec.qualify}
# The formats whose qualification the organiser may compose on the page (not the Master's fixed rules).
EDITABLE = {key for key in COMPOSABLE if not fixed_qualify(key)}
from scoring.standings import semifinal_plans
from tables.rounds import services as table_services
from tables.clock.selectors import live_round
from tables.rounds.inputs import present_registrations
from tables.standings import selectors as standings
from tournaments.club_presets import club_preset_name
from tournaments.forms import add_service_errors
from tournaments.rules import staff_role, tournament_for_organiser, tournament_for_public


def plan_label(plan):
    """'1st straight to the final; 3 semifinals of 2nd-12th' for a semifinal plan of seed 004."""
    positions = [p for table in plan.semifinals for p in table]
    values = {"count": len(plan.semifinals), "low": min(positions), "high": max(positions),
              "seeded": len(plan.seeded_to_final)}
    if not plan.seeded_to_final:
        return _("%(count)d semifinals of positions %(low)d-%(high)d") % values
    return _("Top %(seeded)d straight to the final; %(count)d semifinals of positions %(low)d-%(high)d") % values


@login_required
def formats_page(request, pk):
    """Choose the format, see the phases and play them one after the other."""
    tournament = tournament_for_organiser(request.user, pk)
    which = request.POST.get("form") if request.method == "POST" else None
    forms = _format_forms(request, tournament, which)
    if which in SAVES and forms[which].is_valid():
        done = SAVES[which](request.user, tournament, forms[which])
        if done:
            messages.success(request, done)
            return redirect("manage:formats", pk=pk)
    present = len(present_registrations(tournament))
    phases = selectors.phases_overview(tournament)
    for view in phases:
        view.notice = draw.absent_notice(view.phase)  # composed formats: who was skipped, absent
        # The Master: which semifinal plan was seated, or would be if seated now.
        view.case_notice = draw.master_case_notice(view.phase) or selectors.master_case_preview(tournament, view)
    # Before the first knockout game is drawn: below the seed's range, say so and offer its alternative.
    advice = (knockout_advice(tournament.format_preset, present, tournament.table_size)
              if phases and not any(v.rounds for v in phases) else None)
    return render(request, "formats/formats.html", {
        "tournament": tournament, "form": forms["format"], "roll_form": forms["endroll"],
        "continents_form": forms["continents"], "club_form": forms["club"], "phases": phases,
        "club_rule": club_preset_name(tournament), "advice": advice, "present": present,
        "plans": [(i, plan_label(p)) for i, p in enumerate(semifinal_plans(present))],
        "composition_fields": FormatForm.COMPOSITION_INPUTS, "composed": tournament.format_preset in COMPOSABLE,
        "composed_summary": selectors.composed_summary(tournament), "composable": sorted(EDITABLE),
        "knockout": tournament.format_preset.startswith("knockout"), "live": live_round(tournament),
        "presets": [(key, label, PRESETS[key].help, PRESETS[key].decisions)
                    for key, label in forms["format"].fields["preset"].choices]},
        status=400 if which and any(form.errors for form in forms.values()) else 200)


def _format_forms(request, tournament, which):
    """The page's three forms by the name each is posted with, the one sent (`which`) holding what was posted."""
    def posted(name):
        return request.POST if which == name else None
    first = tournament.phases.order_by("order").first()
    return {
        "format": FormatForm(posted("format"), initial={
            "preset": tournament.format_preset or None, "final": True,
            "best_of": tournament.best_of if tournament.format_preset in EDITABLE else None,
            **FormatForm.initial_from(first.settings.get("qualify") if first else None)}),
        "endroll": EndRollVariantForm(posted("endroll"), initial={"variant": tournament.end_roll_variant}),
        "continents": FirenzeContinentsForm(posted("continents"),
                                            initial={"points": tournament.firenze_continent_points}),
        "club": ClubPresetForm(posted("club"), initial={"club_preset": tournament.club_preset}, user=request.user)}


def _save_format(user, tournament, form):
    data = form.cleaned_data
    spec = PRESETS[data["preset"]]
    editable = data["preset"] in EDITABLE
    composition = form.composition(spec.qualify) if editable else None
    try:
        services.format_apply(user=user, tournament=tournament, preset=data["preset"], games=data["games"],
                              discards=data["discards"], final=data["final"], finalina=data["finalina"],
                              best_of=data["best_of"] if editable else None, composition=composition)
    except ValidationError as exc:
        add_service_errors(form, exc)
        return None
    return _("Format saved: the phases are ready.")


def _save_end_roll(user, tournament, form):
    services.end_roll_variant_set(user=user, tournament=tournament, variant=form.cleaned_data["variant"])
    return _("End-roll variant saved.")


def _save_continent_points(user, tournament, form):
    try:
        services.firenze_continent_points_set(user=user, tournament=tournament,
                                              points=form.cleaned_data["points"])
    except ValidationError as exc:
        add_service_errors(form, exc)
        return None
    return _("Points per continent saved.")


def _save_club_preset(user, tournament, form):
    try:
        services.club_preset_apply(user=user, tournament=tournament, key=form.cleaned_data["club_preset"])
    except ValidationError as exc:
        add_service_errors(form, exc)
        return None
    return _("Club rule applied: its settings are saved, every one still editable in the settings.")


# How each form of the page (by the name it is posted with) is saved once valid: the success message,
# or None with the service's refusal shown on the form.
SAVES = {"format": _save_format, "endroll": _save_end_roll, "continents": _save_continent_points,
         "club": _save_club_preset}


@login_required
@require_POST
def phase_action(request, pk, order, action):
    """Draw the next round of a phase, publish its seating, close it."""
    tournament = tournament_for_organiser(request.user, pk)
    phase = selectors.phase_of(tournament, order)
    if action not in ("draw", "publish", "close"):
        raise Http404
    drawn = None
    try:
        if action == "draw":
            drawn = _draw(request, tournament, phase).number
        else:
            view = next(v for v in selectors.phases_overview(tournament) if v.phase.pk == phase.pk)
            if view.current is None:
                raise ValidationError(_("This phase has no round in play."))
            if action == "publish":
                services.phase_publish(user=request.user, phase=phase)
                messages.success(request, _("Seating published."))
            else:
                table_services.round_close(user=request.user, rnd=view.current)
                messages.success(request, _("Round closed."))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    # Drawn from the rounds page or the round dashboard (the format's next step): its round is shown next.
    if drawn is not None and request.POST.get("then") == "round":
        return redirect("manage:round", pk=pk, number=drawn)
    if request.POST.get("then") == "round":
        return redirect("manage:rounds", pk=pk)
    return redirect("manage:formats", pk=pk)


def _draw(request, tournament, phase):
    """Draw the phase's next round, saying what the organiser should know about it."""
    try:
        plan_choice = int(request.POST.get("plan", "0"))
    except ValueError:
        plan_choice = 0
    advice = knockout_advice(tournament.format_preset, len(present_registrations(tournament)),
                             tournament.table_size) if phase.order == 1 else None
    rnd = draw.phase_draw(user=request.user, phase=phase, plan_choice=plan_choice)
    messages.success(request, _("Round %(n)d drawn for %(phase)s.") % {"n": rnd.number, "phase": phase.label})
    if advice is not None and rnd.number == 1:
        messages.warning(request, _("Drawn with fewer players than this knockout presupposes (%(low)d-%(high)d "
                                    "players, %(n)d present).") % {"low": advice.low, "high": advice.high,
                                                                  "n": advice.players})
    if draw.master_case_notice(rnd.phase):
        messages.info(request, draw.master_case_notice(rnd.phase))
    notice = draw.absent_notice(rnd.phase)
    if notice:
        messages.warning(request, notice)
    return rnd


@login_required
@require_safe
def bracket(request, pk):
    """The tables of every phase, winners marked: who goes on."""
    tournament = tournament_for_organiser(request.user, pk)
    return render(request, "formats/bracket.html", {"tournament": tournament,
                                                    "phases": brackets.phase_bracket(tournament)})


@require_safe
def final_standings(request, pk):
    """SCORING.md section 6: the final's order, then the finalina, then the qualifying order."""
    tournament = tournament_for_public(pk)
    try:
        result = standings.final_standings(tournament)
        error = None
    except ValidationError as exc:
        result, error = None, " ".join(exc.messages)
    return render(request, "formats/final_standings.html", {
        "tournament": tournament, "result": result, "error": error, "state": standings.standings_state(tournament),
        "role": staff_role(request.user, tournament)})
