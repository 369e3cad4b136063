from decimal import Decimal

from django import template
from django.urls import reverse
from django.utils.formats import get_format, number_format
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _, gettext_lazy, ngettext

from scoring.numeric import shown, shown_in_thousandths

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
def points(value, decimals=2):
    """Points as shown everywhere: rounded half-up to 2 decimals, localised ("150,14"), no trailing zeros.
    `decimals` 3 (`Standings.decimals`, `Tournament.points_decimals`: the `millesimi` formula, SCORING.md
    13.4) shows thousandths, always all three as the clubs write them ("1,091", "1,100", "0,000")."""
    if value is None or value == "":
        return "–"
    if decimals == 3:
        return _thousandths(Decimal(value))
    value = shown(Decimal(value))
    if value.is_zero():
        value = abs(value)  # "0", never "-0", as Django writes it
    decimals = 0 if value == value.to_integral() else 2
    if not value.is_finite() or value.adjusted() >= _FAST_DIGITS:
        return number_format(value, decimal_pos=decimals)
    return f"{value:.{decimals}f}".replace(".", _decimal_separator())


@register.filter
def as_entered(value):
    """A number as it was typed, with the decimals it has and no more: 62 -> "62", 12.50 -> "12,5" (a table's
    points on the result form's pages); "—" for none."""
    if value is None or value == "":
        return "—"
    return format(Decimal(value).normalize(), "f").replace(".", _decimal_separator())


def _thousandths(value):
    """Points in thousandths (SCORING.md 13.4): rounded half-up to 3 decimals, all three written."""
    value = shown_in_thousandths(value)
    if value.is_zero():
        value = abs(value)
    if not value.is_finite() or value.adjusted() >= _FAST_DIGITS:
        return number_format(value, decimal_pos=3)
    return f"{value:.3f}".replace(".", _decimal_separator())


@register.simple_tag
def standings_rows(tournament, standings, cut_lines=None):
    """The body rows of the standings table (tables/standings.html): one `<tr data-reg>` a player
    with rank, name linked to their page, club, total, medals or wins, and each round's points.
    With a composed format's `cut_lines` (SCORING.md 12) players sharing a rank come in the order
    that decides who qualifies, each qualifier is tagged with their zone and a line closes the final
    and the semifinal zones.
    Written here rather than as a template loop, which spent most of a 200-player render walking
    2,000 cells; the markup is the same."""
    medals = standings.shows_medals
    decimals = standings.decimals
    rows = standings.rows
    zone, last = {}, {}
    if cut_lines:
        position = {reg: i for i, reg in enumerate(cut_lines.order)}
        rows = sorted(rows, key=lambda r: (r.rank, position.get(r.registration_id, len(position))))
        zone = cut_lines.zone
        for row in rows:
            if zone.get(row.registration_id) in ("final", "semifinal"):
                last[zone[row.registration_id]] = row.registration_id
    closing = {reg: name for name, reg in last.items()}
    tags = {"final": _("Final"), "semifinal": _("Semifinal"), "repechage": _("Repêchage")}
    out = []
    for row in rows:
        reg = row.registration_id
        url = reverse("public:player", args=(tournament.pk, reg))
        club = f'<br><span class="muted small">{conditional_escape(row.club)}</span>' if row.club else ""
        where = zone.get(reg)
        attrs = (f' data-zone="{where}"' if where else "") + (f' class="cut-{closing[reg]}"' if reg in closing else "")
        tag = f' <span class="zone-tag zone-{where}">{conditional_escape(tags[where])}</span>' if where else ""
        tie = (f'<br><span class="muted small tie-break" data-tie-break="{row.tie.criterion}">'
               f'{conditional_escape(tie_break_words(row, decimals))}</span>' if row.tie else "")
        cells = [f'<tr data-reg="{conditional_escape(reg)}"{attrs}><td class="num">{conditional_escape(row.rank)}</td>'
                 f'<td><a href="{conditional_escape(url)}">{conditional_escape(row.player.full_name)}</a>{tag}{club}{tie}</td>'
                 f'<td class="num total">{points(row.total, decimals)}</td>']
        if medals:
            cells.extend(f'<td class="num medal-col">{conditional_escape(m)}</td>' for m in row.medals)
        dropped = row.dropped
        cells.extend(_dropped_cell(points(p, decimals)) if n in dropped
                     else f'<td class="num round-col">{points(p, decimals)}</td>'
                     for n, p in zip(standings.round_numbers, row.rounds))
        if not medals:
            cells.append(f'<td class="num">{conditional_escape(row.wins)}</td>')
        cells.append("</tr>")
        out.append("".join(cells))
    return mark_safe("\n".join(out))


