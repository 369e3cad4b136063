from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuits")

    def ready(self):
        from circuits.demo import load_demo_circuit
        from tournaments.management.demo import demo_loaded
        demo_loaded.connect(load_demo_circuit, dispatch_uid="circuits.demo")
