"""What a dispute needs, about a round's tables or a 2vs2 day (seed 001 art. 2): who raised it and what
it says, recorded while the window after the standings' publication is open."""
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _


def text_errors(raised_by, text):
    """{field: message} for a dispute missing who raised it or what it says."""
    errors = {}
    if not (raised_by or "").strip():
        errors["raised_by"] = _("Say who raised the dispute.")
    if not (text or "").strip():
        errors["text"] = _("Write what the dispute says.")
    return errors


def require_window_open(tournament, closes, now):
    """Refused once the window (`closes`, None while nothing is published) has closed."""
    if closes is not None and now > closes:
        raise ValidationError(_("The time for disputes closed at %(time)s (%(minutes)d minutes after the "
                                "standings were published).") % {
            "time": timezone.localtime(closes).strftime("%H:%M"), "minutes": tournament.dispute_window_minutes})
