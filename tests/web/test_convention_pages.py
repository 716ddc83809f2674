"""The player pages of conventions: the list, one convention, two compared."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.engine.conventions import OPTION_NAMES, from_options, preset
from scoring.models import Convention
from scoring.rules_text import rules

pytestmark = pytest.mark.django_db

LIST = reverse("conventions:list")
COMPARE = reverse("conventions:compare")
HTMX = {"HX-Request": "true"}


def detail(slug: str) -> str:
    return reverse("conventions:detail", args=[slug])


def compare(a: str, b: str) -> str:
    return f"{COMPARE}?a={a}&b={b}"


def value_cells(html: str, key: str) -> list[str]:
    """The cells of a game-value row (``6_made`` …) of the convention page."""
    row = re.search(rf'<tr data-game="{key}">(.*?)</tr>', html, re.S)
    assert row is not None, key
    return re.findall(r"<td[^>]*>(.*?)</td>", row.group(1))


def compare_row(html: str, key: str, nth: int = 0) -> tuple[str, list[str]]:
    """(the row's opening tag, its two cells) for an option or game row of the compare page."""
    rows = re.findall(rf'(<tr role="row" data-key="{key}"[^>]*>)(.*?)</tr>', html, re.S)
    opening, body = rows[nth]
    return opening, [cell.strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]


# The list


def test_the_list_shows_the_presets_and_the_members_club_conventions(
    conventions_client, conventions_world
):
    response = conventions_client("mila").get(LIST)

    html = response.content.decode()
    assert response.status_code == 200
    for name in ("Sochi", "Leningrad", "Rostov", "FSPR"):
        assert name in html
    assert "Home rules" in html and detail("home-rules") in html
    assert "Away rules" not in html


def test_the_list_puts_the_presets_in_the_protocols_order(conventions_client, conventions_world):
    html = conventions_client("mila").get(LIST).content.decode()

    positions = [html.index(detail(slug)) for slug in ("sochi", "leningrad", "rostov", "fspr")]
    assert positions == sorted(positions)


def test_the_list_with_htmx_is_only_its_region(conventions_client, conventions_world):
    response = conventions_client("mila").get(LIST, headers=HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith('<div class="convention-groups" id="conventions">')
    assert "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_the_list_asks_an_anonymous_visitor_to_sign_in(conventions_client, conventions_world):
    response = conventions_client("anonymous").get(LIST)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_list_answers_405_to_a_post(conventions_client, conventions_world):
    assert conventions_client("mila").post(LIST).status_code == 405


def test_the_list_query_count_does_not_grow_with_conventions(
    conventions_client, conventions_world, django_assert_max_num_queries
):
    client = conventions_client("mila")
    client.get(LIST)
    with django_assert_max_num_queries(10) as few:
        client.get(LIST)
    for number in range(20):
        Convention.from_engine(
            preset("rostov"),
            name=f"Extra {number}",
            slug=f"extra-{number}",
            owner=conventions_world.home,
        ).save()

    with django_assert_max_num_queries(len(few.captured_queries)):
        html = client.get(LIST).content.decode()

    assert "Extra 19" in html


# One convention


def test_the_sochi_page_shows_the_game_values_of_rules_6_6(conventions_client, conventions_world):
    html = conventions_client("mila").get(detail("sochi")).content.decode()

    assert value_cells(html, "6_made") == ["5.33", "7.00"]
    assert value_cells(html, "6_down_1") == ["\u221227.33", "\u221231.00"]
    assert value_cells(html, "9_made")[1] == "52.00"


def test_the_leningrad_page_shows_its_six_at_10_67(conventions_client, conventions_world):
    html = conventions_client("mila").get(detail("leningrad")).content.decode()

    assert value_cells(html, "6_made")[0] == "10.67"
    assert value_cells(html, "6_down_1")[1] == "\u221258.00"
    assert value_cells(html, "9_made")[1] == "104.00"


def test_the_values_table_has_every_game_for_three_and_four_players(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(detail("rostov")).content.decode()

    for key in ("7_made", "10_down_1", "misere_made", "misere_caught_1", "allpass_trick"):
        assert len(value_cells(html, key)) == 2
    assert "3 players" in html and "4 players" in html
    assert value_cells(html, "misere_caught_1") == ["\u221266.67", "\u221275.00"]


def test_the_values_use_russian_decimals_for_a_russian_reader(
    conventions_client, conventions_world
):
    html = conventions_client("mila", language="ru").get(detail("sochi")).content.decode()

    assert value_cells(html, "6_made") == ["5,33", "7,00"]
    assert value_cells(html, "6_down_1")[1] == "\u221231,00"


def test_the_rules_are_written_from_the_options_in_english(conventions_client, conventions_world):
    sochi = conventions_client("mila").get(detail("sochi")).content.decode()
    leningrad = conventions_client("mila").get(detail("leningrad")).content.decode()

    assert "Whist is greedy (жлобский): with one whister and a passer on a failed contract" in sochi
    assert "Whist is gentlemanly" in leningrad
    assert "There is no help" in leningrad and "There is no help" not in sochi


def test_the_rules_are_written_in_russian_for_a_russian_reader(
    conventions_client, conventions_world
):
    html = conventions_client("mila", language="ru").get(detail("sochi")).content.decode()

    assert "Вист жлобский" in html
    assert "Помощь" in html
    assert "Whist is greedy" not in html


def test_a_clubs_own_convention_reads_as_its_options_say(conventions_client, conventions_world):
    home = conventions_world.home_rules
    home.apply_engine(from_options({"deal_limit": 24, "end": "deals", "help": False}))
    home.save()

    html = conventions_client("mila").get(detail("home-rules")).content.decode()

    assert "The pulka ends after 24 deals." in html
    assert "A whister who has just gone down" not in html  # no help: no word on its limits


def test_every_option_of_every_preset_has_words(conventions_world):
    for name in ("sochi", "leningrad", "rostov", "fspr"):
        topics = rules(preset(name))

        assert [len(topic.sentences) > 0 for topic in topics] == [True] * 5


# One changed value for each option, on a base where the option has an effect.
CHANGES: list[tuple[str, dict[str, object]]] = [
    ("sochi", {"prices": {"6": 3, "7": 4, "8": 6, "9": 8, "10": 10, "misere": 10}}),
    ("sochi", {"whist_scale": 2}),
    ("sochi", {"gora_scale": 2}),
    ("sochi", {"whist_style": "gentleman"}),
    ("sochi", {"whister_liability": "half"}),
    ("sochi", {"joint_liability": "both"}),
    ("sochi", {"half_whist_levels": [6]}),
    ("sochi", {"ten": "checked"}),
    ("sochi", {"consolation": ["passer"]}),
    ("sochi", {"consolation_unit": "flat10"}),
    ("sochi", {"misere_consolation": True}),
    ("sochi", {"prikup_whists": True}),
    (
        "sochi",
        {"allpass_scoring": "whists", "allpass_amnesty": False, "allpass_dealer_talon": False},
    ),
    ("sochi", {"allpass_ladder": [1, 2, 4]}),
    ("sochi", {"allpass_amnesty": False}),
    ("sochi", {"allpass_zero_bonus": "gora_double"}),
    ("sochi", {"allpass_dealer_talon": False}),
    ("rostov", {"allpass_whist_rate": 4}),
    ("sochi", {"allpass_reset": "game_or_misere"}),
    ("sochi", {"allpass_reset": "made_whisted_game"}),
    ("sochi", {"allpass_reset": "made_game_or_misere"}),
    ("sochi", {"allpass_reset": "played_game_or_misere"}),
    ("sochi", {"allpass_reset": "made_played_game"}),
    ("sochi", {"allpass_zero_bonus_flat": True}),
    ("sochi", {"allpass_zero_bonus_dealer": True}),
    ("leningrad", {"allpass_exit_round": True}),
    ("sochi", {"finish_after_allpass_run": True}),
    ("sochi", {"allpass_max_run": 3}),
    ("sochi", {"exit_ladder": [6, 7, 7]}),
    ("sochi", {"help": False}),
    ("sochi", {"help_excludes_remized_whister": True}),
    ("sochi", {"help_excludes_dealer": True}),
    ("sochi", {"end": "sum_reached"}),
    ("fspr", {"deal_limit": 18}),
    ("sochi", {"pulya_to_gora": 2}),
    # docs/rules.md §3.10: deals with facts of their own.
    ("sochi", {"concede_levels": [6, 7]}),
    ("sochi", {"half_whist_first": True}),
    ("sochi", {"returned_whist_alone": True}),
    ("sochi", {"dealer_whist": "unliable"}),
    ("sochi", {"totus_bonus": 5}),
    ("sochi", {"talon_shown_penalty": "whists"}),
    ("sochi", {"rounding": "exact"}),
    ("sochi", {"rounding_compensation_4": 3}),
    ("sochi", {"rounding_adjusts": "first_seat"}),
    ("sochi", {"indivisible_mountain": True}),
    ("leningrad", {"gentleman_on_made": True}),
    ("sochi", {"personal_quota": True}),
    ("sochi", {"joint_liability": "second_own"}),
    ("sochi", {"ten": "checked", "checked_ten_consolation": "none"}),
    ("sochi", {"help_writeoff": "pulya_rate"}),
    ("sochi", {"help_writeoff_stops_at_zero": True}),
    # gchet's two rules: the bonus in gora units (the same words where kg is 1), both
    # consolations of a returned whist.
    ("leningrad", {"allpass_zero_bonus": "pulya_scaled"}),
    ("gchet", {"returned_whist_consolation": "whister"}),
    # PU's house rules that came after its presets (docs/rules.md §3.1.7, §3.3, §3.4).
    ("sochi", {"help_order": "clockwise"}),
    ("pu-home", {"checked_ten_trick_whists": False}),
    ("sochi", {"allpass_zero_bonus_excludes_dealer": True}),
    ("sochi", {"mountain_divisor": "others"}),
    ("sochi", {"half_whist_played": True}),
]


def rules_words(conv: object) -> list[str]:
    return [sentence for topic in rules(conv) for sentence in topic.sentences]  # type: ignore[arg-type]


@pytest.mark.parametrize(("base", "change"), CHANGES, ids=[str(c[1]) for c in CHANGES])
def test_every_option_changes_the_words_when_its_value_changes(base, change):
    before = rules_words(preset(base))
    after = rules_words(from_options(change, preset(base)))

    assert before != after


def test_the_changes_cover_every_option():
    assert {name for _base, change in CHANGES for name in change} == set(OPTION_NAMES)


def test_the_page_lists_every_option_in_words(conventions_client, conventions_world):
    html = conventions_client("mila").get(detail("fspr")).content.decode()

    assert '<tr data-option="consolation">' in html
    assert "the whisters, the passer, the dealer (4–5 players)" in html
    assert '<tr data-option="deal_limit">' in html and "none (played by time)" in html


def test_a_preset_page_says_it_is_read_only(conventions_client, conventions_world):
    html = conventions_client("mila").get(detail("sochi")).content.decode()

    assert "Built-in preset" in html
    assert reverse("admin:index") not in html  # a member is not staff: no admin link


def test_a_presets_name_and_description_follow_the_readers_language(
    conventions_client, conventions_world
):
    english = conventions_client("mila").get(detail("fspr")).content.decode()
    russian = conventions_client("mila", language="ru").get(detail("fspr")).content.decode()

    assert "FSPR (tournament)" in english and "The tournament convention of the ФСПР" in english
    assert "Турнирная конвенция ФСПР" in russian


def test_a_club_admin_gets_a_link_to_edit_his_convention(conventions_client, conventions_world):
    html = conventions_client("ada").get(detail("home-rules")).content.decode()

    assert (
        reverse("admin:scoring_convention_change", args=[conventions_world.home_rules.pk]) in html
    )


def test_the_page_with_htmx_is_only_its_region(conventions_client, conventions_world):
    response = conventions_client("mila").get(detail("sochi"), headers=HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith('<article class="convention" id="convention"')
    assert "<html" not in html and "5.33" in html


def test_a_boosted_request_gets_the_whole_page(conventions_client, conventions_world):
    response = conventions_client("mila").get(
        detail("sochi"), headers={**HTMX, "HX-Boosted": "true"}
    )

    assert "<html" in response.content.decode()


def test_another_clubs_convention_is_forbidden(conventions_client, conventions_world):
    client = conventions_client("mila")

    assert client.get(detail("away-rules")).status_code == 403
    assert client.get(detail("away-rules"), headers=HTMX).status_code == 403


def test_an_unknown_convention_is_not_found(conventions_client, conventions_world):
    assert conventions_client("mila").get(detail("no-such-rules")).status_code == 404


def test_the_convention_page_answers_405_to_a_post(conventions_client, conventions_world):
    assert conventions_client("mila").post(detail("sochi")).status_code == 405


def test_the_convention_page_asks_an_anonymous_visitor_to_sign_in(
    conventions_client, conventions_world
):
    response = conventions_client("anonymous").get(detail("sochi"))

    assert response.status_code == 302


def test_a_superuser_reads_any_clubs_convention(conventions_client, conventions_world):
    assert conventions_client("root").get(detail("away-rules")).status_code == 200


def test_hostile_names_are_escaped(conventions_client, conventions_world):
    home = conventions_world.home_rules
    home.name = '<script>alert("x")</script> \u202eRTL 🂡 ' + "x" * 150
    home.description = "<b>bold</b>\nline two"
    home.save()

    html = conventions_client("mila").get(detail("home-rules")).content.decode()

    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt;<br>line two" in html


# Two side by side


def test_the_compare_page_marks_a_difference_in_words_and_colour(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(compare("sochi", "leningrad")).content.decode()

    opening, cells = compare_row(html, "whist_style")
    assert 'class="is-different"' in opening
    assert cells == ["greedy (жлобский)", "gentleman (джентльменский)"]
    row = html[html.index('<tr role="row" data-key="whist_style"') :]
    assert "differs" in row[: row.index("</tr>")]


def test_the_compare_page_shows_an_equal_value_twice_without_a_mark(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(compare("sochi", "leningrad")).content.decode()

    opening, cells = compare_row(html, "price_6")
    assert cells == ["2", "2"]
    assert "is-different" not in opening
    row = html[html.index('<tr role="row" data-key="price_6"') :]
    assert "differs" not in row[: row.index("</tr>")]


def test_the_compare_page_compares_game_values_for_three_and_four(
    conventions_client, conventions_world
):
    html = conventions_client("mila").get(compare("sochi", "rostov")).content.decode()

    three, four = compare_row(html, "6_made", 0), compare_row(html, "6_made", 1)
    assert three == ('<tr role="row" data-key="6_made">', ["5.33", "5.33"])
    assert four[1] == ["7.00", "7.00"]
    allpass = compare_row(html, "allpass_trick", 0)
    assert 'class="is-different"' in allpass[0]
    assert allpass[1] == ["\u221210.00", "\u221230.00"]


def test_the_compare_page_counts_the_differences(conventions_client, conventions_world):
    html = conventions_client("mila").get(compare("sochi", "rostov")).content.decode()

    # Rostov differs from Sochi in five options (docs/protocol.md, "Preset defaults").
    assert "5 options differ" in html


def test_a_convention_compared_with_itself_has_no_difference(conventions_client, conventions_world):
    html = conventions_client("mila").get(compare("home-rules", "sochi")).content.decode()

    assert "0 options differ" in html
    assert "is-different" not in html


def test_the_compare_page_without_a_choice_offers_the_form(conventions_client, conventions_world):
    response = conventions_client("mila").get(COMPARE)

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="a"' in html and 'name="b"' in html
    assert "Choose two conventions" in html
    assert "Away rules" not in html


def test_the_compare_form_works_with_and_without_htmx(conventions_client, conventions_world):
    html = conventions_client("mila").get(COMPARE).content.decode()

    assert f'action="{COMPARE}"' in html and 'method="get"' in html
    assert f'hx-get="{COMPARE}"' in html and 'hx-target="#comparison"' in html


def test_the_comparison_with_htmx_is_only_its_region(conventions_client, conventions_world):
    response = conventions_client("mila").get(compare("sochi", "fspr"), headers=HTMX)

    html = response.content.decode()
    assert html.lstrip().startswith('<section class="comparison" id="comparison"')
    assert "<html" not in html and "is-different" in html


def test_the_compare_page_forbids_another_clubs_convention(conventions_client, conventions_world):
    client = conventions_client("mila")

    assert client.get(compare("sochi", "away-rules")).status_code == 403
    assert client.get(compare("away-rules", "sochi"), headers=HTMX).status_code == 403


def test_the_compare_page_does_not_find_an_unknown_convention(
    conventions_client, conventions_world
):
    assert conventions_client("mila").get(compare("sochi", "<script>")).status_code == 404


def test_the_compare_page_answers_405_to_a_post(conventions_client, conventions_world):
    assert conventions_client("mila").post(compare("sochi", "rostov")).status_code == 405


def test_the_compare_page_asks_an_anonymous_visitor_to_sign_in(
    conventions_client, conventions_world
):
    assert conventions_client("anonymous").get(compare("sochi", "rostov")).status_code == 302


def test_the_pages_use_no_inline_script(conventions_client, conventions_world):
    client = conventions_client("mila")
    for url in (LIST, detail("sochi"), compare("sochi", "leningrad")):
        html = client.get(url).content.decode()

        assert "<script>" not in html and " onchange=" not in html and " onclick=" not in html


def test_a_stored_convention_the_engine_now_refuses_is_shown_with_the_reason(
    conventions_client, conventions_world
):
    # As if the engine's rules tightened after the convention was saved.
    Convention.objects.filter(pk=conventions_world.home_rules.pk).update(pulya_to_gora=3)

    response = conventions_client("mila").get(detail("home-rules"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "no longer passes the scoring checks" in html
    assert "Choose 1 or 2." in html


def test_the_pages_query_count_is_constant(
    conventions_client, conventions_world, django_assert_max_num_queries
):
    client = conventions_client("mila")
    client.get(detail("sochi"))

    with django_assert_max_num_queries(8):
        client.get(detail("home-rules"))
    with django_assert_max_num_queries(10):
        client.get(compare("home-rules", "leningrad"))
