"""Errors raised by the scoring engine.

Every error carries a one-line English message plus structured context (round, table, player,
field, code) so that a web form can attach it to the right field and translate it.
"""
from __future__ import annotations

from typing import Any


class ScoringError(ValueError):
    """Invalid input to the scoring engine.

    Attributes:
        detail: the message without its location prefix ("eliminated players hold 0 table points").
        round, table, player: where the problem is (None when not applicable).
        field: the input field at fault ("table_points", "eliminated", "place", "penalty",
            "risiko", "id", "players", or a parameter name); None when not tied to one field.
        code: a stable identifier of the rule broken, for translations ("eliminated_table_points").
        context: values used in the message (e.g. {"expected": 2}).
    """

    def __init__(self, detail: str, *, code: str = "invalid", round: Any = None, table: Any = None,
                 player: Any = None, field: str | None = None, context: dict | None = None,
                 location: str | None = None):
        self.detail = detail
        self.code = code
        self.round = round
        self.table = table
        self.player = player
        self.field = field
        self.context = dict(context or {})
        self._location = location
        super().__init__(self.message)

    @property
    def location(self) -> str:
        """"round 2 table 3 player B", "params", ... (empty when global)."""
        if self._location is not None:
            return self._location
        parts = []
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.table is not None:
            parts.append(f"table {self.table}")
        if self.player is not None:
            parts.append(f"player {self.player}")
        return " ".join(parts)

    @property
    def message(self) -> str:
        where = self.location
        return f"{where}: {self.detail}" if where else self.detail

    def __str__(self) -> str:
        return self.message

    def at(self, location: str) -> "ScoringError":
        """This error placed at `location` ("final 2"), still naming its player: for a command that
        checks tables which are not a round's games (SCORING.md 13.9)."""
        self._location = location + (f" player {self.player}" if self.player is not None else "")
        return self


class InvalidResult(ScoringError):
    """A game result breaks a rule of SCORING.md section 2."""


class InvalidParams(ScoringError):
    """A tournament parameter is out of range or of the wrong type."""

    def __init__(self, detail: str, *, field: str, code: str = "invalid_param", **kwargs):
        kwargs.setdefault("location", "params")
        super().__init__(detail, field=field, code=code, **kwargs)


class UnknownFormula(InvalidParams):
    """The formula name is not one of the registered formulas."""

    def __init__(self, name: Any, known):
        super().__init__(f"unknown formula {name!r} (known: {', '.join(known)})", field="formula",
                         code="unknown_formula", context={"formula": name}, location="")


class InvalidDocument(ScoringError):
    """The JSON document of `python -m scoring` is malformed or has the wrong shape."""
