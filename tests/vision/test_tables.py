"""Hole and revision tables read as rows and columns by real Tesseract, and answered from the cell."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from appliance.answer import finding
from appliance.answer.context import Source
from appliance.config import Config
from appliance.document import Box, SliceKind
from appliance.vision.analysis import analyse_image
from appliance.vision.ocrlines import OcrLine, OcrWord
from appliance.vision.revisions import date_key
from appliance.vision.tables import Table, find_tables, row_key, table_text

_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _sheet() -> np.ndarray:
    """An A4-landscape page at 150 dpi with a hole table, a revision table, a note and a dimension."""
    page = Image.new("RGB", (1754, 1240), "white")
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(_FONT, 26)
    draw.rectangle((20, 20, 1734, 1220), outline="black", width=3)

    def row(y: int, cells: list[tuple[int, str]]) -> None:
        for x, text in cells:
            draw.text((x, y), text, fill="black", font=font)

    row(80, [(1000, "HOLE TABLE")])
    row(130, [(1000, "HOLE"), (1150, "X"), (1300, "Y"), (1450, "SIZE")])
    for i, (tag, x, y, size) in enumerate(
        [
            ("A1", "25,0", "40,0", "M6"),
            ("A2", "75,0", "40,0", "M6"),
            ("B1", "50,0", "90,0", "Ø8 H7"),
        ]
    ):
        row(180 + 50 * i, [(1000, tag), (1150, x), (1300, y), (1450, size)])
    row(500, [(1000, "REVISIONS")])
    row(550, [(1000, "REV"), (1100, "DESCRIPTION"), (1500, "DATE")])
    row(600, [(1000, "A"), (1100, "First issue"), (1500, "2025-01-15")])
    row(650, [(1000, "B"), (1100, "Slot widened to 12"), (1500, "2025-03-02")])
    row(900, [(100, "NOTES")])
    row(950, [(100, "1. Break all sharp edges")])
    row(400, [(300, "120")])
    return np.asarray(page)


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> list:
    from appliance.config import load_config

    config: Config = load_config(
        environ={"OPENCLAW_PATHS__DATA_DIR": str(tmp_path_factory.mktemp("data"))}
    )
    return analyse_image(_sheet(), config.vision, strict=False).slices


def _tables(slices: list) -> dict[str, Table]:
    found = [Table.from_json(s.extra["table"]) for s in slices if s.kind is SliceKind.TABLE]
    return {t.kind: t for t in found}


def test_hole_table_rows_and_columns(analysed: list) -> None:
    holes = _tables(analysed)["holes"]
    assert holes.columns[:4] == ["key", "x", "y", "size"]
    assert [r.key for r in holes.rows] == ["A1", "A2", "B1"]
    b1 = holes.row("b1")
    assert b1 is not None
    assert b1.cells["x"] == "50,0"  # as the drawing writes it, decimal comma kept
    assert b1.cells["size"].replace("Ø", "⌀").replace(" ", "") == "⌀8H7"
    # Each cell keeps its own box, inside the table's.
    assert holes.box.x0 <= b1.boxes["size"].x0 < b1.boxes["size"].x1 <= holes.box.x1


def test_revision_table_and_its_slice_text(analysed: list) -> None:
    revisions = _tables(analysed)["revisions"]
    assert [r.key for r in revisions.rows] == ["A", "B"]
    assert revisions.row("B").cells["date"] == "2025-03-02"  # type: ignore[union-attr]
    text = next(s.text for s in analysed if s.kind is SliceKind.TABLE and "Revision B" in s.text)
    assert "Slot widened to 12" in text


def test_table_cells_are_not_notes_or_dimensions(analysed: list) -> None:
    others = [s for s in analysed if s.kind in (SliceKind.NOTE, SliceKind.DIMENSION)]
    texts = " | ".join(s.text for s in others)
    assert "First issue" not in texts and "25,0" not in texts and "25.0" not in texts
    assert "Break all sharp edges" in texts  # the page's own note is still a note
    assert any(s.text == "120" for s in others)


def test_row_keys_mend_ocr_slips() -> None:
    assert row_key("Pl") == "P1"
    assert row_key("c") == "C"
    assert row_key("H5.") == "H5"
    assert row_key("First issue") == ""
    assert row_key("Cc") == "C"  # one letter read in both its sizes
    assert row_key("CC") == "CC" and row_key("AA") == "AA"  # a key of two letters stays


def test_swedish_and_chinese_revision_headers_name_their_columns() -> None:
    swedish = [
        _line(
            100,
            (1500, "Rev.", "Rev."),
            (1600, "Ändringsbeskrivning", "Ändringsbeskrivning"),
            (2000, "Datum", "Datum"),
        ),
        _line(
            140,
            (1500, "C", "C"),
            (1600, "Material", "Material"),
            (1720, "PA66-GF30", "PA66-GF30"),
            (2000, "2025-03-02", "2025-03-02"),
        ),
    ]
    tables = find_tables(swedish)
    assert len(tables) == 1 and tables[0].columns == ["key", "description", "date"]
    row = tables[0].row("C")
    assert row is not None and row.cells["description"] == "Material PA66-GF30"
    chinese = [
        _line(100, (1500, "标记", "标记"), (1600, "更改内容", "更改内容"), (2000, "日期", "日期")),
        _line(
            140,
            (1500, "A", "A"),
            (1600, "首次发布", "首次发布"),
            (2000, "2025-08-20", "2025-08-20"),
        ),
    ]
    tables = find_tables(chinese)
    assert len(tables) == 1 and tables[0].kind == "revisions"
    assert tables[0].row("A") is not None


def _source(slices: list) -> Source:
    tables = [s.extra["table"] for s in slices if s.kind is SliceKind.TABLE]
    return Source(
        number=1,
        slice_ids=[1],
        source="plate.png",
        namespace="default",
        title="plate",
        page=1,
        box=None,
        drawing_number="",
        revision="",
        section="",
        score=1.0,
        text="\n".join(s.text for s in slices if s.kind is SliceKind.TABLE),
        tables=tables,
    )


@pytest.mark.parametrize(
    ("question", "quote", "sentence"),
    [
        ("What size is hole B1 in the hole table?", "8H7", "The size of hole B1 is"),
        ("What is the X position of hole A2?", "75,0", "The X position of hole A2 is 75,0"),
        ("When was revision B made?", "2025-03-02", "The date of revision B is 2025-03-02"),
        ("What changed in revision A?", "First issue", "The change in revision A is First issue"),
    ],
)
def test_table_questions_answered_from_the_cell(
    analysed: list, question: str, quote: str, sentence: str
) -> None:
    found = finding.find_extract(question, [_source(analysed)])
    assert found is not None
    assert quote in found.quote.replace(" ", "") if " " not in quote else quote in found.quote
    assert found.sentence().startswith(sentence)
    assert found.box is not None  # the answer points at the cell


def test_a_row_the_table_does_not_have_is_not_answered(analysed: list) -> None:
    assert (
        finding.find_extract("What size is hole C7 in the hole table?", [_source(analysed)]) is None
    )
    assert finding.find_extract("When was revision D made?", [_source(analysed)]) is None


def _line(y: float, *cells: tuple[float, str, str]) -> OcrLine:
    words = tuple(
        OcrWord(text, raw, 90.0, Box(x, y, x + 12 * len(text), y + 20)) for x, text, raw in cells
    )
    return OcrLine(words, block=1, source_pass="upright")


def _merged(y: float, x0: float, x1: float, text: str, raw: str) -> OcrWord:
    """One word Tesseract made of two cells and the ruling between them."""
    return OcrWord(text, raw, 60.0, Box(x0, y, x1, y + 20))


def test_a_photographed_table_without_its_key_header_and_with_ruling_read_as_text() -> None:
    # As Tesseract reads a camera shot of a hole table: the "HOLE" and "X" headers lost, a ruling
    # line read into a cell ("H4__|-29,4"), another in front of a value ("|0,0").
    lines = [
        _line(100, (1300, "Y", "Y"), (1450, "SIZE", "SIZE")),
        _line(
            150,
            (1000, "H1", "H1"),
            (1150, "0.0", "|0,0"),
            (1300, "50.0", "50,0"),
            (1450, "M6", "M6"),
        ),
        _line(
            200,
            (1000, "H2", "H2"),
            (1150, "25.0", "25,0"),
            (1300, "50.0", "50,0"),
            (1450, "M6", "M6"),
        ),
        _line(250, (1300, "10.0", "10,0"), (1450, "M8", "M8")),
    ]
    # "H4" at 1000, the ruling, "-29,4" from 1150: one word of ten characters spanning both cells.
    lines[3] = OcrLine(
        (_merged(250, 1000, 1210, "H4__|-29.4", "H4__|-29,4"), *lines[3].words), 1, "upright"
    )
    (table,) = find_tables(lines)
    assert table.kind == "holes" and table.columns == ["key", "x", "y", "size"]
    assert [r.key for r in table.rows] == ["H1", "H2", "H4"]
    assert table.row("H1").cells["x"] == "0,0"  # type: ignore[union-attr]
    assert table.row("H4").cells["x"] == "-29,4"  # type: ignore[union-attr]
    assert table.row("H4").cells["size"] == "M8"  # type: ignore[union-attr]


def test_words_beside_a_header_word_in_a_sentence_are_no_table() -> None:
    lines = [
        _line(100, (100, "Date", "Date"), (180, "of", "of"), (220, "issue", "issue")),
        _line(150, (100, "2025-01-01", "2025-01-01")),
    ]
    assert find_tables(lines) == []


def test_size_column_second_and_coordinate_headers_not_read() -> None:
    # "HOLE | SIZE | X | Y" with the one-letter headers lost: the header ends at SIZE, the rows
    # carry on to the right, and the unnamed columns are X and Y in their order.
    lines = [
        _line(100, (1660, "HOLE", "HOLE"), (1760, "SIZE", "SIZE")),
        _line(150, (1660, "A1", "A1"), (1760, "⌀.266", "@.266"), (2010, "0.625", "0.625")),
        _line(200, (1660, "A2", "A2"), (1760, "⌀.266", "@.266"), (2010, "4.625", "4.625")),
        _line(250, (1660, "B1", "B1"), (1760, "3/8-16", "3/8-16"), (2010, "1.500", "1.500")),
    ]
    for i, y in ((1, "0.500"), (2, "0.500"), (3, "1.750")):
        words = (*lines[i].words, OcrWord(y, y, 90.0, Box(2140, 100 + 50 * i, 2200, 120 + 50 * i)))
        lines[i] = OcrLine(words, 1, "upright")
    (table,) = find_tables(lines)
    assert table.columns == ["key", "size", "x", "y"]
    assert table.row("A2").cells["x"] == "4.625"  # type: ignore[union-attr]
    assert table.row("B1").cells["y"] == "1.750"  # type: ignore[union-attr]


def test_a_german_bohrung_column_after_the_key_is_the_size() -> None:
    lines = [
        _line(
            100,
            (1600, "Pos.", "Pos."),
            (1700, "X", "X"),
            (1850, "Y", "Y"),
            (2000, "Bohrung", "Bohrung"),
        ),
        _line(
            150,
            (1600, "1", "1"),
            (1700, "12,0", "12,0"),
            (1850, "10,0", "10,0"),
            (2000, "M8", "M8"),
        ),
        _line(
            200,
            (1600, "2", "2"),
            (1700, "42,5", "42,5"),
            (1850, "10,0", "10,0"),
            (2000, "⌀13", "@13"),
        ),
    ]
    (table,) = find_tables(lines)
    assert table.kind == "holes" and table.columns == ["key", "x", "y", "size"]
    assert table.row("2").cells["size"] == "⌀13"  # type: ignore[union-attr]


def test_hole_key_header_alone_with_a_size_column_known_by_its_cells() -> None:
    # "Hål | Ø | X | Y" read as "Hal" alone: every row starts with a hole key, and the column of
    # diameters and threads is the size, the number columns X and Y.
    rows = [
        ("K1", "⌀5.5", "20,0", "0,0"),
        ("K2", "⌀5.5", "-10,0", "17,3"),
        ("G1", "M5", "0,0", "25,0"),
    ]
    lines = [_line(100, (1700, "Hal", "Hal"))] + [
        _line(
            150 + 50 * i, (1700, k, k), (1790, s, s), (1990, x.replace(",", "."), x), (2130, y, y)
        )
        for i, (k, s, x, y) in enumerate(rows)
    ]
    (table,) = find_tables(lines)
    assert table.kind == "holes" and table.columns == ["key", "size", "x", "y"]
    assert table.row("G1").cells["size"] == "M5"  # type: ignore[union-attr]
    assert table.row("K2").cells["x"] == "-10,0"  # type: ignore[union-attr]


def test_a_hole_word_over_lines_that_are_no_rows_is_no_table() -> None:
    lines = [
        _line(100, (100, "HOLE", "HOLE")),
        _line(150, (100, "Drill", "Drill"), (400, "through", "through")),
        _line(200, (100, "after", "after"), (400, "welding", "welding")),
    ]
    assert find_tables(lines) == []


def test_revision_table_with_an_approver_column() -> None:
    lines = [
        _line(
            100,
            (1500, "REV", "REV"),
            (1650, "DESCRIPTION", "DESCRIPTION"),
            (1990, "DATE", "DATE"),
            (2160, "APPD", "APPD"),
        ),
        _line(
            150,
            (1500, "A", "A"),
            (1650, "FIRST", "FIRST"),
            (1990, "2025-10-02", "2025-10-02"),
            (2160, "T.W.", "T.W."),
        ),
        _line(
            200,
            (1500, "B", "B"),
            (1650, "BORE", "BORE"),
            (1990, "2026-01-19", "2026-01-19"),
            (2160, "M.K.", "M.K."),
        ),
    ]
    (table,) = find_tables(lines)
    assert table.columns == ["key", "description", "date", "by"]
    assert table.row("B").cells["by"] == "M.K."  # type: ignore[union-attr]


def test_the_one_revision_letter_ocr_missed_is_put_back_from_the_others() -> None:
    lines = [
        _line(
            100, (1500, "REV", "REV"), (1600, "DESCRIPTION", "DESCRIPTION"), (2000, "DATE", "DATE")
        ),
        _line(
            140,
            (1600, "INITIAL", "INITIAL"),
            (1700, "RELEASE", "RELEASE"),
            (2000, "2024-01-22", "2024-01-22"),
        ),
        _line(
            180,
            (1500, "B", "B"),
            (1600, "THREAD", "THREAD"),
            (1700, "M10", "M10"),
            (2000, "2024-07-09", "2024-07-09"),
        ),
        _line(
            220,
            (1500, "C", "C"),
            (1600, "ZINC", "ZINC"),
            (1700, "PLATE", "PLATE"),
            (2000, "2025-03-30", "2025-03-30"),
        ),
    ]
    (table,) = find_tables(lines)
    row = table.row("A")
    assert row is not None and row.cells["date"] == "2024-01-22"
    # Letters that do not run in order leave the missing one unknown.
    lines[3] = _line(
        220, (1500, "E", "E"), (1600, "ZINC", "ZINC"), (2000, "2025-03-30", "2025-03-30")
    )
    (table,) = find_tables(lines)
    assert table.row("A") is None


def test_a_narrow_rev_column_read_only_at_its_last_row_is_lettered_by_dates() -> None:
    header = _line(
        100,
        (1500, "REV", "REV"),
        (1560, "ECO", "ECO"),
        (1700, "DESCRIPTION", "DESCRIPTION"),
        (2000, "DATE", "DATE"),
    )
    rows = [
        ("", "ECO-1102", "INITIAL", "2025-07-01"),
        ("", "ECO-1187", "NOTE", "2025-09-22"),
        ("", "ECO-1240", "R15", "2025-12-04"),
        ("D", "ECO-1306", "HARDNESS", "2026-02-16"),
    ]
    lines = [header]
    for i, (key, eco, text, date) in enumerate(rows):
        cells = [(1560, eco, eco), (1700, text, text), (2000, date, date)]
        if key:
            cells.insert(0, (1500, key, key))
        lines.append(_line(150 + 50 * i, *cells))
    (table,) = find_tables(lines)
    assert [r.key for r in table.rows] == ["A", "B", "C", "D"]
    assert table.row("B").cells["date"] == "2025-09-22"  # type: ignore[union-attr]
    # Dates out of order: the letters are not guessed.
    swapped = list(lines)
    swapped[1], swapped[2] = (
        _line(
            150, *[(x, t, t) for x, t in ((1560, "ECO-1187"), (1700, "NOTE"), (2000, "2025-09-22"))]
        ),
        _line(
            200,
            *[(x, t, t) for x, t in ((1560, "ECO-1102"), (1700, "INITIAL"), (2000, "2025-07-01"))],
        ),
    )
    (table,) = find_tables(swapped)
    assert [r.key for r in table.rows][:3] == ["", "", ""]


def _stueckliste() -> list[OcrLine]:
    """The Stückliste of a German assembly as Tesseract reads it (VW-3318-00 of the tuning set):
    Menge, Einheit and Benennung read as one line, the item numbers as lone digits."""
    rows = [
        ("1", "1", "Welle", "VW-3318-01", "42CrMo4"),
        ("2", "1", "Stirnrad", "VW-3318-02", "16MnCr5"),
        ("4", "2", "Rillenkugellager", "DIN 625 6206-2RS", "100Cr6"),
    ]
    lines = [
        _line(884, (1231, "Pos.", "Pos.")),
        _line(883, (1301, "Menge", "Menge"), (1390, "Einheit", "Einheit")),
        _line(883, (1490, "Benennung", "Benennung")),
        _line(883, (1760, "Sachnummer", "Sachnummer"), (2040, "Werkstoff", "Werkstoff")),
    ]
    for i, (pos, qty, name, number, material) in enumerate(rows):
        y = 930 + 46 * i
        lines.append(
            _line(
                y,
                (1231, pos, pos),
                (1301, qty, qty),
                (1390, "Stk", "Stk"),
                (1490, name, name),
                (1760, number, number),
                (2040, material, material),
            )
        )
    return lines


def test_a_stueckliste_keyed_by_pos_is_a_parts_list_not_a_hole_table() -> None:
    tables = find_tables(_stueckliste())
    assert len(tables) == 1
    parts = tables[0]
    assert parts.kind == "parts"
    assert parts.columns == ["key", "qty", "unit", "name", "part_no", "material"]
    bearing = parts.row("4")
    assert bearing is not None
    assert bearing.cells["qty"] == "2" and bearing.cells["unit"] == "Stk"
    assert bearing.cells["name"] == "Rillenkugellager"
    assert bearing.cells["material"] == "100Cr6"
    text = table_text(parts, "Vorgelegewelle kpl. VW-3318-00")
    assert text.splitlines()[0] == "Parts list of Vorgelegewelle kpl. VW-3318-00."
    assert "Item 4: Menge 2; Einheit Stk; Benennung Rillenkugellager;" in text


def test_a_chinese_parts_list_with_its_numbers_and_material_header_unread() -> None:
    # 明细栏 of JJ-4820-00 as read: only 序号, 代号 and 备注 of the header, no item numbers, the
    # 材料 column known by its cells.
    lines = [_line(978, (1230, "序号", "序号"), (1310, "代号", "代号"), (1900, "备注", "备注"))]
    for i, (number, material, remark) in enumerate(
        [
            ("JJ-4820-01", "HT250", ""),
            ("GB/T 119.2 10x30", "GCr15", ""),
            ("GB/T 70.1", "35 钢", "8.8 级"),
        ]
    ):
        cells = [(1310, number, number), (1700, material, material)]
        if remark:
            cells.append((1900, remark, remark))
        lines.append(_line(1026 + 46 * i, *cells))
    tables = find_tables(lines)
    assert len(tables) == 1 and tables[0].kind == "parts"
    parts = tables[0]
    assert [r.key for r in parts.rows] == ["1", "2", "3"]  # numbered from the header
    assert "material" in parts.columns
    second = parts.row("2")
    assert second is not None and second.cells["material"] == "GCr15"


def test_an_item_qty_description_list_is_parts_and_a_hole_table_without_xy_stays_holes() -> None:
    bom = [
        _line(
            100, (1000, "ITEM", "ITEM"), (1100, "QTY", "QTY"), (1200, "DESCRIPTION", "DESCRIPTION")
        ),
        _line(140, (1000, "1", "1"), (1100, "4", "4"), (1200, "SCREW M6x20", "SCREW M6x20")),
        _line(180, (1000, "2", "2"), (1100, "1", "1"), (1200, "BRACKET", "BRACKET")),
    ]
    tables = find_tables(bom)
    assert [t.kind for t in tables] == ["parts"]
    holes = [
        _line(
            100,
            (1500, "代号", "代号"),
            (1600, "尺寸", "尺寸"),
            (1800, "数量", "数量"),
            (1900, "说明", "说明"),
        ),
        _line(
            140,
            (1500, "A", "A"),
            (1600, "⌀10H7", "⌀10H7"),
            (1800, "2", "2"),
            (1900, "定位销孔", "定位销孔"),
        ),
        _line(
            180,
            (1500, "B", "B"),
            (1600, "M8-6H", "M8-6H"),
            (1800, "4", "4"),
            (1900, "螺纹孔", "螺纹孔"),
        ),
    ]
    tables = find_tables(holes)
    assert [t.kind for t in tables] == ["holes"]
    b = tables[0].row("B")
    assert b is not None and b.cells["size"] == "M8-6H" and b.cells["qty"] == "4"


def test_dates_are_read_in_the_orders_drawings_write_them() -> None:

    assert date_key("2025-6-10") == (2025, 6, 10)
    assert date_key("Datum 10.01.2025") == (2025, 1, 10)  # dotted: day first
    assert date_key("03/14/2026") == (2026, 3, 14)  # slashes: month first, as ANSI blocks write
    assert date_key("14/03/2026") == (2026, 3, 14)  # ...unless the first number is no month
    assert date_key("REV C") is None
