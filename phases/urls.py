from django.urls import path

from phases import services, views
from tournaments import views as tournament_views

public_patterns = [
    path("t/<int:pk>/classifica-finale/", views.final_standings, name="final_standings"),
]

manage_patterns = [
    # The new-tournament and settings pages: a club rule picked there sets the format it names too.
    path("tornei/nuovo/", tournament_views.tournament_create, {
        "save": services.tournament_save_following_rule, "copy": services.tournament_copy_following_rule},
        name="tournament_create"),
    path("t/<int:pk>/modifica/", tournament_views.tournament_edit, {"save": services.tournament_save_following_rule},
         name="tournament_edit"),
    path("t/<int:pk>/formato/", views.formats_page, name="formats"),
    path("t/<int:pk>/formato/fasi/<int:order>/<slug:action>/", views.phase_action, name="phase_action"),
    path("t/<int:pk>/tabellone/", views.bracket, name="bracket"),
]
