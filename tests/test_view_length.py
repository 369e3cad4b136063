"""Views stay thin (ARCHITECTURE.md: parse, call one service or selector, render): no view function is
over 40 lines, counted from its `def` line through the last line of its body (decorators and the
blank lines after it not counted).

A view function is every function of a views module (`views.py`, `*_views.py`, helpers included),
every function decorated as a view (`login_required`, `require_POST`...) wherever it lives, and every
function of the project a URL routes to (a class-based view: each of its methods)."""
import ast
import inspect
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[1]
APPS = ("scoring", "tournaments", "tables", "phases", "circuits", "transfer", "risiko_site")
MOST = 40
VIEW_DECORATORS = {"login_required", "permission_required", "user_passes_test", "staff_member_required",
                   "require_GET", "require_POST", "require_safe", "require_http_methods", "never_cache",
                   "cache_page", "cache_control", "csrf_exempt", "csrf_protect", "ensure_csrf_cookie",
                   "sensitive_post_parameters", "xframe_options_exempt", "vary_on_headers", "vary_on_cookie"}

def is_views_module(path):
    return path.name == "views.py" or path.name.endswith("_views.py")


def _decorator_name(node):
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _functions(tree):
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def length(node):
    return node.end_lineno - node.lineno + 1


def scanned_views(files, root=ROOT):
    """{"path:line name": lines} of the functions of views modules and of those decorated as views."""
    found = {}
    for path in files:
        for node in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            if is_views_module(path) or any(_decorator_name(d) in VIEW_DECORATORS for d in node.decorator_list):
                found[f"{path.relative_to(root)}:{node.lineno} {node.name}"] = length(node)
    return found


def _callbacks(patterns):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _callbacks(pattern.url_patterns)
        elif isinstance(pattern, URLPattern):
            yield pattern.callback


def _project_functions(callback):
    """The project's functions behind a URL's callback: the function its decorators wrap, or the
    methods of its class-based view."""
    view_class = getattr(callback, "view_class", None)
    functions = ([f for f in vars(view_class).values() if inspect.isfunction(f)] if view_class
                 else [inspect.unwrap(callback)])
    for function in functions:
        path = Path(inspect.getsourcefile(function)).resolve()
        if path.is_relative_to(ROOT) and path.relative_to(ROOT).parts[0] in APPS:
            yield path, function


def routed_views():
    """{"path:line name": lines} of the project's functions that a URL routes to."""
    found = {}
    for callback in _callbacks(get_resolver().url_patterns):
        for path, function in _project_functions(callback):
            first = function.__code__.co_firstlineno   # the first decorator's line, or the def line
            for node in _functions(ast.parse(path.read_text(encoding="utf-8"))):
                if node.name == function.__name__ and min([node.lineno] + [d.lineno for d in node.decorator_list]) == first:
                    found[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = length(node)
    return found


def source_files():
    return sorted(p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)


def test_no_view_function_is_over_40_lines():
    views = {**scanned_views(source_files()), **routed_views()}
    assert len([name for name in views if name.startswith("tables/results/views.py")]) > 5  # the scan reads views
    assert {name: lines for name, lines in views.items() if lines > MOST} == {}


def test_the_url_walk_reaches_views_outside_a_views_module():
    assert any(name.startswith("tournaments/accounts/login.py:") and name.endswith(" admin_login")
               for name in routed_views())


def test_the_scan_finds_a_long_view_and_a_long_decorated_function(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(MOST))
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop/views.py").write_text(f"def page(request):\n{body}\n\ndef short(request):\n    return 1\n")
    (tmp_path / "shop/pages.py").write_text(
        f"@login_required\n@require_http_methods(['GET'])\ndef other(request):\n{body}\n\ndef helper():\n{body}")
    assert scanned_views(sorted(tmp_path.rglob("*.py")), tmp_path) == {
        "shop/pages.py:3 other": MOST + 1, "shop/views.py:1 page": MOST + 1, "shop/views.py:44 short": 2}
