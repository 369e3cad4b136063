"""Random and hostile input at every form and every query string: a clear answer, never a 500.

Each route of the role matrix (plus the public sign-up and the login) is visited by a role allowed
in; the fields are read from the page's own forms, so a new form is covered without listing it."""
import os
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.html import field_errors
from tests.test_role_matrix import MATRIX, module_world, world  # noqa: F401 (fixtures)

# Examples per form: 25 keeps the suite fast; HOSTILE_EXAMPLES=500 for a longer hunt.
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "25"))
# A clear answer: the page (re-rendered with its errors), a redirect, "not found", "not allowed
# here", "conflict" (a stale save) or "too many attempts" (login throttling).
CLEAR = {200, 302, 400, 404, 405, 409, 429}
PUBLIC_FORMS = {"public:signup": lambda w: {"pk": w["tournament"].pk}, "login": lambda w: {}}
# Query parameters the list and search pages read.
QUERY_NAMES = ["q", "page", "type", "player", "table", "per_page", "registration", "round", "formula"]

NASTY = ["", " ", "0", "-1", "-0", "1.5", "1,5", "1e309", "-1e309", "NaN", "nan", "Infinity", "-inf", "+3",
         "0x1F", "1_000", "٣", "²", "99999999999999999999999", "-99999999999999999999", str(2 ** 63), str(-2 ** 63 - 1),
         "null", "None", "true", "[]", "{}", "' OR 1=1 --", "<script>alert(1)</script>", "%s%n%x", "{{ 7*7 }}",
         "../../etc/passwd", "\x00", "a\x00b", "\u202e\u0644", "😀" * 40, "x" * 5000, "2026-02-30", "24:61",
         "1/0", "\r\n", "é" * 300]
HOSTILE = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=40),
    st.integers(min_value=-10 ** 30, max_value=10 ** 30).map(str),
    st.floats().map(str),
    st.decimals(allow_nan=True, places=3).map(str),
)
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S | re.I)
FIELD = re.compile(r"""<(input|select|textarea|button)\b([^>]*)>""", re.I)
NOT_FUZZED = {"csrfmiddlewaretoken", "language", "next"}


def _attribute(attributes, name):
    match = re.search(rf"""\b{name}\s*=\s*["']([^"']*)["']""", attributes, re.I)
    return match.group(1) if match else None


def _form_fields(html, url):
    """The fields of the page's forms that send to the page itself, by method, with the value the
    page gives them (hidden ids, versions, choices) when it gives one."""
    found = {"post": {}, "get": {}}
    for attributes, body in FORM.findall(html):
        action = _attribute(attributes, "action")
        if action not in (None, "", url):
            continue
        method = "post" if (_attribute(attributes, "method") or "get").lower() == "post" else "get"
        for tag, field in FIELD.findall(body):
            name = _attribute(field, "name")
            if name and name not in NOT_FUZZED:
                value = _attribute(field, "value")
                if tag.lower() == "select":
                    option = re.search(r"""<option[^>]*value=["']([^"']+)["']""", body[body.find(field):])
                    value = option.group(1) if option else None
                found[method].setdefault(name, value)
    return found


def _target(name, w):
    if name in PUBLIC_FORMS:
        return reverse(name, kwargs=PUBLIC_FORMS[name](w)), None, "post", {}
    route = MATRIX[name]
    user = w["users"]["arbiter" if route.scope == "arbiter" else "organiser"]
    if route.scope == "admin":   # the organiser role is granted by an administrator
        user = get_user_model().objects.get_or_create(username="amministratore",
                                                      defaults={"is_superuser": True, "is_staff": True})[0]
    return reverse(name, kwargs=route.kwargs(w)), user, route.method, route.data(w)


