"""Drawing the next round of a phase: qualifying draws, semifinal plans, finals, knockout games.

Rounds are created by tables.rounds.services.round_create: ordinary draws for qualifying rounds and the
first knockout game, method "fixed" with the tables computed here for every later phase. Rounds
drawn without a phase (from the Rounds page) belong to the first phase."""
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from phases.preset_data import FINAL_SIZE
from phases.presets import knockout_specs
from phases.selectors import master_case_words, phases_overview, present_ids
from scoring.errors import ScoringError
from scoring.knockout import seconds_on_one_scale, table_winner
from scoring.finals import SEATS_PER_GROUP
from scoring.qualify import semifinal_seating
from scoring.phases import Stage, draw_tables, knockout_stages, knockout_table_sizes, semifinal_tables
from scoring.standings import semifinal_plans
from tables.rounds import services as table_services
from tables.seating.como import top_table_applies
from tables.standings.selectors import (composition_of, games_by_round, knockout_standing, parallel_groups,
                                       phase_games, qualifying_outcome, qualifying_standings, winner_error)
from tables.models import Round
from tournaments.audit.services import audit
from tournaments.models import Phase, Registration, Tournament
from tournaments.models.phase_names import name as phase_name
from tournaments.models.phase_names import same


MIN_SEMIFINAL_TABLE = 3  # players at a semifinal table, at least


def _knockout_replan(*, user, tournament, phases, phase, by_round):
    """Before seating a knockout game after the first: fit the phases from here to the final to the
    players actually left (absences change the number of tables, hence of winners). Phases without
    rounds are rebuilt only when the plan changes; returns the phase to seat now."""
    advancing, waiting = knockout_standing(phases, phase, by_round)
    count = len(advancing)
    waiting = waiting if phase.settings.get("second_chance") else []
    stages = []
    if len(waiting) >= 3:
        tables = len(knockout_table_sizes(len(waiting), tournament.table_size, offset=count))
        stages.append(Stage("second_chance", len(waiting), tables))
        count += tables
    try:
        stages += knockout_stages(count, tournament.table_size)
    except ScoringError:
        raise ValidationError(ngettext(
            "%(n)d player is left: a knockout cannot go on to a final table of 3 to 6.",
            "%(n)d players are left: a knockout cannot go on to a final table of 3 to 6.", count) % {"n": count}) from None
    games_before = sum(1 for p in phases if p.order < phase.order and p.kind == Phase.Kind.KNOCKOUT
                       and not p.settings.get("second_chance"))
    specs = knockout_specs(stages, games_before, continuing=True)
    later = [p for p in phases if p.order >= phase.order]
    if [(p.kind, p.settings) for p in later] == [(k, st) for k, _n, _r, st in specs] and all(
            same(p.name, n) for p, (_k, n, _r, _s) in zip(later, specs)):
        return phase
    Phase.objects.filter(pk__in=[p.pk for p in later]).delete()
    Phase.objects.bulk_create([
        Phase(tournament=tournament, order=phase.order + i, kind=kind, name=name, rounds=rounds, settings=st)
        for i, (kind, name, rounds, st) in enumerate(specs)])
    audit(user=user, action="phase.replan", obj=tournament, tournament=tournament,
          before={"phases": [p.name for p in later]}, after={"phases": [name for _k, name, _r, _s in specs],
                                                             "players_left": len(advancing) + len(waiting)})
    return Phase.objects.get(tournament=tournament, order=phase.order)


