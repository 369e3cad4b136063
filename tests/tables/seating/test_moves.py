"""The search's incremental cost of a swap is always the change of the cost recomputed whole."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.seating.moves import swap_delta
from tables.seating.penalties import weights
from tables.seating.problem import Problem
from tables.seating.schedule import Schedule, tally
from tables.seating.sizes import table_sizes


@st.composite
def problems(draw):
    n = draw(st.integers(6, 16))
    prefer = draw(st.sampled_from([4, 5]))
    sizes = list(table_sizes(n, prefer).sizes)
    rounds = draw(st.integers(1, 3))
    rng = random.Random(draw(st.integers(0, 10 ** 6)))
    base = [[0] * n for _ in range(n)]
    for _ in range(rng.randrange(3 * n)):
        p, q = rng.sample(range(n), 2)
        base[p][q] += 1
        base[q][p] += 1
    club = [rng.choice([None, 0, 1, 2]) for _ in range(n)]
    winners = [rng.random() < 0.3 for _ in range(n)]
    anchor = [rng.randrange(-1, len(sizes)) for _ in range(n)] if draw(st.booleans()) else None
    priorities = draw(st.permutations(["club", "repeat", "fives", "winners"]))
    problem = Problem(n, sizes, rounds, club=club, base=base, odd_table=[s != prefer for s in sizes],
                      odd_base=[rng.randrange(3) for _ in range(n)], weight=weights(priorities),
                      winners=winners, anchor=anchor)
    schedule = []
    for _ in range(rounds):
        players = list(range(n))
        rng.shuffle(players)
        tables, start = [], 0
        for s in sizes:
            tables.append(players[start:start + s])
            start += s
        schedule.append(tables)
    return problem, schedule, rng


@settings(max_examples=150, deadline=None)
@given(problems())
def test_swap_delta_equals_the_cost_recomputed(case):
    problem, schedule, rng = case
    if problem.T < 2:
        return
    state = Schedule(problem, schedule)
    cost = problem.cost(state.rounds)
    for _ in range(25):
        r = rng.randrange(len(state.rounds))
        a, b = rng.sample(range(problem.T), 2)
        p, q = rng.choice(state.rounds[r][a]), rng.choice(state.rounds[r][b])
        delta = swap_delta(problem, state, r, p, q)
        state.swap(r, p, a, q, b)
        cost += delta
        assert cost == problem.cost(state.rounds)
        # The tallies kept move by move are those counted afresh.
        assert (state.meetings, state.odd) == tally(problem, state.rounds)
