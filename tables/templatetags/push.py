"""The player's "Notify me when my table is ready" (tables.push): `{% load push %}{% push_option tournament reg %}`,
nothing without the site's VAPID keys."""
from django import template
from django.conf import settings

from tables.push.selectors import enabled

register = template.Library()


@register.inclusion_tag("tables/push/_option.html")
def push_option(tournament, reg):
    return {"shown": enabled(), "key": settings.VAPID_PUBLIC_KEY, "tournament": tournament, "reg": reg}
