"""Every write of a club rule: in a transaction, with an audit-log entry (who changed what from what
to what). A rule's document is read by scoring.rule_document before it is kept: a document the engine
would refuse is refused here by the name of its field, and nothing is saved."""
import uuid

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.contract import loads_bytes
from scoring.errors import ScoringError
from scoring.rule_document import parse_rule_document, rule_to_json
from tournaments.audit.services import audit
from tournaments.models import ClubRule
from tournaments.models.club_rules import OWN_KEY_PREFIX
from tournaments.rules import is_organiser, may_edit_club_rule

# An uploaded rule is a small document: the largest published one is under 1 KB.
MAX_UPLOAD_BYTES = 32 * 1024


def own_document(document):
    """`document` checked and made an organiser's own: never published, without a key of its own (the
    site names it "r<pk>"). Raises ValidationError naming the field at fault."""
    try:
        rule = parse_rule_document(document)
    except ScoringError as exc:
        field = exc.field or "document"
        raise ValidationError({"document": _("The rule is not valid: field “%(field)s”: %(detail)s")
                               % {"field": field, "detail": exc.detail}}, code="rule_document") from None
    doc = rule_to_json(rule)
    doc.pop("key", None)
    doc.pop("published", None)
    return doc


def _name_and_club(doc):
    rule = parse_rule_document(doc)
    return rule.text("name", "it")[:120], rule.club[:120]


def _snapshot(rule):
    return {"name": rule.name, "club": rule.club, "document": rule.document}


@transaction.atomic
def club_rule_create(*, user, document, action="club_rule.create"):
    """A new rule of the organiser's from `document` (a blank rule, a copy, an upload)."""
    if not is_organiser(user):
        raise PermissionDenied
    doc = own_document(document)
    name, club = _name_and_club(doc)
    rule = ClubRule.objects.create(key=f"tmp{uuid.uuid4().hex[:20]}", owner=user, name=name, club=club, document=doc)
    rule.key = f"{OWN_KEY_PREFIX}{rule.pk}"
    rule.save(update_fields=["key"])
    audit(user=user, action=action, obj=rule, after=_snapshot(rule))
    return rule


@transaction.atomic
def club_rule_copy(*, user, source):
    """A copy of `source` (a published rule, or one of the organiser's own) as a new rule of theirs."""
    doc = dict(source.document)
    names = doc.get("name")
    suffix = _("(copy)")
    if isinstance(names, dict):
        doc["name"] = {lang: f"{text} {suffix}" for lang, text in names.items()}
    else:
        doc["name"] = f"{names} {suffix}"
    return club_rule_create(user=user, document=doc, action="club_rule.copy")


@transaction.atomic
def club_rule_update(*, user, rule, document):
    rule = ClubRule.objects.select_for_update().get(pk=rule.pk)
    if not may_edit_club_rule(user, rule):
        raise PermissionDenied
    doc = own_document(document)
    before = _snapshot(rule)
    rule.name, rule.club = _name_and_club(doc)
    rule.document = doc
    after = _snapshot(rule)
    if after == before:
        return rule
    rule.save(update_fields=["name", "club", "document", "updated_at"])
    audit(user=user, action="club_rule.update", obj=rule, before=before, after=after)
    return rule


@transaction.atomic
def club_rule_delete(*, user, rule):
    """Delete an organiser's own rule. A tournament whose settings came from it keeps its settings."""
    rule = ClubRule.objects.select_for_update().get(pk=rule.pk)
    if not may_edit_club_rule(user, rule):
        raise PermissionDenied
    audit(user=user, action="club_rule.delete", obj=rule, before=_snapshot(rule))
    rule.delete()


def read_upload(upload):
    """The JSON document of an uploaded file (at most MAX_UPLOAD_BYTES), read as the command line reads
    one (scoring.contract.loads_bytes); ValidationError naming what is wrong otherwise."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError({"document": _("The file is larger than %(kb)s KB: a rule is a small document.")
                               % {"kb": MAX_UPLOAD_BYTES // 1024}}, code="too_large")
    raw = upload.read(MAX_UPLOAD_BYTES + 1)
    try:
        return loads_bytes(raw)   # read as `python -m scoring` reads it: a byte-order mark, a key given twice...
    except ScoringError as exc:
        raise ValidationError({"document": _("The file is not a JSON document: %(detail)s") % {"detail": exc.detail}},
                              code="not_json") from None


def club_rule_upload(*, user, upload):
    """A rule downloaded from this or another server, as a new rule of the organiser's."""
    return club_rule_create(user=user, document=read_upload(upload), action="club_rule.upload")
