from django.urls import path

from transfer import views
from transfer.workbooks import views as workbook_views

manage_patterns = [
    path("t/<int:pk>/export/torneo.json", views.tournament_json, name="tournament_json"),
    path("t/<int:pk>/export/torneo.xlsx", workbook_views.tournament_workbook, name="tournament_workbook"),
    path("t/<int:pk>/export/gestionetorneo.xlsx", workbook_views.tournament_workbook_gestione,
         name="tournament_workbook_gestione"),
    path("tornei/importa/", workbook_views.past_import, name="past_import"),
]
