"""The table screen: the drawn sheet, the protocol and the entry form (games:sheet)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from prefscore.games import drawing
from prefscore.games.models import Pulka
from tests.web.fixtures_table import EN, HTMX, legal_deals, region

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Boris", "Vera")
EXAMPLE = [
    {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
     "tricks": {"Anna": 6, "Boris": 3, "Vera": 1}},
    {"contract": "allpass", "tricks": {"Anna": 0, "Boris": 4, "Vera": 6}},
]  # fmt: skip


def sheet_url(pulka: Pulka) -> str:
    return reverse("games:sheet", args=[pulka.pk])


def get(client: Client, pulka: Pulka, **headers: str) -> str:
    response = client.get(sheet_url(pulka), headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def test_the_sheet_page_draws_the_sheet_as_an_accessible_svg(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    html = get(table_client(), pulka)

    svg = region(html, "sheet")
    assert '<svg class="sheet" viewBox="' in svg
    assert 'role="img"' in svg and 'aria-labelledby="sheet-title sheet-desc"' in svg
    assert '<title id="sheet-title">Score sheet to 10: Anna, Boris, Vera</title>' in svg
    assert 'class="sheet__target"' in svg and ">10</text>" in svg
    for name in NAMES:
        assert f"<title>{name}" in svg


def test_the_sheet_writes_running_totals_in_each_players_fields(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    svg = region(get(table_client(), pulka), "sheet")

    # Anna: 2 in the pulya for the 6, then 1 for taking no trick on the all-pass.
    assert "<title>Anna: pulya: 2.3</title>" in svg
    assert '2.<tspan class="sheet__now">3</tspan>' in svg
    assert "<title>Boris → Anna: whists: 8</title>" in svg
    assert "<title>Vera: gora: 6</title>" in svg


def test_a_plain_table_gives_screen_readers_the_same_figures(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    table = region(get(table_client(), pulka), "sheet").split("<table>")[1]

    assert '<th scope="col">Whists → Anna</th>' in table
    assert re.search(r"<th scope=\"row\"><bdi>Anna</bdi></th>\s*<td>2\.3</td>\s*<td>—</td>", table)
    assert re.search(
        r"<th scope=\"row\"><bdi>Boris</bdi></th>\s*<td>—</td>\s*<td>4</td>\s*<td>8</td>", table
    )


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_each_table_size_has_its_own_layout_with_a_field_per_opponent(
    size, make_table_pulka, table_client
):
    names = ["Anna", "Boris", "Vera", "Gleb", "Dasha"][:size]
    pulka = make_table_pulka(names, deals=legal_deals(names, 6), target=100)

    svg = region(get(table_client(), pulka), "sheet")

    labels = svg.split('<g class="sheet__labels">')[1]
    assert labels.split("</g>")[0].count("<text") == size * (size - 1)
    assert svg.count('class="sheet__name') == size
    assert drawing.layout(size).view_box in svg


def test_the_sheet_is_square_for_four_and_a_rectangle_for_three():
    four, three = drawing.layout(4), drawing.layout(3)

    assert four.width == four.height
    assert three.width != three.height


def test_long_totals_shrink_and_then_keep_the_newest_figures():
    box = drawing.Box(0, 0, 120, 80)
    short = drawing.fit_totals(["2", "6", "10"], box)
    long = drawing.fit_totals([str(n) for n in range(2, 400, 2)], box)

    assert short is not None and short.font_size == drawing.FONT_SIZES[0]
    assert not short.shortened
    assert long is not None and long.font_size == drawing.FONT_SIZES[-1] and long.shortened
    assert long.lines[0].text.startswith("…")
    assert long.lines[-1].current == "398"


def test_totals_wrap_at_the_dots_and_never_split_a_figure():
    box = drawing.Box(0, 0, 90, 400)

    fitted = drawing.fit_totals(["12", "140", "1520", "16000"], box)

    assert fitted is not None
    written = "".join(line.text + line.current for line in fitted.lines)
    assert written == "12.140.1520.16000"
    assert all(line.text.endswith(".") or not line.text for line in fitted.lines[:-1])


def test_a_hundred_deals_still_draw_and_the_table_keeps_every_figure(
    make_table_pulka, table_client
):
    deals = legal_deals(NAMES, 100)
    pulka = make_table_pulka(deals=deals, target=1000, bulk=True)

    html = get(table_client(), pulka)

    sheet = region(html, "sheet")
    sizes = {float(s) for s in re.findall(r'font-size="([\d.]+)"', sheet)}
    assert min(sizes) >= drawing.FONT_SIZES[-1]
    table = sheet.split("<table>")[1]
    assert table.count(".") > 100  # the whole series, not the shortened drawing


def test_hostile_names_are_escaped_everywhere(make_table_pulka, table_client):
    names = ["<script>alert(1)</script>", 'O\'Brien "Q"', "مرحبا 🂡 " + "x" * 190]
    deal = {"contract": "6S", "declarer": names[0], "whists": {names[1]: "pass", names[2]: "pass"}}
    pulka = make_table_pulka(names, deals=[deal])

    html = get(table_client(), pulka)

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "O&#x27;Brien &quot;Q&quot;" in html
    assert "…" in region(html, "sheet")  # the long name is cut on the drawing


def test_the_protocol_lists_each_deal_with_its_notation_and_dealer(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    protocol = region(get(table_client(), pulka), "protocol")

    assert protocol.index('value="2"') < protocol.index('value="1"')  # newest first
    assert '<span class="protocol__notation">6♠/=</span>' in protocol
    assert '<span class="protocol__notation">P</span>' in protocol
    assert "dealer Anna" in protocol and "dealer Boris" in protocol
    assert "<details>" in protocol


def test_each_protocol_line_opens_to_every_number_it_wrote_and_why(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    protocol = region(get(table_client(), pulka), "protocol")

    assert "Anna: 2 into the pulya for the contract made" in protocol
    assert "Boris → Anna: 8 whists for the defence&#x27;s tricks" in protocol
    assert "Boris: 4 into the gora for tricks on the all-pass" in protocol
    assert "Anna: 1 into the pulya for taking no trick on the all-pass" in protocol
    assert "Recorded by anna." in protocol


def test_the_protocol_explains_help_and_consolation(make_table_pulka, table_client):
    deals = [
        {"contract": "10", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}},
        {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}},
        {"contract": "7S", "declarer": "Boris", "whists": {"Vera": "whist", "Anna": "pass"},
         "tricks": {"Boris": 6, "Vera": 3, "Anna": 1}},
    ]  # fmt: skip
    pulka = make_table_pulka(deals=deals)

    protocol = region(get(table_client(), pulka), "protocol")

    assert "Boris: 2 into the pulya as help" in protocol
    assert "Anna → Boris: 20 whists for the help given" in protocol
    assert "Vera → Boris: 4 whists as consolation" in protocol
    assert "Boris: 4 into the gora for the tricks short (remiz)" in protocol


def test_the_form_shows_whose_deal_it_is_and_the_all_pass_price(make_table_pulka, table_client):
    names = ["Anna", "Boris", "Vera", "Gleb"]
    pulka = make_table_pulka(
        names,
        convention="leningrad",
        deals=[{"contract": "allpass", "tricks": {"Boris": 3, "Vera": 3, "Gleb": 4}}],
    )

    entry = region(get(table_client(), pulka), "entry")

    assert "Deal 2" in entry
    assert "<strong>Boris</strong> deals" in entry
    assert "Boris sits out" in entry
    assert "all-pass at 4 a trick" in entry  # Leningrad: ladder 1, 2, 3 times its gora scale 2
    assert "lowest contract 7" in entry
    assert '<input type="hidden" name="number" value="2">' in entry


def test_the_form_offers_only_contracts_the_exit_ladder_allows(make_table_pulka, table_client):
    pulka = make_table_pulka(
        convention="leningrad",
        deals=[{"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}],
    )

    entry = region(get(table_client(), pulka), "entry")

    assert 'id="contract-6"' not in entry
    assert 'id="contract-7"' in entry and 'id="contract-misere"' in entry
    assert 'id="contract-allpass"' in entry


def test_the_form_offers_only_the_players_dealt_a_hand_as_declarer(make_table_pulka, table_client):
    pulka = make_table_pulka(["Anna", "Boris", "Vera", "Gleb"])

    entry = region(get(table_client(), pulka), "entry")

    assert 'id="declarer-0"' not in entry  # Anna deals and sits out
    assert all(f'id="declarer-{seat}"' in entry for seat in (1, 2, 3))
    assert 'name="tricks_0"' in entry and "talon tricks, all-pass only" in entry


def test_half_whist_is_offered_only_where_the_convention_allows_it(make_table_pulka, table_client):
    with_half = make_table_pulka()
    without = make_table_pulka(options={"half_whist_levels": []})

    assert 'value="half"' in region(get(table_client(), with_half), "entry")
    assert 'value="half"' not in region(get(table_client(), without), "entry")


def test_talon_fast_tricks_are_asked_only_when_the_convention_writes_them(
    make_table_pulka, table_client
):
    fspr = make_table_pulka(convention="fspr")
    sochi = make_table_pulka()

    assert 'name="prikup"' in region(get(table_client(), fspr), "entry")
    assert 'name="prikup"' not in region(get(table_client(), sochi), "entry")


def test_the_form_works_without_javascript(make_table_pulka, table_client):
    pulka = make_table_pulka()

    entry = region(get(table_client(), pulka), "entry")

    assert f'method="post" action="{reverse("games:record", args=[pulka.pk])}"' in entry
    assert f'hx-post="{reverse("games:record", args=[pulka.pk])}"' in entry
    assert 'type="number"' in entry and 'min="0" max="10"' in entry
    assert "csrfmiddlewaretoken" in entry


def test_the_page_polls_every_two_seconds_with_the_version_it_shows(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    html = get(table_client(), pulka)

    poll = re.search(r'<div id="poll"[^>]*>', html).group(0)
    assert f'hx-get="{reverse("games:poll", args=[pulka.pk])}?v={pulka.version}&amp;t=' in poll
    assert 'hx-trigger="every 2s, prefscore:changed"' in poll and 'hx-swap="none"' in poll


def test_the_page_has_no_inline_script_or_handlers(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    html = get(table_client(), pulka)

    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", html)
    assert not re.search(r"\son[a-z]+=", html)


def test_a_finished_pulka_shows_a_banner_and_no_form(make_table_pulka, table_client):
    deals = [
        {"contract": "10", "declarer": name, "whists": {o: "pass" for o in NAMES if o != name}}
        for name in NAMES
    ]
    pulka = make_table_pulka(deals=deals)
    assert pulka.status == Pulka.Status.FINISHED

    html = get(table_client(), pulka)

    assert "finished" in region(html, "status")
    entry = region(html, "entry")
    assert "<form" not in entry.split('class="pencil"')[0]
    assert 'id="entry-form"' not in entry
    assert reverse("games:settlement", args=[pulka.pk]) in entry


def test_the_sheet_page_answers_htmx_with_every_region_out_of_band(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    html = get(table_client(), pulka, **HTMX)

    assert "<html" not in html
    for region_id in ("status", "sheet", "entry", "protocol", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)


def test_the_sheet_page_speaks_russian_by_default(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=EXAMPLE)

    html = table_client().get(sheet_url(pulka)).content.decode()

    assert "Протокол" in html
    # The names stand beside an arrow: no case of them is needed (never "на Anna").
    assert "Boris → Anna: 8 в висты за взятки защиты" in html
    assert "висты на Anna" not in html and "Висты на Anna" not in html
    assert "сдаёт <strong>Vera</strong>" in html


def test_an_anonymous_visitor_is_sent_to_sign_in(make_table_pulka, table_client):
    pulka = make_table_pulka()

    for headers in ({}, HTMX):
        response = table_client("anonymous").get(sheet_url(pulka), headers=headers)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_a_member_of_another_club_is_refused(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client("olaf").get(sheet_url(pulka)).status_code == 403
    assert table_client("olaf").get(sheet_url(pulka), headers=HTMX).status_code == 403


def test_an_unknown_pulka_is_not_found(table_client):
    assert table_client().get(reverse("games:sheet", args=[999999])).status_code == 404


def test_the_sheet_page_answers_405_to_a_post(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client().post(sheet_url(pulka)).status_code == 405
