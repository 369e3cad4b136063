"""Page texts read from the translation catalogue, for the checks whose point is the wording (a message,
a question, an error). The browser tests select elements by id, `data-` attribute, form field name or
role; where a test compares a text, it takes it from the catalogue in the page's language, so that a
new translation never breaks a test (tests/test_browser_selectors_guard.py keeps literal-text
selectors out)."""
from django.utils import translation
from django.utils.html import strip_tags
from django.utils.translation import trans_real

PAGE_LANGUAGE = "it"  # every browser context of the tests asks for it-IT


def it(msgid, **params):
    """The Italian text of `msgid` as the page shows it, its %(name)s placeholders filled."""
    return _text(PAGE_LANGUAGE, msgid, params)


def en(msgid, **params):
    return _text("en", msgid, params)


def it_n(singular, plural, count, **params):
    """The Italian plural form for `count`; placeholders from `params`, else %(n)s is `count`. Markup
    that the template renders (<strong>) is dropped: the text is compared with what the page reads."""
    with translation.override(PAGE_LANGUAGE):
        text = translation.ngettext(singular, plural, count)
    _known((singular, 0))
    return strip_tags(text % (params or {"n": count}))


def _text(language, msgid, params):
    with translation.override(language):
        text = translation.gettext(msgid)
    if language == PAGE_LANGUAGE:
        _known(msgid)
    return text % params if params else text


def _known(msgid):
    """A msgid mistyped in a test would come back untranslated and the check would fail for the wrong
    reason: it is refused here, naming it."""
    assert msgid in trans_real.translation(PAGE_LANGUAGE)._catalog, f"not in the {PAGE_LANGUAGE} catalogue: {msgid!r}"


def expect_message(page, text):
    """Waits for the page's message (the list under role=status at the top of <main>) reading `text`."""
    shown = page.locator("ul.messages li.msg").filter(has_text=text)
    shown.wait_for()
    assert shown.inner_text() == text


def presence_counts(present, registered):
    """The players and check-in pages' count beside the title (tournaments/_presence_count.html)."""
    return (it_n("%(p)s present", "%(p)s present", present, p=present) + " · "
            + it_n("%(n)s registered", "%(n)s registered", registered, n=registered))


def registered_from_list(registered, new):
    """The message after a CSV or pasted list is registered (tournaments/registration/imports.py)."""
    return (it_n("%(n)d player registered", "%(n)d players registered", registered) + " ("
            + it_n("%(n)d new", "%(n)d new", new) + ").")


def expect_import_preview(page, n):
    """Waits for the import's preview saying that `n` players will be registered."""
    preview = page.locator(f"[data-import-ok='{n}']")
    preview.wait_for()
    assert preview.inner_text() == it_n("%(n)s player will be registered. Check the list, then confirm.",
                                        "%(n)s players will be registered. Check the list, then confirm.", n)
