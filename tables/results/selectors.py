"""Reads of seat results: whether a table already took a phone's save (a seat's result fields and
their one writer are in `tables.results.writer`)."""
from tables.models import ResultSubmission


def submission_applied(table, submission):
    """This table already took this phone's save. An id is looked up on its own table only: an id
    naming another table's save never answers for this one."""
    return submission is not None and ResultSubmission.objects.filter(table=table, key=submission).exists()
