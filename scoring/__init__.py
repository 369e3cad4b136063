"""Torneo scoring engine: pure Python, no Django.

Entry point: `score_tournament(formula, params, games) -> Result` (see SCORING.md).
"""
from .engine import score_game, score_tournament
from .errors import InvalidDocument, InvalidParams, InvalidResult, ScoringError, UnknownFormula
from .formulas import FORMULAS, get_formula
from .model import (
                    DEFAULT_PARAMS,
                    TIEBREAKS,
                    Absence,
                    Game,
                    GameScore,
                    Params,
                    PlayerResult,
                    PlayerScore,
                    Result,
                    StandingRow,
)

__all__ = [
    "DEFAULT_PARAMS", "FORMULAS", "TIEBREAKS", "Absence", "Game", "GameScore", "InvalidDocument",
    "InvalidParams", "InvalidResult", "Params", "PlayerResult", "PlayerScore", "Result",
    "ScoringError", "StandingRow", "UnknownFormula", "get_formula", "score_game", "score_tournament",
]
