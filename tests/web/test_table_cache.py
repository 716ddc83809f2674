"""The table screen's cache, by its rules (docs/design.md, "How the table screen is cached").

- every key names the release: a change of any deployed file (a presenter, an engine
  rule) moves every key, so a shared cache never folds a deal on an older release;
- nothing a user writes can stand for a viewer's own part: there is no placeholder;
- a shared region sees only what the version settles: asking it for a request, a user,
  messages, a token or a form fails loudly;
- under DEBUG nothing is kept: a change shows on the next request.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from prefscore.clubs.models import Membership, Role
from prefscore.games import recording, render_cache, services
from prefscore.games.models import Pulka
from scoring.engine import pulka as engine_pulka
from tests.web.fixtures_corrections import (
    SEATED_PASSWORD,
    _seat_pulka,
    correction_form,
    seated_record,
)
from tests.web.fixtures_table import EN, HTMX, legal_deals

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# Every part of the table screen's that the cache keeps, by its name in ``render_cache``.
PARTS = (
    "log",
    "state",
    "last-deal",
    "proposal",
    "abandonment",
    "status",
    "sheet",
    "protocol-head",
    "protocol-tail",
    "entry",
    "settlement",
    "export",
)
# The placeholders an earlier cache filled in every viewer's page with his own parts.
OLD_MARKERS = (
    "prefscoreSharedViewerNamePlaceholder",
    "prefscoreSharedPollAddressPlaceholder",
    "prefscoreSharedViewerHeadPlaceholder",
)
CSRF_MARKER = "prefscoreSharedCsrfTokenPlaceholder"


def played(world: Any, deals: int = 2) -> Pulka:
    pulka: Pulka = world.pulka
    names = list(pulka.player_names)
    for n in range(1, deals + 1):
        seated_record(pulka, legal_deals(names, n)[n - 1], world.users["anna"])
    return pulka


def page(client: Client, pulka: Pulka) -> str:
    response = client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN)
    assert response.status_code == 200
    return response.content.decode()


def every_key(pulka: Pulka) -> set[str]:
    with translation.override("en"):
        return {render_cache.key(pulka, part) for part in PARTS}


def deployed_copy(tmp_path: Path) -> tuple[Path, ...]:
    """The screen's and the rules' code as deployed, in a folder a test may edit."""
    roots = []
    for name in ("prefscore", "scoring"):
        copy = tmp_path / name
        shutil.copytree(ROOT / name, copy, ignore=shutil.ignore_patterns("__pycache__"))
        roots.append(copy)
    return tuple(roots)


@pytest.fixture
def release_in(tmp_path: Path, monkeypatch: Any) -> tuple[Path, ...]:
    roots = deployed_copy(tmp_path)
    monkeypatch.setattr(render_cache, "RELEASE_ROOTS", roots, raising=False)
    restart()
    yield roots
    restart()


def restart() -> None:
    """Every app server starts again: the release is read anew."""
    getattr(render_cache, "_release", render_cache.release).cache_clear()


def deploy(path: Path) -> None:
    """A new release: ``path`` changed, every app server restarted."""
    path.write_text(path.read_text() + "\n# changed by the release\n")
    restart()


# --- keys follow the code -------------------------------------------------


@pytest.mark.parametrize(
    "changed", ["prefscore/games/presenters/table.py", "scoring/engine/sheet.py"]
)
def test_a_change_of_the_screens_code_moves_every_key(seated_world, release_in, changed):
    pulka = played(seated_world, 1)
    before = every_key(pulka)
    deploy(release_in[0].parent / changed)
    after = every_key(pulka)
    assert len(before) == len(after) == len(PARTS)
    assert not before & after


def test_the_release_is_the_deployed_files_not_a_number_kept_by_hand(seated_world):
    assert not hasattr(render_cache, "SCHEMA")
    names = {root.name for root in render_cache.RELEASE_ROOTS}
    assert names == {"prefscore", "scoring", "templates", "locale", "static"}
    assert render_cache.release() in render_cache.key(seated_world.pulka, "sheet")


def _gora_plus_one(original: Any) -> Any:
    """An engine rule changed by a release: every deal writes one more on each gora."""

    def apply(state: Any, deal: Any) -> Any:
        after, record = original(state, deal)
        return dataclasses.replace(after, gora=tuple(g + 1 for g in after.gora)), record

    return apply


def test_a_release_that_changes_a_rule_folds_the_next_deal_anew_on_a_shared_cache(
    seated_world, seated_client, settings, release_in
):
    """Reproduced with ``CACHE_URL=db://…``: the next deal was folded on top of the old
    release's cached log, so the sheet stayed wrong after the fix."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "prefscore_test_cache",
        }
    }
    call_command("createcachetable", verbosity=0)
    pulka = played(seated_world, 2)
    anna = seated_client("anna")
    page(anna, pulka)  # the old release's fold, in the shared cache
    deploy(release_in[0].parent / "scoring/engine/sheet.py")
    changed = _gora_plus_one(engine_pulka.apply)
    with mock.patch.object(engine_pulka, "apply", changed):
        facts = legal_deals(list(pulka.player_names), 3)[2]
        url = reverse("games:record", args=[pulka.pk])
        assert anna.post(url, correction_form(facts, 3), headers=HTMX).status_code == 200
        pulka.refresh_from_db()
        shown = recording.log_of(pulka).scored.state
        fresh = services.score(pulka).state
    assert shown.gora == fresh.gora
    assert pulka.deals.current().count() == 3


