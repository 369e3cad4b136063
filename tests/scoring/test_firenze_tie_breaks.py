"""SCORING.md 8.1: the step of the Firenze tie-break chain that decides two equal sheets."""
from scoring.firenze import FirenzeSheet, deciding_tie_break, firenze_points


def test_each_step_of_the_chain_in_order():
    a = FirenzeSheet("a", objective_territories=10, adjacent_territories=1, other_territories=4, armies=20)
    b = FirenzeSheet("b", objective_territories=11, other_territories=2, armies=20)
    assert firenze_points(a) == firenze_points(b)
    assert deciding_tie_break(b, a) == "objective_territories"
    c = FirenzeSheet("c", objective_territories=5, other_territories=5, armies=20)
    d = FirenzeSheet("d", objective_territories=5, other_territories=5, armies=22)
    assert deciding_tie_break(d, c) == "armies"
    e = FirenzeSheet("e", objective_territories=5, other_territories=5, armies=20, unconquered_adjacent=2)
    assert deciding_tie_break(e, c) == "unconquered_adjacent"
    assert deciding_tie_break(c, c) is None
