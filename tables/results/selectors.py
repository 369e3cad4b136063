"""Reads of seat results: whether a table already took a phone's save, and a seat's result fields
(the one writer of those fields is `tables.results.services`)."""
from tables.models import ResultSubmission

RESULT_FIELDS = ("table_points", "risiko", "eliminated", "place", "territories", "armies", "firenze")


def submission_applied(table, submission):
    """This table already took this phone's save. An id is looked up on its own table only: an id
    naming another table's save never answers for this one."""
    return submission is not None and ResultSubmission.objects.filter(table=table, key=submission).exists()


def seat_result(seat):
    return {f: getattr(seat, f) for f in RESULT_FIELDS}
