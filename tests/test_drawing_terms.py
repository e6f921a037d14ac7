"""The drawing glossary: English senses of Swedish, German and Chinese drawing words, and labels."""

from __future__ import annotations

import pytest

from appliance import drawing_terms as dt


@pytest.mark.parametrize(
    ("term", "sense"),
    [
        ("Anodiserad", "anodised"),
        ("Stål", "steel"),
        ("Rostfritt", "stainless"),
        ("verzinkt", "galvanised"),
        ("gehärtet", "hardened"),
        ("Gewinde", "thread"),
        ("durchgehend", "through"),
        ("Bohrung", "hole"),
        ("Benämning", "title"),
        ("Werkstoff", "material"),
        ("Maßstab", "scale"),
        ("Massstab", "scale"),
        ("Ytbehandling", "surface treatment"),
        ("螺纹", "thread"),
        ("孔", "hole"),
        ("表面处理", "surface treatment"),
    ],
)
def test_single_terms(term: str, sense: str) -> None:
    assert dt.english(term) == sense


@pytest.mark.parametrize(
    ("compound", "sense"),
    [
        ("Adapterplatte", "adapter plate"),
        ("Ljushållare", "candle holder"),
        ("Kerzenhalter", "candle holder"),
        ("Zeichnungsnummer", "drawing number"),
        ("Grundplatte", "base plate"),
        ("Fahrradpumpenkolben", "bicycle pump piston"),
        ("Turmhalter", "tower holder"),
    ],
)
def test_compounds_split_into_their_senses(compound: str, sense: str) -> None:
    assert dt.english(compound) == sense


def test_split_compound_parts_and_inflections() -> None:
    assert dt.split_compound("Adapterplatte") == ("adapter", "platte")
    assert dt.split_compound("Ljushållare") == ("ljus", "hållare")
    # A plural on the last part, a Swedish definite ending.
    assert dt.english("Adapterplatten") == "adapter plate"
    assert dt.english("hållaren") == "holder"
    # Not a compound of known parts.
    assert dt.split_compound("Xylophon") == ()
    assert dt.split_compound("M8") == ()


def test_phrases_keep_unknown_words() -> None:
    assert dt.english("Halter 2") == "holder 2"
    assert dt.english("Stål, förzinkad") == "steel galvanised"
    assert dt.english("Aufspannung_Ecke") == "clamping fixture corner"
    assert dt.english("螺纹孔") == "thread hole"
    assert dt.english("M8 x 20") is None
    assert dt.english("") is None


def test_senses_of_a_text() -> None:
    found = dt.senses("Ljushållare, Aluminium anodiserad; 未注公差按 GB/T 1804-m")
    assert found == ["general tolerance", "candle holder", "anodised"]
    # "Aluminium" says itself; "lock" alone is English, inside a compound it is a lid.
    assert dt.senses("lock nut") == []
    assert dt.senses("Lockhållare") == ["lid holder"]
    # Each sense once.
    assert dt.senses("Platte Platte Platten") == ["plate"]


@pytest.mark.parametrize(
    ("label", "field"),
    [
        ("Benämning", "title"),
        ("BENENNUNG", "title"),
        ("名称", "title"),
        ("Ritningsnummer", "drawing_number"),
        ("Zeichnungsnummer", "drawing_number"),
        ("图号", "drawing_number"),
        ("DWG. NO.", "drawing_number"),
        ("Werkstoff", "material"),
        ("材料", "material"),
        ("Skala", "scale"),
        ("Maßstab", "scale"),
        ("比例", "scale"),
        ("Vikt/Massa", "weight"),
        ("Gewicht", "weight"),
        ("重量", "weight"),
        ("Ytbehandling", "surface_treatment"),
        ("Oberflächenbehandlung", "surface_treatment"),
        ("表面处理", "surface_treatment"),
        ("Ytjämnhet", "roughness"),
        ("SURFACE FINISH:", "roughness"),
        ("粗糙度", "roughness"),
        ("Allmän tolerans", "general_tolerance"),
        ("Allgemeintoleranz", "general_tolerance"),
        ("未注公差", "general_tolerance"),
        ("Blad", "sheet"),
        ("第 1 张 共 2 张", "sheet"),
        ("Format", "size"),
        ("图幅", "size"),
        ("Datum", "date"),
        ("日期", "date"),
        ("Ritad av", "drawn_by"),
        ("制图", "drawn_by"),
        ("Geprüft", "checked_by"),
        ("审核", "checked_by"),
        ("Kurs", "project"),
        ("项目", "project"),
        ("Änderung", "revision"),
        ("版本", "revision"),
        ("Antal", "quantity"),
        ("数量", "quantity"),
    ],
)
def test_label_field_in_four_languages(label: str, field: str) -> None:
    assert dt.label_field(label) == field


