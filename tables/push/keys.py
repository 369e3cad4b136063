"""The site's VAPID key pair: made by `manage.py vapid_keys`, checked at start-up (tables.apps).

Both keys are written as pywebpush and the browsers take them: base64url without padding, the
private key as its 32 raw bytes, the public key as the 65 bytes of the uncompressed point (what a
page hands `pushManager.subscribe` as its applicationServerKey)."""
import base64
import binascii

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    """The bytes of a base64url text (padding optional); ValueError when it is not one."""
    text = str(text)
    if not text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=" for c in text):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def _public_bytes(vapid):
    return vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def generate():
    """A new key pair: (public, private)."""
    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(_public_bytes(vapid)), b64url(private)


def signer(private_key):
    """The py_vapid key that signs the site's claims (ValueError for a key that is not one)."""
    try:
        return Vapid.from_string(private_key=private_key)
    except Exception as error:  # py_vapid raises what cryptography raised
        raise ValueError(str(error)) from None


def problem(public_key, private_key):
    """Why the pair cannot be used (a sentence), or None when the public key is the private one's."""
    try:
        public = b64url_decode(public_key)
    except ValueError:
        return "VAPID_PUBLIC_KEY is not base64url"
    if len(public) != 65 or public[0] != 4:
        return "VAPID_PUBLIC_KEY is not an uncompressed P-256 public key (65 bytes)"
    try:
        vapid = signer(private_key)
    except ValueError:
        return "VAPID_PRIVATE_KEY is not a P-256 private key"
    if _public_bytes(vapid) != public:
        return "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY"
    return None
