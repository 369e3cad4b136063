"""The audit log read as words: every action the services write has a label, every field a name, and
an entry's before and after become the rows of a small table (field, before, after).

A service that writes a new action adds its label here (tests/tournaments/audit/test_audit_labels.py reads
the source for every action written and fails on one without a label)."""
import re
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from tournaments.models import END_ROLL_VARIANTS, FORMAT_PRESETS, SEATING_METHODS, Formula, TieBreak, phase_names
from tournaments.models.core import CORRECTIVE_SCOPES, SPARTACO_RISIKO_LOSERS, STANDARD_ELIMINATED

ACTION_LABELS = {
    # tournaments, clubs, players
    "tournament.create": _("Tournament created"),
    "tournament.update": _("Tournament settings changed"),
    "tournament.import": _("Tournament imported from a file"),
    "tournament.import_workbook": _("Past tournament imported from a workbook"),
    "tournament.arbiters": _("Arbiters changed"),
    "tournament.arbiter_account": _("Arbiter account created"),
    "tournament.arbiter_link": _("Arbiter's password link renewed"),
    "tournament.arbiter_add": _("Arbiter added by user name"),
    "user.organiser_role": _("Organiser role changed"),
    "club.create": _("Club created"),
    "club.update": _("Club changed"),
    "club.delete": _("Club deleted"),
    "player.create": _("Player created"),
    "player.update": _("Player changed"),
    "player.merge": _("Players merged"),
    "player.merge_request": _("Merge asked of an administrator"),
    "player.delete": _("Player deleted"),
    "format.firenze_continents": _("Firenze sheet: points per continent changed"),
    # club rules
    "club_rule.create": _("Club rule created"),
    "club_rule.copy": _("Club rule copied"),
    "club_rule.upload": _("Club rule uploaded from a file"),
    "club_rule.update": _("Club rule changed"),
    "club_rule.delete": _("Club rule deleted"),
    # season circuits
    "circuit.create": _("Circuit created"),
    "circuit.update": _("Circuit settings changed"),
    "circuit.tournament_add": _("Tournament added to a circuit"),
    "circuit.weight": _("Tournament's weight in a circuit changed"),
    "circuit.tournament_remove": _("Tournament removed from a circuit"),
    "circuit.season_rule": _("Circuit's season rule changed"),
    # registrations
    "registration.add": _("Player registered"),
    "registration.signup": _("Public sign-up"),
    "registration.approve": _("Sign-up approved"),
    "registration.reject": _("Sign-up rejected"),
    "registration.withdraw": _("Player withdrawn"),
    "registration.reinstate": _("Player reinstated"),
    "registration.expel": _("Player expelled"),
    "registration.fee": _("Fee paid changed"),
    "registration.checkin": _("Check-in changed"),
    # rounds and seating
    "round.draw": _("Round drawn"),
    "round.redraw": _("Round drawn again"),
    "round.reseat": _("Round re-seated"),
    "round.swap": _("Players swapped"),
    "round.move": _("Player moved to another table"),
    "round.publish": _("Seating published"),
    "round.close": _("Round closed"),
    "round.reopen": _("Round reopened"),
    "round.delete": _("Draft round deleted"),
    "standings.publish": _("Standings published"),
    # results
    "result.enter": _("Result entered"),
    "result.correct": _("Result corrected"),
    "result.firenze": _("Firenze points sheet entered"),
    # penalties and disputes
    "penalty.points": _("Points penalty"),
    "penalty.warning": _("Formal warning"),
    "penalty.game_dq": _("Disqualification from the game"),
    "penalty.expulsion": _("Expulsion from the tournament"),
    "penalty.forfeit": _("Forfeit"),
    "penalty.withdraw": _("Penalty withdrawn"),
    "dispute.record": _("Dispute raised"),
    "dispute.upheld": _("Dispute upheld"),
    "dispute.rejected": _("Dispute rejected"),
    # formats, phases, round clock and end roll
    "format.apply": _("Format applied"),
    "format.end_roll": _("End-roll variant changed"),
    "phase.draw": _("Phase drawn"),
    "phase.replan": _("Knockout phases planned again"),
    "clock.start": _("Round clock started"),
    "clock.stop": _("Round clock stopped"),
    "endroll.record": _("End roll recorded"),
    "endroll.out": _("Player out of the end roll"),
    "endroll.undo": _("End roll undone"),
    # 2vs2 teams
    "team.create": _("Team created"),
    "championship_team.create": _("Championship team composed"),
    "championship_team.rename": _("Championship team renamed"),
    "championship_team.dissolve": _("Championship team dissolved"),
    "team.delete": _("Team deleted"),
    "teams.schedule": _("Team matches scheduled"),
    "team.lineup": _("Team line-up chosen"),
    "team.result": _("Match result entered"),
    "team.result.correct": _("Match result corrected"),
    "team.penalty": _("Team penalty"),
    "team.penalty.withdraw": _("Team penalty withdrawn"),
    "team.standings.publish": _("Day's team standings published"),
    "team.dispute.record": _("Dispute about a match raised"),
    "team.dispute.upheld": _("Dispute about a match upheld"),
    "team.dispute.rejected": _("Dispute about a match rejected"),
}

