"""The site's VAPID key pair: `manage.py vapid_keys` prints one ready for .env, and a pair that
cannot work (a typo, keys of two pairs) stops `manage.py check` with the reason; production with
keys is as clean under `check --deploy` as without."""
import io

import pytest
from django.core.management import CommandError, call_command

from tables.push.checks import vapid_keys
from tables.push.keys import generate, problem, signer
from tests.tables.push.conftest import PRIVATE_KEY, PUBLIC_KEY, raw
from tests.test_settings import PROD_ENV, _manage


def _command(*args):
    out = io.StringIO()
    call_command("vapid_keys", *args, stdout=out)
    return dict(line.split("=", 1) for line in out.getvalue().splitlines())


def test_the_command_prints_a_new_pair_as_env_lines():
    lines = _command()
    assert sorted(lines) == ["VAPID_PRIVATE_KEY", "VAPID_PUBLIC_KEY"]
    public, private = lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"]
    assert (len(raw(public)), raw(public)[0], len(raw(private))) == (65, 4, 32)
    assert problem(public, private) is None
    assert _command()["VAPID_PUBLIC_KEY"] != public  # a new pair each time


def test_the_command_prints_the_subject_when_given():
    assert _command("--subject", "mailto:club@example.org")["VAPID_SUBJECT"] == "mailto:club@example.org"


def test_a_subject_that_is_not_an_address_exits_2():
    with pytest.raises(CommandError) as refused:
        _command("--subject", "club@example.org")
    assert refused.value.returncode == 2


def test_the_pair_signs_what_the_push_services_check():
    header = signer(PRIVATE_KEY).sign({"sub": "mailto:club@example.org", "aud": "https://fcm.googleapis.com"})
    assert header["Authorization"].startswith("vapid t=") and header["Authorization"].endswith(f"k={PUBLIC_KEY}")


@pytest.mark.parametrize("public, private, found", [
    (PUBLIC_KEY, generate()[1], "VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY"),
    ("not*base64", PRIVATE_KEY, "VAPID_PUBLIC_KEY is not base64url"),
    (PUBLIC_KEY[:40], PRIVATE_KEY, "VAPID_PUBLIC_KEY is not an uncompressed P-256 public key (65 bytes)"),
    (PUBLIC_KEY, "bm90IGEga2V5", "VAPID_PRIVATE_KEY is not a P-256 private key"),
], ids=["another-pair", "not-base64", "too-short", "private-not-a-key"])   # the keys are new on each run
def test_a_pair_that_cannot_work_is_an_error_of_the_checks(settings, public, private, found):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    assert [(e.id, e.msg) for e in vapid_keys()] == [("tables.E001", found)]


def test_a_good_pair_or_none_passes_the_checks(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    assert vapid_keys() == []
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert vapid_keys() == []


def test_production_with_the_keys_is_clean_under_check_deploy():
    env = {**PROD_ENV, "VAPID_PUBLIC_KEY": PUBLIC_KEY, "VAPID_PRIVATE_KEY": PRIVATE_KEY,
           "VAPID_SUBJECT": "mailto:club@example.org"}
    proc = _manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert proc.returncode == 0, proc.stderr
