"""A page read as a document, the way a user or an assistive technology finds things on it: by id,
data- attribute, role, form field name or link target, never by the English or Italian words
(tests/test_selectors_guard.py keeps it so). Where the point is that a message is shown, the
message is compared with the catalogue's wording in the language of the request (`tr`), so a
change of wording or of translation breaks no test.

    page = parse(response)
    one(page, "[data-round='2'] [data-table='1']")
    assert tr("Tick at least one player to register.") in alerts(response)
"""
from bs4 import BeautifulSoup
from bs4.element import CData, NavigableString, TemplateString
from django.utils import translation

__all__ = ["alerts", "attr", "field", "field_errors", "field_help", "messages", "one", "parse", "select", "shown",
           "text", "texts", "tr"]


def parse(source):
    """The document of a response (parsed once and kept on it), of markup, or a node as it is."""
    if hasattr(source, "select"):          # already a document or one of its nodes
        return source
    if isinstance(source, (str, bytes)):
        return BeautifulSoup(source, "html.parser")
    if getattr(source, "_parsed_page", None) is None:
        source._parsed_page = BeautifulSoup(source.content.decode(source.charset or "utf-8"), "html.parser")
    return source._parsed_page


def select(source, css):
    """Every element matching the CSS selector, in document order (a <template>'s content, inert
    until a script uses it, is not searched: reach it with `.template.find(...)`)."""
    return parse(source).select(css)


def one(source, css):
    """The one element matching the CSS selector (fails when there are none or several)."""
    found = select(source, css)
    assert len(found) == 1, f"{len(found)} elements match {css!r}"
    return found[0]


def text(node):
    """What the element reads, spaces collapsed (markup inside it, e.g. <strong>, drops out; the
    content of a <template>, such as an htmx out-of-band swap, counts)."""
    return " ".join(node.get_text(types=(NavigableString, CData, TemplateString)).split())


def texts(source, css):
    return [text(node) for node in select(source, css)]


def attr(source, css, name):
    """The values of one attribute of every element matching the selector."""
    return [node.get(name) for node in select(source, css)]


def shown(node):
    """False for an element hidden (`hidden`, or inside a hidden element or a <template>) until a
    script shows it."""
    return not any(n.has_attr("hidden") or n.name == "template" for n in [node, *node.parents] if n.name)


def alerts(source):
    """The texts of the page's alerts shown: field errors, form errors and refusals (role="alert"),
    each alert element's paragraphs separately."""
    found = []
    for node in filter(shown, select(source, "[role=alert]")):
        paragraphs = node.find_all("p")
        found += [text(p) for p in paragraphs] if paragraphs else [text(node)]
    return found


def field(source, name):
    """The block of the form field named `name`: its label, input(s), errors and help."""
    blocks = {id(node.find_parent(class_="field")): node.find_parent(class_="field")
              for node in select(source, f"[name={name!r}]")}
    assert len(blocks) == 1 and None not in blocks.values(), f"{len(blocks)} fields named {name!r}"
    return next(iter(blocks.values()))


def field_errors(source, name):
    """The errors shown beside the form field named `name`."""
    return texts(field(source, name), ".field-error")


def field_help(source, name):
    """The help shown beside the form field named `name`."""
    return texts(field(source, name), ".help")


def messages(source):
    """The messages of the page's list of messages (Django's messages framework)."""
    return texts(source, "ul.messages > li")


def tr(message, lang="en", plural=None, count=None, **params):
    """The catalogue's wording of `message` in `lang` (of `message` or `plural` by `count`), its
    %(name)s placeholders filled from `params`."""
    with translation.override(lang):
        wording = translation.gettext(message) if plural is None else translation.ngettext(message, plural, count)
    return wording % params if params else wording
