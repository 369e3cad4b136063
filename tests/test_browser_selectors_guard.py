"""The browser tests find elements by id, `data-` attribute, form field name or role, never by the page's
words, and take the words they check from the catalogue (tests/browser/catalogue.py), so that a new
translation breaks no test. This reads the sources of tests/browser/ and fails on a selector matching
literal text, or on a literal copy of an Italian text of the catalogue."""
import ast
import re
from pathlib import Path

from django.utils.translation import trans_real

BROWSER = Path(__file__).resolve().parent / "browser"

# "file: source line" of a selector or literal allowed to hold page text: only for a test whose point is
# the wording and whose text is in no catalogue. Keep it short (empty today).
ALLOWED = set()

# Playwright's text engines inside a selector string: text=, :has-text(), :text(), :text-is(),
# :text-matches(), role=...[name=...], the internal: forms, an XPath on text().
TEXT_ENGINE = re.compile(r"(?:^|>>\s*)(?:text|internal:text|internal:label|internal:has-text)\s*=|"
                         r":has-text\(|:text(?:-is|-matches)?\(|\brole=\w+\[name|internal:role=\w+\[name|"
                         r"\btext\(\)")
BY_TEXT = {"get_by_text", "get_by_label", "get_by_placeholder", "get_by_title", "get_by_alt_text"}
TEXT_KEYWORDS = {"has_text", "has_not_text"}
# Methods whose first argument is a selector (a string starting with a quote is Playwright's text selector).
TAKES_SELECTOR = {"click", "dblclick", "tap", "fill", "type", "press", "check", "uncheck", "set_checked", "hover",
                  "focus", "select_option", "set_input_files", "locator", "wait_for_selector", "query_selector",
                  "query_selector_all", "inner_text", "inner_html", "text_content", "input_value", "get_attribute",
                  "is_visible", "is_hidden", "is_checked", "is_enabled", "is_disabled", "is_editable",
                  "eval_on_selector", "eval_on_selector_all", "dispatch_event", "drag_and_drop"}


