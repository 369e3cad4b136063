"""The abstract models of arbitration, shared by a game's penalties and disputes (tables.models.Penalty,
Dispute) and a 2vs2 match's (tables.models.TeamPenalty, TeamDispute): the reason, who gave or recorded
it and when, its withdrawal or decision, and the window within which a dispute is accepted (one place
for a round's tables and a 2vs2 day)."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class PenaltyBase(models.Model):
    """A decision against a player or a team: its public reason, who gave it and when, and its
    withdrawal (kept, marked withdrawn, counting no more)."""

    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.TextField(_("reason for withdrawal"), blank=True)

    class Meta:
        abstract = True

    def withdraw(self, *, user, reason, now):
        """Mark withdrawn (the caller checks, saves and logs)."""
        self.withdrawn, self.withdrawn_by, self.withdrawn_at = True, user, now
        self.withdrawn_reason = reason.strip()


class DisputeBase(models.Model):
    """A dispute (ricorso, seed 001 art. 2): who raised it, its text, who recorded it, its state and
    decision; accepted while the window after the standings' publication is open."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        UPHELD = "upheld", _("upheld")
        REJECTED = "rejected", _("rejected")

    raised_by = models.CharField(_("raised by"), max_length=120)
    raised_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    text = models.TextField(_("text"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    decision = models.TextField(_("decision"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-raised_at", "-pk"]

    # The window (seed 001 art. 2: "a questa potrà essere presentato ricorso entro 2 ore dalla
    # pubblicazione") is the same for a round's tables and a 2vs2 day.

    @staticmethod
    def window_closes(tournament, published_at):
        """When disputes about standings published at `published_at` stop being accepted (None: not
        published yet, disputes are accepted)."""
        return tournament.dispute_window_closes(published_at)

    @staticmethod
    def text_errors(raised_by, text):
        """{field: message} for a dispute missing who raised it or what it says."""
        errors = {}
        if not (raised_by or "").strip():
            errors["raised_by"] = gettext("Say who raised the dispute.")
        if not (text or "").strip():
            errors["text"] = gettext("Write what the dispute says.")
        return errors

    @staticmethod
    def require_window_open(tournament, closes_at, now):
        """Refused once the window (`closes_at`, None while nothing is published) has closed."""
        if closes_at is not None and now > closes_at:
            raise ValidationError(gettext("The time for disputes closed at %(time)s (%(minutes)d minutes after "
                                          "the standings were published).") % {
                "time": timezone.localtime(closes_at).strftime("%H:%M"),
                "minutes": tournament.dispute_window_minutes})

    def decide(self, *, user, state, decision, now):
        """Uphold or reject (the caller checks, saves and logs)."""
        self.state, self.decision = state, decision.strip()
        self.decided_by, self.decided_at = user, now
