"""Protocol lines and the next deal's empty form kept by what they show (issue 16).

A new version renders only the protocol lines that are new or changed, and the empty
form only when it shows something new: each is kept under the pulka's identity, the
language and a digest of its own values, never the version. Served from those entries
a page is byte for byte the page rendered with an empty cache; a correction, an undo,
an arbiter's decision and a language switch show at once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.template import Context, Template
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from prefscore.games import recording, render_cache
from prefscore.games.models import Pulka
from prefscore.games.presenters import entry_form
from prefscore.games.presenters.next_deal import next_deal_form
from prefscore.games.presenters.protocol import ProtocolLine
from prefscore.games.presenters.viewer_class import Unshareable, shown_digest
from prefscore.games.templatetags.shared_each import SharedEachNode
from tests.web.test_render_cache import (
    arbiter,
    assert_cached_equals_fresh,
    correct,
    pencil_down,
    protocol,
    record,
    table,  # noqa: F401 (a fixture)
    undo,
)

pytestmark = pytest.mark.django_db


def rendered_lines() -> Any:
    """Counts the protocol lines rendered, not taken from the cache."""
    return mock.patch.object(SharedEachNode, "_one", autospec=True, side_effect=SharedEachNode._one)


def sheet(clients: dict[str, Any], name: str = "anna", language: str = "en") -> str:
    pulka_url = reverse("games:sheet", args=[clients["_pulka"].pk])
    return clients[name].get(pulka_url, headers={"accept-language": language}).content.decode()


@pytest.fixture
def played(table: Any) -> tuple[Pulka, dict[str, Any]]:  # noqa: F811
    pulka, clients = table
    for _ in range(3):
        pencil_down(pulka, clients, 0)
        record(pulka, clients, 0)
    pulka.refresh_from_db()
    return pulka, {**clients, "_pulka": pulka}


def test_a_new_deal_renders_only_the_lines_that_are_new_or_changed(played):
    pulka, clients = played
    sheet(clients)  # version 3 seen: lines 1 and 2 in the tail, kept
    with rendered_lines() as made:
        record(pulka, clients, 0)  # the record's own answer renders version 4
    # Deal 3 moved from the newest line into the older ones; deals 1 and 2 look the same.
    assert made.call_count == 1
    assert made.call_args.args[2].number == 3
    pulka.refresh_from_db()
    assert_cached_equals_fresh(clients, pulka)


def test_every_viewer_class_keeps_its_lines_across_versions(played):
    pulka, clients = played
    sheet(clients, "oksana")  # the arbiter's lines of version 3: their own variant
    record(pulka, clients, 0)
    with rendered_lines() as made:
        html = protocol(sheet(clients, "oksana"))
    assert [call.args[2].number for call in made.call_args_list] == [3]
    assert "Arbiter&#x27;s decision on deal 1" in html


@pytest.mark.parametrize("change", [correct, arbiter])
def test_a_correction_or_a_decision_shows_at_once_on_the_line_it_changes(played, change):
    pulka, clients = played
    before = protocol(sheet(clients, "oksana"))
    with rendered_lines() as made:
        change(pulka, clients, 0)  # deal 1
        after = protocol(sheet(clients, "oksana"))
    assert after != before and "protocol__deal--corrected" in after
    assert any(call.args[2].number == 1 for call in made.call_args_list)
    pulka.refresh_from_db()
    assert_cached_equals_fresh(clients, pulka)


def test_an_undo_shows_at_once(played):
    pulka, clients = played
    pencil_down(pulka, clients, 0)
    record(pulka, clients, 0)
    assert 'value="4"' in protocol(sheet(clients))
    undo(pulka, clients, 0)
    html = protocol(sheet(clients))
    assert 'value="4"' not in html and 'value="3"' in html
    pulka.refresh_from_db()
    assert_cached_equals_fresh(clients, pulka)


def test_a_language_switch_shows_every_line_in_the_new_language(played):
    _pulka, clients = played
    english = protocol(sheet(clients, "anna", "en"))
    russian = protocol(sheet(clients, "anna", "ru"))
    assert "Recorded by" in english and "dealer" in english
    assert "Recorded by" not in russian and "dealer " not in russian
    assert "сдающий" in russian


def test_a_line_key_names_the_pulka_and_the_language_but_not_the_version(played):
    pulka, _clients = played
    with translation.override("en"):
        english = render_cache.lasting_key(pulka, "protocol-line")
        pulka.version += 1
        moved = render_cache.lasting_key(pulka, "protocol-line")
    with translation.override("ru"):
        russian = render_cache.lasting_key(pulka, "protocol-line")
    other = Pulka(pk=pulka.pk + 1, created_at=pulka.created_at)
    with translation.override("en"):
        elsewhere = render_cache.lasting_key(other, "protocol-line")
    assert english == moved and len({english, russian, elsewhere}) == 3


def test_a_line_key_names_the_release_it_was_rendered_by(played, tmp_path, settings):
    """A release that mends a translation or a template renders the lines again, even
    from a shared cache that outlived the deploy: the words a template translates are
    in no line's digest. The release is named from the files, not from where they lie."""
    pulka, _clients = played
    shipped = Path(settings.LOCALE_PATHS[0])
    with translation.override("ru"):
        before = render_cache.lasting_key(pulka, "protocol-line")
        page_before = render_cache.key(pulka, "regions")
        render_cache.release.cache_clear()
        elsewhere = tmp_path / "elsewhere"
        for catalogue in shipped.rglob("*.mo"):  # every catalogue as shipped, elsewhere
            copy = elsewhere / catalogue.relative_to(shipped)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(catalogue.read_bytes())
        settings.LOCALE_PATHS = [elsewhere]
        try:
            moved = render_cache.lasting_key(pulka, "protocol-line")
            render_cache.release.cache_clear()
            mended = elsewhere / "ru" / "LC_MESSAGES" / "django.mo"
            # The same translations and one byte more: a catalogue that reads, but is another.
            mended.write_bytes(mended.read_bytes() + b"\0")
            after = render_cache.lasting_key(pulka, "protocol-line")
            page_after = render_cache.key(pulka, "regions")
        finally:
            render_cache.release.cache_clear()
    assert moved == before  # the same files in another folder: the same keys
    assert after != before and page_after != page_before


