"""The tournament formats as data: what each preset sets up, its help and the decisions it states
(phases/presets.py reads them: the phases each plans, the checks of a composed format, the advice
below a knockout's range).

Seed 004 ("Formule per un Torneo Ufficiale", semifinal guidance, "eliminazione diretta"), seed 000
(Como, rules 3-5), seed 001 (2vs2 teams), SCORING.md 13.10 (the national team championship), 13.9 (the
Raduno), 13.4-13.8 (the Master)."""
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

# Seed 003 (Firenze knockout): what the application decided where the seed is silent.
KNOCKOUT_DECISIONS = (
    gettext_lazy("A game ended by time is decided at the table by the Firenze points sheet (Firenze tournament rules): "
                 "its totals may exceed 200 and the places follow the sheet, not the objective table points; a "
                 "player eliminated before time gets an empty sheet; a complete draw for first place is settled "
                 "by a lot drawn at the table."),
    gettext_lazy("An absent or withdrawn qualifier (not checked in) is replaced by the best second of the previous "
                 "game: placed 2nd at their table; the seconds are compared on one scale, their points as a share "
                 "of their own table winner's points (table points where the game ended on the board, sheet "
                 "points where the Firenze sheet decided it), so a sheet's hundreds never win by their size alone; "
                 "equal shares by name; the next draw is never blocked."),
    gettext_lazy("A published knockout draw is not changed: a swap or a move asks for a confirmation that names "
                 "the players and tables it changes, and is logged."),
)
FINAL_LEADS = gettext_lazy(
    "After the final (and the finalina) the public standings page, its JSON and the CSV export lead with the "
    "final order, then the qualifying ranking; the page says \"definitive\" once every round is closed, its "
    "standings published and the dispute window over.")
KNOCKOUT_PAGE = gettext_lazy(
    "The public standings page shows no points ranking: who is still in, and the game in which each player "
    "went out; after the final, the final order, then by the game lost (later first) and the place at that "
    "table.")
TIES_BY_NAME = gettext_lazy("Players sharing a rank are listed by surname, then first name.")
FINAL_SIZE = 4  # seed 004: "una finale fra i primi 4 della classifica"; the finalina takes 5th-8th


@dataclass(frozen=True)
class Preset:
    """What a format of seed 004 / 000 / 001 sets up. Ranges bound the organiser's choices."""
    games: int = 0
    games_range: tuple = (0, 0)
    discards: int = 0
    discards_range: tuple = (0, 0)
    discards_optional: bool = False  # seed 004 "possibilità di scartare": 0 discards is allowed too
    final: str = "no"            # "no", "yes" or "optional"
    finalina: bool = False       # a finalina (5th-8th) may be added beside the final
    semifinals: bool = False
    knockout: bool = False
    second_chance: bool = False
    teams: bool = False
    end_roll: str = ""           # the end-roll variant the format sets (the organiser may change it after)
    tournament_settings: dict = field(default_factory=dict)
    help: str = ""
    decisions: tuple = ()        # what the application decided where the seed is silent
    qualify: dict = field(default_factory=dict)  # composed formats: SCORING.md section 12 settings
    best_of_allowed: bool = False  # the organiser may count the best N results instead of discarding


def _tier(up_to, direct, semifinal=None, seats=0, min_games=1):
    return {"up_to": up_to, "direct": direct, "semifinal": list(semifinal) if semifinal else None,
            "repechage": {"seats": seats, "min_games": min_games}}


REPECHAGE_DECISIONS = (
    gettext_lazy("A player absent when the semifinals (or the final) "
                 "are seated gives their seat to the next in the standings; the repêchage takes the best single "
                 "game among the players not yet qualified who played the minimum of games (absences are not "
                 "games)."),
    gettext_lazy("One finalist per semifinal table; the semifinal tables are as even as possible (11 seats: 4+4+3), "
                 "filled in a snake from the standings, the repêchage last."),
    gettext_lazy("The participants who choose the settings are the players with a result in the qualifying "
                 "rounds (absences included)."),
)


