from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = _("Tournament export and import")
