"""A service's answer as the message the next page shows."""
from django.contrib import messages
from django.core.exceptions import ValidationError


def run_with_message(request, service, done=None, **kwargs):
    """Call `service(**kwargs)`: its ValidationError becomes the page's error message (False is returned),
    else `done`, when given, the success message (True)."""
    try:
        service(**kwargs)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return False
    if done:
        messages.success(request, done)
    return True
