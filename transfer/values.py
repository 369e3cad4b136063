"""A file's values read as the fields read them, and rows written as loaddata writes them."""
from django.core.exceptions import ValidationError
from django.db import models

from transfer.owned import TransferError

CHUNK = 500


def expect(value, kind, where):
    if not isinstance(value, kind) or kind is int and isinstance(value, bool):
        names = {dict: "an object", list: "a list", str: "a string", int: "a whole number"}
        raise TransferError(f"{where} must be {names.get(kind, kind.__name__)}")
    return value


def field_value(field, raw, where):
    """Turn a file value into the field's value, checked as the field would check it."""
    if isinstance(field, (models.CharField, models.TextField)) and raw is not None and not isinstance(raw, str):
        # to_python would turn ["Marco"] into the text "['Marco']".
        raise TransferError(f"{where}.{field.name}: must be a string")
    try:
        value = field.to_python(raw)
        if value is None:
            if not field.null:
                raise ValidationError("cannot be empty")
            return None
        if not field.blank and value in field.empty_values:
            raise ValidationError("cannot be empty")
        if field.choices and not (field.blank and value == "") and \
                value not in {k for k, _label in field.flatchoices}:
            raise ValidationError(f"{value!r} is not one of the choices")
        field.run_validators(value)
    except ValidationError as exc:
        raise TransferError(f"{where}.{field.name}: {' '.join(exc.messages)}") from None
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise TransferError(f"{where}.{field.name}: {exc}") from None
    return value


def row_key(entry, model, where):
    """A row's pk from the file, checked against the pk field's range."""
    return field_value(model._meta.pk, expect(entry.get("pk"), int, f"{where}.pk"), where)


def full_clean(obj, where, exclude):
    """The model's own validation, as its forms run it (uniqueness is left to the database)."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        if hasattr(exc, "error_dict"):
            name, errors = next(iter(exc.message_dict.items()))
            raise TransferError(f"{where}.{name}: {' '.join(errors)}" if name != "__all__" else
                                f"{where}: {' '.join(errors)}") from None
        raise TransferError(f"{where}: {' '.join(exc.messages)}") from None


def refuse_existing(model, pks):
    for start in range(0, len(pks), CHUNK):
        clash = model._base_manager.filter(pk__in=pks[start:start + CHUNK]).order_by("pk").first()
        if clash is not None:
            raise TransferError(f"the database already holds {model._meta.label_lower} {clash.pk}: "
                                "import into an empty database")


def save_raw(obj):
    # raw=True, as loaddata does: created_at and the other automatic dates keep the file's values,
    # and no save() override runs (the audit log takes its entries back unchanged).
    obj.save_base(raw=True)
    return obj
