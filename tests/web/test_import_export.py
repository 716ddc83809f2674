"""Import of pulka files into a club, export of a pulka, and the import_pulka command."""

from __future__ import annotations

import copy
import io as stdio
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.games import io
from prefscore.games.models import Correction, Deal, Pulka
from scoring.engine.protocol import score_text
from tests.helpers import run_python
from tests.web.fixtures_club import club_pulka, example_input, three_deals

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
EN = {"accept-language": "en"}
ENGINE_FIELDS = ("closed", "sheet", "result", "result_whole", "money", "next")


def import_url(slug: str = "friday") -> str:
    return reverse("games:import", args=[slug])


def export_url(pulka: Pulka) -> str:
    return reverse("games:export", args=[pulka.pk])


def protocol_example() -> dict:
    return example_input("001-protocol-example.json")


def paste(client, data, **headers):
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return client.post(import_url(), {"text": text}, headers={**EN, **headers})


def nothing_saved() -> bool:
    return not Pulka.objects.exists() and not Deal.objects.exists()


# --- import ---------------------------------------------------------------------------


def test_the_import_page_offers_paste_and_upload(club_world, club_client):
    response = club_client("ivan").get(import_url())

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="text"' in html and 'type="file"' in html
    assert 'enctype="multipart/form-data"' in html and 'hx-encoding="multipart/form-data"' in html


def test_the_import_page_under_htmx_is_only_its_region(club_world, club_client):
    html = club_client("ivan").get(import_url(), headers=HX).content.decode()

    assert html.lstrip().startswith('<div id="import">')
    assert "<html" not in html


def test_a_pasted_file_becomes_a_pulka_with_every_deal(club_world, club_client):
    data = protocol_example()
    Player.objects.create(club=club_world.club, name="A")

    response = paste(club_client("ivan"), data)

    pulka = Pulka.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert pulka.player_names == ["A", "B", "C"]
    assert [deal.facts for deal in pulka.deals.order_by("number")] == data["deals"]
    assert pulka.club == club_world.club and pulka.created_by == club_world.users["ivan"]
    assert pulka.convention_name == "custom"  # Sochi with a gentleman's whist
    assert pulka.version == 2 and pulka.status == Pulka.Status.RUNNING
    assert Player.objects.filter(club=club_world.club, name__in="ABC").count() == 3
    assert [seat.player.name for seat in pulka.seats.all()] == ["A", "B", "C"]


def test_an_uploaded_file_under_htmx_redirects_the_browser(club_world, club_client):
    upload = SimpleUploadedFile("pulka.json", json.dumps(protocol_example()).encode())
    response = club_client("ivan").post(import_url(), {"file": upload}, headers=HX)

    pulka = Pulka.objects.get()
    assert response["HX-Redirect"] == reverse("games:sheet", args=[pulka.pk])


def test_an_imported_pulka_that_closed_is_finished(club_world, club_client):
    data = example_input("009-6.6c-sochi-4p-nine-closes-and-helps.json")
    paste(club_client("ivan"), data)

    assert Pulka.objects.get().status == Pulka.Status.FINISHED


def refused(response, message: str, field: str = "text") -> None:
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert nothing_saved()


def test_import_refuses_a_file_over_1_mb(club_world, club_client):
    data = protocol_example()
    data["deals"] = data["deals"] * 8000
    big = json.dumps(data)
    assert len(big) > io.MAX_FILE_BYTES

    upload = SimpleUploadedFile("big.json", big.encode())
    refused(
        club_client("ivan").post(import_url(), {"file": upload}, headers=EN),
        "larger than 1 MB",
        "file",
    )
    refused(paste(club_client("ivan"), big), "larger than 1 MB")


def test_import_refuses_bad_json_with_a_message(club_world, club_client):
    refused(paste(club_client("ivan"), '{"players": ["A", "B",'), "The file is not valid JSON")
    refused(paste(club_client("ivan"), '{"target": NaN}'), "a number that is not allowed")


def test_import_refuses_a_file_of_six_players(club_world, club_client):
    data = protocol_example()
    data["players"] = ["A", "B", "C", "D", "E", "F"]

    refused(paste(club_client("ivan"), data), "a pulka has 2 to 5 players, not 6")


def test_import_refuses_a_deal_the_engine_refuses_and_saves_none_of_it(club_world, club_client):
    data = protocol_example()
    data["deals"][1]["tricks"]["C"] = 7

    refused(paste(club_client("ivan"), data), "deal 2:")
    assert not Player.objects.filter(name__in=["A", "B", "C"]).exists()