# --- nothing forgeable ------------------------------------------------------


@pytest.fixture
def forged(seated_world: Any) -> Pulka:
    """A pulka whose guests are named as the old placeholders, titled as the CSRF one."""
    users = seated_world.users
    names = ("Anna", *OLD_MARKERS)
    pulka = _seat_pulka(seated_world.club, users, names=names, guests=OLD_MARKERS)
    pulka.title = CSRF_MARKER
    pulka.save(update_fields=["title"])
    for n in range(1, 3):
        seated_record(pulka, legal_deals(list(names), n)[n - 1], users["anna"])
    return pulka


def member(world: Any, name: str) -> Client:
    user = get_user_model().objects.create_user(name, password=SEATED_PASSWORD)
    Membership.objects.create(club=world.club, user=user, role=Role.MEMBER)
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("htmx", [False, True])
def test_names_equal_to_the_old_markers_show_as_themselves_and_leak_nothing(
    seated_world, seated_client, forged, htmx
):
    viewers = {
        "anna": seated_client("anna"),
        "dmitri-viewer": member(seated_world, "dmitri-viewer"),
    }
    shown = {}
    for name, client in viewers.items():
        if htmx:
            url = reverse("games:poll", args=[forged.pk]) + f"?v={forged.version - 1}"
            response = client.get(url, headers=HTMX)
            assert response.status_code == 200
            shown[name] = response.content.decode()
        else:
            shown[name] = page(client, forged)
    for name, html in shown.items():
        # The title is in the page's head, which the regions swapped by htmx are not.
        for marker in OLD_MARKERS if htmx else (*OLD_MARKERS, CSRF_MARKER):
            assert marker in html, marker
        other = next(n for n in viewers if n != name)
        assert f">{other}<" not in html  # the other viewer's name, in his page's head
        assert html.count("/poll") == 1  # his own poll address only, once
        # Nothing but text in an SVG title: no protocol markup put in a name's place.
        for title in re.findall(r"<title>(.*?)</title>", html, re.DOTALL):
            assert "<" not in title, title
    if not htmx:
        assert f"<title>{CSRF_MARKER} · " in shown["anna"]
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', shown["anna"])
        assert CSRF_MARKER not in tokens and tokens


# --- a shared region sees only what the version settles ----------------------


@pytest.fixture
def template_dir(tmp_path: Path, settings: Any) -> Path:
    """A folder of templates found before the project's own."""
    folder = tmp_path / "templates"
    (folder / "games").mkdir(parents=True)
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [folder, *engine["DIRS"]]}]
    return folder


def test_messages_in_a_shared_template_fail_the_page(seated_world, seated_client, template_dir):
    status = (ROOT / "templates/games/_status.html").read_text()
    loop = "{% for message in messages %}{{ message }}{% endfor %}"
    (template_dir / "games/_status.html").write_text(status + loop)
    pulka = played(seated_world, 1)
    with pytest.raises(render_cache.PerViewerValue, match="messages"):
        seated_client("anna").get(reverse("games:sheet", args=[pulka.pk]))


