from django.urls import path

from tables.arbitration import views as arbitration_views
from tables.arbitration.kinds import MATCH
from tables.clock import views as clock_views
from tables.live import views as live_views
from tables.push import views as push_views
from tables.standings import championship_views
from tables.standings import export_views
from tables.results import firenze_views
from tables.standings import formula_views
from tables.results import offline_views
from tables.results import views as results_views
from tables.standings import views as standings_views
from tables.rounds import views
from tables.room import views as room_views

public_patterns = [
    path("formule/", formula_views.formula_list, name="formulas"),
    path("formule/<slug:key>/", formula_views.formula_detail, name="formula"),
    path("t/<int:pk>/turni/<int:number>/", views.public_round, name="round"),
    path("t/<int:pk>/classifica/", standings_views.standings, name="standings"),
    path("t/<int:pk>/classifica/stampa/", standings_views.standings_print, name="standings_print"),
    path("t/<int:pk>/giocatori/<int:reg_pk>/", standings_views.player_page, name="player"),
    path("api/v1/tournaments/<int:pk>/standings.json", standings_views.standings_json, name="standings_json"),
    path("api/v1/tournaments/<int:pk>/rounds/<int:number>/tables.json", standings_views.tables_json, name="tables_json"),
    path("t/<int:pk>/squadre/", standings_views.team_standings_page, name="team_standings"),
    path("t/<int:pk>/classifica/squadre/", championship_views.championship_standings, name="championship_standings"),
    path("api/v1/tournaments/<int:pk>/teams.json", championship_views.championship_json, name="championship_json"),
    # One event per change the tournament's screens show (tables.live): served by the `live` pool.
    path("t/<int:pk>/live/", live_views.live, name="live"),
]

# "Your table is ready": a phone following a player is told their table when a round is published (tables.push).
public_patterns += [
    path("notifiche/sw.js", push_views.worker, name="push_worker"),
    path("t/<int:pk>/giocatori/<int:reg_pk>/notifiche/", push_views.subscribe, name="push_subscribe"),
    path("notifiche/disattiva/", push_views.unsubscribe, name="push_unsubscribe"),
]

manage_patterns = [
    path("t/<int:pk>/formule/", formula_views.formulas_compared, name="formulas_compared"),
    path("regolamenti/prova/", formula_views.what_if_draft, name="what_if_draft"),
    path("t/<int:pk>/turni/", views.rounds, name="rounds"),
    path("t/<int:pk>/risultati/", results_views.results, name="results"),
    path("t/<int:pk>/turni/<int:number>/", views.round_detail, name="round"),
    path("t/<int:pk>/turni/<int:number>/tocca/", views.seat_tap, name="seat_tap"),
    path("t/<int:pk>/turni/<int:number>/sposta/", views.seat_move, name="seat_move"),
    path("t/<int:pk>/turni/<int:number>/risultati/", views.round_dashboard, name="round_dashboard"),
    path("t/<int:pk>/turni/<int:number>/schede/", views.table_sheets, name="sheets"),
    path("t/<int:pk>/incontri/", views.meetings, name="meetings"),
    path("t/<int:pk>/turni/<int:number>/<slug:action>/", views.round_action, name="round_action"),
    path("t/<int:pk>/export/classifica.csv", export_views.standings_csv, name="standings_csv"),
    path("t/<int:pk>/export/risultati.csv", export_views.results_csv, name="results_csv"),
    path("t/<int:pk>/classifica/squadre/", championship_views.championship_table, name="championship_table"),
    path("t/<int:pk>/export/squadre.csv", championship_views.championship_csv, name="championship_csv"),
]

arbiter_patterns = [
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("t/<int:pk>/", results_views.arbiter_home, name="home"),
    path("t/<int:pk>/turni/<int:number>/", results_views.arbiter_home, name="round"),
    path("t/<int:pk>/miei-tavoli/", results_views.own_tables_choose, name="own_tables"),
    path("t/<int:pk>/turni/<int:number>/tavoli/<int:table_number>/", results_views.table_result, name="table"),
    path("t/<int:pk>/turni/<int:number>/tavoli/<int:table_number>/firenze/", firenze_views.firenze_sheet,
         name="firenze_sheet"),
    path("t/<int:pk>/penalita/", arbitration_views.penalties, name="penalties"),
    path("t/<int:pk>/penalita/partite/", arbitration_views.penalty_games, name="penalty_games"),
    path("t/<int:pk>/penalita/<int:penalty_pk>/ritira/", arbitration_views.penalty_withdraw, name="penalty_withdraw"),
    path("t/<int:pk>/ricorsi/", arbitration_views.disputes, name="disputes"),
    path("t/<int:pk>/ricorsi/<int:dispute_pk>/", arbitration_views.dispute_decide, name="dispute"),
]

# Round clock and end roll (tables.clock.services).
public_patterns += [
    path("t/<int:pk>/orologio/", clock_views.clock_public, name="clock"),
]

manage_patterns += [
    path("t/<int:pk>/orologio/<int:number>/", clock_views.clock_manage, name="clock"),
    path("t/<int:pk>/orologio/<int:number>/<slug:action>/", clock_views.clock_action, name="clock_action"),
]

arbiter_patterns += [
    path("t/<int:pk>/turni/<int:number>/tavoli/<int:table_number>/sdadata/", clock_views.end_roll_page,
         name="endroll"),
    path("t/<int:pk>/turni/<int:number>/tavoli/<int:table_number>/sdadata/annulla/", clock_views.end_roll_undo,
         name="endroll_undo"),
]

# The room: big screen, wall list, poster, a table's sheet, embeddable standings (tables.room).
public_patterns += [
    path("t/<int:pk>/schermo/", room_views.screen, name="screen"),
    path("t/<int:pk>/schermo/dati.json", room_views.screen_data, name="screen_data"),
    path("t/<int:pk>/locandina/", room_views.poster, name="poster"),
    path("t/<int:pk>/turni/<int:number>/elenco/", room_views.wall_list, name="wall_list"),
    path("t/<int:pk>/turni/<int:number>/tavoli/<int:table_number>/scheda/", room_views.table_sheet,
         name="table_sheet"),
    path("t/<int:pk>/classifica/widget/", room_views.standings_widget, name="standings_widget"),
    path("api/v1/tournaments/<int:pk>/players/<int:reg_pk>.json", standings_views.player_json, name="player_json"),
]

manage_patterns += [
    path("t/<int:pk>/sala/", room_views.room_settings, name="room"),
]

# 2vs2 team penalties, published days and disputes (a withdrawal and a decision: the games' views, for a match).
arbiter_patterns += [
    path("t/<int:pk>/squadre/arbitri/", arbitration_views.team_arbitration_page, name="team_arbitration"),
    path("t/<int:pk>/squadre/giornate/<int:number>/pubblica/", arbitration_views.team_day_publish,
         name="team_day_publish"),
    path("t/<int:pk>/squadre/penalita/<int:penalty_pk>/ritira/", arbitration_views.penalty_withdraw, {"of": MATCH},
         name="team_penalty_withdraw"),
    path("t/<int:pk>/squadre/ricorsi/<int:dispute_pk>/", arbitration_views.dispute_decide, {"of": MATCH},
         name="team_dispute"),
]
