"""A phone's push address, read once the way the sending reads it, and the connection that carries it.

The subscription's check and the sending share `push_address`: it prepares the address with requests,
the library pywebpush posts through, and reads the host back with urllib3, the parser requests itself
connects with; the address must be the same once prepared (a backslash, a space or any character a URL
never holds is refused before), https on port 443, no user or password, the host one of PUSH_SERVICES
(the browsers' own push services) or a name under one. The message is posted to that prepared address.

The connection itself (`public_session`) is made only to a public network address: a name of a push
service that resolves to a private, loopback, link-local or reserved address is never connected to,
whatever the name server answers between the check and the sending, and a redirect is never followed."""
import ipaddress
import re

from requests import PreparedRequest, Session
from requests.adapters import HTTPAdapter
from requests.exceptions import RequestException
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import LocationParseError, NewConnectionError
from urllib3.util import parse_url

# The browsers' own push services (Chrome and Android, Safari, Firefox, Edge): the server sends to no
# other address, so a made-up subscription cannot have it post to a machine of someone's choosing.
PUSH_SERVICES = ("fcm.googleapis.com", "android.googleapis.com", "push.apple.com", "push.services.mozilla.com",
                 "notify.windows.com")
# The characters of an absolute URL (RFC 3986): no backslash, space, quote, brace or control character.
URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
HOST_CHARACTERS = re.compile(r"[a-z0-9.-]+")


def _escapes_upper(url):
    return re.sub(r"%[0-9a-fA-F]{2}", lambda m: m.group(0).upper(), url)


def push_address(endpoint):
    """The address a message for `endpoint` is posted to, or None when it is not an https address of
    one of PUSH_SERVICES as the sending reads it."""
    if not isinstance(endpoint, str) or not URL_CHARACTERS.fullmatch(endpoint):
        return None
    try:
        prepared = PreparedRequest()
        prepared.prepare_url(endpoint, None)
        parts = parse_url(prepared.url)
    except (RequestException, LocationParseError, ValueError, UnicodeError):
        return None
    host = parts.host or ""
    if (parts.scheme != "https" or parts.port not in (None, 443) or parts.auth or not HOST_CHARACTERS.fullmatch(host)
            or not any(host == name or host.endswith("." + name) for name in PUSH_SERVICES)):
        return None
    if _escapes_upper(prepared.url) != _escapes_upper(endpoint):
        return None  # the address would be rewritten on its way out: not what the browser gave
    return prepared.url


def public_network(address):
    """Whether the IP `address` is on the public Internet (not private, loopback, link-local, reserved...)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


class PublicOnlyConnection(HTTPSConnection):
    """An https connection refused, before a byte is sent, when its peer is not on the public Internet."""

    def _new_conn(self):
        sock = super()._new_conn()
        peer = sock.getpeername()[0]
        if not public_network(peer):
            sock.close()
            raise NewConnectionError(self, f"refused to connect to {peer}: not a public network address")
        return sock


class PublicOnlyPool(HTTPSConnectionPool):
    ConnectionCls = PublicOnlyConnection


class PublicOnlyAdapter(HTTPAdapter):
    """https only, to public network addresses only (plain http is not mounted at all)."""

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"https": PublicOnlyPool}


class NoRedirectSession(Session):
    """A session that never follows a redirect: the message goes to the push service's address checked, and a
    3xx is its answer (the sending logs it as a failure), never a second request elsewhere."""

    max_redirects = 0

    def request(self, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


def public_session():
    """A requests session that connects to public https addresses only, without proxies from the environment,
    and follows no redirect."""
    session = NoRedirectSession()
    session.trust_env = False
    session.adapters.clear()
    session.mount("https://", PublicOnlyAdapter())
    return session