# The kinds of the log's filter: the first word of the actions.
KIND_LABELS = {
    "tournament": _("tournament"), "user": _("accounts"), "club_rule": _("club rules"), "club": _("clubs"), "player": _("players"),
    "registration": _("registrations"), "round": _("rounds and seating"), "standings": _("standings"),
    "result": _("results"), "penalty": _("penalties"), "dispute": _("disputes"), "format": _("format"),
    "phase": _("phases"), "clock": _("round clock"), "endroll": _("end roll"), "team": _("2vs2 teams"),
    "teams": _("2vs2 schedule"),
}

FIELD_LABELS = {
    # the room (tables.room)
    "screen_panels": _("big screen panels"), "screen_seconds": _("seconds per big screen page"),
    "embed_origins": _("sites allowed to embed the standings"),
    "firenze_continent_points": _("points per conquered continent"), "continents": _("continents"),
    # season circuits
    "season": _("season"), "season_rule": _("season rule"), "category": _("event category"),
    "rule": _("circuit points"), "points_table": _("points per rank"),
    "participation": _("participation points"), "min_tournaments": _("minimum tournaments"),
    "tournament": _("tournament"), "weight": _("weight"),
    "about": _("against"), "arbiter": _("arbiter"), "arbiters": _("arbiters"), "armies": _("armies"),
    "away_best": _("away: best player"), "away_territories": _("away: territories"),
    "away_territory_points": _("away: territory points"), "best_of": _("best results counted"),
    "bonus": _("bonus"), "bye": _("bye"), "captain": _("captain"), "city": _("city"), "closed_at": _("closed at"), "club": _("club"),
    "como_reference": _("Como reference"), "correction": _("correction"), "day": _("day"),
    "decided_by_id": _("decided by"), "decision": _("decision"), "discard_worst": _("worst results discarded"),
    "dispute_window_minutes": _("dispute window (minutes)"), "eliminated": _("eliminated"),
    "email": _("email"), "national_id": _("national ID"), "layout": _("layout"), "end_date": _("end date"), "end_roll_variant": _("end-roll variant"),
    "ending": _("ending"), "ends_game": _("ends the game"), "entrants": _("entrants"),
    "entry_fee": _("entry fee"), "existing_player": _("existing player"), "extra_round": _("extra round"),
    "fee_paid": _("fee paid"), "firenze": _("Firenze sheet"), "first_name": _("first name"),
    "format_preset": _("format"), "formula": _("formula"), "from_round": _("from round"),
    "home_best": _("home: best player"), "home_territories": _("home: territories"),
    "home_territory_points": _("home: territory points"), "id": _("number"), "into": _("into"), "is_active": _("active"),
    "kept": _("kept"), "kept_name": _("player kept"), "kind": _("type"), "last_name": _("last name"), "late_entry": _("late entry"),
    "match": _("match"), "matches": _("matches"), "merge": _("player merged"),
    "merged_into": _("merged into"), "merged_name": _("player merged"), "method": _("method"),
    "document": _("rule document"), "minutes": _("minutes"), "name": _("name"), "nickname": _("nickname"), "organiser": _("organiser"),
    "penalties": _("seating penalties"), "penalty": _("penalty"), "phase": _("phase"), "phases": _("phases"),
    "place": _("place"), "players": _("players"), "players_left": _("players left"), "points": _("points"),
    "present": _("present"), "published": _("published"), "published_at": _("published at"),
    "raised_by": _("raised by"), "reason": _("reason"), "risiko": _("RisiKo!"), "roll": _("roll"),
    "round": _("round"), "rounds": _("rounds"), "rounds_planned": _("rounds planned"), "seat": _("game"),
    "seed": _("draw number"), "signup_open": _("sign-up open"), "skipped": _("skipped"),
    "spartaco_malus": _("Spartaco malus"), "basis": _("ranked by"), "club_preset": _("club rule"),
    "corrective_scope": _("Como correctives scale"), "risiko_total": _("points of a RisiKo! winner"),
    "spartaco_risiko_losers": _("Spartaco: the others after a RisiKo!"),
    "standard_eliminated": _("standard points of an eliminated player"), "start_date": _("start date"), "started_at": _("started at"),
    "standings_published_at": _("standings published at"), "state": _("state"), "status": _("status"), "submission": _("phone's save id"), "table": _("table"),
    "table_points": _("table points"),
    "table_size": _("table size"), "tables": _("tables"), "team": _("team"), "territories": _("territories"),
    "text": _("text"), "tiebreak": _("tie-breaks"), "username": _("username"), "variant": _("variant"),
    "venue": _("venue"), "void_past_results": _("void past results"), "withdrawn": _("withdrawn"),
    "withdrawn_reason": _("reason for withdrawal"), "file": _("file"), "registrations": _("registrations"),
    "users_created": _("accounts created"), "organisers": _("organiser role given to"),
    "clubs_created": _("clubs created"), "players_created": _("players created"),
    "log_entries": _("log entries"),
    # composed formats (SCORING.md section 12)
    "qualify": _("qualification"), "seeded_to_final": _("straight to the final"),
    "semifinalists": _("semifinalists"), "repechage": _("repêchage"), "absent": _("absent"),
    "participants": _("participants"),
}

