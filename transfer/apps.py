from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TransferConfig(AppConfig):
    name = "transfer"
    verbose_name = _("Tournament export and import")

    def ready(self):
        from tournaments.management.demo import demo_loaded
        from transfer.demo import load_demo_imports
        demo_loaded.connect(load_demo_imports, dispatch_uid="transfer.demo")
