"""Names put into translated sentences are isolated (docs/design.md, "Names,
languages and taps"): a right-to-left name cannot carry the words and figures of the
sentence around it to its side, in a template's ``{% blocktranslate %}`` (the
``isolate`` filter) or in a sentence made in Python (``clubs/names.isolate``).
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from prefscore.clubs.names import FSI, PDI, isolate
from prefscore.clubs.templatetags.people import isolate as isolate_filter
from prefscore.games.presenters import entry, protocol, settlement, sheet, trail
from scoring.engine import settlement as engine_settlement

ARABIC = "أحمد"
ISOLATED = f"{FSI}{ARABIC}{PDI}"

# A value put into a sentence that people typed: a name, a title, a reason.
TYPED = re.compile(
    r"""^( .*\bname | .*\.name | player_name | .*\|display_name | .*\.get_username
         | .*first_dealer | row\.name | table\.title | pair\.names | change\.by
         | row\.reason | row\.account | conflict\.recorder | comparison\.[ab] )$""",
    re.X,
)
BLOCK = re.compile(r"\{%\s*blocktranslate\b(.*?)%\}", re.S)


def _sentence_values() -> list[tuple[str, str]]:
    found = []
    for path in Path(settings.BASE_DIR, "templates").rglob("*"):
        if path.suffix not in (".html", ".txt"):
            continue
        for tag in BLOCK.finditer(path.read_text()):
            for _key, expr in re.findall(r"(\w+)=([^\s%]+)", tag.group(1)):
                found.append((str(path), expr))
    return found


def test_every_typed_value_in_a_template_sentence_goes_through_isolate() -> None:
    values = _sentence_values()
    assert len(values) > 100  # the scan reads the templates' sentences
    bare = [
        (path, expr)
        for path, expr in values
        if TYPED.match(expr.removesuffix("|isolate")) and not expr.endswith("|isolate")
    ]
    assert bare == []
    assert sum(expr.endswith("|isolate") for _path, expr in values) >= 45


def test_the_filter_isolates_a_right_to_left_name_and_leaves_latin_letters_alone() -> None:
    assert isolate_filter(ARABIC) == ISOLATED
    assert isolate_filter("Anna Petrova") == "Anna Petrova"
    assert isolate_filter("Вера") == "Вера"
    assert isolate_filter("R2-D2") == f"{FSI}R2-D2{PDI}"  # digits take a side too
    assert isolate_filter(None) == "" and isolate_filter("") == ""


def _conflict(recorder: str) -> SimpleNamespace:
    return SimpleNamespace(
        number=5, recorder=recorder, theirs="7♠=", yours="6♥=", next_number=6,
        action="/p/1/record/", values=(("contract", "6"),), client_id="", sheet_url="/p/1/",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "On the sheet, recorded by "), ("ru", "В листе, запись: ")],
)
def test_the_lost_race_names_the_recorder_isolated_and_in_neutral_russian(
    language: str, sentence: str
) -> None:
    with translation.override(language):
        html = render_to_string("games/_conflict.html", {"conflict": _conflict(ARABIC)})
    assert f"{sentence}{ISOLATED}</h3>" in html
    assert "записал" not in html


def test_the_requests_panel_isolates_the_name_in_its_labels_and_buttons() -> None:
    user = SimpleNamespace(first_name=ARABIC, get_username=lambda: "ahmad", pk=1)
    asked = SimpleNamespace(user=user, created_at=None, pk=3)
    guest = SimpleNamespace(name=ARABIC, pk=4)
    with translation.override("en"):
        html = render_to_string(
            "clubs/_requests_panel.html",
            {
                "membership_requests": (SimpleNamespace(asked=asked, guests=(guest,)),),
                "club": SimpleNamespace(slug="c", name=ARABIC),
            },
        )
    assert f'aria-label="Approve {ISOLATED}"' in html
    assert f'aria-label="Decline {ISOLATED}"' in html
    assert f"This is guest {ISOLATED}</button>" in html


def test_sentences_made_in_python_isolate_the_names() -> None:
    names = (ARABIC, "Boris", "Vera")
    adjustment = engine_settlement.Adjustment(seat=0, change=-1, compensation=1)
    with translation.override("en"):
        assert settlement._adjustment(adjustment, names).startswith(f"{ISOLATED}: gora −1")
        assert protocol._figure(ARABIC, "pulya", 2, None) == f"{ISOLATED}: 2 into the pulya"
        assert protocol._figure("Boris", "whists", 4, ARABIC).endswith(f"→ {ISOLATED}: 4 whists")
        assert trail._seat_answer(ARABIC, {}).text == f"{ISOLATED}: waiting"
        assert sheet._label(ARABIC, sheet.drawing.Box(0, 0, 200, 40)).text == f"→{ISOLATED}"
    with translation.override("ru"):
        row = SimpleNamespace(player=SimpleNamespace(name=ARABIC))
        assert entry._answer_label(row, own=False).startswith(f"{ISOLATED} ")


def test_isolate_is_the_one_the_presenters_use() -> None:
    from prefscore.games.presenters import bidi

    assert bidi.isolate is isolate


@pytest.mark.django_db
def test_a_form_error_that_names_a_guest_isolates_the_name() -> None:
    from prefscore.clubs.forms import GuestForm
    from prefscore.clubs.models import Club, Player

    club = Club.objects.create(name="Клуб", slug="klub")
    Player.objects.create(club=club, name=ARABIC)
    with translation.override("ru"):
        form = GuestForm({"name": ARABIC}, club=club)
        assert not form.is_valid()
        assert form.errors["name"] == [f"{ISOLATED} уже играет в этом клубе."]


def test_an_engine_message_isolates_the_player_it_names() -> None:
    from scoring.engine.errors import ScoringError
    from scoring.messages import message_for

    with translation.override("en"):
        text = message_for(ScoringError("deal.word_not_text", player=ARABIC), places=False)
    assert text.startswith(f"{ISOLATED}: ")