PRESETS = {
    "sum3": Preset(3, (3, 3), 0, (0, 1), help=gettext_lazy(
        "R.T.U. Editrice Giochi, one-day tournaments: 3 games, points summed; optionally only the 2 best "
        "count (1 discard).")),
    "sum3_final": Preset(3, (3, 3), 0, (0, 1), final="yes", decisions=(FINAL_LEADS, TIES_BY_NAME), help=gettext_lazy(
        "R.T.U. Editrice Giochi: 3 games, then a final among the top 4 of the standings.")),
    "semis16": Preset(2, (2, 2), final="yes", semifinals=True, decisions=(FINAL_LEADS, TIES_BY_NAME),
                      tournament_settings={"formula": "bonus50"}, help=gettext_lazy(
        "R.T.U. Editrice Giochi, two-day tournaments: 2 games (table points + bonus 50), semifinals of the "
        "top 16, final. "
        "With fewer than 32 players: the 1st straight to the final and 3 semifinals of 2nd-12th, or the top 2 "
        "and 2 semifinals of 3rd-10th; one finalist per semifinal.")),
    "evenings_final": Preset(5, (4, 6), 1, (1, 2), discards_optional=True, final="yes", finalina=True,
                             decisions=(gettext_lazy("\"Possibilità di scartare\": discarding is an option, so "
                                                     "0 discards is allowed."), FINAL_LEADS, TIES_BY_NAME),
                             help=gettext_lazy(
        "R.T.U. Editrice Giochi, a few evenings: 4 to 6 games with the option of discarding 1 or 2 results (0 "
        "is allowed), a "
        "final of the top 4 and optionally a finalina of 5th-8th.")),
    "championship": Preset(8, (8, 30), 2, (2, 10), discards_optional=True, final="optional", decisions=(
        gettext_lazy("\"Possibilità di scartare almeno 2 risultati\": no discard, or 2 or more; never 1."),
        FINAL_LEADS, TIES_BY_NAME), help=gettext_lazy(
        "R.T.U. Editrice Giochi, championship: at least 8 evenings with the option of discarding at least 2 "
        "results (0 is "
        "allowed; 1 is not), optionally a final of the top 4.")),
    "evenings_top2_repechage": Preset(
        9, (1, 30), 3, (0, 29), discards_optional=True, final="yes", finalina=True, best_of_allowed=True,
        qualify={"tiers": [_tier(24, 2, (3, 9), 1, 3), _tier(None, 1, (2, 12), 1, 3)], "final_size": 4},
        decisions=(gettext_lazy("Above 24 participants only the 1st goes straight to the final and 2nd-12th "
                                "play three semifinals with the repêchage."),) + REPECHAGE_DECISIONS
        + (FINAL_LEADS, TIES_BY_NAME),
        help=gettext_lazy(
            "Evenings with discards (usually 9, the worst 3 discarded; an absence scores 0 and can be "
            "discarded); up to 24 participants the top 2 go straight to the final; 3rd-9th play two semifinals "
            "of 4 with one repêchage (best single game below, at least 3 games played); final of 4.")),
    "evenings_top1_repechage": Preset(
        7, (1, 30), 1, (0, 29), discards_optional=True, final="yes", finalina=True, best_of_allowed=True,
        qualify={"tiers": [_tier(None, 1, (2, 12), 1, 1)], "final_size": 4},
        decisions=REPECHAGE_DECISIONS + (FINAL_LEADS, TIES_BY_NAME),
        help=gettext_lazy(
            "Evenings with the worst result discarded (usually 4 or 7; an absence scores 0 and can be the "
            "discarded result; anyone may join at any evening): the 1st straight to the final; 2nd-12th and "
            "one repêchage (best single game among the others) play three semifinals of 4; final of 4.")),
    "composed": Preset(
        5, (1, 30), 0, (0, 29), discards_optional=True, final="yes", finalina=True, best_of_allowed=True,
        qualify={"tiers": [_tier(None, 1, (2, 12), 1, 1)], "final_size": 4},
        decisions=REPECHAGE_DECISIONS + (FINAL_LEADS, TIES_BY_NAME),
        help=gettext_lazy(
            "Build your own: the number of qualifying games, discards or best results, how many go straight "
            "to the final, the semifinal range, the repêchage seats, a final of 4 or 5, a finalina; the "
            "settings may change above a number of participants.")),
    "knockout": Preset(knockout=True, decisions=KNOCKOUT_DECISIONS + (KNOCKOUT_PAGE,), help=gettext_lazy(
        "R.T.U. Editrice Giochi, knockout without second chance (64-125 players): only the table winners go on, "
        "semifinals, final.")),
    "knockout_second_chance": Preset(knockout=True, second_chance=True, decisions=KNOCKOUT_DECISIONS + (KNOCKOUT_PAGE,),
                                     help=gettext_lazy(
        "R.T.U. Editrice Giochi, knockout with second chance (37-69 players): the losers of the first game "
        "play a second "
        "one; the winners of both go to the semifinals, then the final.")),
    "como": Preset(4, (4, 4), end_roll="lariana", decisions=(
        gettext_lazy("The F.I.RK. Como rules end timed games with their own roll (art. 44.1, Lariana): the "
                     "format sets it; the organiser may choose another below."),
        gettext_lazy("With the top 5 at table 1, the other players sit at the preferred table size: 11 present "
                     "play 5+6 preferring 5, 5+3+3 preferring 4; 12 play 5+4+3; 16 play 5+6+5 or 5+4+4+3. "
                     "Table 1 is never of 6."),
        TIES_BY_NAME), tournament_settings={
        "formula": "punti_tavolo", "best_of": 3, "como_reference": 5, "table_size": 5,
        "tiebreak": "best_results", "discard_worst": 0}, help=gettext_lazy(
        "F.I.RK. rules, Como tournament: 4 evenings at tables of 5; table 1 = the top 5 of the standings when "
        "at least 9 are "
        "present; the other tables take 3 to 6 players and their points get the correctives 3/5, 4/5, 6/5 "
        "(tables of 5 are unchanged); the best 3 results count; ties by best, then second-best result; "
        "timed games end with the Lariana roll (art. 44.1: 3 more rounds, then 4, then 4 or 7), which can "
        "be changed below.")),
    "teams_2vs2": Preset(teams=True, help=gettext_lazy(
        "Rahal Maut 2vs2 rules: teams of 2 (up to 3 registered) in a single round robin; match points "
        "3/2/1/0."), decisions=(
        gettext_lazy("A team penalty takes match points off the team's standings from the day it is given, never "
                     "below 0; head to head counts the matches only."),
        gettext_lazy("Teams still level after head to head and territories share the place and are listed by "
                     "name."),
        gettext_lazy("A day's standings are published once every match of that day has its result; a dispute about "
                     "a match of that day is accepted until the dispute window (2 hours) after the publication, "
                     "and always before it."),
        gettext_lazy("The standings of a day stay provisional until its window has closed with no dispute still "
                     "open about that day or an earlier one."))),
    "team_championship": Preset(
        3, (3, 3), 0, (0, 0), tournament_settings={"formula": "standard", "best_of": None}, help=gettext_lazy(
            "National team championship: every player plays 3 individual games (standard "
            "points: 12, 7, 5, 3 and the table points as decimals); the clubs enter teams of 4 of their own "
            "players, and a team's total is the sum of its 9 best results out of 12 (3 discarded)."),
        decisions=(
            gettext_lazy("The organiser composes the teams on the \"Teams of the championship\" page: 4 confirmed "
                         "players of one club each; a club may enter several teams; a player without a team "
                         "plays and is ranked in the individual standings, counting for no team."),
            gettext_lazy("Teams are composed and dissolved before the first result is entered; a team may be "
                         "renamed at any time."),
            gettext_lazy("The draw keeps players of the same club, hence team-mates, at different tables "
                         "whenever the numbers allow it."),
            gettext_lazy("Teams level on total are ordered by their counted results compared best first; still "
                         "level, they share the rank and are listed in the order the teams were entered."),
            TIES_BY_NAME)),
}

