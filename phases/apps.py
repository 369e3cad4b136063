from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PhasesConfig(AppConfig):
    name = "phases"
    verbose_name = _("Tournament formats")