# The tie-breaks by the names the settings page gives them (tournaments.models.TieBreak, the same words).
TIE_BREAK_NAMES = {"best_results": gettext_lazy("Best single results"), "wins": gettext_lazy("Games won"),
                   "table_points": gettext_lazy("Total table points"), "head_to_head": gettext_lazy("Head to head"),
                   "previous_round": gettext_lazy("Standing after the previous round")}


@register.filter
def tie_break_words(row, decimals=2):
    """Why a standings row is ranked below the row above it with the same total (SCORING.md 6): the
    tie-break that decided, by its name on the settings page, and the value of each."""
    note = row.tie
    label = str(TIE_BREAK_NAMES.get(note.criterion, note.criterion)).lower()
    names = {"ahead": row.tie_ahead.full_name, "criterion": label}
    if note.ahead_value is None:
        return _("Same total as %(ahead)s: behind on %(criterion)s") % names
    if note.criterion in ("best_results", "previous_round"):
        values = points(note.ahead_value, decimals), points(note.behind_value, decimals)
    elif note.criterion == "table_points":
        values = points(note.ahead_value), points(note.behind_value)
    else:
        values = note.ahead_value, note.behind_value
    return _("Same total as %(ahead)s: behind on %(criterion)s (%(theirs)s to %(mine)s)") % {
        **names, "theirs": values[0], "mine": values[1]}


@register.filter
def rank_in(reg, cut_lines):
    """A registration's rank as the standings show it (shared ranks shared)."""
    return cut_lines.ranks.get(reg.pk, "")


@register.simple_tag
def tie_note(note, decimals=2):
    """In words, why a line falls between two equal players (SCORING.md 12), naming the rule; a best
    game shown with the tournament's `decimals`."""
    if note.by is None:
        rule = _("the standings order") if note.zone == "repechage" else _("the registration order")
    elif note.by == 0:
        rule = _("more games played")
    elif note.by == 1:
        rule = _("the best single game")
    elif note.by == 2:
        rule = _("the second-best game")
    else:
        rule = _("the %(n)sth best game") % {"n": note.by}
    names = {"ahead": note.ahead.player.full_name, "behind": note.behind.player.full_name, "rule": rule}
    if note.zone == "repechage":
        return _("%(ahead)s and %(behind)s have the same best game (%(best)s): the repêchage seat goes to "
                 "%(ahead)s by %(rule)s.") % {**names, "best": points(note.best, decimals)}
    return _("%(ahead)s and %(behind)s share rank %(rank)s: %(ahead)s is ahead by %(rule)s.") % {
        **names, "rank": note.rank}


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


@register.simple_tag
def nothing_counted_yet(standings):
    """Why every total is 0 while every result played is among the worst discarded, or ""."""
    if not standings.nothing_counts_yet:
        return ""
    n = standings.discard_worst
    return ngettext("Each player's worst result is discarded, and so far it is their only one: every total is 0 "
                    "until round %(next)s is played.",
                    "Each player's %(n)s worst results are discarded, and so far nobody has more: every total is 0 "
                    "until round %(next)s is played.", n) % {"n": n, "next": n + 1}


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
