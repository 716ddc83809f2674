"""PU's three options on the convention pages: the compare page marks where the PU
presets differ from Sochi, in both languages, and the rules in words follow them."""

from __future__ import annotations

import re

import pytest

from tests.web.test_convention_peer_presets import cells, compare, detail

pytestmark = pytest.mark.django_db


def _differs(html: str, key: str) -> bool:
    opening = re.search(rf'<tr role="row" data-key="{key}"[^>]*>', html)
    assert opening is not None, key
    return "is-different" in opening.group(0)


def test_the_comparison_marks_pu_homes_help_order_and_checked_ten(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(compare("sochi", "pu-home")).content.decode()

    assert _differs(html, "help_order") and _differs(html, "checked_ten_trick_whists")
    assert cells(html, "help_order") == [
        "the largest unclosed pulya",
        "the next unclosed pulya clockwise",
    ]
    assert cells(html, "checked_ten_trick_whists") == ["no", "yes"]
    assert not _differs(html, "allpass_zero_bonus_excludes_dealer")


def test_the_comparison_marks_pu_fsprs_dealer_without_a_zero_bonus(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(compare("fspr", "pu-fspr")).content.decode()

    assert _differs(html, "allpass_zero_bonus_excludes_dealer")
    assert cells(html, "allpass_zero_bonus_excludes_dealer") == ["no", "yes"]
    assert not _differs(html, "help_order")


def test_the_comparison_reads_in_russian(conventions_client, conventions_world):
    response = conventions_client("mila").get(
        compare("sochi", "pu-home"), headers={"accept-language": "ru"}
    )
    html = response.content.decode()

    assert cells(html, "help_order") == [
        "в самую большую незакрытую пулю",
        "в следующую незакрытую пулю по часовой стрелке",
    ]
    assert "Висты за взятки на проверяемой десятерной" in html


def test_pu_homes_rules_say_where_help_goes(conventions_client, conventions_world):
    home = conventions_client("mila").get(detail("pu-home")).content.decode()
    sochi = conventions_client("mila").get(detail("sochi")).content.decode()

    assert "the next unclosed pulya clockwise, whatever its size" in home
    assert "On a failed checked ten the defenders write whists for their tricks" in home
    assert "the largest unclosed pulya and writes 10 whists" in sochi
    assert "clockwise, whatever its size" not in sochi


def test_pu_fsprs_rules_say_the_dealer_earns_no_zero_bonus(conventions_client, conventions_world):
    html = conventions_client("mila").get(detail("pu-fspr")).content.decode()

    assert "The dealer never earns the bonus for taking no trick" in html
