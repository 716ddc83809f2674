"""Correcting a recorded deal at the table (Кодекс 4.2.7, 4.2.9) and an arbiter's
decision (4.2.16): games:correct and games:arbiter, and what the sheet shows after."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import AuditEvent, Correction, Pulka
from prefscore.games.services import score
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    WRONG,
    correction_form,
    put_pencil_down,
    seated_record,
)
from tests.web.fixtures_table import EN, HTMX, region
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

# Vera declares 6♠; Boris whists and writes 4 defence tricks (8 whists on Vera) instead of 3.
VERA_WRONG = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 6, "Boris": 4, "Anna": 0}}  # fmt: skip
VERA_RIGHT = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 7, "Boris": 3, "Anna": 0}}  # fmt: skip


def correct_url(pulka: Pulka, number: int) -> str:
    return reverse("games:correct", args=[pulka.pk, number])


def arbiter_url(pulka: Pulka, number: int) -> str:
    return reverse("games:arbiter", args=[pulka.pk, number])


def sheet(client, pulka: Pulka, **headers: str) -> str:
    response = client.get(reverse("games:sheet", args=[pulka.pk]), headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def post(client, url: str, data: dict[str, str], htmx: bool = False):
    return client.post(url, data, headers=HTMX if htmx else EN)


def recorded(world, *deals, by: str = "anna", pencil_down: bool = True) -> Pulka:
    pulka = world.pulka
    for facts in deals:
        seated_record(pulka, facts, world.users[by])
    if pencil_down:
        put_pencil_down(pulka)
    return pulka


# --- who sees "Correct" -------------------------------------------------------------------


def test_every_deal_line_offers_correct_to_a_player_at_the_table(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)

    protocol = region(sheet(seated_client("vera"), pulka), "protocol")

    assert f'href="{correct_url(pulka, 1)}"' in protocol
    assert f'href="{correct_url(pulka, 2)}"' in protocol
    assert f'hx-get="{correct_url(pulka, 1)}"' in protocol
    assert "Arbiter" not in protocol  # not a tournament pulka


@pytest.mark.parametrize("who", ["gleb", "oksana"])
def test_a_member_not_at_the_table_sees_no_correct_button(who, seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    protocol = region(sheet(seated_client(who), pulka), "protocol")

    assert correct_url(pulka, 1) not in protocol
    assert ">Correct<" not in protocol


@pytest.mark.parametrize("who", ["gleb", "oksana"])
def test_a_member_not_at_the_table_cannot_post_a_correction(who, seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    for htmx in (False, True):
        response = post(seated_client(who), correct_url(pulka, 1), correction_form(RIGHT, 1), htmx)
        assert response.status_code == 403
        assert "Only the players at this table may correct its deals." in response.content.decode()
        assert seated_client(who).get(correct_url(pulka, 1), headers=EN).status_code == 403
    assert not Correction.objects.exists()


def test_an_outsider_is_refused_and_an_unknown_pulka_or_deal_is_not_found(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    assert (
        post(seated_client("olaf"), correct_url(pulka, 1), correction_form(RIGHT, 1)).status_code
        == 403
    )
    assert seated_client("olaf").get(correct_url(pulka, 1), headers=HTMX).status_code == 403
    assert seated_client("vera").get(reverse("games:correct", args=[999999, 1])).status_code == 404
    assert seated_client("vera").get(correct_url(pulka, 2)).status_code == 404
    assert not Correction.objects.exists()


def test_an_anonymous_visitor_is_sent_to_sign_in(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("anonymous").get(correct_url(pulka, 1))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_correction_view_answers_405_to_other_methods(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    assert seated_client("vera").put(correct_url(pulka, 1)).status_code == 405
    assert seated_client("vera").delete(correct_url(pulka, 1)).status_code == 405


def test_a_correction_without_the_csrf_token_is_refused(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("vera", csrf=True).post(
        correct_url(pulka, 1), correction_form(RIGHT, 1)
    )

    assert response.status_code == 403
    assert not Correction.objects.exists()


def test_while_the_recorder_holds_the_pencil_nobody_else_corrects(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, pencil_down=False)

    anna = region(sheet(seated_client("anna"), pulka), "protocol")
    vera = region(sheet(seated_client("vera"), pulka), "protocol")
    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    assert "?change=1" in anna and correct_url(pulka, 1) not in anna
    assert correct_url(pulka, 1) not in vera
    assert "anna holds the pencil on this deal until" in vera
    assert response.status_code == 409
    assert "anna still holds the pencil" in response.content.decode()
    assert not Correction.objects.exists()


# --- the form -------------------------------------------------------------------------------


def test_the_correction_form_holds_the_deal_as_it_stands_in_the_state_it_was_dealt(
    seated_world, seated_client
):
    pulka = recorded(seated_world, ALLPASS, VERA_WRONG)

    page = seated_client("anna").get(correct_url(pulka, 2), headers=EN).content.decode()

    entry = region(page, "entry")
    assert "Correct deal 2" in entry
    assert "<strong>Boris</strong> deals" in entry  # the dealer of deal 2, not of deal 3
    assert f'action="{correct_url(pulka, 2)}"' in entry
    assert 'id="contract-6" value="6" checked' in entry
    assert re.search(r'id="declarer-2"\s+value="2" checked', entry)
    assert re.search(r'name="tricks_1" id="tricks_1" value="4"', entry)
    assert (
        "As it stands: 6♠ Vera · Anna pass, Boris whist · tricks: Anna 0, Boris 4, Vera 6" in entry
    )


def test_with_htmx_the_correction_form_replaces_the_entry_form(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("vera").get(correct_url(pulka, 1), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'id="entry"[^>]*hx-swap-oob="true"', html)
    assert "<html" not in html and "Correct deal 1" in html


def test_the_correction_form_shows_the_facts_after_earlier_corrections(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    entry = region(
        seated_client("vera").get(correct_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    assert re.search(r'name="tricks_1" id="tricks_1" value="3"', entry)
    assert re.search(r'name="tricks_0" id="tricks_0" value="7"', entry)


def test_a_wrong_correction_is_shown_beside_the_field_and_nothing_is_saved(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)
    bad = correction_form(RIGHT, 1, tricks_0="8")  # 8 + 3 + 0 = 11

    for htmx, status in ((False, 200), (True, 422)):
        response = post(seated_client("vera"), correct_url(pulka, 1), bad, htmx)
        html = response.content.decode()
        assert response.status_code == status
        errors = region(html, "entry-tricks-errors")
        assert "The tricks add up to 11; they must add up to 10." in errors
        assert re.search(r'name="tricks_0" id="tricks_0" value="8"', html)  # kept
    assert not Correction.objects.exists()


def test_a_correction_that_changes_nothing_is_refused(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(WRONG, 1))

    assert "These are the facts that stand" in response.content.decode()
    assert not Correction.objects.exists()


# --- warning, then penalty, through the page ------------------------------------------------


def test_without_javascript_a_correction_posts_and_redirects_to_the_sheet(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert Correction.objects.get().kind == Correction.Kind.CORRECTION


def test_with_htmx_a_correction_swaps_sheet_protocol_and_form_at_once(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    version = pulka.version

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1), True)

    html = response.content.decode()
    assert response.status_code == 200
    for region_id in ("sheet", "protocol", "entry", "poll", "forgotten"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert "Deal 2" in region(html, "entry")  # a fresh form for the next deal
    pulka.refresh_from_db()
    assert pulka.version == version + 1  # every other device's poll sees it


def test_the_first_correction_warns_and_the_sheet_strikes_the_old_figure(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    html = sheet(seated_client("vera"), pulka)

    svg = region(html, "sheet")
    # Boris's whists on Anna: 8 struck through, then 6, as on paper.
    assert (
        '<tspan class="sheet__struck" text-decoration="line-through">8</tspan>.'
        '<tspan class="sheet__now">6</tspan>'
    ) in svg
    # With 3 tricks Boris is one short of the 4 a whister owes on a 6: 2 into his gora.
    boris = r'<th scope="row">Boris</th>\s*<td>—</td>\s*<td><ins>2</ins></td>\s*<td><del>8</del>\.<ins>6</ins></td>'
    assert re.search(boris, svg)
    protocol = region(html, "protocol")
    assert "Warning, Кодекс 4.2.7: Boris (first correction)" in protocol
    assert "Penalty" not in protocol
    assert '<del class="protocol__struck"' in protocol and ">6♠/=</del>" in protocol
    assert '<span class="protocol__notation">6♠/+1</span>' in protocol
    assert re.search(r"Corrected by vera at \d\d:\d\d \(Кодекс 4.2.7\)\.", protocol)


def test_the_second_correction_favouring_a_player_costs_him_the_over_entry(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    recorded(seated_world, VERA_WRONG, by="vera")

    response = post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))
    html = sheet(seated_client("anna"), pulka)

    assert response.status_code == 302
    protocol = region(html, "protocol")
    # Boris over-wrote 2 whists on Vera: she writes 2 on him (4.2.7 a); and with 3 tricks he
    # was one short of the 4 a whister owes on a 6: 2 gora he had not written.
    assert "Penalty, Кодекс 4.2.7: Vera writes 2 whists on Boris" in protocol
    assert "Penalty, Кодекс 4.2.7: Boris: 2 into the gora" in protocol
    assert protocol.count("Warning, Кодекс 4.2.7") == 1
    svg = region(html, "sheet")
    assert re.search(
        r'<th scope="row">Vera</th>\s*<td>2</td>\s*<td>—</td>\s*<td>—</td>\s*<td>2</td>', svg
    )
    assert "<title>Boris: whists on Vera: 8\u0336.6</title>" in svg
    # Deal 1's shortfall wrote 2; deal 2's makes it 4 (the 2 struck); the penalty 6.
    assert "<title>Boris: gora: 2\u0336.4.6</title>" in svg
    state = score(pulka).state
    assert state.whists[2][1] == 2 and state.gora[1] == 6 and state.whists[1][2] == 6


def test_penalties_are_listed_where_the_correction_was_made(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    recorded(seated_world, VERA_WRONG, by="vera")
    post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))
    recorded(seated_world, ALLPASS, by="boris")

    protocol = region(sheet(seated_client("anna"), pulka), "protocol")

    deal3 = protocol.index('value="3"')
    penalty = protocol.index("Penalty, Кодекс 4.2.7: Vera writes 2 whists on Boris")
    deal2 = protocol.index('value="2"')
    warning = protocol.index("Warning, Кодекс 4.2.7: Boris")
    deal1 = protocol.index('value="1"')
    assert deal3 < penalty < deal2 < warning < deal1  # newest first


def test_a_penalty_for_pulya_over_written_goes_into_the_gora(seated_world, seated_client):
    seven = {"contract": "7S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}
    six = {**seven, "contract": "6S"}
    pulka = recorded(seated_world, seven)
    post(seated_client("boris"), correct_url(pulka, 1), correction_form(six, 1))  # warning
    recorded(seated_world, seven)

    post(seated_client("boris"), correct_url(pulka, 2), correction_form(six, 2))
    html = sheet(seated_client("boris"), pulka)

    assert "Penalty, Кодекс 4.2.7: Anna: 2 into the gora" in region(html, "protocol")
    svg = region(html, "sheet")
    assert "<title>Anna: pulya: 4\u0336.2.6\u0336.4</title>" in svg
    assert "<title>Anna: gora: 2</title>" in svg


def test_a_penalty_for_gora_under_written_goes_into_the_gora(seated_world, seated_client):
    made = {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 6, "Boris": 2, "Vera": 2}}  # fmt: skip
    down = {**made, "tricks": {"Anna": 5, "Boris": 3, "Vera": 2}}
    pulka = recorded(seated_world, made)
    post(seated_client("boris"), correct_url(pulka, 1), correction_form(down, 1))
    recorded(seated_world, made)

    post(seated_client("boris"), correct_url(pulka, 2), correction_form(down, 2))
    html = sheet(seated_client("boris"), pulka)

    # Anna wrote 2 pulya instead of 2 gora: 2 pulya over + 2 gora under = 4 into her gora.
    assert "Penalty, Кодекс 4.2.7: Anna: 4 into the gora" in region(html, "protocol")
    # The first correction wrote 2, the second made it 4 (the 2 struck), the penalty 8.
    assert "<title>Anna: gora: 2\u0336.4.8</title>" in region(html, "sheet")


# --- the deadline (4.2.9) ---------------------------------------------------------------------


def test_after_the_next_deal_someone_else_is_refused_and_the_input_kept(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)

    page = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    htmx = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1), True)

    for response in (page, htmx):
        html = response.content.decode()
        assert response.status_code == 403
        assert "Refused: the wrong record did not favour you" in region(html, "entry")
        assert re.search(r'name="tricks_0" id="tricks_0" value="7"', html)
    assert not Correction.objects.exists()


def test_after_the_next_deal_the_favoured_player_corrects_without_penalty(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    form = region(
        seated_client("boris").get(correct_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    response = post(seated_client("boris"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    html = sheet(seated_client("boris"), pulka)

    assert "only the player this error favoured may correct it now" in form  # told before
    assert response.status_code == 302
    correction = Correction.objects.get()
    assert correction.kind == Correction.Kind.VOLUNTARY and not correction.penalise
    protocol = region(html, "protocol")
    assert "Warning" not in protocol and "Penalty," not in protocol
    assert "by the player it favoured, without penalty (Кодекс 4.2.9)" in protocol
    assert "<title>Boris: whists on Anna: 8\u0336.6</title>" in region(html, "sheet")


def test_a_finished_pulka_is_corrected_on_its_last_deal_only(seated_world, seated_client):
    tens = [
        {
            "contract": "10",
            "declarer": n,
            "whists": {o: "pass" for o in ("Anna", "Boris", "Vera") if o != n},
        }
        for n in ("Anna", "Boris", "Vera")
    ]
    pulka = recorded(seated_world, *tens)
    assert pulka.status == Pulka.Status.FINISHED

    protocol = region(sheet(seated_client("vera"), pulka), "protocol")
    refused = post(
        seated_client("vera"), correct_url(pulka, 1), correction_form(tens[0], 1, contract="9")
    )

    assert correct_url(pulka, 3) in protocol and correct_url(pulka, 1) not in protocol
    assert refused.status_code == 409
    assert "only an arbiter may correct it now" in refused.content.decode()


def test_a_correction_that_breaks_a_later_deal_says_which(seated_world, seated_client):
    def unplayed(level: str, declarer: str) -> dict:
        others = [n for n in ("Anna", "Boris", "Vera") if n != declarer]
        return {"contract": level, "declarer": declarer, "whists": dict.fromkeys(others, "pass")}

    # Anna and Boris close their pulyas; Vera writes 6, then 2 more. Had deal 3 been a 10,
    # the pulka would have closed before deal 4.
    deals = [unplayed("10", "Anna"), unplayed("10", "Boris"), unplayed("8", "Vera"),
             unplayed("6", "Vera")]  # fmt: skip
    pulka = recorded(seated_world, *deals)

    response = post(
        seated_client("vera"), correct_url(pulka, 3), correction_form(unplayed("10", "Vera"), 3)
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "With this correction deal 4 would no longer stand: The pulka is already over." in html
    assert not Correction.objects.exists()


# --- the arbiter (4.2.16) ---------------------------------------------------------------------


def in_tournament(world) -> Pulka:
    Pulka.objects.filter(pk=world.pulka.pk).update(
        tournament=make_tournament(world.club), round_number=1
    )
    world.pulka.refresh_from_db()
    return world.pulka


def test_an_organiser_sees_the_arbiters_decision_only_in_a_tournament_pulka(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    before = region(sheet(seated_client("oksana"), pulka), "protocol")
    in_tournament(seated_world)

    after = region(sheet(seated_client("oksana"), pulka), "protocol")
    player = region(sheet(seated_client("vera"), pulka), "protocol")

    assert arbiter_url(pulka, 1) not in before
    assert f'href="{arbiter_url(pulka, 1)}"' in after and f'href="{arbiter_url(pulka, 2)}"' in after
    assert arbiter_url(pulka, 1) not in player
    assert seated_client("vera").get(arbiter_url(pulka, 1)).status_code == 403


def test_the_arbiters_view_refuses_unknown_deals_other_methods_and_no_token(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)
    oksana = seated_client("oksana")

    assert oksana.get(arbiter_url(pulka, 3)).status_code == 404
    assert oksana.get(reverse("games:arbiter", args=[999999, 1]), headers=HTMX).status_code == 404
    assert oksana.put(arbiter_url(pulka, 1)).status_code == 405
    form = correction_form(RIGHT, 1, reason="Judges")
    assert seated_client("oksana", csrf=True).post(arbiter_url(pulka, 1), form).status_code == 403
    assert seated_client("olaf").post(arbiter_url(pulka, 1), form, headers=HTMX).status_code == 403
    assert not Correction.objects.exists()


def test_an_arbiters_decision_needs_a_reason(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    response = post(seated_client("oksana"), arbiter_url(pulka, 1), correction_form(RIGHT, 1), True)

    assert response.status_code == 422
    assert "State the reason for the arbiter" in region(
        response.content.decode(), "entry-reason-errors"
    )
    assert not Correction.objects.exists()


def test_an_arbiters_decision_with_the_penalty_is_applied_and_explained(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)
    form = region(
        seated_client("oksana").get(arbiter_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    response = post(
        seated_client("oksana"),
        arbiter_url(pulka, 1),
        correction_form(RIGHT, 1, reason="Judges' panel, table 3", penalty="on"),
    )
    html = sheet(seated_client("vera"), pulka)

    assert 'name="reason"' in form and 'name="penalty"' in form
    assert "Arbiter's decision on deal 1" in form
    assert response.status_code == 302
    correction = Correction.objects.get()
    assert correction.kind == Correction.Kind.ARBITER and correction.penalise
    assert correction.reason == "Judges' panel, table 3"
    protocol = region(html, "protocol")
    assert "Arbiter&#x27;s decision on deal 1 (Кодекс 4.2.16)" in protocol
    assert "Reason: Judges&#x27; panel, table 3" in protocol
    assert "Warning, Кодекс 4.2.7: Boris (first correction)" in protocol


def test_an_arbiters_decision_without_penalty_warns_nobody(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    post(seated_client("oksana"), arbiter_url(pulka, 1), correction_form(RIGHT, 1, reason="Video"))

    correction = Correction.objects.get()
    assert not correction.penalise
    protocol = region(sheet(seated_client("vera"), pulka), "protocol")
    assert "without penalty (Кодекс 4.2.16)" in protocol and "Warning" not in protocol
    assert AuditEvent.objects.filter(action=AuditEvent.Action.ARBITER).count() == 1


def test_hostile_text_in_a_reason_is_escaped(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    post(
        seated_client("oksana"),
        arbiter_url(pulka, 1),
        correction_form(RIGHT, 1, reason="<script>alert(1)</script> مرحبا 🂡"),
    )
    html = sheet(seated_client("vera"), pulka)

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; مرحبا 🂡" in html


def test_the_correction_page_speaks_russian_by_default(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    html = seated_client("vera").get(correct_url(pulka, 1)).content.decode()

    assert "Исправить сдачу 1" in html


# --- the pulka file carries the corrections (protocol.md ``correct`` items) --------------------


def test_an_exported_pulka_imports_again_with_the_same_sheet_penalties_and_warnings(
    seated_world, seated_client
):
    import json

    from prefscore.games.presenters import paper_of

    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))  # warning
    recorded(seated_world, VERA_WRONG, by="vera")
    post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))  # penalty
    recorded(seated_world, WRONG, ALLPASS, by="boris")
    post(seated_client("boris"), correct_url(pulka, 3), correction_form(RIGHT, 3))  # voluntary
    client = seated_client("anna")

    exported = json.loads(client.get(reverse("games:export", args=[pulka.pk])).content)
    response = client.post(
        reverse("games:import", args=[seated_world.club.slug]), {"text": json.dumps(exported)}
    )
    again = Pulka.objects.exclude(pk=pulka.pk).get()

    assert response.status_code == 302
    corrections = [item for item in exported["deals"] if "correct" in item]
    assert [item["correct"] for item in corrections] == [1, 2, 3]
    assert corrections[2]["penalty"] is False
    assert [i for i, item in enumerate(exported["deals"]) if "correct" in item] == [1, 3, 6]
    stored = list(
        Correction.objects.filter(pulka=again).values_list("deal_number", "after_deal", "penalise")
    )
    assert stored == [(1, 1, True), (2, 2, True), (3, 4, False)]
    first, second = score(pulka), score(again)
    assert second.totals == first.totals
    assert second.corrections == first.corrections  # the same warnings and penalties
    assert paper_of(second).players == paper_of(first).players  # struck figures and all
    old = region(sheet(client, pulka), "sheet")
    new = region(sheet(client, again), "sheet")
    assert new == old