def test_import_refuses_deals_after_the_pulka_closed(club_world, club_client):
    data = example_input("009-6.6c-sochi-4p-nine-closes-and-helps.json")
    data["deals"].append(data["deals"][-1])

    refused(paste(club_client("ivan"), data), "the pulka is already over")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["x" * 201, "B", "C"]}, "at most 200 characters"),
        ({"stake": 0.00001}, "at most 4 decimals"),
        ({"convention": "poker"}, "unknown convention 'poker'"),
        ({"surprise": 1}, "unknown field"),
        ({"target": 0}, "target must be a whole number from 1"),
    ],
)
def test_import_refuses_what_the_club_cannot_hold(club_world, club_client, change, message):
    data = {**protocol_example(), **change}
    if "players" in change:
        data["deals"], data["first_dealer"] = [], change["players"][0]

    refused(paste(club_client("ivan"), data), message)


def test_import_needs_a_file(club_world, club_client):
    refused(paste(club_client("ivan"), "   "), "Paste a pulka file or choose one to upload.")


def test_import_refuses_a_paste_and_an_upload_together(club_world, club_client):
    upload = SimpleUploadedFile("p.json", b"{}")
    response = club_client("ivan").post(import_url(), {"text": "{}", "file": upload}, headers=EN)

    refused(response, "not both", "file")


def test_import_refuses_a_file_that_is_not_utf8(club_world, club_client):
    upload = SimpleUploadedFile("p.json", '{"players": ["Ёж"]}'.encode("cp1251"))
    response = club_client("ivan").post(import_url(), {"file": upload}, headers=EN)

    refused(response, "not UTF-8", "file")


def test_a_refused_import_under_htmx_re_renders_the_form_with_the_message(club_world, club_client):
    response = paste(club_client("ivan"), "[1, 2", **HX)

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="import">')
    assert "The file is not valid JSON" in html


def test_import_of_a_paper_sheet_shows_its_settlement_and_stores_nothing(club_world, club_client):
    data = example_input("004-6.3-sochi-4p-codex-rounding.json")

    response = paste(club_client("ivan"), data)

    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="settlement"' in html
    assert 'data-result="whole">29<' in html and 'data-result="whole">\u2212103<' in html
    assert nothing_saved()


def test_import_by_an_outsider_is_403(club_world, club_client):
    assert club_client("petr").get(import_url()).status_code == 403
    assert paste(club_client("petr"), protocol_example()).status_code == 403
    assert nothing_saved()


def test_import_into_an_unknown_club_is_404(club_world, club_client):
    assert club_client("ivan").get(import_url("nowhere")).status_code == 404


def test_import_answers_405_to_delete(club_world, club_client):
    assert club_client("ivan").delete(import_url()).status_code == 405


def test_import_needs_the_csrf_token(club_world, club_client):
    client = club_client("ivan", csrf=True)
    response = client.post(import_url(), {"text": json.dumps(protocol_example())})

    assert response.status_code == 403
    assert nothing_saved()


def test_import_sends_an_anonymous_visitor_to_sign_in(club_world, client):
    assert client.get(import_url())["Location"].startswith(reverse("login"))


# --- export ---------------------------------------------------------------------------


def imported(client, data) -> Pulka:
    before = set(Pulka.objects.values_list("pk", flat=True))
    response = paste(client, data)
    assert response.status_code == 302, response.context["form"].errors
    return Pulka.objects.exclude(pk__in=before).get()


def exported(client, pulka: Pulka) -> dict:
    response = client.get(export_url(pulka))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="pulka-{pulka.pk}.json"'
    return json.loads(response.content.decode("utf-8"))


FACT_FIELDS = {"contract", "declarer", "whists", "tricks", "prikup"}


def test_an_export_is_scored_by_the_command_as_it_is(club_world, club_client):
    client = club_client("ivan")
    export = exported(client, imported(client, protocol_example()))

    assert score_text(json.dumps(export))["result"] == export["result"]


def test_export_gives_the_input_and_the_engine_output(club_world, club_client):
    client = club_client("ivan")
    data = protocol_example()
    pulka = imported(client, data)

    export = exported(client, pulka)

    engine = score_text(json.dumps(data))
    for field in ENGINE_FIELDS:
        assert export[field] == engine[field], field
    # Each deal item: the facts as recorded, then the engine's output for that deal.
    assert export["deals"] == [
        {**facts, **scored} for facts, scored in zip(data["deals"], engine["deals"], strict=True)
    ]
    assert [deal["notation"] for deal in export["deals"]] == ["6♠/=", "P"]
    assert export["players"] == data["players"]
    assert (export["target"], export["first_dealer"], export["stake"]) == (10, "A", 0.1)
    assert export["convention"]["whist_style"] == "gentleman"
    assert export["convention"]["help"] is True


def test_an_export_imports_again_to_the_same_sheet(club_world, club_client):
    client = club_client("ivan")
    first = exported(client, imported(client, protocol_example()))

    again = exported(client, imported(client, first))

    assert again == first
    assert Pulka.objects.count() == 2


