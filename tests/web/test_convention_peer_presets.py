"""The compare page shows every option, and the peers' presets read as the others do.

The compare page (docs/rules.md §3.9) shows every option, new ones too,
because it lists the engine's OPTION_NAMES (scoring.presenters.option_topics); "PU home",
"FSPR (PU)", "RS Sochi" and "gchet" are read-only presets with their rules in words and
their game values (docs/rules.md §3.9, second table).
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import presenters
from scoring.engine.conventions import OPTION_NAMES, PRESET_NAMES, preset
from scoring.models import Convention, option_fields
from scoring.rules_text import rules
from tests.web.fixtures_conventions import change_url, form_data

pytestmark = pytest.mark.django_db

COMPARE = reverse("conventions:compare")
HTMX = {"HX-Request": "true"}
PEERS = ("pu-home", "pu-fspr", "rs-sochi", "gchet")


def compare(a: str, b: str) -> str:
    return f"{COMPARE}?a={a}&b={b}"


def detail(slug: str) -> str:
    return reverse("conventions:detail", args=[slug])


def row_keys(html: str) -> list[str]:
    """The option rows of the compare page's "Every option" part, in order."""
    options = html[html.index("Every option") :]
    return re.findall(r'<tr role="row" data-key="([^"]+)"', options)


def cells(html: str, key: str) -> list[str]:
    rows = re.findall(rf'<tr role="row" data-key="{key}"[^>]*>(.*?)</tr>', html, re.S)
    return [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[-1], re.S)]


@pytest.mark.parametrize("peer", PEERS)
def test_the_compare_page_has_a_row_for_every_option_of_the_engine(
    conventions_client, conventions_world, peer
):
    html = conventions_client("mila").get(compare("sochi", peer)).content.decode()

    wanted = [field for name in OPTION_NAMES for field in option_fields(name)]
    assert sorted(row_keys(html)) == sorted(wanted)


def test_an_option_no_topic_places_yet_is_shown_under_other_options(
    conventions_client, conventions_world, monkeypatch
):
    """A new engine option is on the page before anyone puts it in OPTION_TOPICS."""
    trimmed = tuple(
        (title, tuple(o for o in options if o != "indivisible_mountain"))
        for title, options in presenters.OPTION_TOPICS
    )
    monkeypatch.setattr(presenters, "OPTION_TOPICS", trimmed)

    html = conventions_client("mila").get(compare("sochi", "rs-sochi")).content.decode()

    assert "<caption>Other options</caption>" in html
    assert row_keys(html)[-1] == "indivisible_mountain"
    assert cells(html, "indivisible_mountain") == ["no", "no"]


def test_an_engine_option_the_model_lacks_is_shown_with_the_engines_value(monkeypatch):
    """Even before the model has a field for it, the value comes from the engine."""
    monkeypatch.setattr(presenters, "is_model_field", lambda name: name != "ten")
    trimmed = tuple(
        (title, tuple(o for o in options if o != "ten"))
        for title, options in presenters.OPTION_TOPICS
    )
    monkeypatch.setattr(presenters, "OPTION_TOPICS", trimmed)

    sections = presenters.option_sections(preset("sochi"), preset("gchet"))

    other = sections[-1]
    assert other.title == "Other options"
    assert [(r.key, r.cells, r.differs) for r in other.rows] == [
        ("ten", ("whisted", "checked"), True)
    ]


def test_the_comparison_marks_what_rs_sochi_changes(conventions_client, conventions_world):
    html = conventions_client("mila").get(compare("sochi", "rs-sochi")).content.decode()

    opening = re.search(r'<tr role="row" data-key="consolation"[^>]*>', html)
    assert opening is not None and "is-different" in opening.group(0)
    assert cells(html, "consolation")[1] == "nobody"
    same = re.search(r'<tr role="row" data-key="whist_scale"[^>]*>', html)
    assert same is not None and "is-different" not in same.group(0)


def test_the_comparison_of_two_peers_with_htmx_is_only_its_region(
    conventions_client, conventions_world
):
    response = conventions_client("mila").get(compare("pu-home", "gchet"), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="comparison" id="comparison"')
    assert "<html" not in html and "PU home" in html and "gchet" in html


def test_the_compare_form_offers_the_peers_presets(conventions_client, conventions_world):
    html = conventions_client("mila").get(COMPARE).content.decode()

    for slug in PEERS:
        assert f'<option value="{slug}"' in html


@pytest.mark.parametrize("peer", PEERS)
def test_each_peer_preset_is_on_the_list_in_order(conventions_client, conventions_world, peer):
    html = conventions_client("mila").get(reverse("conventions:list")).content.decode()

    positions = [html.index(detail(slug)) for slug in PRESET_NAMES]
    assert positions == sorted(positions)
    assert detail(peer) in html


@pytest.mark.parametrize("peer", PEERS)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_peer_preset_has_its_page_rules_and_game_values(
    conventions_client, conventions_world, peer, language
):
    response = conventions_client("mila", language=language).get(detail(peer))

    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<tr data-game="') == 13
    assert html.count('<tr data-option="') == len(
        [f for name in OPTION_NAMES for f in option_fields(name)]
    )
    read_only = "Built-in preset" if language == "en" else "Встроенная"
    assert read_only in html


def test_the_peer_presets_are_named_in_the_readers_language(conventions_client, conventions_world):
    english = conventions_client("mila").get(detail("pu-home")).content.decode()
    russian = conventions_client("mila", language="ru").get(detail("pu-home")).content.decode()

    assert "PU home" in english and "refinishru-Andre/pulka" in english
    assert "Домашняя (Пулька)" in russian and "Домашняя конвенция приложения" in russian
    gchet = conventions_client("mila", language="ru").get(detail("gchet")).content.decode()
    assert "Правила gchet" in gchet


@pytest.mark.parametrize("peer", PEERS)
def test_every_option_of_a_peer_preset_has_words(peer):
    assert all(topic.sentences for topic in rules(preset(peer)))


@pytest.mark.parametrize("peer", PEERS)
def test_a_peer_preset_is_read_only_in_the_admin(conventions_client, conventions_world, peer):
    convention = Convention.objects.get(slug=peer)
    client = conventions_client("root")

    page = client.get(change_url(convention)).content.decode()
    response = client.post(change_url(convention), form_data(convention, whist_scale=3))

    assert 'name="_save"' not in page and "Duplicate as a new convention" in page
    assert response.status_code == 403
    convention.refresh_from_db()
    assert convention.is_preset and convention.to_engine() == preset(peer)
