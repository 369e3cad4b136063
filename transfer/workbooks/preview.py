"""What the import page shows of a tournament read from a workbook: every round's tables, each row with
its player and result and the refusals of its cells, and each person with who they turned out to be."""
from dataclasses import dataclass, field


@dataclass
class PreviewSeat:
    line: str          # where the seat is: its row ("7"), or its cell ("C2") in a block of GestioneTorneo
    name: str
    club: str
    seat: object
    errors: list


@dataclass
class PreviewPerson:
    key: str
    person: object
    state: str         # "known", "new" or "choose"
    player: object = None
    candidates: list = field(default_factory=list)
    new_club: bool = False


def preview_rounds(past):
    rounds = []
    for rnd in past.rounds:
        tables = []
        for table in rnd.tables:
            seats = [PreviewSeat(line=f"{seat.row.column}{seat.row.row}", name=past.people[seat.person].full_name
                                 if seat.person in past.people else "", club=past.people[seat.person].club
                                 if seat.person in past.people else "", seat=seat, errors=seat.errors)
                     for seat in table.seats]
            tables.append({"number": table.number, "errors": table.errors, "seats": seats,
                           "has_errors": bool(table.errors) or any(s.errors for s in seats)})
        rounds.append({"number": rnd.number, "sheet": rnd.sheet, "tables": tables})
    return rounds


def preview_people(past, matching):
    if matching is None:
        return []
    return [PreviewPerson(key=key, person=person, state=matching.state(key), player=matching.players.get(key),
                          candidates=matching.candidates.get(key, []),
                          new_club=bool(person.club) and person.club in matching.clubs_new)
            for key, person in past.people.items()]