# --- Raduno: parallel finals with shared ranks (SCORING.md 13.9) ---------------------------------
RADUNO = "raduno"
RADUNO_DECISIONS = (
    gettext_lazy("The number of finals follows the club program's thresholds (soglieRaduni): 1 final up to 76 "
                 "participants, 2 up to 116, 3 up to 156, 4 up to 196, 5 above (the GestioneTorneo manual prints "
                 "\"116 - 156\" in its table and \"between 150 and 199\" in its text). The participants are the "
                 "players with a result in the qualifying rounds (absences included)."),
    gettext_lazy("With k finals the first 16 x k present players of the qualifying order (a shared rank decided by "
                 "the best single game, then the second best, ...) form k groups: the 1st to group 1, the 2nd to "
                 "group 2, ..., the (k+1)-th to group 1 again. Each group plays 4 semifinals filled in a snake "
                 "from its own order (group 1 at tables 1-4, group 2 at 5-8, ...); the 4 winners of group g play "
                 "final g, at table g. An absent player gives the seat to the next present one."),
    gettext_lazy("The GestioneTorneo manual plays the final(s) as the 4th round: 2 qualifying games by default; "
                 "the organiser may choose 1 to 6."),
    gettext_lazy("Players in the same place of their final share the rank: the k winners are 1st, the seconds "
                 "(k+1)-th, ...; the others follow by the standings of the qualifying games plus the semifinal "
                 "they lost (the semifinal adds points here, unlike the other formats)."),
    TIES_BY_NAME,
)
PRESETS[RADUNO] = Preset(
    2, (1, 6), final="yes", semifinals=True, decisions=RADUNO_DECISIONS,
    tournament_settings={"formula": "bonus50", "como_reference": 4, "corrective_scope": "table_points",
                         "tiebreak": "best_results,previous_round"},
    help=gettext_lazy(
        "RCU Roma, Raduno / Open: qualifying games (table points, x0.75 at tables of 3 and x1.25 at tables of "
        "5, plus 50 to the winner), then 4 semifinals of the top 16 and a final of the 4 semifinal winners; "
        "above 76 players 2 to 5 finals are played side by side, each with its own semifinals, and the "
        "players in the same place of each final share the rank."))

