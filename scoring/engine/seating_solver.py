"""Fair mixed-field schedules by a constraint solver (docs/tournaments.md §4.3).

A mixed field (tables of 4 and of 3) is fair when, over the rounds, no pair meets twice,
everyone sits at a table of 4 as often as everyone else give or take one, and so is
first dealer there (the first dealer of a table of 4 sits out the most deals). The
round-by-round draw and annealing miss this: 13 players over 4 rounds sat 0 to 3 times
at the table of 4. OR-Tools' CP-SAT either finds such a schedule or proves that none
exists (INFEASIBLE); :mod:`.seating_fair` ships the schedules found, and the tests solve
the small cases again.

The model, for N players, R rounds, a tables of 4 and b of 3 a round: a boolean
``seat[r][p][t]`` per round, player and table; each player at one table a round, each
table full; ``met[p][q][r]`` is forced true when p and q share a table in round r, and
each pair meets at most once; each player's seats at tables of 4 lie between
⌊4aR/N⌋ and ⌈4aR/N⌉, or within ``spread`` of each other (also after every round, with
``prefix``), and likewise the first
dealer's chair, one per table of 4 and round, between ⌊aR/N⌋ and ⌈aR/N⌉. Symmetry:
round 1 is fixed (players in order), and a player p may only sit at one of the first
p + 1 tables of a size (tables of one size are interchangeable). Deterministic: one
search worker, a fixed random seed and a limit in deterministic time, never a
wall-clock limit, so the answer does not depend on the machine.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

# Deterministic-time budget (CP-SAT's own unit, about a second of work) for one solve.
DEFAULT_EFFORT = 30.0


@dataclass(frozen=True, slots=True)
class Solved:
    """The solver's answer for one field and round count.

    ``status``: ``found``, ``infeasible`` (proved: no such schedule exists) or
    ``unknown`` (the budget ran out first, proving nothing); ``rounds``: each round's
    tables, tables of 4 first, each with its first dealer in the first chair; players
    numbered 0..N−1.
    """

    status: str
    rounds: tuple[tuple[tuple[int, ...], ...], ...]


def _within(
    model: cp_model.CpModel, counts: Sequence[cp_model.LinearExprT], total: int, spread: int
) -> None:
    """Every count between some m and m + ``spread`` (1: ⌊total/N⌋ or ⌈total/N⌉)."""
    players = len(counts)
    if spread <= 1:
        low, high = total // players, -(-total // players)
        for count in counts:
            model.add_linear_constraint(count, low, high)
        return
    least = model.new_int_var(0, total // players, "least")
    for count in counts:
        model.add(count >= least)
        model.add(count <= least + spread)


def solve_fair(
    players: int,
    fours: int,
    threes: int,
    rounds: int,
    *,
    spread: int = 1,
    dealers: bool = True,
    prefix: bool = False,
    effort: float = DEFAULT_EFFORT,
    seed: int = 0,
) -> Solved:
    """A schedule with no repeat and fair shares, or the proof none exists (module docstring).

    docs/tournaments.md §4.3 (an even share of the tables of 4; the first dealer, who
    sits out, spread evenly). ``spread``: how far apart two players' counts of seats at
    a table of 4 may be (1 is the ideal); ``dealers``: also spread the first dealer's
    chair within one; ``prefix``: the shares hold after every round, not only the last;
    ``effort``: the deterministic-time limit.
    """
    sizes = [4] * fours + [3] * threes
    if players != sum(sizes):
        raise ValueError("the tables do not seat the field")
    model = cp_model.CpModel()
    seat = [
        [[model.new_bool_var(f"s{r}_{p}_{t}") for t in range(len(sizes))] for p in range(players)]
        for r in range(rounds)
    ]
    _seat_everyone(model, seat, sizes)
    _break_symmetry(model, seat, sizes)
    _meet_once(model, seat, players, rounds, len(sizes))
    checkpoints = range(1, rounds + 1) if prefix else (rounds,)
    for upto in checkpoints:
        _share(model, seat, range(fours), upto, 4 * fours * upto, players, spread)
    chairs = _dealers(model, seat, fours, checkpoints, players) if dealers and fours else None
    solver = cp_model.CpSolver()
    solver.parameters.num_search_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.max_deterministic_time = effort
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return Solved("infeasible", ())
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Solved("unknown", ())
    return Solved("found", _read(solver, seat, chairs, sizes, players))


Seats = list[list[list[cp_model.IntVar]]]


def _seat_everyone(model: cp_model.CpModel, seat: Seats, sizes: list[int]) -> None:
    for by_player in seat:
        for chairs in by_player:
            model.add_exactly_one(chairs)
        for t, size in enumerate(sizes):
            model.add(sum(by_player[p][t] for p in range(len(by_player))) == size)


def _break_symmetry(model: cp_model.CpModel, seat: Seats, sizes: list[int]) -> None:
    """Round 1 in player order; player p at one of the first p + 1 tables of a size."""
    player = 0
    for t, size in enumerate(sizes):
        for _ in range(size):
            model.add(seat[0][player][t] == 1)
            player += 1
    for by_player in seat[1:]:
        for p, chairs in enumerate(by_player):
            for t, size in enumerate(sizes):
                if sizes[:t].count(size) > p:
                    model.add(chairs[t] == 0)


def _meet_once(
    model: cp_model.CpModel, seat: Seats, players: int, rounds: int, tables: int
) -> None:
    for p, q in itertools.combinations(range(players), 2):
        met = [model.new_bool_var(f"m{p}_{q}_{r}") for r in range(rounds)]
        for r in range(rounds):
            for t in range(tables):
                model.add(seat[r][p][t] + seat[r][q][t] <= 1 + met[r])
        model.add(sum(met) <= 1)


def _share(
    model: cp_model.CpModel,
    seat: Seats,
    tables: range,
    upto: int,
    total: int,
    players: int,
    spread: int,
) -> None:
    counts = [sum(seat[r][p][t] for r in range(upto) for t in tables) for p in range(players)]
    _within(model, counts, total, spread)


def _dealers(
    model: cp_model.CpModel, seat: Seats, fours: int, checkpoints: range | tuple[int], players: int
) -> list[list[list[cp_model.IntVar]]]:
    """One first dealer per table of 4 and round, spread within one over the players."""
    rounds = len(seat)
    chair = [
        [[model.new_bool_var(f"d{r}_{p}_{t}") for t in range(fours)] for p in range(players)]
        for r in range(rounds)
    ]
    for r in range(rounds):
        for t in range(fours):
            model.add_exactly_one(chair[r][p][t] for p in range(players))
            for p in range(players):
                model.add_implication(chair[r][p][t], seat[r][p][t])
    for upto in checkpoints:
        counts = [
            sum(chair[r][p][t] for r in range(upto) for t in range(fours)) for p in range(players)
        ]
        _within(model, counts, fours * upto, 1)
    return chair


def _read(
    solver: cp_model.CpSolver,
    seat: Seats,
    chairs: list[list[list[cp_model.IntVar]]] | None,
    sizes: list[int],
    players: int,
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    schedule = []
    for r, by_player in enumerate(seat):
        tables = []
        for t in range(len(sizes)):
            members = [p for p in range(players) if solver.value(by_player[p][t])]
            if chairs is not None and t < len(chairs[r][0]):
                dealer = next(p for p in members if solver.value(chairs[r][p][t]))
                members = [dealer, *(p for p in members if p != dealer)]
            tables.append(tuple(members))
        schedule.append(tuple(tables))
    return tuple(schedule)
