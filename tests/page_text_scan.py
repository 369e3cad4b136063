"""Finds where a test searches a page's raw text (tests/test_selectors_guard.py keeps it at zero).

A page's raw text is `response.content` and whatever is made from it by decoding, unescaping,
slicing, splitting or joining, through local names and through the module's own helpers that
return it. Searching it means: `x in page` / `x not in page`, comparing it with a string written
in the test, `page.count/index/find/rfind/rindex/startswith/endswith/split/partition(...)` with an
argument, a `re` search over it, or Django's `assertContains`, `assertNotContains`, `assertInHTML`.
A page read through `tests/html.py` (elements by id, data- attribute, role, field name) is not raw.
"""
import ast

SEARCH_METHODS = {"count", "index", "rindex", "find", "rfind", "startswith", "endswith", "split",
                  "rsplit", "partition", "rpartition"}
KEEP_TEXT_METHODS = {"decode", "replace", "lower", "upper", "casefold", "strip", "lstrip", "rstrip",
                     "split", "rsplit", "splitlines", "join", "removeprefix", "removesuffix"}
KEEP_TEXT_FUNCTIONS = {"unescape", "str", "sub"}  # html.unescape, str(), re.sub
RE_SEARCHES = {"search", "findall", "finditer", "match", "fullmatch"}
DJANGO_ASSERTS = {"assertContains", "assertNotContains", "assertInHTML", "assertNotInHTML"}


def _names_a_response(node):
    """`response.text` (Django's decoded content) is a page; `dispute.text` is not."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    return any(word in name.lower() for word in ("response", "resp", "page", "answer"))


def _is_literal(node):
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)))


class _Taint:
    """Which expressions of one scope hold a page's raw text."""

    def __init__(self, helpers, names=()):
        self.helpers, self.names = helpers, set(names)

    def __call__(self, node):
        if isinstance(node, ast.Attribute):
            if node.attr == "content" or node.attr == "text" and _names_a_response(node.value):
                return True
            return self(node.value) and node.attr in KEEP_TEXT_METHODS
        if isinstance(node, ast.Name):
            return node.id in self.names
        if isinstance(node, ast.Subscript):
            return self(node.value)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                if func.id in self.helpers:
                    return True
                return func.id in KEEP_TEXT_FUNCTIONS and any(self(a) for a in node.args)
            if isinstance(func, ast.Attribute):
                if func.attr in KEEP_TEXT_FUNCTIONS and not self(func.value):
                    return any(self(a) for a in node.args)          # html.unescape(page), re.sub(.., page)
                if func.attr == "join":
                    return any(self(a) for a in node.args)          # " ".join(page.split())
                return func.attr in KEEP_TEXT_METHODS and self(func.value)
        if isinstance(node, (ast.IfExp,)):
            return self(node.body) or self(node.orelse)
        return False

    def bind(self, target, value):
        if isinstance(target, ast.Name):
            if self(value):
                self.names.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)):
            for t, v in zip(target.elts, value.elts):
                self.bind(t, v)


def _scope_statements(scope):
    """The statements of a function in order, nested blocks included, nested functions left out."""
    for node in ast.walk(scope):
        if node is not scope and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        yield node


def _taint_of(scope, helpers):
    taint = _Taint(helpers)
    for _ in range(3):  # names bound from names bound later in the source (loops) settle in a few passes
        for node in _scope_statements(scope):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    taint.bind(target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                taint.bind(node.target, node.value)
            elif isinstance(node, ast.NamedExpr):
                taint.bind(node.target, node.value)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                taint.bind(node.optional_vars, node.context_expr)
    return taint


def _helpers(tree):
    """The module's functions that return a page's raw text."""
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    helpers = set()
    while True:
        found = {f.name for f in functions
                 if any(isinstance(n, ast.Return) and n.value is not None and _taint_of(f, helpers)(n.value)
                        for n in _scope_statements(f))}
        if found <= helpers:
            return helpers
        helpers |= found


def _enclosing_function(tree):
    owner = {}
    for top in ast.walk(tree):
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in _scope_statements(top):
                owner.setdefault(node, top)
    return owner


def raw_text_searches(source, filename="<test>"):
    """[(line, function, what)] for every search of a page's raw text in `source`."""
    tree = ast.parse(source, filename)
    helpers = _helpers(tree)
    owner = _enclosing_function(tree)
    taints = {}
    found = []

    def taint_at(node):
        scope = owner.get(node)
        if scope not in taints:
            taints[scope] = _taint_of(scope, helpers) if scope is not None else _Taint(helpers)
        return taints[scope]

    for node in ast.walk(tree):
        where = owner.get(node)
        name = where.name if where is not None else "<module>"
        if isinstance(node, ast.Compare):
            taint = taint_at(node)
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:]):
                if isinstance(op, (ast.In, ast.NotIn)) and taint(right):
                    found.append((node.lineno, name, "substring of the page"))
                elif isinstance(op, (ast.Eq, ast.NotEq)) and (
                        taint(left) and _is_literal(right) or taint(right) and _is_literal(left)):
                    found.append((node.lineno, name, "page compared with a written string"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            taint = taint_at(node)
            attr = node.func.attr
            if attr in DJANGO_ASSERTS:
                found.append((node.lineno, name, attr))
            elif attr in SEARCH_METHODS and node.args and taint(node.func.value):
                found.append((node.lineno, name, f"page.{attr}(...)"))
            elif attr in RE_SEARCHES and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" \
                    and any(taint(a) for a in node.args):
                found.append((node.lineno, name, f"re.{attr} over the page"))
            elif attr in RE_SEARCHES and any(taint(a) for a in node.args):
                found.append((node.lineno, name, f"pattern.{attr} over the page"))
    return sorted(set(found))
