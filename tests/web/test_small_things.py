"""The small things a club player tripped over: words that mean two things, a pulka
abandoned without a second thought, a dealer named for a line nobody dealt, past
tenses of one gender, a club made twice by one double submit."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Role
from tests.web.fixtures_access import PASSWORD, build_world
from tests.web.fixtures_corrections import SEATED_PASSWORD, seated_record
from tests.web.test_races_and_names import at_once

RU = {"accept-language": "ru"}
EN = {"accept-language": "en"}


def signed_in(user: Any, headers: dict[str, str] = EN) -> Client:
    client = Client(headers=headers)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_undoing_a_deal_and_abandoning_a_pulka_are_two_words_in_russian() -> None:
    world = build_world()
    page = signed_in(world.users["member"], RU).get(reverse("games:sheet", args=[world.pulka.pk]))
    html = page.content.decode()
    assert "Отменить сдачу" in html  # the member recorded the last deal: he holds the pencil
    admin = signed_in(world.users["admin"], RU).get(reverse("games:sheet", args=[world.pulka.pk]))
    admin_html = admin.content.decode()
    assert "Прервать эту пульку" in admin_html and "Отменить пульку" not in admin_html


@pytest.mark.django_db
def test_an_admin_abandoning_at_once_is_asked_first() -> None:
    world = build_world()
    html = signed_in(world.users["admin"]).get(reverse("games:sheet", args=[world.pulka.pk]))
    assert 'hx-confirm="Abandon the pulka at once?' in html.content.decode()


@pytest.mark.django_db
def test_a_manual_line_names_no_dealer(seated_world: Any) -> None:
    ada = get_user_model().objects.create_user("ada", password=SEATED_PASSWORD)
    Membership.objects.create(club=seated_world.club, user=ada, role=Role.ADMIN)
    pulka = seated_world.pulka
    line = {"player": "Anna", "section": "gora", "points": 6, "reason": "Showed a card"}
    seated_record(pulka, {"manual": line}, ada)
    html = signed_in(ada, RU).get(reverse("games:sheet", args=[pulka.pk])).content.decode()
    assert "protocol__deal--manual" in html
    manual = html[html.index("protocol__deal--manual") :]
    manual = manual[: manual.index("</li>")]
    assert "protocol__dealer" not in manual and "сда" not in manual


@pytest.mark.django_db
def test_a_double_submit_makes_one_club_and_says_why_the_second_is_refused() -> None:
    user = get_user_model().objects.create_user("anna", password=PASSWORD)
    client = signed_in(user)
    first = client.post(reverse("clubs:create"), {"name": "Пятничный клуб"})
    second = client.post(reverse("clubs:create"), {"name": "пятничный  клуб"})
    assert first.status_code == 302
    assert second.status_code == 200
    assert "You already have a club of this name." in second.content.decode()
    assert Club.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_submit_at_once_makes_one_club() -> None:
    user = get_user_model().objects.create_user("anna", password=PASSWORD)

    def create(_i: int) -> Any:
        return signed_in(user).post(reverse("clubs:create"), {"name": "Пятничный клуб"})

    responses = at_once(2, create)
    assert all(not isinstance(r, Exception) for r in responses), responses
    assert sorted(r.status_code for r in responses) == [200, 302]
    assert Club.objects.count() == 1
