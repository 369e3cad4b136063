"""Formula help pages (rule, source, interpretations, worked example computed live) and the
side-by-side page of a tournament's standings under every formula."""
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_POST, require_safe

from scoring.catalogue import CATALOGUE
from scoring.formulas import get_formula
from scoring.help_common import FORMAT_INTERPRETATIONS, GENERAL_INTERPRETATIONS, PARAMETERS
from tables.standings import selectors as standings_selectors
from scoring.errors import ScoringError
from tournaments.club_presets import CLUB_PRESETS, club_preset_for, club_rule_choices, draft_preset
from tournaments.club_rules.forms import ClubRuleForm
from tournaments.rules import tournament_for_organiser


def _lang():
    return get_language() or "it"


@require_safe
def formula_list(request):
    lang = _lang()
    items = [{"key": key, "name": info.name.get(lang), "summary": info.summary.get(lang)}
             for key, info in CATALOGUE.items()]
    return render(request, "tables/formula_list.html", {
        "formulas": items, "club_rules": CLUB_PRESETS.values(),
        "format_notes": [t.get(lang) for t in FORMAT_INTERPRETATIONS]})


@require_safe
def formula_detail(request, key):
    info = CATALOGUE.get(key)
    if info is None:
        raise Http404
    lang = _lang()
    examples = []
    for index, example in enumerate(info.examples):
        result = info.run_example(index)
        players = sorted({p.id for g in example.games for p in g.players}, key=str)
        examples.append({
            "title": example.title.get(lang),
            "games": [{"round": g.round, "table": g.table,
                       "rows": [{"player": s.player, "place": s.place, "tp": s.table_points, "points": s.points,
                                 "eliminated": s.eliminated, "risiko": s.risiko} for s in g.players]}
                      for g in result.games],
            "standings": result.standings, "players": players,
            "multi_round": len({g.round for g in example.games}) > 1,
            "decimals": get_formula(result.formula).decimals,
        })
    return render(request, "tables/formula_detail.html", {
        "info": info, "name": info.name.get(lang), "summary": info.summary.get(lang),
        "rules": [r.get(lang) for r in info.rules],
        "interpretations": [t.get(lang) for t in info.interpretations],
        "general": [t.get(lang) for t in GENERAL_INTERPRETATIONS],
        "sources": info.sources,
        "parameters": [{"label": PARAMETERS[p].label.get(lang), "help": PARAMETERS[p].help.get(lang),
                        "default": PARAMETERS[p].default} for p in info.parameters if p in PARAMETERS],
        "examples": examples})


@login_required
@require_safe
def formulas_compared(request, pk):
    """The current standings under every formula and every club rule at once: one column of ranks each;
    with `?regola=<key>`, the results replayed under that rule (published or the organiser's own)."""
    tournament = tournament_for_organiser(request.user, pk)
    preset = club_preset_for(request.user, request.GET.get("regola", "")[:24])
    return _compared_page(request, tournament, preset)


def _compared_page(request, tournament, preset):
    """The side-by-side page; with `preset` (a rule chosen, or a draft never saved: key ""), the what-if under
    it, the rule selected in the form and its column among the podiums and the ranks."""
    compared = standings_selectors.side_by_side(tournament, _lang(), chosen=preset)
    return render(request, "tables/formulas_compared.html", {
        "tournament": tournament, "current": tournament.formula, "current_preset": tournament.club_preset,
        "what_if": standings_selectors.what_if(tournament, preset) if preset else None,
        "rule_choices": club_rule_choices(request.user), "chosen_rule": preset.key if preset else None,
        "chosen_column": f"preset:{preset.key or 'draft'}" if preset else "", **compared})


@login_required
@require_POST
def what_if_draft(request):
    """A rule being composed, never saved (the rule form's fields, with `tournament`: one of the
    organiser's), replayed on that tournament's results."""
    pk = request.POST.get("tournament", "")
    if not pk.isdecimal() or len(pk) > 12:
        raise Http404
    tournament = tournament_for_organiser(request.user, int(pk))
    form = ClubRuleForm(request.POST)
    if not form.is_valid():
        return render(request, "tables/what_if_refused.html", {"tournament": tournament, "form": form}, status=400)
    try:
        preset = draft_preset(form.document())
    except ScoringError as exc:
        form.add_error(None, str(exc))
        return render(request, "tables/what_if_refused.html", {"tournament": tournament, "form": form}, status=400)
    return _compared_page(request, tournament, preset)
