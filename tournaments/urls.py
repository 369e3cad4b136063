from django.urls import path

from tournaments import views
from tournaments.accounts import views as account_views
from tournaments.audit import views as audit_views
from tournaments.club_rules import views as club_rule_views
from tournaments.registration import views as registration_views
from tournaments.registration import roster_views
from tournaments.teams import championship_views
from tournaments.teams import views as teams_views

public_patterns = [
    path("", views.home, name="home"),
    path("t/<int:pk>/", views.tournament_public, name="tournament"),
    path("t/<int:pk>/iscrizione/", views.signup, name="signup"),
]

manage_patterns = [
    path("", views.manage_home, name="home"),
    path("t/<int:pk>/", views.tournament_manage, name="tournament"),
    path("t/<int:pk>/arbitri/", account_views.tournament_arbiters, name="arbiters"),
    path("t/<int:pk>/arbitri/<int:user_pk>/link/", account_views.arbiter_link, name="arbiter_link"),
    path("organizzatori/", account_views.organisers, name="organisers"),
    path("organizzatori/<int:user_pk>/", account_views.organiser_role, name="organiser_role"),
    path("t/<int:pk>/registro/", audit_views.audit_log, name="audit_log"),
    path("t/<int:pk>/iscritti/", registration_views.registrations, name="registrations"),
    path("t/<int:pk>/iscritti/cerca/", registration_views.registration_search, name="registration_search"),
    path("t/<int:pk>/iscritti/aggiungi/", registration_views.registration_add, name="registration_add"),
    path("t/<int:pk>/iscritti/nuovo/", registration_views.registration_add_new, name="registration_add_new"),
    path("t/<int:pk>/iscritti/selezionati/", registration_views.registration_add_selected,
         name="registration_add_selected"),
    path("t/<int:pk>/iscritti/importa/", registration_views.registration_import, name="registration_import"),
    path("t/<int:pk>/iscritti/<int:reg_pk>/<slug:action>/", registration_views.registration_action,
         name="registration_action"),
    path("t/<int:pk>/presenze/", registration_views.checkin, name="checkin"),
    path("t/<int:pk>/presenze/tutti/", registration_views.checkin_all, name="checkin_all"),
    path("club/", roster_views.club_list, name="clubs"),
    path("club/nuovo/", roster_views.club_edit, name="club_create"),
    path("club/<int:club_pk>/", roster_views.club_edit, name="club_edit"),
    path("club/<int:club_pk>/elimina/", roster_views.club_delete, name="club_delete"),
    path("giocatori/", roster_views.player_list, name="players"),
    path("giocatori/nuovo/", roster_views.player_edit, name="player_create"),
    path("giocatori/<int:player_pk>/", roster_views.player_edit, name="player_edit"),
    path("giocatori/<int:player_pk>/unisci/", roster_views.player_merge, name="player_merge"),
    path("giocatori/<int:player_pk>/chiedi-unione/", roster_views.player_merge_request, name="player_merge_request"),
    path("giocatori/<int:player_pk>/elimina/", roster_views.player_delete, name="player_delete"),
    path("giocatori/importa/", roster_views.player_import, name="player_import"),
]

# 2vs2 teams (tournaments.teams.services; their standings page is in tables.urls).
manage_patterns += [
    path("t/<int:pk>/squadre/", teams_views.teams_page, name="teams"),
    path("t/<int:pk>/squadre/calendario/", teams_views.team_schedule, name="team_schedule"),
    path("t/<int:pk>/squadre/<int:team_pk>/elimina/", teams_views.team_delete, name="team_delete"),
]

# The teams of the national team championship (tournaments.teams.championship_services; their table is in tables.urls).
manage_patterns += [
    path("t/<int:pk>/squadre-campionato/", championship_views.championship_teams, name="championship_teams"),
    path("t/<int:pk>/squadre-campionato/<int:team_pk>/rinomina/", championship_views.championship_team_rename,
         name="championship_team_rename"),
    path("t/<int:pk>/squadre-campionato/<int:team_pk>/sciogli/", championship_views.championship_team_dissolve,
         name="championship_team_dissolve"),
]

# Club rules as data (tournaments.club_rules): the published ones and each organiser's own.
manage_patterns += [
    path("regolamenti/", club_rule_views.rule_list, name="club_rules"),
    path("regolamenti/nuovo/", club_rule_views.rule_create, name="club_rule_create"),
    path("regolamenti/esempio/", club_rule_views.rule_example, name="club_rule_example"),
    path("regolamenti/carica/", club_rule_views.rule_upload, name="club_rule_upload"),
    path("regolamenti/<int:pk>/", club_rule_views.rule_edit, name="club_rule"),
    path("regolamenti/<int:pk>/copia/", club_rule_views.rule_copy, name="club_rule_copy"),
    path("regolamenti/<int:pk>/elimina/", club_rule_views.rule_delete, name="club_rule_delete"),
    path("regolamenti/<int:pk>/scarica/", club_rule_views.rule_download, name="club_rule_download"),
]

arbiter_patterns = [
    path("t/<int:pk>/incontri-squadre/", teams_views.team_matches, name="team_matches"),
    path("t/<int:pk>/incontri-squadre/<int:match_pk>/", teams_views.team_match, name="team_match"),
]
