from django.urls import path

from phases import views

public_patterns = [
    path("t/<int:pk>/classifica-finale/", views.final_standings, name="final_standings"),
]

manage_patterns = [
    path("t/<int:pk>/formato/", views.formats_page, name="formats"),
    path("t/<int:pk>/formato/fasi/<int:order>/<slug:action>/", views.phase_action, name="phase_action"),
    path("t/<int:pk>/tabellone/", views.bracket, name="bracket"),
]