def test_an_export_of_a_pulka_with_a_correction_imports_again(club_world, club_client):
    client = club_client("ivan")
    data = protocol_example()
    wrong = copy.deepcopy(data["deals"][0])
    wrong["tricks"] = {"A": 7, "B": 2, "C": 1}
    data["deals"].append({"correct": 1, "deal": wrong})
    pulka = imported(client, data)

    first = exported(client, pulka)

    assert Correction.objects.get(pulka=pulka).deal_number == 1
    assert first["deals"][-1] == {"correct": 1, "deal": wrong}
    assert first["sheet"] == score_text(json.dumps(data))["sheet"]
    assert exported(client, imported(client, first))["sheet"] == first["sheet"]


def test_export_writes_the_recorded_deals_of_a_club_pulka(club_world, club_client):
    names = ["olga", "ivan", "Guest Gena"]
    pulka = club_pulka(club_world.club, names, three_deals(names))

    export = exported(club_client("ivan"), pulka)

    facts = [{k: v for k, v in deal.items() if k in FACT_FIELDS} for deal in export["deals"]]
    assert facts == three_deals(names)
    assert [deal["number"] for deal in export["deals"]] == [1, 2, 3]
    assert "stake" not in export and "money" not in export


def test_export_by_an_outsider_is_403_and_unknown_is_404(club_world, club_client):
    pulka = club_pulka(club_world.club)

    assert club_client("petr").get(export_url(pulka)).status_code == 403
    assert club_client("ivan").get("/pulkas/999999/export.json").status_code == 404


def test_export_with_htmx_is_the_same_file(club_world, club_client):
    pulka = club_pulka(club_world.club)

    response = club_client("ivan").get(export_url(pulka), headers=HX)

    assert response.status_code == 200
    assert json.loads(response.content)["players"] == pulka.player_names


def test_export_answers_405_to_a_post(club_world, club_client):
    assert club_client("ivan").post(export_url(club_pulka(club_world.club))).status_code == 405


def test_export_sends_an_anonymous_visitor_to_sign_in(club_world, client):
    response = client.get(export_url(club_pulka(club_world.club)))

    assert response.status_code == 302


# --- manage.py import_pulka -----------------------------------------------------------


def call_import(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    from django.core.management import call_command

    out, err = stdio.StringIO(), stdio.StringIO()
    try:
        call_command("import_pulka", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def test_import_pulka_prints_the_path_and_its_export_works(club_world, club_client, tmp_path):
    path = tmp_path / "pulka.json"
    path.write_text(json.dumps(protocol_example()), encoding="utf-8")

    code, out, err = call_import(str(path), "--club", "friday")

    pulka = Pulka.objects.get()
    assert (code, err) == (0, "")
    assert out.strip() == f"/pulkas/{pulka.pk}/"
    response = club_client("ivan").get(out.strip() + "export.json")
    assert response.status_code == 200
    export = json.loads(response.content)
    engine = score_text(json.dumps(protocol_example()))
    assert all(export[field] == engine[field] for field in ENGINE_FIELDS)


@pytest.mark.parametrize(
    ("content", "club", "message"),
    [
        ("{oops", "friday", "not valid JSON"),
        (json.dumps({**example_input("001-protocol-example.json"), "players": list("ABCDEF")}), "friday", "2 to 5 players"),
        (json.dumps(example_input("004-6.3-sochi-4p-codex-rounding.json")), "friday", "not imported"),
        (json.dumps(example_input("001-protocol-example.json")), "nowhere", "no club 'nowhere'"),
    ],
)  # fmt: skip
def test_import_pulka_refuses_with_one_line_and_exit_2(
    club_world, tmp_path, content, club, message
):
    path = tmp_path / "pulka.json"
    path.write_text(content, encoding="utf-8")

    code, out, err = call_import(str(path), "--club", club)

    assert code == 2 and out == ""
    assert message in err and err.strip().count("\n") == 0
    assert nothing_saved()


def test_import_pulka_says_so_when_the_file_is_missing(club_world, tmp_path):
    code, _, err = call_import(str(tmp_path / "missing.json"), "--club", "friday")

    assert code == 2 and "cannot read" in err


def test_import_pulka_runs_from_the_command_line_without_a_traceback(tmp_path, demo_site):
    path = tmp_path / "broken.json"
    path.write_text("[", encoding="utf-8")
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{demo_site}"}

    bad = run_python("manage.py", "import_pulka", str(path), "--club", "demo", env=env)
    path.write_text(json.dumps(protocol_example()), encoding="utf-8")
    good = run_python("manage.py", "import_pulka", str(path), "--club", "demo", env=env)

    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert good.returncode == 0 and good.stdout.strip().startswith("/pulkas/")