# --- The Master (SCORING.md 13.4, 13.7, 13.8; club preset "master", 13.12) ------------------------------
# 2 games in thousandths, ties by the best results then the standings after the previous round; semifinals
# of 1st-16th, or 2nd-13th with the sole unbeaten leader straight to the final (scoring.qualify's
# `direct_if_unbeaten`); final of 4, whose order leads the standings.
MASTER_QUALIFY = {"tiers": [{"up_to": None, "direct": 0, "semifinal": [1, 16],
                             "repechage": {"seats": 0, "min_games": 1},
                             "direct_if_unbeaten": {"semifinal": [2, 13]}}],
                  "final_size": 4}
MASTER_DECISIONS = (
    gettext_lazy("\"Alone at the top\" (\"da solo in testa\") means the only player ranked 1st once the "
                 "tie-breaks are applied (best results, then the standings after the previous round): two "
                 "players equal on all of them share the 1st place and the 4 semifinals of the top 16 are "
                 "played (an interpretation of the Master rules). A game won is place 1 at the table, shared or "
                 "not; a player who missed a game has not won both."),
    gettext_lazy("A player not checked in when the semifinals are seated gives their seat to the next in the "
                 "standings; the unbeaten leader must be checked in to go straight to the final, otherwise the "
                 "4 semifinals of the top 16 are played."),
    gettext_lazy("With fewer than 16 players present every player present plays a semifinal: 4 semifinals of "
                 "3 or 4 players from 12 present (3 semifinals from 10 present when the leader goes straight "
                 "to the final); with 10 or 11 present the 1st goes straight to the final anyway and the others "
                 "play 3 semifinals, as in the two-day format of the Editrice Giochi guidelines below 32 "
                 "players; below 10 present the semifinals are not seated."),
)
PRESETS["master"] = Preset(
    2, (2, 2), final="yes", semifinals=True, qualify=MASTER_QUALIFY,
    tournament_settings={"formula": "millesimi", "tiebreak": "best_results,previous_round"},
    decisions=MASTER_DECISIONS + (FINAL_LEADS, TIES_BY_NAME), help=gettext_lazy(
        "Master (MasterRisiko, Victory): 2 games in thousandths (a win is 1 plus the table points in "
        "thousandths; at tables of 5 the table points count x1.25, at most 1.100), ties by the best results, "
        "then the standings after the previous round; semifinals of the top 16 (4 tables, one finalist "
        "each); when after the 2 games one player alone leads the standings having won both games, they go "
        "straight to the final and 2nd-13th play 3 semifinals; final of 4, whose order leads the standings."))


# Seed 004 "eliminazione diretta": the numbers of players each knockout presupposes.
KNOCKOUT_RANGES = {"knockout": (64, 125), "knockout_second_chance": (37, 69)}
