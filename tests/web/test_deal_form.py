"""The deal form's fields, made once per table size and shared by its forms (docs/design.md,
"How the table screen is cached").

Django deep-copies a form's declared fields for every form; the deal form only reads a
post through its fields, so every form of one size shares them, and each form keeps
its own data, answers and errors.
"""

from __future__ import annotations

from prefscore.games.forms import ArbiterForm, DealForm
from scoring.engine.conventions import preset
from scoring.engine.sheet import start

DEAL = ("number", "contract", "suit", "declarer", "prikup", "conceded", "totus", "talon_shown")


def state(size: int = 3):
    names = ("Anna", "Boris", "Vera", "Gleb")[:size]
    return start(names, preset("sochi"), 10)


def test_forms_of_one_size_share_their_fields_and_keep_their_own_answers():
    wrong = DealForm(state(), {"number": "1", "contract": "11", "declarer": "0"})
    right = DealForm(
        state(), {"number": "1", "contract": "6", "suit": "S", "declarer": "0", "word_1": "pass"}
    )

    assert all(wrong.fields[name] is right.fields[name] for name in right.fields)
    assert right.is_valid() and not wrong.is_valid()
    assert right.facts == {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "pass"}}
    assert wrong.facts == {} and "contract" in wrong.grouped_errors()
    assert not right.grouped_errors()


def test_each_size_has_its_seats_fields_in_order():
    three, four = DealForm(state(3)), DealForm(state(4))

    seats = [f"{kind}_{seat}" for seat in range(4) for kind in ("word", "tricks")]
    assert list(three.fields) == [*DEAL, *seats[:6]]
    assert list(four.fields) == [*DEAL, *seats]


def test_an_arbiters_form_copies_its_own_fields_after_the_deals():
    one, other = ArbiterForm(state()), ArbiterForm(state())

    assert list(one.fields)[: len(DEAL) + 2] == [*DEAL, "reason", "penalty"]
    assert one.fields["reason"] is not other.fields["reason"]
    assert one.fields["number"] is other.fields["number"]
    assert not ArbiterForm(state(), {"number": "1", "contract": "allpass"}).is_valid()
