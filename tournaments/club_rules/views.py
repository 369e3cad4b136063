"""Pages of club rules: the list (published and the organiser's own), the form with its worked example
computed live, copy, delete, download and upload of a rule's JSON document."""
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.rule_document import dumps_rule
from tournaments.club_rules import services
from tournaments.club_rules.example import worked_example
from tournaments.club_rules.forms import ClubRuleForm, UploadForm, blank_data, blank_initial, initial_from
from tournaments.club_rules.selectors import club_rules_for
from tournaments.tournament_selectors import organised_tournaments
from tournaments.rules import (
    club_rule_for_organiser,
    may_edit_club_rule,
    own_club_rule_for_organiser,
    require_organiser,
)


@login_required
@require_GET
def rule_list(request):
    require_organiser(request.user)
    published, own = club_rules_for(request.user)
    return render(request, "tournaments/club_rules/list.html", {
        "published": published, "own": own, "upload": UploadForm(),
        "max_kb": services.MAX_UPLOAD_BYTES // 1024})


def _form_page(request, form, rule):
    if form.is_bound:
        document = form.document() if form.is_valid() else None
    else:
        document = rule.document if rule else ClubRuleForm(blank_data()).document_or_none()
    return render(request, "tournaments/club_rules/form.html", {
        "form": form, "rule": rule, "example": worked_example(document) if document else None,
        "tournaments": organised_tournaments(request.user).order_by("-start_date", "-pk")[:30]})


@login_required
def rule_create(request):
    """A blank rule (the settings of a new tournament), saved as the organiser's own."""
    require_organiser(request.user)
    form = ClubRuleForm(request.POST or None, initial=blank_initial())
    if request.method == "POST" and form.is_valid():
        rule = _saved(form, services.club_rule_create, user=request.user)
        if rule:
            messages.success(request, _("Rule saved as your club's."))
            return redirect("manage:club_rule", pk=rule.pk)
    return _form_page(request, form, None)


@login_required
def rule_edit(request, pk):
    """An organiser's own rule in its form; a published rule is read, copied, never changed."""
    rule = club_rule_for_organiser(request.user, pk)
    if not may_edit_club_rule(request.user, rule):
        return render(request, "tournaments/club_rules/published.html", {
            "rule": rule, "document": json.dumps(rule.document, ensure_ascii=False, indent=2),
            "example": worked_example(rule.document)})
    form = ClubRuleForm(request.POST or None, initial=initial_from(rule.rule))
    if request.method == "POST" and form.is_valid():
        if _saved(form, services.club_rule_update, user=request.user, rule=rule):
            messages.success(request, _("Rule saved."))
            return redirect("manage:club_rule", pk=rule.pk)
    return _form_page(request, form, rule)


def _saved(form, service, **kwargs):
    try:
        return service(document=form.document(), **kwargs)
    except ValidationError as exc:
        form.add_error(None, exc.messages)
        return None


@login_required
@require_POST
def rule_example(request):
    """The worked example under the rule as the form stands now (htmx, on every change)."""
    require_organiser(request.user)
    form = ClubRuleForm(request.POST)
    example = worked_example(form.document()) if form.is_valid() else {
        "error": "; ".join(f"{form[name].label if name in form.fields else ''}: {' '.join(errors)}"
                           for name, errors in form.errors.items())}
    return render(request, "tournaments/club_rules/form.html#worked-example", {"example": example})


@login_required
@require_POST
def rule_copy(request, pk):
    source = club_rule_for_organiser(request.user, pk)
    rule = services.club_rule_copy(user=request.user, source=source)
    messages.success(request, _("Copy saved among your rules: change it and save."))
    return redirect("manage:club_rule", pk=rule.pk)


@login_required
@require_POST
def rule_delete(request, pk):
    rule = own_club_rule_for_organiser(request.user, pk)
    services.club_rule_delete(user=request.user, rule=rule)
    messages.success(request, _("Rule deleted."))
    return redirect("manage:club_rules")


@login_required
@require_GET
def rule_download(request, pk):
    """The rule as its JSON document (docs/dev/club-rules.md), for another server or `python -m scoring`."""
    rule = club_rule_for_organiser(request.user, pk)
    response = HttpResponse(dumps_rule(rule.rule), content_type="application/json; charset=utf-8")
    name = slugify(rule.name) or f"rule-{rule.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.torneo-rule.json"'
    return response


@login_required
@require_POST
def rule_upload(request):
    """A rule file from this or another server, saved as the organiser's own; refused by name when wrong."""
    require_organiser(request.user)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            rule = services.club_rule_upload(user=request.user, upload=form.cleaned_data["document"])
        except ValidationError as exc:
            form.add_error("document", exc.messages)
        else:
            messages.success(request, _("Rule uploaded among your rules."))
            return redirect("manage:club_rule", pk=rule.pk)
    published, own = club_rules_for(request.user)
    return render(request, "tournaments/club_rules/list.html", {
        "published": published, "own": own, "upload": form, "max_kb": services.MAX_UPLOAD_BYTES // 1024})
