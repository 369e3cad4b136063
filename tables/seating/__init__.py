"""The seating optimiser: pure Python, no database (SEATING.md).

The web application calls `seat_round` (and `reseat` before a round is published), shows
`evaluate` figures after a manual swap, and `python -m tables.seating` speaks the JSON contract."""
from .methods import seat_round
from .model import METHODS, Penalties, Player, SeatingError, SeatingRequest, SeatingResult
from .penalties import evaluate, forced_club_pairs, meetings_matrix
from .reseat import reseat
from .sizes import SizePlan, table_sizes

__all__ = ["METHODS", "Penalties", "Player", "SeatingError", "SeatingRequest", "SeatingResult", "SizePlan",
           "evaluate", "forced_club_pairs", "meetings_matrix", "reseat", "seat_round", "table_sizes"]