@pytest.mark.parametrize(
    "source",
    [
        "{% for message in messages %}{{ message }}{% endfor %}",
        "{{ user.get_username }}",
        "{% if request.user %}x{% endif %}",
        "{% csrf_token %}",
        "{{ form.as_p }}",
        "{{ poll_url }}",
    ],
)
def test_a_shared_region_asking_for_a_viewers_own_fails_loudly(template_dir, source):
    (template_dir / "games/probe.html").write_text(source)
    with pytest.raises(render_cache.PerViewerValue):
        render_cache.render_settled("games/probe.html", {"deal_count": 1})


def test_a_shared_region_given_a_viewers_own_fails_loudly(rf):
    with pytest.raises(render_cache.PerViewerValue, match="request"):
        render_cache.render_settled("games/_status.html", {"request": rf.get("/")})


def test_each_region_is_rendered_once_per_version_for_every_viewer_alike(
    seated_world, seated_client
):
    pulka = played(seated_world, 3)  # recorded by anna, who holds the pencil
    cache.clear()
    with mock.patch.object(
        render_cache, "render_settled", wraps=render_cache.render_settled
    ) as rendered:

        def new_renders(name: str) -> list[str]:
            before = rendered.call_count
            page(seated_client(name), pulka)
            return sorted(call.args[0] for call in rendered.call_args_list[before:])

        assert len(new_renders("boris")) == 5  # status, sheet, both protocol parts, form
        assert new_renders("vera") == []  # a player too: the same buttons
        assert new_renders("anna") == ["games/_protocol.html#head"]  # the pencil's form
        assert new_renders("gleb") == ["games/_protocol.html#head", "games/_protocol.html#tail"]
        assert new_renders("boris") == []


# --- under DEBUG a change shows on the next request --------------------------


def test_under_debug_a_change_of_the_code_shows_on_the_next_request(
    seated_world, seated_client, settings
):
    settings.DEBUG = True
    pulka = played(seated_world, 1)
    anna = seated_client("anna")
    assert "Edited convention" not in page(anna, pulka)
    with mock.patch(
        "prefscore.games.presenters.regions.convention_label", return_value="Edited convention"
    ):
        assert "Edited convention" in page(anna, pulka)
    assert list(cache._cache) == []  # type: ignore[attr-defined]


def test_under_debug_a_change_of_a_template_shows_on_the_next_request(
    seated_world, seated_client, settings, template_dir
):
    settings.DEBUG = True
    pulka = played(seated_world, 1)
    status = (ROOT / "templates/games/_status.html").read_text()
    (template_dir / "games/_status.html").write_text(status)
    anna = seated_client("anna")
    assert "Edited status" not in page(anna, pulka)
    (template_dir / "games/_status.html").write_text(status + "Edited status")
    from django.template import engines

    for loader in engines["django"].engine.template_loaders:  # what runserver's reloader does
        loader.reset()
    assert "Edited status" in page(anna, pulka)


# --- what the cache keeps a table's requests from doing ---------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_the_sheet_and_the_poll_make_as_many_queries_whatever_the_deals(
    seated_world, seated_client, htmx
):
    counts = []
    pulka = seated_world.pulka
    names = list(pulka.player_names)
    done = 0
    for deals in (1, 9):
        for n in range(done + 1, deals + 1):
            seated_record(pulka, legal_deals(names, n)[n - 1], seated_world.users["anna"])
        done = deals
        cache.clear()
        if htmx:
            url = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
            headers = {"HX-Request": "true"}
        else:
            url, headers = reverse("games:sheet", args=[pulka.pk]), {}
        seated_client("boris").get(url, headers=headers)  # the first device of the version
        vera = seated_client("vera")
        with CaptureQueriesContext(connection) as seen:
            assert vera.get(url, headers=headers).status_code == 200
        counts.append(len(seen.captured_queries))
    assert counts[0] == counts[1]
    assert counts[0] <= 6


# --- a form in a shared region takes the page's own token ------------------------------


def test_the_pencils_undo_posts_with_the_token_outside_its_shared_lines(
    seated_world, seated_client
):
    pulka = played(seated_world, 2)  # anna recorded them: she holds the pencil
    anna = seated_client("anna", csrf=True)
    html = page(anna, pulka)
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)" form="pencil-undo"', html)
    assert found is not None and 'id="pencil-undo"' in html
    url = reverse("games:pencil", args=[pulka.pk, 2])
    assert anna.post(url, {"action": "undo"}).status_code == 403  # no token: refused
    answer = anna.post(url, {"action": "undo", "csrfmiddlewaretoken": found.group(1)})
    assert answer.status_code == 302
    assert pulka.deals.current().count() == 1
