"""JSON fields of an imported row hold what the pages that read them expect."""
from scoring.errors import ScoringError
from scoring.territories import territory
from tables.results.firenze import COUNTS
from tables.models import Seat
from transfer.owned import TransferError


def check_shape(obj, where):
    """JSON fields hold what the pages that read them expect."""
    label = obj._meta.label_lower
    if label == "tournaments.phase" and not isinstance(obj.settings, dict):
        raise TransferError(f"{where}.settings: must be an object")
    if not isinstance(obj, Seat):
        return
    if not isinstance(obj.territories, list) or not all(isinstance(n, str) for n in obj.territories):
        raise TransferError(f"{where}.territories: must be a list of territory names")
    try:
        names = [territory(name).name for name in obj.territories]
    except ScoringError as exc:
        raise TransferError(f"{where}.territories: {exc.detail}") from None
    if len(set(names)) != len(names):
        raise TransferError(f"{where}.territories: a territory is listed twice")
    sheet = obj.firenze
    if sheet is None:
        return
    # What tables.results.firenze stores: the counts, the sheet's total ("points") and whether a lot decided.
    if not isinstance(sheet, dict) or set(sheet) - set(COUNTS) - {"points", "lot"} or not all(
            isinstance(sheet[k], int) and not isinstance(sheet[k], bool) and sheet[k] >= 0
            for k in COUNTS if k in sheet):
        raise TransferError(f"{where}.firenze: must map the sheet's counts ({', '.join(COUNTS)}) to whole "
                            "numbers from 0")
    if not isinstance(sheet.get("lot", False), bool) or not isinstance(sheet.get("points", "0"), str):
        raise TransferError(f"{where}.firenze: 'lot' must be true or false and 'points' a number as text")
