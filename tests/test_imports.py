"""The app packages import one another in one direction only, at module level.

Layers, each importing only the ones before it: `scoring` (pure), `tables.seating` (pure: its database
inputs are `tables/rounds/inputs.py`), `tournaments`, `tables`, `phases`, `circuits`, `transfer`,
`risiko_site`. A function-level import would hide a cycle, so there is none (Django's
`AppConfig.ready`, which runs once the apps are loaded, aside).

Inside `tables` and `tournaments` each concern is a sub-package (ARCHITECTURE.md). Each sub-package
lists the parts of its app it may import (SUBPACKAGES) and the parts form no circle. Inside `tables`
the arrows run down one order (TABLES_ORDER): a sub-package's services, selectors and helpers import
only the parts before it, and its views (`views.py`, `*_views.py`) its own parts and those before it,
but for the few reads named in VIEWS_READING_ABOVE. Reads sit below writes: a selectors module (or a
template tag) imports no services module, its own sub-package's or another's.
"""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYERS = ["scoring", "tables.seating", "tournaments", "tables", "phases", "circuits", "transfer", "risiko_site"]
PURE = {"scoring", "tables.seating"}


def package_of(module):
    """The layer a dotted module name belongs to, or None for the standard library and third parties."""
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def module_name(path, root=ROOT):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path, root=ROOT):
    """(line, imported module, at function level) for every import of a source file."""
    tree = ast.parse(path.read_text())
    name = module_name(path, root)
    in_function = {id(n) for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and not (path.name == "apps.py" and node.name == "ready")
                   for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            targets = [base]
        else:
            continue
        found += [(node.lineno, target, id(node) in in_function) for target in targets]
    return found


def source_files():
    return sorted(p for layer in LAYERS for p in (ROOT / layer.replace(".", "/")).rglob("*.py")
                  if "migrations" not in p.parts and package_of(module_name(p)) == layer)


def package_edges(files, root=ROOT):
    """{(importing layer, imported layer): ["path:line", ...]} across layers."""
    edges = {}
    for path in files:
        source = package_of(module_name(path, root))
        for line, target, _function in imports(path, root):
            dest = package_of(target)
            if dest is not None and dest != source:
                edges.setdefault((source, dest), []).append(f"{path.relative_to(root)}:{line}")
    return edges


def cycles(edges):
    """The sets of layers that import one another, directly or through others."""
    nodes = {n for edge in edges for n in edge}
    reach = {n: {b for a, b in edges if a == n} for n in nodes}
    changed = True
    while changed:
        changed = False
        for n in nodes:
            grown = reach[n].union(*(reach[m] for m in reach[n]))
            if grown != reach[n]:
                reach[n], changed = grown, True
    return sorted({frozenset({n} | {m for m in reach[n] if n in reach[m]}) for n in nodes if n in reach[n]},
                  key=sorted)


FILES = source_files()


def test_every_app_package_is_read():
    assert {package_of(module_name(p)) for p in FILES} == set(LAYERS)


def test_no_function_level_imports():
    assert [f"{p.relative_to(ROOT)}:{line} {target}" for p in FILES for line, target, function in imports(p)
            if function] == []


def test_no_package_cycle():
    assert cycles(package_edges(FILES)) == []


def test_each_package_imports_only_the_layers_before_it():
    upward = {edge: where for edge, where in package_edges(FILES).items()
              if LAYERS.index(edge[1]) > LAYERS.index(edge[0])}
    assert upward == {}


@pytest.mark.parametrize("layer", sorted(PURE))
def test_pure_packages_import_no_django(layer):
    assert [f"{p.relative_to(ROOT)}:{line} {target}" for p in FILES if package_of(module_name(p)) == layer
            for line, target, _function in imports(p) if target.split(".")[0] == "django"] == []


def test_the_seating_optimiser_reads_no_database():
    folder = sorted((ROOT / "tables/seating").rglob("*.py"))
    reading = [f"{p.relative_to(ROOT)} {target}" for p in folder for _line, target, _function in imports(p)
               if target.split(".")[0] in ("django", "tournaments")
               or (target.startswith("tables.") and not target.startswith("tables.seating"))]
    assert reading == []
    assert [str(p.relative_to(ROOT)) for p in folder if package_of(module_name(p)) != "tables.seating"] == []


# Each sub-package's services, selectors and helpers (not its views) and the parts of its own app they
# may import: a sub-package, or one module at the top of the app.
SUBPACKAGES = {
    "tables.seating": set(),
    "tables.results.writer": {"tables.models", "tournaments.audit"},
    "tables.arbitration": {"tables.models", "tables.standings", "tournaments.models", "tournaments.audit",
                           "tournaments.forms", "tournaments.rules", "tournaments.services", "tournaments.text"},
    "tables.results": {"tables.engine", "tables.models", "tables.results.writer", "tournaments.audit",
                       "tournaments.rules"},
    "tables.standings": {"tables.engine", "tables.models", "tournaments.club_presets", "tournaments.models",
                         "tournaments.rules", "tournaments.teams", "tournaments.versions"},
    "tables.rounds": {"tables.engine", "tables.models", "tables.push", "tables.results.writer", "tables.seating",
                      "tables.standings",
                      "tournaments.models", "tournaments.audit", "tournaments.registration", "tournaments.rules",
                      "tournaments.text", "tournaments.tournament_selectors"},
    "tables.clock": {"tables.models", "tournaments.models", "tournaments.audit"},
    "tables.live": {"tables.models", "tables.standings", "tournaments.models", "tournaments.rules",
                    "tournaments.versions"},
    "tables.push": {"tables.models", "tournaments.models"},
    "tables.room": {"tables.clock", "tables.models", "tables.standings", "tournaments.models", "tournaments.text",
                    "tournaments.versions"},
    "tables.templatetags": {"tables.clock", "tables.models", "tables.push"},
    "tournaments.audit": {"tournaments.models", "tournaments.text", "tournaments.versions"},
    "tournaments.accounts": {"tournaments.models", "tournaments.audit", "tournaments.rules", "tournaments.text"},
    "tournaments.registration": {"tournaments.models", "tournaments.audit", "tournaments.rules", "tournaments.services",
                                 "tournaments.text"},
    "tournaments.club_rules": {"tournaments.models", "tournaments.audit", "tournaments.club_presets",
                               "tournaments.forms", "tournaments.rules"},
    "tournaments.teams": {"tournaments.models", "tournaments.audit", "tournaments.forms", "tournaments.rules"},
    "tournaments.management": {"tournaments.models", "tournaments.accounts", "tournaments.services"},
}
APPS = ("tables", "tournaments")


def is_view(module):
    """A views module, or the views of a sub-package ("tables.results:views")."""
    return module.endswith((":views", "_views")) or module.rsplit(".", 1)[-1] == "views"


def part_of(module, root=ROOT):
    """The part of `tables` or `tournaments` a module belongs to: its sub-package (with ":views" for its
    views), or the module itself at the top of the app; None outside the two apps."""
    if module.split(".")[0] not in APPS:
        return None
    if module.endswith(".models"):
        # The models of an app are one part, wherever a sub-package writes its abstract models
        # (tables.arbitration.models): the app's models module imports them.
        return module.split(".")[0] + ".models"
    for sub in sorted(SUBPACKAGES, key=len, reverse=True):
        if module == sub or module.startswith(sub + "."):
            return sub + ":views" if is_view(module) else sub
    top = ".".join(module.split(".")[:2])
    if top in APPS or (root / top.replace(".", "/")).is_dir() or (root / (top.replace(".", "/") + ".py")).exists():
        return top
    return None


def resolved_imports(path, root=ROOT):
    """Like imports(), with `from tables.results import views` read as tables.results.views (a
    package stands for what it holds: its own `__init__` is only read when named alone)."""
    tree = ast.parse(path.read_text())
    found = [target for _line, target, _function in imports(path, root)]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in APPS:
            folder = root / node.module.replace(".", "/")
            modules = [f"{node.module}.{alias.name}" for alias in node.names
                       if (folder / alias.name).is_dir() or (folder / f"{alias.name}.py").exists()]
            if modules and len(modules) == len(node.names):
                found.remove(node.module)
            found += modules
    return [target for target in found if target not in APPS]


def part_edges(files, root=ROOT):
    """{(importing part, imported part): ["path", ...]} between the parts of the two apps."""
    edges = {}
    for path in files:
        source = part_of(module_name(path, root), root)
        if source is None:
            continue
        for target in resolved_imports(path, root):
            dest = part_of(target, root)
            if dest is not None and dest != source:
                edges.setdefault((source, dest), []).append(str(path.relative_to(root)))
    return edges


# Inside `tables`, bottom to top: a part imports only the parts before it; its views its own part too.
TABLES_ORDER = ["tables.seating", "tables.models", "tables.push", "tables.engine", "tables.results.writer", "tables.standings",
                "tables.live",
                "tables.arbitration", "tables.rounds", "tables.results", "tables.clock", "tables.templatetags",
                "tables.room"]
# The views that read a part above their own, and why.
VIEWS_READING_ABOVE = {
    ("tables.standings:views", "tables.rounds"): "the player's page lists their games and the public tables "
                                                 "JSON a round's tables: the rounds' reads",
}


def upward_edges(edges, order=TABLES_ORDER, allowed=VIEWS_READING_ABOVE):
    """The edges among the parts of `order` that run upward: to a later part, or (for a non-view) to its own."""
    rank = {part: i for i, part in enumerate(order)}
    upward = {}
    for (source, dest), where in edges.items():
        own = source.removesuffix(":views")
        if own not in rank or dest not in rank or (source, dest) in allowed:
            continue
        if rank[dest] > rank[own] or (rank[dest] == rank[own] and own == source):
            upward[(source, dest)] = where
    return upward


def test_inside_tables_the_arrows_run_down():
    assert upward_edges(part_edges(FILES)) == {}


def test_the_order_of_tables_names_every_part():
    parts = {part_of(module_name(p)) for p in FILES if module_name(p).startswith("tables.")}
    subpackages = {p.removesuffix(":views") for p in parts if p is not None} & set(SUBPACKAGES) | {"tables.models"}
    assert subpackages <= set(TABLES_ORDER)


def test_the_order_check_finds_an_upward_import():
    edges = {("tables.rounds", "tables.results"): ["tables/rounds/services.py"],
             ("tables.results", "tables.results.writer"): ["tables/results/services.py"],
             ("tables.standings:views", "tables.room"): ["tables/standings/views.py"],
             ("tables.room:views", "tables.standings"): ["tables/room/views.py"]}
    assert sorted(upward_edges(edges)) == [("tables.rounds", "tables.results"), ("tables.standings:views", "tables.room")]


def test_every_subpackage_exists_and_is_read():
    assert {part_of(module_name(p)) for p in FILES} >= set(SUBPACKAGES)


def test_each_subpackage_imports_only_what_it_lists():
    """Services, selectors and helpers of a sub-package import only the parts listed for it, never a view."""
    extra = {edge: where for edge, where in part_edges(FILES).items()
             if edge[0] in SUBPACKAGES and edge[1] not in SUBPACKAGES[edge[0]] and edge[1].split(".")[0] in APPS}
    assert extra == {}


def test_views_are_imported_only_by_urls():
    found = {edge: where for edge, where in part_edges(FILES).items()
             if is_view(edge[1]) and not edge[0].endswith(".urls")}
    assert found == {}


def reads_importing_writes(files, root=ROOT):
    """["path services-module", ...]: the selectors modules (`selectors.py`, `*_selectors.py`) and
    template tags that import a services module (`services.py`, `*_services.py`)."""
    def last(module):
        return module.rsplit(".", 1)[-1]
    return [f"{path.relative_to(root)} {target}" for path in files
            if last(module_name(path, root)).endswith("selectors") or "templatetags" in path.parts
            for target in resolved_imports(path, root) if last(target).endswith("services")]


def test_selectors_import_no_services():
    assert reads_importing_writes(FILES) == []


def test_no_circle_between_the_parts_of_an_app():
    assert cycles(part_edges(FILES)) == []


def test_at_most_a_dozen_modules_at_the_top_of_each_app():
    for app in APPS:
        modules = [p.name for p in (ROOT / app).glob("*.py") if p.name != "__init__.py"]
        assert len(modules) <= 12, (app, sorted(modules))


def test_the_checks_find_a_function_level_import_and_a_cycle(tmp_path):
    for package, body in {"tables": "def f():\n    from tournaments import models\n",
                          "tournaments": "from tables import engine\n"}.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "mod.py").write_text(body)
    files = [tmp_path / "tables/mod.py", tmp_path / "tournaments/mod.py"]
    assert imports(files[0], tmp_path) == [(2, "tournaments", True)]
    assert cycles(package_edges(files, tmp_path)) == [frozenset({"tables", "tournaments"})]


def test_the_part_checks_find_a_view_imported_by_a_service_and_a_circle(tmp_path):
    for path, body in {"tables/results/services.py": "from tables.rounds import views\n",
                       "tables/rounds/views.py": "from tables.results.services import x\n",
                       "tables/rounds/services.py": "from tables.results import services\n",
                       "tables/results/selectors.py": "from tables import rounds\nfrom tables.rounds.services import y\n"
                       }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body)
    files = sorted(tmp_path.rglob("*.py"))
    edges = part_edges(files, tmp_path)
    assert set(edges) == {("tables.results", "tables.rounds:views"), ("tables.rounds:views", "tables.results"),
                          ("tables.rounds", "tables.results"), ("tables.results", "tables.rounds")}
    assert cycles(edges) == [frozenset({"tables.results", "tables.rounds", "tables.rounds:views"})]
    assert reads_importing_writes(files, tmp_path) == ["tables/results/selectors.py tables.rounds.services"]
