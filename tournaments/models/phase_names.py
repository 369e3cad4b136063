"""A phase's name in the reader's language. The formats name their phases from a short list ("Final",
"Knockout game 2", ...), stored in English whatever the language of the organiser who applied the
format; `label` shows a stored name in the current language, also one stored in any other language of
the site (formats applied before names were stored in English). A name outside the list is shown as
stored."""
import functools
import re

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop

NAMES = (  # marked for translation here: the formats store them in English
    gettext_noop("Qualifying rounds"),
    gettext_noop("Evenings"),
    gettext_noop("Semifinals"),
    gettext_noop("Final"),
    gettext_noop("Finals"),
    gettext_noop("Finalina (5th-8th)"),
    gettext_noop("Finalina (6th-10th)"),
    gettext_noop("Second chance"),
    gettext_noop("Knockout game %(n)d"),
    gettext_noop("%(k)d parallel finals"),
)
_NUMBER = re.compile(r"%\((\w+)\)d")


def _pattern(text):
    """The regular expression matching `text` with each %(x)d as a number."""
    parts, at = [], 0
    for number in _NUMBER.finditer(text):
        parts.append(re.escape(text[at:number.start()]) + rf"(?P<{number.group(1)}>\d+)")
        at = number.end()
    return re.compile("".join(parts) + re.escape(text[at:]) + r"\Z")


@functools.cache
def _patterns(languages):
    """[(pattern, name)]: each name of the list as written in English and in each of `languages`."""
    found = [(_pattern(name), name) for name in NAMES]
    for language in languages:
        with translation.override(language):
            found += [(_pattern(gettext(name)), name) for name in NAMES]
    return found


def _parse(stored):
    for pattern, name in _patterns(tuple(code for code, _label in settings.LANGUAGES)):
        match = pattern.match(stored)
        if match:
            return name, {key: int(value) for key, value in match.groupdict().items()}
    return None


def name(text, **numbers):
    """The stored name of a phase: `text` (one of NAMES) in English with its numbers."""
    assert text in NAMES, text
    return text % numbers if numbers else text


def label(stored):
    """The stored name `stored` in the current language."""
    parsed = _parse(stored or "")
    if parsed is None:
        return stored
    text, numbers = parsed
    return gettext(text) % numbers if numbers else gettext(text)


def same(a, b):
    """Whether two stored names name the same phase, whatever language each was stored in."""
    return (_parse(a) or a) == (_parse(b) or b)