# Stored values that are choices, shown as the pages show them.
VALUE_LABELS = {
    "status": {"pending": _("pending approval"), "confirmed": _("confirmed"), "withdrawn": _("withdrawn"),
               "draft": _("draft"), "published": _("seating published"), "closed": _("closed")},
    "kind": {"points": _("points penalty"), "warning": _("formal warning"),
             "game_dq": _("disqualification from the game"), "expulsion": _("expulsion from the tournament"),
             "forfeit": _("forfeit (sconfitta a tavolino)")},
    "state": {"open": _("open"), "upheld": _("upheld"), "rejected": _("rejected")},
    "about": {"result": _("table result"), "penalty": _("penalty"), "standing": _("published standings")},
    # the keys the settings and the draws store ("fixed", "millesimi", "raduno"...), in the reader's words
    "method": {**dict(SEATING_METHODS),
               "fixed": _("fixed tables (a plan written by the organiser, or a phase's qualifiers)")},
    "formula": dict(Formula.choices), "format_preset": dict(FORMAT_PRESETS),
    "end_roll_variant": dict(END_ROLL_VARIANTS), "variant": dict(END_ROLL_VARIANTS),
    "corrective_scope": dict(CORRECTIVE_SCOPES), "spartaco_risiko_losers": dict(SPARTACO_RISIKO_LOSERS),
    "standard_eliminated": dict(STANDARD_ELIMINATED),
}
# Fields whose stored text is a list of keys joined by commas ("best_results,previous_round").
JOINED_LABELS = {"tiebreak": dict(TieBreak.choices)}
# Fields holding a phase's stored name ("Final", stored in English): shown in the reader's language.
PHASE_FIELDS = ("phase", "phases")


DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")

# Fields naming what an entry is about: shown even when they did not change.
IDENTITY = ("username", "round", "phase")


def action_label(action):
    """The words for an action key; the key itself for one written before it had a label."""
    return ACTION_LABELS.get(action, action)


def kind_label(kind):
    return KIND_LABELS.get(kind, kind)


def field_label(name):
    return FIELD_LABELS.get(name, str(name).replace("_", " "))


def value_text(value, field=None):
    """One stored value as text: yes/no, a dash for nothing, choices by name, lists joined."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, str) and field in VALUE_LABELS and value in VALUE_LABELS[field]:
        return str(VALUE_LABELS[field][value])
    if isinstance(value, str) and field in JOINED_LABELS:
        return ", ".join(str(JOINED_LABELS[field].get(key, key)) for key in value.split(","))
    if isinstance(value, str) and field in PHASE_FIELDS:
        return phase_names.label(value)
    if isinstance(value, float):
        return number_format(value)
    if isinstance(value, str) and DECIMAL.fullmatch(value):
        # points are logged as "62.50": shown as the language writes them, with the decimals they have ("62,5")
        return number_format(Decimal(value).normalize() if Decimal(value) != Decimal(value).to_integral()
                             else Decimal(value).to_integral())
    if isinstance(value, dict):
        return "; ".join(f"{field_label(k)}: {value_text(v, k)}" for k, v in value.items())
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            # tables of a seating: one numbered line each
            return "\n".join(f"{i}. {', '.join(str(x) for x in v)}" for i, v in enumerate(value, start=1))
        return ", ".join(value_text(v, field) for v in value)
    return str(value)


def diff_rows(before, after):
    """The table of an entry: (columns, rows). A change has the columns "before" and "after" and a row
    (field, [before, after]) for each field that changed (every field when none did); a creation or a
    deletion has the one column of the values written or removed."""
    if before is None and after is None:
        return (), []
    if not isinstance(before, dict) and not isinstance(after, dict):
        columns = tuple(name for name, value in (("before", before), ("after", after)) if value is not None)
        values = {"before": before, "after": after}
        return columns, [(str(_("value")), [value_text(values[c]) for c in columns])]
    if isinstance(before, dict) and isinstance(after, dict):
        names = list(before) + [k for k in after if k not in before]
        changed = [k for k in names if before.get(k) != after.get(k)]
        if changed:
            names = [k for k in names if k in changed or k in IDENTITY]
        return ("before", "after"), [(str(field_label(k)), [value_text(before.get(k), k), value_text(after.get(k), k)])
                                     for k in names]
    column, values = ("after", after) if isinstance(after, dict) else ("before", before)
    return (column,), [(str(field_label(k)), [value_text(v, k)]) for k, v in values.items()]
