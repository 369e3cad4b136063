"""The round clock and the end roll on table pages: `{% load endroll %}{% endroll_banner table %}`."""
from django import template
from django.utils import timezone

from tables.clock.selectors import DEFAULT_MINUTES, clock_state, end_roll_state
from tables.models import Round

register = template.Library()


@register.filter
def duration(seconds):
    """Seconds as minutes and seconds, like a chess clock: 90:00, 05:09."""
    if seconds is None or seconds == "":
        return ""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes:02d}:{secs:02d}"


@register.inclusion_tag("formats/_endroll_banner.html")
def endroll_banner(table):
    """When the round's time is up and the table has no result yet: the end roll in progress."""
    rnd = table.round
    if rnd.status != Round.Status.PUBLISHED or table.reported or not clock_state(rnd).expired:
        return {"show": False}
    tournament = rnd.tournament
    return {"show": True, "table": table, "round": rnd, "tournament": tournament,
            "state": end_roll_state(table, tournament.end_roll_variant)}


@register.inclusion_tag("formats/_clock_start.html", takes_context=True)
def round_clock_controls(context, rnd, back):
    """"Start the clock" where the organiser is (the published round's page, the results dashboard):
    the clock itself once it runs. `back`: the page the start returns to ("round" or "dashboard")."""
    state = clock_state(rnd)
    epoch = lambda value: int(value.timestamp() * 1000) if value else ""  # noqa: E731
    return {"tournament": rnd.tournament, "round": rnd, "clock": state, "back": back,
            "deadline_ms": epoch(state.deadline), "now_ms": epoch(timezone.now()),
            "minutes": rnd.clock_minutes or DEFAULT_MINUTES, "csrf_token": context.get("csrf_token"),
            "show": rnd.status == Round.Status.PUBLISHED}
