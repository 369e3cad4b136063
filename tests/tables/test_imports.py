"""The tables app imports at module level only: a function-level import would hide a cycle."""
import ast
import pathlib

import tables

ROOT = pathlib.Path(tables.__file__).parent


def _function_imports(path):
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [f"{path.relative_to(ROOT.parent)}:{n.lineno}" for n in ast.walk(node)
                      if isinstance(n, (ast.Import, ast.ImportFrom))]
    return found


def test_no_function_level_imports_in_tables():
    paths = [p for p in ROOT.rglob("*.py") if "migrations" not in p.parts]
    assert [hit for p in sorted(paths) for hit in _function_imports(p)] == []
