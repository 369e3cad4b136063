from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = _("Tournament export and import")

    def ready(self):
        from tournaments.management.demo import add_part
        add_part("transfer.demo.load_demo_imports")
