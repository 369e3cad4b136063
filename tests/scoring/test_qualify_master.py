"""The Master's settings as a composed format's tier (SCORING.md 13.8 inside section 12's settings):
read with the conditional plan, both plans checked for semifinal tables of 3 to 6."""
import pytest

from scoring.errors import ScoringError
from scoring.qualify import (Candidate, QualifyRules, check_composition, composition_tiers, qualify,
                             semifinal_table_count, unbeaten_rules)

MASTER = {"tiers": [{"up_to": None, "direct": 0, "semifinal": [1, 16], "repechage": {"seats": 0, "min_games": 1},
                     "direct_if_unbeaten": {"semifinal": [2, 13]}}], "final_size": 4}


def test_the_tier_carries_the_conditional_plan():
    [tier] = composition_tiers(MASTER)
    assert tier.rules == QualifyRules(direct=0, semifinal=(1, 16), unbeaten_semifinal=(2, 13))
    assert unbeaten_rules(tier.rules) == QualifyRules(direct=1, semifinal=(2, 13))
    assert (semifinal_table_count(tier.rules, 4), semifinal_table_count(unbeaten_rules(tier.rules), 4)) == (4, 3)
    check_composition(composition_tiers(MASTER), 4)


def test_a_conditional_plan_that_cannot_seat_its_tables_is_refused():
    wide = {**MASTER, "tiers": [{**MASTER["tiers"][0], "direct_if_unbeaten": {"semifinal": [2, 30]}}]}
    with pytest.raises(ScoringError) as exc:
        check_composition(composition_tiers(wide), 4)
    assert (exc.value.code, exc.value.context) == ("semifinal_tables", {"seats": 29, "tables": 3})


@pytest.mark.parametrize("wins, final, semifinal", [(2, ["A"], list("BCDEFGHIJKLM")),
                                                    (1, [], list("ABCDEFGHIJKLMNOP"))])
def test_the_leader_alone_with_both_games_won(wins, final, semifinal):
    names = "ABCDEFGHIJKLMNOPQ"
    rows = [Candidate(i + 1, p, (1, 1), wins=wins if i == 0 else 1) for i, p in enumerate(names)]
    result = qualify(composition_tiers(MASTER)[0].rules, rows)
    assert (result.final, result.semifinal, result.direct_if_unbeaten) == (final, semifinal, wins == 2)
