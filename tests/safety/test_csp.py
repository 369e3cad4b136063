"""Content Security Policy: every page sends it, and no template needs it relaxed."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.test_role_matrix import IGNORED_NAMESPACES, MATRIX, PUBLIC, module_world, world  # noqa: F401 (fixtures)

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _patterns(resolver, prefix=""):
    """{url name: its parameters} for every named URL outside the ignored namespaces."""
    found = {}
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if p.namespace not in IGNORED_NAMESPACES:
                found.update(_patterns(p, f"{prefix}{p.namespace}:" if p.namespace else prefix))
        elif isinstance(p, URLPattern) and p.name:
            found[prefix + p.name] = set(p.pattern.converters)
    return found


def _public_kwargs(params, w):
    values = {"pk": w["tournament"].pk, "number": 1, "reg_pk": w["registration"].pk, "key": "conversione150",
              "table_number": 1, "uidb64": "MQ", "token": "not-a-token",   # a one-time password link, expired
              "player_pk": w["registration"].player.pk, "path": "organiser/"}
    missing = params - set(values)
    assert not missing, f"add a value for URL parameter(s) {sorted(missing)} to _public_kwargs"
    return {name: values[name] for name in params}


def _policy(response):
    header = response.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']} answered {response.status_code} without a CSP header"
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def _assert_strict(response):
    policy = _policy(response)
    assert "'self'" in policy["script-src"]
    for directive, sources in policy.items():
        assert "'unsafe-inline'" not in sources, directive
        assert "'unsafe-eval'" not in sources, directive


@pytest.mark.parametrize("name", sorted(_patterns(get_resolver())))
def test_every_page_sends_a_strict_content_security_policy(name, world, client):
    params = _patterns(get_resolver())[name]
    if name in MATRIX:
        route = MATRIX[name]
        client.force_login(world["users"]["organiser"])
        response = getattr(client, route.method)(reverse(name, kwargs=route.kwargs(world)), route.data(world))
    else:
        assert name in PUBLIC
        response = client.get(reverse(name, kwargs=_public_kwargs(params, world)))
    _assert_strict(response)


@pytest.mark.parametrize("path", ["/no-such-page/", "/gestione/t/999999/"])
def test_error_pages_send_the_policy_too(path, world, client):
    client.force_login(world["users"]["organiser"])
    response = client.get(path)
    assert response.status_code == 404
    _assert_strict(response)


TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)(\s[^>]*)?>", re.S)
INLINE_ATTRIBUTE = re.compile(r"""\s(on[a-z]+|style|hx-on(?::[\w:.-]*|-[\w-]+)?)\s*=""", re.I)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.I)


def inline_code(text):
    """What a strict policy would block: <script> without src, on*=/hx-on handlers, style=, javascript: URLs."""
    problems = []
    for match in TAG.finditer(text):
        tag, attributes = match.group(1).lower(), match.group(2) or ""
        line = text.count("\n", 0, match.start()) + 1
        if tag == "script" and not re.search(r"\ssrc\s*=", attributes):
            problems.append(f"line {line}: inline <script>")
        for attribute in INLINE_ATTRIBUTE.findall(attributes):
            problems.append(f"line {line}: {attribute}= attribute")
        if JS_URL.search(attributes):
            problems.append(f"line {line}: javascript: URL")
    return problems


def test_scanner_finds_inline_code():
    sample = ('<script>alert(1)</script>\n<script src="/static/x.js"></script>\n<button onclick="go()">\n'
              '<p style="color:red" class="x">\n<div hx-on:click="x()">\n<a href="javascript:void(0)">')
    assert inline_code(sample) == ["line 1: inline <script>", "line 3: onclick= attribute",
                                   "line 4: style= attribute", "line 5: hx-on:click= attribute",
                                   "line 6: javascript: URL"]


def test_templates_have_no_inline_code():
    found = {str(path.relative_to(TEMPLATES)): inline_code(path.read_text(encoding="utf-8"))
             for path in sorted(TEMPLATES.rglob("*.html"))}
    assert len(found) > 20
    assert {name: problems for name, problems in found.items() if problems} == {}
