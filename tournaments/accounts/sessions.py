"""The database session store, refusing session keys that Django never hands out.

Django's keys are 32 characters of [a-z0-9]. A cookie holding anything else (a NUL byte, which
PostgreSQL refuses in a query, or any forged text) is treated as no session at all: the visitor is
anonymous, never a 500."""
import re

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

SESSION_KEY = re.compile(r"[a-z0-9]{8,40}")


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key):
        return bool(key) and SESSION_KEY.fullmatch(key) is not None
