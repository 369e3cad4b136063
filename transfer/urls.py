from django.urls import path

from transfer import views

manage_patterns = [
    path("t/<int:pk>/export/torneo.json", views.tournament_json, name="tournament_json"),
]