def _entrants_tables(tournament, phase, phases, *, plan_choice=0, seed=0):
    """The tables of a phase after the first one, and what to remember in its settings."""
    by_round, totals = games_by_round(tournament)
    previous = [p for p in phases if p.order < phase.order and p.kind != Phase.Kind.FINALINA]
    prior = previous[-1]
    knockout = any(p.kind == Phase.Kind.KNOCKOUT for p in phases)
    present = present_ids(tournament)
    remember = {}
    if knockout:
        advancing, waiting = knockout_standing(phases, phase, by_round)
        second_chance = phase.settings.get("second_chance", False)
        entrants = waiting if second_chance else advancing
        if not second_chance:
            entrants, replaced = _best_seconds(prior, phase_games(prior, phases, by_round), entrants, present)
            if replaced:
                remember["best_seconds"] = replaced
        entrants = [p for p in entrants if p in present]
        if phase.kind == Phase.Kind.FINAL or len(entrants) < 3:
            tables = [entrants]
        else:
            tables = draw_tables(entrants, tournament.table_size, seed, offset=len(advancing) if second_chance else 0)
        return tables, remember
    if phases[0].settings.get("parallel_finals"):
        return _parallel_tables(tournament, phase, prior, phases, present, by_round, totals)
    composition = composition_of(tournament, phases)
    if composition is not None:
        return _composed_tables(tournament, phase, phases, prior, composition, present, by_round, totals)
    order = [row.player for row in qualifying_standings(tournament, by_round, totals) if row.player in present]
    if phase.kind == Phase.Kind.SEMIFINAL:
        plans = semifinal_plans(len(order))
        if not plans:
            raise ValidationError(_("Semifinals need at least 10 players present; with fewer, play the final "
                                    "directly."))
        choice = min(max(plan_choice, 0), len(plans) - 1)
        seeded, tables = semifinal_tables(order, plans[choice])
        remember = {"plan": choice, "seeded_to_final": seeded}
        return tables, remember
    # The final (and the finalina beside it).
    size = phase.settings.get("size", FINAL_SIZE)
    if prior.kind == Phase.Kind.SEMIFINAL:
        finalists = _semifinal_finalists(prior, phases, by_round)
    else:
        finalists = order[:size]
    tables = [finalists]
    if any(p.kind == Phase.Kind.FINALINA for p in phases):
        rest = [p for p in order if p not in finalists][:size]
        if len(rest) >= 3:
            tables.append(rest)
    return tables, remember


def _semifinal_finalists(prior, phases, by_round):
    """The final's players after semifinals: those seeded straight to the final, then each semifinal
    table's winner."""
    games = phase_games(prior, phases, by_round)
    try:
        winners = [table_winner(g) for g in games]
    except ScoringError as exc:
        raise winner_error(exc) from None
    return list(prior.settings.get("seeded_to_final", [])) + winners


def _composed_tables(tournament, phase, phases, prior, composition, present, by_round, totals):
    """A composed format (SCORING.md section 12): the semifinal tables (one finalist each) from the
    semifinal range and the repêchage, the final from the direct finalists and the semifinal winners
    (or, without semifinals, the direct finalists and the repêchage). Absent players are skipped."""
    remember = {}
    if phase.kind == Phase.Kind.SEMIFINAL or prior.kind == Phase.Kind.QUALIFYING:
        outcome = qualifying_outcome(tournament, composition, present=present, by_round=by_round, totals=totals)
        q = outcome.result
        remember = {"seeded_to_final": q.final, "semifinalists": q.semifinal, "repechage": q.repechage,
                    "absent": q.absent, "participants": outcome.participants,
                    "rules": {"direct": outcome.rules.direct,
                              "semifinal": list(outcome.rules.semifinal) if outcome.rules.semifinal else None,
                              "repechage": {"seats": outcome.rules.repechage_seats,
                                            "min_games": outcome.rules.min_games}}}
        if outcome.case:
            # SCORING.md 13.8: which plan the Master seated, and its number of semifinals.
            remember.update(master_case=outcome.case, semifinal_tables=outcome.tables)
        if phase.kind == Phase.Kind.SEMIFINAL:
            if outcome.rules.semifinal is None:
                raise ValidationError(_("With %(n)d participants this format has no semifinals: change the "
                                        "format.") % {"n": outcome.participants})
            if outcome.case and len(q.semifinal) + len(q.repechage) < MIN_SEMIFINAL_TABLE * outcome.tables:
                raise ValidationError(_("The Master's semifinals need at least %(min)d players checked in; %(n)d "
                                        "are.") % {"min": MIN_SEMIFINAL_TABLE * outcome.tables + outcome.rules.direct,
                                                   "n": len(present)})
            tables = semifinal_seating(q.semifinal + q.repechage, outcome.tables)
            return tables, remember
        finalists = q.final + q.repechage
        order = [row.player for row in outcome.standings if row.player in present]
    else:
        finalists = _semifinal_finalists(prior, phases, by_round)
        order = [row.player for row in qualifying_standings(tournament, by_round, totals) if row.player in present]
    tables = [finalists]
    finalina = next((p for p in phases if p.kind == Phase.Kind.FINALINA), None)
    if finalina is not None:
        rest = [p for p in order if p not in finalists][:finalina.settings.get("size", FINAL_SIZE)]
        if len(rest) >= 3:
            tables.append(rest)
    return tables, remember


