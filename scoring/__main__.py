"""`python -m scoring`: one JSON document on stdin, one on stdout (SCORING.md section 9).

Exit 0 with the result; exit 2 with exactly one line on stderr when the input is invalid.
"""
from __future__ import annotations

import sys

from .circuit import (
    GamesRule,
    circuit_to_json,
    games_circuit_to_json,
    parse_circuit_document,
    score_circuit,
    score_games_circuit,
)
from .contract import dumps, loads_bytes, parse_document, result_to_json
from .engine import score_tournament
from .errors import ScoringError
from .finals import finals_standings, finals_to_json, parse_finals_document, semifinal_groups
from .qualify import parse_qualify_document, qualification_to_json, qualify
from .season import parse_season_document, score_season, season_to_json
from .team_championship import (
    parse_team_championship_document,
    score_team_championship,
    team_championship_to_json,
)

MAX_MESSAGE = 1000


def _one_line(message: str) -> str:
    # Player ids are user data: escape anything that could break the single line.
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in message)
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


def _circuit(doc) -> dict:
    """`python -m scoring circuit` (SCORING.md section 11; `basis: "games"`, section 13.11)."""
    rule, tournaments = parse_circuit_document(doc)
    if isinstance(rule, GamesRule):
        return games_circuit_to_json(score_games_circuit(rule, tournaments))
    return circuit_to_json(score_circuit(rule, tournaments))


def _qualify(doc) -> dict:
    """`python -m scoring qualify` (SCORING.md section 12)."""
    return qualification_to_json(qualify(*parse_qualify_document(doc)))


def _finals(doc) -> dict:
    """`python -m scoring finals` (SCORING.md 13.9)."""
    finals, others, request = parse_finals_document(doc)
    rows = finals_standings(finals, others)
    groups = None if request is None else semifinal_groups(request[0], len(finals), request[1])
    return finals_to_json(rows, groups)


def _teams(doc) -> dict:
    """`python -m scoring teams` (SCORING.md 13.10)."""
    return team_championship_to_json(score_team_championship(*parse_team_championship_document(doc)))


def _season(doc) -> dict:
    """`python -m scoring season`: a season ranking composed of terms per event category."""
    return season_to_json(score_season(*parse_season_document(doc)))


COMMANDS = {"circuit": _circuit, "qualify": _qualify, "finals": _finals, "teams": _teams, "season": _season}


def run(data: bytes, command: str | None = None) -> tuple[int, str, str]:
    """Process one input document: (exit code, stdout text, stderr line)."""
    try:
        if command is not None and command not in COMMANDS:
            return 2, "", _one_line(f"unknown command {command!r}: expected one of {', '.join(COMMANDS)}")
        doc = loads_bytes(data)
        if command is not None:
            return 0, dumps(COMMANDS[command](doc)), ""
        formula, params, games, absences = parse_document(doc)
        result = score_tournament(formula, params, games, absences=absences)
        return 0, dumps(result_to_json(result)), ""
    except ScoringError as exc:
        return 2, "", _one_line(exc.message)
    except RecursionError:
        return 2, "", "invalid input: nested too deeply"
    except MemoryError:
        return 2, "", "invalid input: too large"
    except Exception as exc:  # never a traceback on the contract's stderr
        return 2, "", _one_line(f"internal error: {type(exc).__name__}: {exc}")


def main() -> int:
    args = sys.argv[1:]
    if len(args) > 1:
        sys.stderr.write(f"usage: python -m scoring [{' | '.join(COMMANDS)}] < input.json\n")
        return 2
    code, out, err = run(sys.stdin.buffer.read(), args[0] if args else None)
    try:
        if out:
            sys.stdout.buffer.write(out.encode("ascii"))
            sys.stdout.buffer.flush()
    except BrokenPipeError:
        pass
    if err:
        sys.stderr.buffer.write((err + "\n").encode("utf-8", "backslashreplace"))
        sys.stderr.buffer.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
