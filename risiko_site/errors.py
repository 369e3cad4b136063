"""When the database cannot be reached, every page answers a short 503 asking to try again.

Django turns an exception raised anywhere in a request (a view, the session or authentication
middleware) into the 500 handler's answer; `server_error` is that handler and answers 503 with
`Retry-After` when the exception is the database's (unreachable, restarting, a connection lost),
else Django's own 500. The page is written without templates, context processors or the session:
all of them may need the database. `DatabaseUnavailableFilter` logs such a request as one line,
without the traceback (the database's outage is the news, not where each request met it).
"""
import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.utils.html import escape
from django.utils.translation import get_language_from_request, override
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

RETRY_AFTER_SECONDS = 5
NOTICE = "RisiKo! è un marchio registrato ® Editrice Giochi Srl - Tutti i diritti riservati."


def database_unavailable(exc):
    return isinstance(exc, (OperationalError, InterfaceError))


def unavailable_response(request):
    """In the visitor's language (from their cookie or browser: the session may be out of reach)."""
    language = get_language_from_request(request)
    with override(language):
        return _unavailable_page(language)


def _unavailable_page(language):
    title = _("Service unavailable")
    text = _("The site cannot reach its database right now: try again in a moment.")
    body = (f'<!doctype html><html lang="{escape(language)}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
            f'</head><body><main><h1>{escape(title)}</h1><p data-unavailable>{escape(text)}</p></main>'
            f'<footer><p data-trademark>{NOTICE}</p></footer></body></html>')
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request, *args, **kwargs):
    """handler500: called while the request's exception is being handled."""
    if database_unavailable(sys.exc_info()[1]):
        return unavailable_response(request)
    return django_server_error(request, *args, **kwargs)


class DatabaseUnavailableFilter(logging.Filter):
    """On django.request: a request the database's outage refused is logged without its traceback."""

    def filter(self, record):
        if record.exc_info and database_unavailable(record.exc_info[1]):
            record.msg = f"{record.msg} (database unavailable: %s)"
            first_line = (str(record.exc_info[1]).strip().splitlines() or [""])[0]
            record.args = (*(record.args or ()), first_line)
            record.exc_info = None
            record.exc_text = None
        return True
