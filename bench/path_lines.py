"""The size of the path of a saved result to a phone: the lines of code of its five modules (README,
docs/dev/architecture.md), without docstrings, comments and blank lines.

Run from the project root: `python bench/path_lines.py`. The figure, with its date, is kept in
docs/dev/benchmarks.md ("The path's size"), the one place for figures that age."""
import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATH = ("tournaments/versions.py", "tables/standings/cache.py", "tables/live/snapshot.py", "tables/live/channel.py",
        "static/js/live.js")


def python_lines(source):
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    lines = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            lines.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docstrings)
    return len(lines)


def javascript_lines(source):
    source = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source, flags=re.S)
    return sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("//"))


def main():
    total = 0
    for name in PATH:
        source = (ROOT / name).read_text(encoding="utf-8")
        lines = python_lines(source) if name.endswith(".py") else javascript_lines(source)
        total += lines
        print(f"{lines:5d}  {name}")
    print(f"{total:5d}  in all")


if __name__ == "__main__":
    main()
