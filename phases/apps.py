from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PhasesConfig(AppConfig):
    name = "phases"
    verbose_name = _("Tournament formats")

    def ready(self):
        # The public standings page (tables app, below this one) leads with the final order or the
        # knockout's progress (SCORING.md section 6, 4.13).
        from phases.public import phase_lead
        from tables.standings import selectors as standings
        standings.register_lead(phase_lead)
        # During the qualifying evenings of a composed format: the cut lines (SCORING.md section 12).
        from phases.public import cut_lines
        standings.register_cut_lines(cut_lines)
