from decimal import Decimal

from django import template
from django.urls import reverse
from django.utils.formats import get_format, number_format
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _, ngettext

from scoring.numeric import shown

register = template.Library()

# number_format looks its settings up on every call, a tenth of a 200-player page's rendering; the
# site groups no thousands (USE_THOUSAND_SEPARATOR is off), so the text is Python's with the
# language's decimal separator. Values of 16 digits or more take Django's own path.
_FAST_DIGITS = 15
_separators = {}


def _decimal_separator():
    language = get_language()
    separator = _separators.get(language)
    if separator is None:
        separator = _separators[language] = get_format("DECIMAL_SEPARATOR")
    return separator


@register.filter
def points(value):
    """Points as shown everywhere: rounded half-up to 2 decimals, localised ("150,14"), no trailing zeros."""
    if value is None or value == "":
        return "–"
    value = shown(Decimal(value))
    if value.is_zero():
        value = abs(value)  # "0", never "-0", as Django writes it
    decimals = 0 if value == value.to_integral() else 2
    if not value.is_finite() or value.adjusted() >= _FAST_DIGITS:
        return number_format(value, decimal_pos=decimals)
    return f"{value:.{decimals}f}".replace(".", _decimal_separator())


@register.simple_tag
def standings_rows(tournament, standings):
    """The body rows of the standings table (tables/standings.html): one `<tr data-reg>` a player
    with rank, name linked to their page, club, total, medals or wins, and each round's points.
    Written here rather than as a template loop, which spent most of a 200-player render walking
    2,000 cells; the markup is the same."""
    medals = standings.shows_medals
    out = []
    for row in standings.rows:
        reg = row.registration_id
        url = reverse("public:player", args=(tournament.pk, reg))
        club = f'<br><span class="muted small">{conditional_escape(row.club)}</span>' if row.club else ""
        cells = [f'<tr data-reg="{conditional_escape(reg)}"><td class="num">{conditional_escape(row.rank)}</td>'
                 f'<td><a href="{conditional_escape(url)}">{conditional_escape(row.player.full_name)}</a>{club}</td>'
                 f'<td class="num total">{points(row.total)}</td>']
        if medals:
            cells.extend(f'<td class="num medal-col">{conditional_escape(m)}</td>' for m in row.medals)
        dropped = row.dropped
        cells.extend(_dropped_cell(points(p)) if n in dropped else f'<td class="num round-col">{points(p)}</td>'
                     for n, p in zip(standings.round_numbers, row.rounds))
        if not medals:
            cells.append(f'<td class="num">{conditional_escape(row.wins)}</td>')
        cells.append("</tr>")
        out.append("".join(cells))
    return mark_safe("\n".join(out))


def _dropped_cell(shown):
    """A round's result that does not count in the total (SCORING.md 6), struck through and said."""
    return (f'<td class="num round-col" data-dropped><s>{shown}</s>'
            f'<span class="sr-only"> ({conditional_escape(_("not counted"))})</span></td>')


@register.filter
def round_cells(row, round_numbers):
    """[(points, not counted)] of a standings row, round by round."""
    return [(p, n in row.dropped) for n, p in zip(round_numbers, row.rounds)]


@register.simple_tag
def counting_rule(standings):
    """Which results make the total, in words, when not every one does (SCORING.md 6)."""
    return counting_words(standings.discard_worst, standings.best_of)


def counting_words(discard_worst, best_of, struck=True):
    """The rule that makes a total, or "" when every result counts; `struck`: the page strikes
    through the results that do not count (the big screen shows totals alone)."""
    parts = []
    if best_of:
        parts.append(ngettext("only the best %(n)s result counts", "only the best %(n)s results count",
                              best_of) % {"n": best_of})
    if discard_worst:
        parts.append(ngettext("the worst result is discarded", "the worst %(n)s results are discarded",
                              discard_worst) % {"n": discard_worst})
    if not parts:
        return ""
    rule = ", ".join(parts)
    if not struck:
        return _("Total: %(rule)s.") % {"rule": rule}
    return _("Total: %(rule)s; struck-through results do not count.") % {"rule": rule}


@register.simple_tag
def territory_checkboxes(form, continents):
    """The territory calculator's checkboxes of one player's result form (tables/table_result.html;
    `continents`: tables.engine.territory_groups()):
    a fieldset a continent, a ticked box for each territory the form holds. Written here rather
    than as a template loop, which asked the form for its ticked territories once a box (42 boxes
    a player)."""
    ticked = set(form["territories"].value() or ())
    name = conditional_escape(f"{form.prefix}-territories")
    out = []
    for continent in continents:
        out.append(f"<fieldset><legend>{conditional_escape(continent['name'])}</legend>")
        for territory in continent["territories"]:
            label = conditional_escape(territory["name"])
            value = conditional_escape(territory["value"])
            checked = " checked" if territory["name"] in ticked else ""
            out.append(f'<label class="territory"><input type="checkbox" name="{name}" value="{label}" '
                       f'data-value="{value}"{checked}> {label} <b>{value}</b></label>')
        out.append("</fieldset>")
    return mark_safe("\n".join(out))


@register.simple_tag(takes_context=True)
def standings_widget_snippet(context, tournament):
    """The code an organiser pastes into a page of their club's site to show the standings widget
    (tables.room), its values escaped inside the attributes. Text, not markup: the page shows it
    escaped once more, inside a <textarea>."""
    url = context["request"].build_absolute_uri(reverse("public:standings_widget", args=[tournament.pk]))
    return (f'<iframe src="{escape(url)}" title="{escape(tournament.name)}" width="100%" height="600" '
            f'loading="lazy" referrerpolicy="no-referrer"></iframe>')