def _literal(node):
    """The text of a string literal (an f-string with {} for its values), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _strings(tree, docstrings=True):
    """The string literals of `tree`: each f-string once, as a whole; docstrings only if asked."""
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    if not docstrings:
        holders = [tree] + [n for n in ast.walk(tree)
                            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        inner |= {id(n.body[0].value) for n in holders if n.body and isinstance(n.body[0], ast.Expr)}
    return [n for n in ast.walk(tree)
            if isinstance(n, (ast.Constant, ast.JoinedStr)) and id(n) not in inner and _literal(n) is not None]


def text_selectors(source, filename="<sample>"):
    """Every selector of `source` that matches literal text: [(line, what)]."""
    tree = ast.parse(source, filename)
    found = []
    for node in _strings(tree):
        if TEXT_ENGINE.search(_literal(node)):
            found.append((node.lineno, f"text engine in {_literal(node)!r}"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        method = node.func.attr
        first = node.args[0] if node.args else None
        if method in BY_TEXT:
            value = first if first is not None else next((k.value for k in node.keywords if k.arg == "text"), None)
            if value is not None and _literal(value) is not None:
                found.append((node.lineno, f"{method}({_literal(value)!r})"))
        if method == "get_by_role":
            for k in node.keywords:
                if k.arg == "name" and _literal(k.value) is not None:
                    found.append((node.lineno, f"get_by_role(name={_literal(k.value)!r})"))
        for k in node.keywords:
            if k.arg in TEXT_KEYWORDS and _literal(k.value) is not None:
                found.append((node.lineno, f"{k.arg}={_literal(k.value)!r}"))
        if method in TAKES_SELECTOR and first is not None:
            selector = _literal(first)
            if selector is not None and selector.lstrip()[:1] in ("'", '"'):
                found.append((node.lineno, f"quoted text selector {selector!r}"))
    return sorted(set(found))


def _fragments(translated):
    """The fixed parts of a catalogue text, between its placeholders and markup."""
    parts = re.split(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}|<[^>]+>", translated)
    return [_bare(p) for p in parts if re.search(r"[^\W\d_]", p)]


def _bare(text):
    return text.strip(" .,:;·—-\n")


def catalogue_texts():
    """The Italian texts of the catalogue (a translation that is not its own msgid) as the fixed parts
    they show between their placeholders."""
    texts = set()
    for key, translated in trans_real.translation("it")._catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if translated and translated != msgid:
            texts.update(_fragments(translated))
    return texts


def copied_texts(source, texts, filename="<sample>"):
    """String literals of `source` (docstrings aside) holding an Italian text of the catalogue: a part
    of two words or more as the whole literal, a part of three words or more within it, or a literal of
    three words or more taken from a part. (One word alone is as often a name: "Greco", "Nome".)"""
    tree = ast.parse(source, filename)
    phrases = {t for t in texts if len(t.split()) >= 2}
    longer = [t for t in phrases if len(t.split()) >= 3]
    found = []
    for node in _strings(tree, docstrings=False):
        text = _bare(_literal(node))
        held = (text if text in phrases else next((t for t in longer if t in text), None)
                or (next((t for t in longer if text in t), None) if len(text.split()) >= 3 else None))
        if held:
            found.append((node.lineno, f"{text!r} copies the catalogue's {held!r}"))
    return sorted(set(found))


def _browser_sources():
    files = sorted(BROWSER.glob("*.py"))
    return {path.name: path.read_text(encoding="utf-8") for path in files}


def _unallowed(name, source, found):
    lines = source.splitlines()
    return [f"tests/browser/{name}:{line}: {what}" for line, what in found
            if f"{name}: {lines[line - 1].strip()}" not in ALLOWED]


def test_no_browser_test_selects_by_literal_text():
    sources = _browser_sources()
    assert len(sources) >= 20  # the folder is read, not missed
    bad = [msg for name, source in sources.items() for msg in _unallowed(name, source, text_selectors(source, name))]
    assert bad == [], "select by id, data- attribute, field name or role (name from the catalogue):\n" + "\n".join(bad)


def test_no_browser_test_copies_an_italian_text_of_the_catalogue():
    texts = catalogue_texts()
    assert len(texts) > 500  # the catalogue is read
    bad = [msg for name, source in _browser_sources().items()
           for msg in _unallowed(name, source, copied_texts(source, texts, name))]
    assert bad == [], "take the text from the catalogue (tests/browser/catalogue.py):\n" + "\n".join(bad)


def test_the_allowed_selectors_still_exist():
    sources = _browser_sources()
    present = {f"{name}: {line.strip()}" for name, source in sources.items() for line in source.splitlines()}
    assert ALLOWED <= present


FORBIDDEN = '''
page.click("text=Salva")
page.wait_for_selector(f"text=Risultato del tavolo {n} salvato.")
page.click(".subnav >> text=Giocatori")
page.click("main button:has-text('Pubblica i tavoli')")
page.locator("td:text-is('Rossi')")
page.get_by_text("Chiudi il turno").click()
page.get_by_text(text="Chiudi")
page.get_by_role("button", name="Chiudi il turno").click()
page.get_by_role("link", name=f"Tavolo {n}")
form.get_by_label("Punti").fill("3")
page.get_by_placeholder("Nome")
page.locator(".card", has_text="Linguaggio offensivo")
page.locator(".card").filter(has_not_text="ritirata")
page.click('"Iscriviti"')
page.click("role=button[name='Esci']")
page.locator("xpath=//a[text()='Decidi']")
'''

ALLOWED_FORMS = '''
page.click("[data-action=save-result]")
page.fill("input[name=points_3]", "12")
page.wait_for_selector(f"#id_seat option[value='{seat.pk}']")
page.get_by_role("searchbox").fill("ALBANI")
page.get_by_role("button", name=it("Close the round")).click()
page.get_by_label(it("Points")).fill("3")
page.locator("ul.messages li").filter(has_text=text)
page.click(f"button.seat-btn[data-seat='{seat.pk}']")
assert page.inner_text("#close-round-why") == it_n("Table %(tables)s is missing.", "Tables...", 1, tables="2")
'''


def test_the_guard_finds_every_kind_of_text_selector_in_a_sample():
    found = text_selectors(FORBIDDEN)
    lines = [n for n, line in enumerate(FORBIDDEN.splitlines(), 1) if line]
    assert sorted({line for line, _what in found}) == lines, found


def test_the_guard_lets_ids_data_attributes_names_and_catalogue_texts_through():
    assert text_selectors(ALLOWED_FORMS) == []


def test_the_guard_finds_an_italian_text_copied_from_the_catalogue():
    texts = catalogue_texts()
    sample = ('assert page.inner_text("#close-round-why") == "Manca il tavolo 2."\n'
              'assert page.inner_text("#lead-status") == "Classifica definitiva"\n'
              'assert "Conferma per spostare" in page.inner_text(".confirm")\n'
              'assert page.inner_text("#lead-status") == it("Definitive standings")\n'
              'page.fill("#id_reason", "3 armate oltre il limite di 130")\n'
              'names = ["Gioc Rossi", "Bianchi"]\n')
    assert [line for line, _what in copied_texts(sample, texts)] == [1, 2, 3]