# --- Raduno: parallel finals (SCORING.md 13.9) ------------------------------------------------------

def _parallel_tables(tournament, phase, prior, phases, present, by_round, totals):
    """A Raduno: the semifinals of every group (4 each, filled in a snake from the group's own order,
    group 1 at tables 1-4, group 2 at 5-8, ...), then final g at table g among the winners of group g."""
    if phase.kind == Phase.Kind.SEMIFINAL:
        plan = parallel_groups(tournament, present, by_round, totals)
        tables_per_group = SEATS_PER_GROUP // FINAL_SIZE
        if any(len(group) < 3 * tables_per_group for group in plan.groups):  # semifinals of 3 at least
            raise ValidationError(ngettext(
                "%(k)d final needs at least %(seats)d players present for its semifinals.",
                "%(k)d parallel finals need at least %(seats)d players present for their semifinals.",
                plan.finals) % {"k": plan.finals, "seats": plan.finals * 3 * tables_per_group})
        tables = [t for group in plan.groups for t in semifinal_seating(group, tables_per_group)]
        return tables, {"finals": plan.finals, "participants": plan.participants,
                        "groups": [[int(p) for p in group] for group in plan.groups]}
    winners = _semifinal_finalists(prior, phases, by_round)
    groups = prior.settings.get("groups", [])
    tables = [[w for w in winners if int(w) in set(group)] for group in groups]
    return tables, {"finals": len(groups)}


def _name_finals(phases, finals):
    """A Raduno's final phase named once the number of finals is known."""
    final = next(p for p in phases if p.kind == Phase.Kind.FINAL)
    final.name = phase_name("Final") if finals == 1 else phase_name("%(k)d parallel finals", k=finals)
    final.save(update_fields=["name"])


def _best_seconds(prior, games, entrants, present):
    """Seed 003: "basterà riconvocare nella successiva gara i migliori secondi che rimpiazzeranno i
    concorrenti mancanti". Each qualifier absent or withdrawn (not checked in) gives their place to the
    best second of the previous game still present: 2nd at their table, compared on one scale (their
    points as a share of their table winner's points: table points, or the sheet totals where the
    Firenze sheet decided the table; scoring.knockout.seconds_on_one_scale), then by name. Returns
    the entrants and the replacements [{"out": id, "in": id}]."""
    missing = [p for p in entrants if p not in present]
    if not missing:
        return entrants, []
    shares = {p: share for p, share, _points in seconds_on_one_scale(games) if p in present and p not in entrants}
    players = {r.pk: r.player for r in Registration.objects.filter(pk__in=shares).select_related("player")}

    def rank(p):
        return -shares[p], players[p].last_name.lower(), players[p].first_name.lower(), p
    queue = sorted(shares, key=rank)
    replaced, out = [], list(entrants)
    for player in missing:
        if not queue:
            break
        substitute = queue.pop(0)
        out[out.index(player)] = substitute
        replaced.append({"out": player, "in": substitute})
    return out, replaced


def absent_notice(phase):
    """"Absent, replaced by the next in the standings: ..." after seating a composed format's phase."""
    absent = phase.settings.get("absent") if phase is not None else None
    if not absent:
        return ""
    return ngettext("Absent, the seat went to the next in the standings: %(names)s.",
                    "Absent, their seats went to the next in the standings: %(names)s.",
                    len(absent)) % {"names": _names(absent)}


def master_case_notice(phase):
    """The Master's semifinals (SCORING.md 13.8): which plan was seated, said on the format page; "" for
    any other phase."""
    case = phase.settings.get("master_case") if phase is not None else None
    rules = phase.settings.get("rules") or {}
    if not case or not rules.get("semifinal"):
        return ""
    return master_case_words(case, rules["semifinal"], phase.settings.get("semifinal_tables", 0))


