"""The result cards' drawing (prefscore/cards/): 1200 × 630, any name kept in its place
(Arabic, 60 letters, emoji), a translated sentence cut at its names, one key per thing
shown, and each card drawn once (docs/design.md, "Sharing a result")."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from prefscore.cards import draw, store
from prefscore.cards.layout import Card, Row, Segment, name, sentence, words

ARABIC = "محمد بن عبد الله بن عبد المطلب بن هاشم بن عبد مناف القرشي"  # 57 letters
LONG = ARABIC + " الهاشمي"  # 65
EMOJI = "🃏🎲😀♠♥ " * 12
HOSTILE = (
    ARABIC,
    LONG,
    EMOJI,
    "Анна-Мария Длиннофамильная-Преферансистка " * 2,
    "e\u0301" * 60,
    "",
)


def card(names: tuple[str, ...] = ("Anna", "Boris", "Vera"), club: str = "Friday") -> Card:
    rows = tuple(Row(n, ("10", "0", "+39", "+19.5"), (False, False, False, False)) for n in names)
    notes = tuple(
        sentence(
            "%(payer)s → %(payee)s: %(whists)s whists", {"payer": a, "payee": b}, {"whists": "39"}
        )
        for a, b in zip(names, names[1:], strict=False)
    )
    return Card(
        title=(name(" · ".join(names)),),
        subtitle=(name(club), words(" · Sochi · 7 Dec 2026")),
        name_heading="Player",
        headings=("Pulya", "Gora", "Whists", "Money"),
        rows=rows,
        notes=notes,
    )


def test_a_sentence_is_cut_at_its_names_and_keeps_its_words():
    line = sentence(
        "%(payer)s → %(payee)s: в вистах %(whists)s",
        {"payer": ARABIC, "payee": "Анна"},
        {"whists": "12"},
    )
    assert line == (
        Segment(ARABIC, True),
        Segment(" → "),
        Segment("Анна", True),
        Segment(": в вистах "),
        Segment("12"),
    )


@pytest.mark.parametrize("text", HOSTILE)
@pytest.mark.parametrize("room", [0, 30, 120, 400])
def test_a_name_is_shortened_to_the_width_it_has_and_never_more(text, room):
    face = draw.font(30)
    shown = draw.fit(text, face, room)
    assert draw.width(shown, face) <= room
    if draw.width(text, face) <= room:
        assert shown == " ".join(text.split()) or shown == text
    elif shown:
        assert shown.endswith(draw.ELLIPSIS)


def test_a_combining_accent_is_never_cut_from_its_letter():
    shown = draw.fit("e\u0301" * 60, draw.font(30), 100)
    assert shown.endswith(draw.ELLIPSIS)
    assert not shown[: -len(draw.ELLIPSIS)].endswith("e")  # each e keeps its accent


def test_names_in_a_line_share_the_width_and_short_ones_keep_theirs():
    face, bold = draw.font(26), draw.font(26, True)
    line = sentence(
        "%(payer)s → %(payee)s: %(whists)s whists, %(money)s in money",
        {"payer": LONG, "payee": "Anna"},
        {"whists": "39", "money": "19.5"},
    )
    runs = draw.place(line, 1104, face, bold)
    assert sum(draw.width(text, f) for text, f in runs) <= 1104
    texts = [text for text, _ in runs]
    assert texts[2] == "Anna"  # short: whole
    assert texts[0].endswith(draw.ELLIPSIS)  # long: shortened
    assert texts[-1] == " in money"  # the words stay whole


def _png(data: bytes) -> Image.Image:
    image = Image.open(BytesIO(data))
    image.load()
    return image


def test_a_card_is_a_png_of_1200_by_630():
    image = _png(draw.draw_card(card()))
    assert image.format == "PNG" and image.size == (1200, 630)


def test_hostile_names_draw_without_error_and_nothing_leaves_the_margins():
    drawn = _png(draw.draw_card(card(names=HOSTILE[:5], club=LONG))).convert("RGB")
    background = _png(draw.draw_card(card(names=("",) * 5, club=""))).convert("RGB")
    # Outside the margins, where no text may go, the card is as an empty one.
    for x in (*range(0, draw.MARGIN - 14), *range(1200 - draw.MARGIN + 14, 1200)):
        for y in range(0, 630, 7):
            assert drawn.getpixel((x, y)) == background.getpixel((x, y)), (x, y)


def test_the_key_follows_what_the_card_shows():
    assert card().key() == card().key()
    assert card().key() != card(club="Saturday").key()
    assert card().key() != card(names=("Anna", "Boris", "Vera ")).key()


def test_a_card_is_drawn_once_and_kept(settings, tmp_path: Path, monkeypatch):
    settings.CARD_DIR = tmp_path
    drawn: list[Card] = []
    real = store.draw_card

    def counting(shown: Card) -> bytes:
        drawn.append(shown)
        return real(shown)

    monkeypatch.setattr(store, "draw_card", counting)
    first = store.kept(card())
    again = store.kept(card())
    assert first == again == tmp_path / f"{card().key()}.png"
    assert len(drawn) == 1
    assert _png(first.read_bytes()).size == (1200, 630)
    assert list(tmp_path.glob("*.part")) == []
    store.kept(card(club="Saturday"))
    assert len(drawn) == 2
