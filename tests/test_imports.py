"""The app packages import one another in one direction only, at module level.

Layers, each importing only the ones before it: `scoring` (pure), `tables.seating` (pure),
`tournaments`, `tables`, `phases`, `circuits`, `transfer`, `risiko_site`. A function-level import would hide
a cycle, so there is none (Django's `AppConfig.ready`, which runs once the apps are loaded, aside).
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


def test_the_checks_find_a_function_level_import_and_a_cycle(tmp_path):
    for package, body in {"tables": "def f():\n    from tournaments import models\n",
                          "tournaments": "from tables import engine\n"}.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "mod.py").write_text(body)
    files = [tmp_path / "tables/mod.py", tmp_path / "tournaments/mod.py"]
    assert imports(files[0], tmp_path) == [(2, "tournaments", True)]
    assert cycles(package_edges(files, tmp_path)) == [frozenset({"tables", "tournaments"})]