@pytest.mark.parametrize("name", sorted(MATRIX) + sorted(PUBLIC_FORMS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_input_gets_a_clear_answer(name, world, client, data):
    w = world
    w["tournament"].signup_open = True
    w["tournament"].save(update_fields=["signup_open"])
    url, user, method, valid = _target(name, w)
    if user is not None:
        client.force_login(user)
    fields = {"post": dict(valid), "get": dict.fromkeys(QUERY_NAMES)}
    if method == "get":
        page = client.get(url)
        assert page.status_code in CLEAR
        for kind, found in _form_fields(page.content.decode(errors="replace"), url).items():
            fields[kind] = {**found, **fields[kind]}
    send = "post" if fields["post"] else "get"
    valid = {name: value for name, value in fields[send].items() if value is not None}
    payload = {}
    for field in sorted(fields[send]):
        choice = data.draw(st.sampled_from(["hostile", "hostile", "valid", "absent"]), label=field)
        if choice == "hostile":
            payload[field] = data.draw(st.lists(HOSTILE, min_size=1, max_size=3), label=field)
        elif choice == "valid" and field in valid:
            payload[field] = valid[field]
    response = getattr(client, send)(url, payload)
    assert response.status_code in CLEAR, (send, payload, response.content[:300])


@pytest.mark.parametrize("method, name, data", [
    ("get", "manage:registrations", {"q": "Ros\x00si"}),
    ("get", "manage:audit_log", {"table": "1/1\x00"}),
    ("post", "login", {"username": "olga\x00", "password": "x"}),
])
def test_nul_character_is_a_bad_request(world, client, method, name, data):
    """PostgreSQL refuses NUL in text: refused up front, it never reaches a query."""
    client.force_login(world["users"]["organiser"])
    kwargs = {"pk": world["tournament"].pk} if name.startswith("manage:") else {}
    response = getattr(client, method)(reverse(name, kwargs=kwargs), data)
    assert response.status_code == 400


# --- the third audit's hostile inputs (issue 59): each a 4xx, or the form again with its error -------------

def _rule_file(body):
    from django.core.files.uploadedfile import SimpleUploadedFile
    return {"document": SimpleUploadedFile("regola.json", body)}


def _push_form(w, client, settings):
    from tests.tables.push.conftest import PRIVATE_KEY, PUBLIC_KEY
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC_KEY, PRIVATE_KEY
    settings.VAPID_SUBJECT = "mailto:club@example.org"
    url = reverse("public:push_subscribe", args=[w["tournament"].pk, w["registration"].pk])
    token = client.get(url).json()["token"]
    return url, {"csrfmiddlewaretoken": token, "endpoint": "https://fcm.googleapis.com/fcm/send/x"}


THIRD_AUDIT = {
    "a form posted to the push subscription": ("push", None),
    "a rule nested 5,000 deep": ("rule", b'{"schema": "torneo.rule/1", "name": "R", "formula": "bonus50", "params": '
                                         b'{"tiebreak": ' + b"[" * 5000 + b"]" * 5000 + b"}}"),
    "a NUL in a rule's name": ("rule", b'{"schema": "torneo.rule/1", "name": "R\\u0000", "formula": "bonus50"}'),
    "a lone surrogate in a rule's name": ("rule", b'{"schema": "torneo.rule/1", "name": "R\\udc00", "formula": "bonus50"}'),
    "a key given twice in a rule": ("rule", b'{"schema": "torneo.rule/1", "name": "R", "name": "S", "formula": "bonus50"}'),
    "a rule with a byte-order mark and no schema": ("rule", b'\xef\xbb\xbf{"name": "R", "formula": "bonus50"}'),
    "/guida/ and 300 characters": ("guide", "x" * 300),
    "/guida/ and 300 characters in a folder": ("guide", "y" * 300 + "/"),
}


@pytest.mark.parametrize("case", sorted(THIRD_AUDIT))
def test_the_third_audits_hostile_inputs_get_a_clear_answer(case, world, settings, tmp_path):
    from django.test import Client
    kind, value = THIRD_AUDIT[case]
    if kind == "push":
        client = Client(enforce_csrf_checks=True)
        url, form = _push_form(world, client, settings)
        response = client.post(url, form)   # multipart, its token in the form
        assert response.status_code == 400 and set(response.json()) == {"error"}
    elif kind == "rule":
        client = Client()
        client.force_login(world["users"]["organiser"])
        response = client.post(reverse("manage:club_rule_upload"), _rule_file(value))
        assert response.status_code == 200 and field_errors(response, "document")   # the form, its error said
    else:
        (tmp_path / "index.html").write_text("<h1>Guida</h1>")
        settings.DOCS_SITE_DIR = tmp_path
        response = Client().get("/guida/" + value)
        assert response.status_code == 404
