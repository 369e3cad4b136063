from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuits")

    def ready(self):
        from tournaments.management.demo import add_part
        add_part("circuits.demo.load_demo_circuit")