def test_a_lines_digest_follows_every_value_it_shows():
    line = ProtocolLine(3, "6♠ Anna", "dealer Boris", "Anna", ("a",), "Recorded by anna.", False)
    changes = {
        "notation": "7♠ Anna",
        "entries": ("b",),
        "struck": ("6♠ Anna",),
        "correct": True,
        "arbiter": True,
        "held": "Boris holds the pencil",
        "correct_label": "Correct deal 4",
    }
    digests = {shown_digest(line)} | {
        shown_digest(dataclasses.replace(line, **{name: value})) for name, value in changes.items()
    }
    assert len(digests) == 1 + len(changes)
    assert shown_digest(line) == shown_digest(dataclasses.replace(line))
    with pytest.raises(Unshareable):  # an object whose repr is its address keys nothing
        shown_digest(dataclasses.replace(line, entries=(object(),)))


def test_a_loop_over_values_that_are_not_plain_data_shares_nothing():
    cache.clear()
    loop = Template(
        "{% load shared_each %}{% shared_each x in items key %}[{{ x }}]{% endshared_each %}"
    )
    context = {"items": [object(), object()], "key": "prefscore.test.items"}
    with mock.patch.object(cache, "set_many") as kept:
        html = loop.render(Context(context))
    assert html.count("[&lt;object object at") == 2 and not kept.called
    assert loop.render(Context({"items": ["a", "b"], "key": ""})) == "[a][b]"


def test_a_loop_from_the_cache_is_the_loop_rendered_fresh():
    cache.clear()
    loop = Template(
        "{% load shared_each %}{% shared_each x in items key %}<{{ x }}>{% endshared_each %}"
    )
    values = [("a&b", "c"), ("d",), ("a&b", "c")]
    plain_loop = Template("{% for x in items %}<{{ x }}>{% endfor %}")
    context = {"items": values, "key": "prefscore.test.loop"}
    first = loop.render(Context(context))
    with mock.patch.object(SharedEachNode, "_one") as made:
        again = loop.render(Context(context))
    assert not made.called and first == again == plain_loop.render(Context(context))
    assert "&amp;" in first


# --- the next deal's empty form -------------------------------------------------------


def test_consecutive_versions_with_the_same_form_share_one_rendering(played):
    pulka, clients = played
    pencil_down(pulka, clients, 0)
    html = sheet(clients)
    pulka.refresh_from_db()
    key = key_of_entry(pulka)
    record(pulka, clients, 0)  # deal 4 …
    undo(pulka, clients, 0)  # … undone: another version, the same form
    pulka.refresh_from_db()
    assert key_of_entry(pulka) == key
    with mock.patch("prefscore.games.templatetags.shared_cache.cache.set") as kept:
        again = sheet(clients, "boris")
    assert not any(call.args[0] == key for call in kept.call_args_list)
    assert 'name="number" value="4"' in html and 'name="number" value="4"' in again
    assert_cached_equals_fresh(clients, pulka)


def key_of_entry(pulka: Pulka) -> str:
    state = recording.log_of(pulka).scored.state
    with translation.override("en"):
        return next_deal_form(pulka, lambda: state, pulka.deals.current().count() + 1)[1]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_shared_form_of_another_number_is_the_fresh_render_byte_for_byte(played, language):
    pulka, _clients = played
    state = recording.log_of(pulka).scored.state
    shared = Template(
        "{% load shared_cache %}{% shared_cache key number %}"
        '{% include "games/_entry_form.html" %}{% endshared_cache %}'
    )
    with translation.override(language):
        four, key = next_deal_form(pulka, lambda: state, 4)
        seven, key_seven = next_deal_form(pulka, lambda: state, 7)
        assert key == key_seven  # the number is not part of what keys it
        cache.clear()
        values = {"pulka": pulka, "csrf_token": "TOKEN", "key": key}
        first = shared.render(Context({**values, "entry": four, "number": 4}))
        from_cache = shared.render(Context({**values, "entry": seven, "number": 7}))
        action = reverse("games:record", args=[pulka.pk])
        fresh = {
            n: get_template("games/_entry_form.html").render(
                {
                    "entry": entry_form(state, action, n, {}, {}),
                    "pulka": pulka,
                    "csrf_token": "TOKEN",
                }
            )
            for n in (4, 7)
        }
    assert render_cache.NUMBER_PLACEHOLDER not in from_cache + first
    assert first == fresh[4] and from_cache == fresh[7] and fresh[4] != fresh[7]
    assert 'name="number" value="7"' in from_cache and 'value="TOKEN"' in from_cache


def test_a_form_kept_across_versions_names_the_templates_markup(played):
    pulka, _clients = played
    state = recording.log_of(pulka).scored.state
    with translation.override("en"):
        _form, key = next_deal_form(pulka, lambda: state, 4)
        with mock.patch.object(render_cache, "source_digest", return_value="another"):
            _form, redeployed = next_deal_form(pulka, lambda: state, 4)
    assert key != redeployed and redeployed.endswith(".another")
