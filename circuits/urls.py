from django.urls import path

from circuits import views

public_patterns = [
    path("circuiti/", views.circuits_public, name="circuits"),
    path("circuiti/<int:pk>/", views.circuit_public, name="circuit"),
    path("circuiti/<int:pk>/classifica.csv", views.circuit_csv, name="circuit_csv"),
    path("api/v1/circuits/<int:pk>.json", views.circuit_json, name="circuit_json"),
    path("giocatori/<int:player_pk>/", views.player_history_page, name="player_history"),
]

manage_patterns = [
    path("circuiti/", views.circuit_list, name="circuits"),
    path("circuiti/<int:pk>/", views.circuit_manage, name="circuit"),
    path("circuiti/<int:pk>/regola/", views.circuit_season_rule, name="circuit_season_rule"),
    path("circuiti/<int:pk>/tornei/<int:entry_pk>/rimuovi/", views.circuit_tournament_remove,
         name="circuit_tournament_remove"),
]
