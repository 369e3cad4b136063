"""Login throttling, shared by every login form (the site's and /admin/login/) through the
authentication backend below.

- Per address: LOGIN_FAILURE_LIMIT failed logins from one client address in LOGIN_FAILURE_WINDOW_S
  lock that address. Every try is counted *before* the password is checked (one conditional UPDATE,
  atomic on SQLite and PostgreSQL) and given back when the password was right, so concurrent tries
  never check more passwords than the limit.
- Per account: once an account has LOGIN_FAILURE_LIMIT failures in the window, from anywhere, each
  address may try that account once every LOGIN_ACCOUNT_DELAY_S. The account is never locked: its
  owner typing the right password from another address gets in.
- The client address is REMOTE_ADDR, or with TRUSTED_PROXY_COUNT proxies in front the address the
  outermost of them wrote into X-Forwarded-For; an IPv6 client counts by its /64.
- Accounts are keyed by the normalised username (trimmed, NFKC, case-folded, invisible characters
  removed), so "Olga ", "olga" and "ｏｌｇａ" count as one.
"""
import ipaddress
import math
import unicodedata
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import timezone
from django.utils.translation import ngettext

from tournaments.models import LoginThrottle

KEY_LENGTH = LoginThrottle._meta.get_field("key").max_length


def client_address(request):
    """The address of the client, seen through TRUSTED_PROXY_COUNT trusted proxies."""
    remote = request.META.get("REMOTE_ADDR", "")
    candidate = remote
    hops = settings.TRUSTED_PROXY_COUNT
    if hops:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if forwarded:
            candidate = forwarded[-hops] if len(forwarded) >= hops else forwarded[0]
    for value in (candidate, remote):
        try:
            address = ipaddress.ip_address(value)
        except ValueError:
            continue
        if address.version == 6:
            if address.ipv4_mapped:
                return str(address.ipv4_mapped)
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
        return str(address)
    return "unknown"


def normalise_username(username):
    """One key for every spelling of an account name a login could be tried with."""
    text = unicodedata.normalize("NFKC", str(username or ""))
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cf", "Cc"))
    return unicodedata.normalize("NFKC", text.strip().casefold())


def _key(kind, *parts):
    return f"{kind}:{'|'.join(parts)}"[:KEY_LENGTH]


def _window():
    return timedelta(seconds=settings.LOGIN_FAILURE_WINDOW_S)


def _ensure(key, started_at):
    """The counter row of `key`, created at zero if missing (safe when two requests race)."""
    try:
        with transaction.atomic():
            LoginThrottle.objects.get_or_create(key=key, defaults={"count": 0, "started_at": started_at})
    except IntegrityError:
        pass


def _take(key, now, *, limit=None, window=None):
    """Count one try on `key` in its window (a window over restarts at 1). With a `limit`, the try
    is counted only while fewer than `limit` are: True when counted. One UPDATE statement, so
    concurrent requests cannot both take the last place."""
    expired = Q(started_at__lte=now - (window or _window()))
    _ensure(key, now)
    rows = LoginThrottle.objects.filter(key=key)
    if limit is not None:
        rows = rows.filter(expired | Q(count__lt=limit))
    return rows.update(count=Case(When(expired, then=Value(1)), default=F("count") + 1),
                       started_at=Case(When(expired, then=Value(now)), default=F("started_at"))) == 1


def _count(key, now):
    row = LoginThrottle.objects.filter(key=key, started_at__gt=now - _window()).first()
    return row.count if row else 0


@dataclass(frozen=True)
class Refusal:
    message: str


def _address_refusal(address, now):
    row = LoginThrottle.objects.filter(key=_key("address", address)).first()
    wait = (row.started_at + _window() - now).total_seconds() if row else settings.LOGIN_FAILURE_WINDOW_S
    minutes = max(1, math.ceil(wait / 60))
    return Refusal(ngettext("Too many failed logins from this connection. Try again in %(minutes)d minute.",
                            "Too many failed logins from this connection. Try again in %(minutes)d minutes.",
                            minutes) % {"minutes": minutes})


def _account_refusal(pair, now):
    row = LoginThrottle.objects.filter(key=pair).first()
    wait = (row.started_at + timedelta(seconds=settings.LOGIN_ACCOUNT_DELAY_S) - now).total_seconds()
    seconds = max(1, math.ceil(wait))
    return Refusal(ngettext("Too many failed logins on this account. Try again in %(seconds)d second.",
                            "Too many failed logins on this account. Try again in %(seconds)d seconds.",
                            seconds) % {"seconds": seconds})


def _take_pair(pair, now):
    """One try on an account from one address every LOGIN_ACCOUNT_DELAY_S."""
    last_allowed = now - timedelta(seconds=settings.LOGIN_ACCOUNT_DELAY_S)
    _ensure(pair, last_allowed)
    return LoginThrottle.objects.filter(key=pair, started_at__lte=last_allowed).update(started_at=now) == 1


def attempt_begin(*, username, address):
    """Reserve a password check for `username` from `address`, or say why not (a Refusal)."""
    now = timezone.now()
    account = normalise_username(username)
    if _count(_key("account", account), now) >= settings.LOGIN_FAILURE_LIMIT:
        pair = _key("pair", account, address)
        if not _take_pair(pair, now):
            return _account_refusal(pair, now)
    if not _take(_key("address", address), now, limit=settings.LOGIN_FAILURE_LIMIT):
        return _address_refusal(address, now)
    return None


def attempt_end(*, username, address, success):
    """After the password check reserved by attempt_begin: a success gives the address its try back."""
    account = normalise_username(username)
    if success:
        LoginThrottle.objects.filter(key=_key("address", address), count__gt=0).update(count=F("count") - 1)
        LoginThrottle.objects.filter(key=_key("pair", account, address)).delete()
        return
    now = timezone.now()
    _take(_key("account", account), now)
    # Rows long out of their window are of no use.
    LoginThrottle.objects.filter(started_at__lt=now - _window() - timedelta(days=1)).delete()


class ThrottledModelBackend(ModelBackend):
    """Django's username/password check, throttled as above. A refused try raises PermissionDenied
    (authenticate() then stops) and leaves the reason in request.login_refusal for the form."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        address = client_address(request)
        refusal = attempt_begin(username=username, address=address)
        if refusal is not None:
            request.login_refusal = refusal
            raise PermissionDenied(refusal.message)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        attempt_end(username=username, address=address, success=user is not None)
        return user


# --- public sign-up ------------------------------------------------------------------------------

def signup_take(request):
    """Count one public sign-up from the request's client address: None while the address has sent
    fewer than SIGNUP_LIMIT in SIGNUP_WINDOW_S, else a Refusal saying how long to wait. The counter is
    a database row (one UPDATE), shared by every worker."""
    now = timezone.now()
    window = timedelta(seconds=settings.SIGNUP_WINDOW_S)
    key = _key("signup", client_address(request))
    if _take(key, now, limit=settings.SIGNUP_LIMIT, window=window):
        return None
    row = LoginThrottle.objects.filter(key=key).first()
    wait = (row.started_at + window - now).total_seconds() if row else settings.SIGNUP_WINDOW_S
    minutes = max(1, math.ceil(wait / 60))
    return Refusal(ngettext("Too many sign-ups from this connection. Try again in %(minutes)d minute.",
                            "Too many sign-ups from this connection. Try again in %(minutes)d minutes.",
                            minutes) % {"minutes": minutes})