def _names(ids):
    regs = Registration.objects.filter(pk__in=ids).select_related("player")
    return ", ".join(sorted(r.player.full_name for r in regs))


@transaction.atomic
def phase_draw(*, user, phase, plan_choice=0, seed=None):
    """Create the next round of `phase`.

    Qualifying rounds and the first knockout game are drawn like any round (Como: table 1 = the top
    5 when at least 9 are present, seed 000 rule 4). Later phases get the tables computed from the
    results: semifinals by the plan of seed 004, the final from the standings or the semifinal
    winners (plus the finalina at table 2), knockout games from the table winners (seed 003, 004)."""
    tournament = Tournament.objects.select_for_update().get(pk=phase.tournament_id)
    phases = list(tournament.phases.order_by("order"))
    phase = next(p for p in phases if p.pk == phase.pk)
    view = next(v for v in phases_overview(tournament) if v.phase.pk == phase.pk)
    if phase.kind == Phase.Kind.FINALINA:
        raise ValidationError(_("The finalina is played beside the final: draw the final."))
    if view.status == "done":
        raise ValidationError(_("This phase is over."))
    if view.current is not None:
        raise ValidationError(_("Close the current round of this phase before drawing the next one."))
    if not view.can_draw:
        raise ValidationError(_("Finish the earlier phases first."))
    seed = seed if seed is not None else int(timezone.now().timestamp()) % 1_000_000
    first = phase.pk == phases[0].pk
    if first:
        present = len(present_ids(tournament))
        method, sizes = "random", None
        if (tournament.format_preset == "como" and top_table_applies(present)
                and any(r.status == Round.Status.CLOSED for r in view.rounds)):
            method = "seeded_top"
        if phase.kind == Phase.Kind.KNOCKOUT and present > 6:
            # The table count decides how many go on: keep it to what the phases were planned for.
            sizes = knockout_table_sizes(present, tournament.table_size)
        rnd = table_services.round_create(user=user, tournament=tournament, method=method, seed=seed, sizes=sizes)
        tables = [[str(s.registration_id) for s in t.seats.order_by("position")] for t in rnd.tables.order_by("number")]
        remember = {}
    else:
        if any(p.kind == Phase.Kind.KNOCKOUT for p in phases):
            phase = _knockout_replan(user=user, tournament=tournament, phases=phases, phase=phase,
                                     by_round=games_by_round(tournament)[0])
            phases = list(tournament.phases.order_by("order"))
        tables, remember = _entrants_tables(tournament, phase, phases, plan_choice=plan_choice, seed=seed)
        flat = [p for t in tables for p in t]
        if any(not 3 <= len(t) <= 6 for t in tables) or not flat:
            raise ValidationError(_("This phase would have tables of %(sizes)s players: tables need 3 to 6.")
                                  % {"sizes": ", ".join(str(len(t)) for t in tables) or "0"})
        absent = set(flat) - present_ids(tournament)
        if absent:
            raise ValidationError(_("Not checked in: %(names)s. Check them in before drawing this phase.")
                                  % {"names": _names(absent)})
        plan = [[str(p) for p in t] for t in tables]
        rnd = table_services.round_create(user=user, tournament=tournament, method="fixed", fixed_plan=plan,
                                          seed=seed, partial_plan=True)
        seated = [{str(s.registration_id) for s in t.seats.all()} for t in rnd.tables.order_by("number")]
        if seated != [set(t) for t in plan]:
            raise ValidationError(_("The seating did not keep the tables of this phase: nothing was saved."))
        tables = plan
    rnd.phase = phase
    rnd.save(update_fields=["phase"])
    if not first:
        remember["entrants"] = sorted(int(p) for t in tables for p in t)
    if remember:
        phase.settings = {**phase.settings, **remember}
        phase.save(update_fields=["settings"])
    if phase.kind == Phase.Kind.SEMIFINAL and "finals" in remember:
        _name_finals(phases, remember["finals"])
    audit(user=user, action="phase.draw", obj=phase, tournament=tournament,
          after={"phase": phase.name, "round": rnd.number, "tables": tables, **remember})
    return rnd