def test_label_field_needs_a_whole_label() -> None:
    assert dt.label_field("Materialien") is None
    assert dt.label_field("Adapterplatte") is None
    assert dt.label_field("") is None


@pytest.mark.parametrize(
    ("text", "field", "rest"),
    [
        ("Werkstoff: S235JR", "material", "S235JR"),
        ("Vikt/Massa 0,5 kg", "weight", "0,5 kg"),
        ("Benämning / Title  Adapter", "title", "Adapter"),
        ("Surface treatment Ytbehandling Anodiserad", "surface_treatment", "Anodiserad"),
        ("Tolerance, if not indicated acc. to ISO 2768-mK", "general_tolerance", "ISO 2768-mK"),
        ("Allmän tolerans enl. SS-ISO 2768-1", "general_tolerance", "SS-ISO 2768-1"),
        ("未注公差按GB/T 1804-m", "general_tolerance", "GB/T 1804-m"),
        ("SURFACE FINISH: Ra 1.6", "roughness", "Ra 1.6"),
        ("Maßstab 1:2", "scale", "1:2"),
        ("Title: Topplock", "title", "Topplock"),
    ],
)
def test_split_label_gives_the_value_after_it(text: str, field: str, rest: str) -> None:
    found = dt.split_label(text)
    assert found is not None
    assert (found.field, found.rest) == (field, rest)


def test_synonyms_and_field_labels() -> None:
    assert "anodized" in dt.synonyms("anodised")
    assert dt.synonyms("unheard of") == ()
    assert "werkstoff" in dt.field_labels("material")
    assert set(dt.LABELS) == set(dt.FIELD_NAMES)


def test_translate_keeps_numbers_units_and_punctuation() -> None:
    assert dt.translate("Anodiserad 15-20µm Kulör: Natur") == "anodised 15-20µm colour: natural"
    assert dt.translate("螺纹孔 M8") == "thread hole M8"
    assert dt.translate("EN AW-6082") == "EN AW-6082"
    assert dt.translate("Weird_Gripper_Cam_Adapter") == "Weird_Gripper_Cam_Adapter"
    assert dt.translate("Lock nut") == "Lock nut"  # English, whatever "lock" means in Swedish


def test_accents_lost_by_ocr_are_forgiven() -> None:
    assert dt.english("Ljushallare") == "candle holder"
    assert dt.english("Benamning") == "title"
    assert dt.english("Stal") == "steel"


def test_known_spelling_mends_ocr_slips_of_accented_words() -> None:
    assert dt.known_spelling("Kul6or") == "Kulör"  # "ö" read as "6o"
    assert dt.known_spelling("Kulér") == "Kulör"
    assert dt.known_spelling("Gew1nde") == "Gewinde"
    # Words without a slip are left alone: English words are near glossary words too.
    assert dt.known_spelling("Plate") is None
    assert dt.known_spelling("Stohl") is None
    assert dt.known_spelling("HT2022") is None
    assert dt.known_spelling("Weird_Gripper") is None


@pytest.mark.parametrize(
    ("note", "english_words"),
    [
        ("Scharfe Kanten brechen", ("sharp", "edge", "break")),
        ("Einsatzgehärtet, Einsatzhärtungstiefe 0,8", ("case hardened", "case depth")),
        ("Skarpa kanter brytes", ("sharp", "edge")),
        ("Sätthärdad 58 HRC", ("case hardened",)),
        ("未注倒角 C1", ("unspecified", "chamfer")),
        ("调质 HB 220", ("quenched and tempered",)),
        ("拧紧力矩 25 N·m", ("tightening torque",)),
        ("去毛刺", ("deburr",)),
        ("表面镀锌钝化, 镀层厚度8~12um", ("galvanised", "passivated", "plating")),
        ("Rostskyddsolja efter kontroll", ("anti-rust oil", "after", "inspection")),
        ("Entfettet und geölt", ("degreased", "oiled")),
        ("Gewinde vor dem Einsatzhärten abdecken", ("thread", "before", "case hardening", "mask")),
        ("激光打标图号 ， 字高 5 mm", ("laser", "marking", "character height")),
        ("外露表面喷涂灰色面漆", ("exposed", "surface", "grey", "topcoat")),
    ],
)
def test_notes_process_words_read_in_english(note: str, english_words: tuple[str, ...]) -> None:
    text = dt.translate(note)
    assert all(word in text for word in english_words), text


def test_a_compound_whose_umlaut_was_read_as_i() -> None:
    """The English OCR model reads "ü" as "i": "Fihrungsplatte" is still a guide plate; a word that
    splits into no known parts either way stays unknown."""
    assert dt.english("Fihrungsplatte") == "guide plate"
    assert dt.english("Führungsplatte") == "guide plate"
    assert dt.english("Printing") is None
