"""Drawings rendered for the answer evaluation set, with their ground truth and the questions about them.

Forty A4-landscape raster drawings (~200 dpi, greyscale PNG) in five title-block styles: ISO 7200
(English), ANSI (inches and millimetres), German (DIN-like: Benennung, Werkstoff, Maßstab ...), Swedish
(Benämning, Ritningsnummer, Ytbehandling, Vikt ...) and Chinese (图号, 名称, 材料 ...). Each has a part
with dimensions of every kind, numbered notes, and some a hole table or a revision block. The label and
its value sit in one of five layouts: value below the label in the same cell, value above a small label
under it, label cell beside its value cell, label cell above its value cell, or "LABEL: value" on one
line; two or three cells a row. A label may stand over an empty cell (no approver signed).

Everything is drawn from the :data:`DRAWINGS` records, so the truth is exactly what was drawn. The
questions of the first twelve (:func:`questions_for`) are generated from the same records, naming the
drawing by number, title, English sense or file name; the others carry questions written by hand
(:class:`Ask`), in the words a person at the bench uses. The last ten are the held-out part (decision
0016, "A third split"): their results are looked at only as totals. The images are written to a cache folder
(bench/out/answer_drawings), never committed.

    .venv/bin/python bench/answer_drawings.py [--out DIR] [--write-questions bench/data/answer_eval/rendered.toml]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.common import out_dir  # noqa: E402

_DEJAVU = "/usr/share/fonts/truetype/dejavu/"
_CJK = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
#: A4 landscape at ~200 dpi, as the demo drawings.
PAGE = (2339, 1654)


@dataclass(frozen=True)
class Field:
    """One title-block cell: a label and the value drawn with it."""

    #: What the field is, in English words used by the question templates ("material", "weight").
    key: str
    #: The label as drawn (in the drawing's language).
    label: str
    #: The value as drawn.
    value: str
    #: Further acceptable answer forms (English sense, decimal point for a decimal comma ...).
    also: tuple[str, ...] = ()
    #: Cells wide (of 2 per row).
    span: int = 1
    #: A sign-off date drawn in a cell of its own after the name ("beside" layout; "": none).
    date: str = ""


@dataclass(frozen=True)
class Dim:
    """One dimension drawn on the part."""

    #: linear, diameter, radius, thread, angle, fit or tolerance.
    kind: str
    #: The text drawn.
    text: str
    #: Where it is drawn: length, width, bore, holes, corner, thickness, angle.
    slot: str
    #: The question, with ``{name}`` for the drawing's name.
    ask: str
    #: Acceptable answer forms.
    expect: tuple[str, ...]


@dataclass(frozen=True)
class Hole:
    """One row of a hole table."""

    #: Hole tag (A1, B2 ...).
    tag: str
    #: X position as drawn.
    x: str
    #: Y position as drawn.
    y: str
    #: Size or thread as drawn.
    size: str
    #: How many holes of the row (a 数量 column; "" when the table has none).
    count: str = ""
    #: What the hole is for or how it is made (a DESCRIPTION column; "" when the table has none).
    note: str = ""


@dataclass(frozen=True)
class Part:
    """One row of a parts list (明细栏, Stückliste): columns are chosen by ``Drawing.part_columns``."""

    #: Item number (序号, Pos.).
    pos: str
    #: Quantity (数量, Menge).
    qty: str
    #: Name (名称, Benennung).
    name: str
    #: Part or standard number (代号, Sachnummer).
    number: str = ""
    #: Material (材料, Werkstoff).
    material: str = ""
    #: Unit (Einheit: Stk).
    unit: str = ""
    #: Remark (备注).
    note: str = ""


@dataclass(frozen=True)
class Rev:
    """One row of a revision block."""

    #: Revision letter.
    rev: str
    #: Change description as drawn.
    text: str
    #: Date as drawn.
    date: str
    #: Words of the description a right answer must contain (one of them).
    gist: tuple[str, ...]
    #: Drawing zone the change is in ("" when the block has no zone column).
    zone: str = ""
    #: Who approved the change ("" when the block has no such column).
    by: str = ""
    #: Places changed (the Chinese block's 处数; "" when the block has no such column).
    places: str = ""
    #: Change document or ECO number (更改文件号, ECO; "" when the block has no such column).
    doc: str = ""


@dataclass(frozen=True)
class Ask:
    """A question written by hand for one drawing (the way a person at the bench asks it)."""

    #: Id suffix (the drawing number in lower case goes before it).
    qid: str
    #: The question.
    question: str
    #: Acceptable answer forms (empty: the drawing does not answer it).
    expect: tuple[str, ...]
    #: Classes of the evaluation set (``unanswerable`` for a trap).
    classes: tuple[str, ...]


@dataclass(frozen=True)
class Drawing:
    """One rendered drawing and everything it states."""

    #: File name in the cache folder (also how a person may name it).
    file_name: str
    #: Title-block style: iso, ansi, de, se or zh.
    style: str
    #: tuning, dev or heldout.
    split: str
    #: Drawing number as drawn.
    number: str
    #: Title as drawn.
    title: str
    #: What a person calls the part in English ("the bearing cover").
    english: str
    #: How labels sit against values: below, under (value over its label), beside, stacked or inline.
    layout: str
    #: Title-block cells, in drawing order.
    fields: tuple[Field, ...]
    #: Dimensions on the part.
    dims: tuple[Dim, ...]
    #: Numbered notes.
    notes: tuple[str, ...]
    #: Hole table rows (empty: none drawn).
    holes: tuple[Hole, ...] = ()
    #: Revision block rows (empty: none drawn).
    revisions: tuple[Rev, ...] = ()
    #: Questions the drawing cannot answer although they name it (traps).
    traps: tuple[str, ...] = ()
    #: Note questions: (question with {name}, acceptable forms).
    note_questions: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())
    #: Title-block cells per row.
    columns: int = 2
    #: Hole table columns in drawn order: (Hole attribute, header, width); empty: the style's.
    hole_columns: tuple[tuple[str, str, int], ...] = ()
    #: Revision block columns in drawn order: (Rev attribute, header, width); empty: the style's.
    rev_columns: tuple[tuple[str, str, int], ...] = ()
    #: Caption of the hole table and of the revision block, and the notes' header ("": the style's).
    captions: tuple[str, str, str] = ("", "", "")
    #: Questions written by hand; when given, they replace the generated ones.
    asks: tuple[Ask, ...] = ()
    #: What stands between label and value in the inline layout (a Chinese block's full-width "：").
    colon: str = ": "
    #: Inline layout: the value printed bold after a regular label.
    bold_values: bool = False
    #: Parts list rows, drawn right above the title block (empty: none drawn).
    parts: tuple[Part, ...] = ()
    #: Parts list columns in drawn order: (Part attribute, header, width); their widths sum to 1060.
    part_columns: tuple[tuple[str, str, int], ...] = ()
    #: Caption of the parts list.
    part_caption: str = ""
    #: The revision block drawn right above the title block (and its parts list), with no caption
    #: row, as the change rows of a GB/T 10609.1 block; False: in the top-right corner.
    rev_above_block: bool = False
    #: How a note's number is written ("{}. ", a German "{}) ").
    note_number: str = "{}. "
    #: Notes wider than this many pixels wrap onto an indented second line (0: never).
    note_wrap: int = 0


_STYLE_WORDS = {
    "iso": (
        "NOTES",
        "HOLE TABLE",
        ("HOLE", "X", "Y", "SIZE"),
        "REVISIONS",
        ("REV", "DESCRIPTION", "DATE"),
    ),
    "ansi": (
        "NOTES:",
        "HOLE TABLE",
        ("TAG", "X LOC", "Y LOC", "SIZE"),
        "REVISIONS",
        ("REV", "DESCRIPTION", "DATE"),
    ),
    "de": (
        "Anmerkungen",
        "Bohrungstabelle",
        ("Pos.", "X", "Y", "Bohrung"),
        "Änderungen",
        ("Index", "Änderung", "Datum"),
    ),
    "se": (
        "Anmärkningar",
        "Håltabell",
        ("Hål", "X", "Y", "Dimension"),
        "Revision",
        ("Rev.", "Ändringsbeskrivning", "Datum"),
    ),
    "zh": (
        "技术要求",
        "孔表",
        ("孔号", "X", "Y", "尺寸"),
        "更改记录",
        ("标记", "更改内容", "日期"),
    ),
}

DRAWINGS: tuple[Drawing, ...] = (
    Drawing(
        file_name="GB-4410-01.png",
        style="iso",
        split="tuning",
        number="GB-4410-01",
        title="GEARBOX COVER",
        english="gearbox cover",
        layout="below",
        fields=(
            Field("responsible department", "Responsible dept.", "DRIVES ENG."),
            Field("technical reference", "Technical reference", "A. Novak"),
            Field("document type", "Document type", "Detail drawing"),
            Field("approver", "Approved by", "M. Ortiz"),
            Field("creator", "Created by", "K. Lund"),
            Field("document status", "Document status", "Released"),
            Field("title", "Title, supplementary title", "GEARBOX COVER", span=2),
            Field("number", "Identification number", "GB-4410-01"),
            Field("revision", "Rev.", "B"),
            Field("date", "Date of issue", "2025-11-03"),
            Field("sheet", "Sheet", "1/2", ("1 of 2",)),
            Field("material", "Material", "EN AC-43400", ("43400",)),
            Field("mass", "Mass", "1.35 kg", ("1.35",)),
            Field("scale", "Scale", "1:2"),
            Field("format", "Format", "A3"),
        ),
        dims=(
            Dim("linear", "240", "length", "What is the overall length of the {name}?", ("240",)),
            Dim("linear", "180", "width", "How wide is the {name} overall?", ("180",)),
            Dim(
                "fit",
                "Ø52 H7",
                "bore",
                "What fit does the centre bore of the {name} have?",
                ("H7",),
            ),
            Dim(
                "thread",
                "6x M6x1",
                "holes",
                "Which thread do the fixing holes on {name} take?",
                ("M6x1", "M6"),
            ),
            Dim("radius", "R8", "corner", "What corner radius is on {name}?", ("R8",)),
            Dim(
                "tolerance",
                "12 ±0.1",
                "thickness",
                "What is the tolerance on the 12 mm thickness of {name}?",
                ("±0.1", "0.1"),
            ),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mK",
            "SURFACE FINISH: Ra 1.6 on the sealing face",
            "Remove all burrs and sharp edges",
        ),
        revisions=(
            Rev("A", "First issue", "2025-06-10", ("First issue",)),
            Rev("B", "Bore changed to Ø52 H7", "2025-11-03", ("Ø52 H7", "Ø52", "52")),
        ),
        traps=(
            "What torque do the M6 screws of the {name} take?",
            "What colour is the {name} painted?",
        ),
        note_questions=(
            ("Which general tolerance standard applies to {name}?", ("ISO 2768-mK", "2768-mK")),
            ("What roughness does the sealing face of {name} need?", ("Ra 1.6", "1.6")),
        ),
    ),
    Drawing(
        file_name="motor_mount_plate.png",
        style="iso",
        split="dev",
        number="MM-2207-3",
        title="MOTOR MOUNT PLATE",
        english="motor mount plate",
        layout="beside",
        fields=(
            Field("title", "Title", "MOTOR MOUNT PLATE", span=2),
            Field("number", "Identification number", "MM-2207-3"),
            Field("revision", "Rev.", "C"),
            Field("creator", "Created by", "S. Berg"),
            Field("approver", "Approved by", "L. Chen"),
            Field("document type", "Document type", "Part drawing"),
            Field("document status", "Document status", "In review"),
            Field("date", "Date of issue", "2026-02-17"),
            Field("sheet", "Sheet", "1/1", ("1 of 1",)),
            Field("material", "Material", "S355J2", ()),
            Field("mass", "Mass", "2.9 kg", ("2.9",)),
            Field("scale", "Scale", "1:5"),
            Field("format", "Format", "A2"),
        ),
        dims=(
            Dim("linear", "320", "length", "How long is the {name}?", ("320",)),
            Dim("linear", "210", "width", "What is the width of the {name}?", ("210",)),
            Dim(
                "diameter",
                "Ø68",
                "bore",
                "What diameter is the big centre hole in {name}?",
                ("Ø68", "68"),
            ),
            Dim("radius", "R12", "corner", "What radius are the corners of {name}?", ("R12",)),
            Dim(
                "tolerance",
                "15 ±0.2",
                "thickness",
                "What tolerance is on the plate thickness of the {name}?",
                ("±0.2", "0.2"),
            ),
            Dim("angle", "45°", "angle", "What is the chamfer angle on the {name}?", ("45°", "45")),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mK",
            "SURFACE FINISH: Ra 3.2",
            "Paint RAL 7035 after machining",
        ),
        holes=(
            Hole("A1", "25.0", "25.0", "Ø9 THRU"),
            Hole("A2", "295.0", "25.0", "Ø9 THRU"),
            Hole("B1", "110.0", "60.0", "M8x1.25"),
            Hole("B2", "210.0", "60.0", "M8x1.25"),
            Hole("C1", "160.0", "180.0", "Ø6 H7"),
        ),
        traps=(
            "What torque do the M8 screws on the {name} take?",
            "What is the hardness of the {name}?",
        ),
        note_questions=(
            ("Which RAL colour is the {name} painted?", ("RAL 7035", "7035")),
            ("What surface finish does {name} call for?", ("Ra 3.2", "3.2")),
        ),
    ),
    Drawing(
        file_name="HM-30518_revD.png",
        style="ansi",
        split="tuning",
        number="HM-30518",
        title="HYDRAULIC MANIFOLD BLOCK",
        english="hydraulic manifold block",
        layout="inline",
        fields=(
            Field("title", "TITLE", "HYDRAULIC MANIFOLD BLOCK", span=2),
            Field("number", "DWG NO.", "HM-30518"),
            Field("revision", "REV", "D"),
            Field("size", "SIZE", "B"),
            Field("scale", "SCALE", "1:1"),
            Field("material", "MATERIAL", "AL 6061-T651", ("6061-T651",)),
            Field("finish", "FINISH", "BLACK ANODIZE TYPE II", ("BLACK ANODIZE", "anodize")),
            Field("weight", "WEIGHT", "0.82 LB", ("0.82",)),
            Field("sheet", "SHEET", "1 OF 1", ("1 of 1",)),
            Field("creator", "DRAWN", "R. KOWALSKI"),
            Field("checker", "CHECKED", "J. PARK"),
        ),
        dims=(
            Dim(
                "linear",
                "4.000",
                "length",
                "What is the overall length of the {name}?",
                ("4.000", "4.0"),
            ),
            Dim("linear", "2.500", "width", "How wide is the {name}?", ("2.500", "2.5")),
            Dim(
                "fit",
                "Ø.500 +.001/-.000",
                "bore",
                "What is the tolerance on the .500 bore of {name}?",
                ("+.001", ".001"),
            ),
            Dim(
                "thread",
                "4X 1/4-20 UNC",
                "holes",
                "Which thread is used for the mounting holes of {name}?",
                ("1/4-20 UNC", "1/4-20"),
            ),
            Dim("angle", "30°", "angle", "What angle is the chamfer on {name}?", ("30°", "30")),
        ),
        notes=(
            "UNLESS OTHERWISE SPECIFIED DIMENSIONS ARE IN INCHES",
            "TOLERANCES: .XX ±.01 .XXX ±.005 ANGLES ±0.5°",
            "SURFACE FINISH: Ra 1.6 ON PORT FACES",
            "PRESSURE TEST TO 3000 PSI",
        ),
        holes=(
            Hole("P1", "0.750", "1.250", "7/16-20 UNF"),
            Hole("P2", "2.000", "1.250", "7/16-20 UNF"),
            Hole("T1", "3.250", "1.250", "9/16-18 UNF"),
            Hole("D1", "0.375", "0.375", "Ø.201 THRU"),
        ),
        traps=(
            "What seal material do the ports of the {name} use?",
            "What is the maximum flow rate of the {name}?",
        ),
        note_questions=(
            ("What pressure is the {name} tested to?", ("3000 PSI", "3000")),
            ("What is the tolerance on three-place decimals on {name}?", ("±.005", ".005")),
        ),
    ),
    Drawing(
        file_name="idler_shaft.png",
        style="ansi",
        split="dev",
        number="IS-11902",
        title="IDLER SHAFT",
        english="idler shaft",
        layout="below",
        fields=(
            Field("title", "TITLE", "IDLER SHAFT", span=2),
            Field("number", "DWG NO.", "IS-11902"),
            Field("revision", "REV", "C"),
            Field("size", "SIZE", "A"),
            Field("scale", "SCALE", "2:1"),
            Field("material", "MATERIAL", "1045 STEEL", ("1045",)),
            Field("finish", "FINISH", "ZINC PLATE", ("zinc",)),
            Field("weight", "WEIGHT", "0.31 KG", ("0.31",)),
            Field("sheet", "SHEET", "1 OF 1", ("1 of 1",)),
            Field("creator", "DRAWN", "T. WILSON"),
            Field("checker", "CHECKED", "A. GARCIA"),
        ),
        dims=(
            Dim("linear", "158", "length", "What is the overall length of the {name}?", ("158",)),
            Dim("fit", "Ø25 h6", "bore", "What fit is the bearing seat of the {name}?", ("h6",)),
            Dim(
                "thread",
                "M10x1.5",
                "holes",
                "What thread is at the end of the {name}?",
                ("M10x1.5", "M10"),
            ),
            Dim("radius", "R0.5", "corner", "What fillet radius is on the {name}?", ("R0.5",)),
            Dim(
                "tolerance",
                "32 ±0.05",
                "thickness",
                "What is the tolerance on the 32 mm length of {name}?",
                ("±0.05", "0.05"),
            ),
        ),
        notes=(
            "DIMENSIONS IN MILLIMETERS",
            "SURFACE FINISH: Ra 0.8 ON BEARING SEATS",
            "HARDEN AND TEMPER TO 28-32 HRC",
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "2024-01-22", ("INITIAL RELEASE",)),
            Rev("B", "THREAD WAS M8, NOW M10x1.5", "2024-07-09", ("M10x1.5", "M10")),
            Rev("C", "ADDED ZINC PLATE", "2025-03-30", ("ZINC",)),
        ),
        traps=(
            "What is the maximum speed in rpm of the {name}?",
            "Which bearing goes on the {name}?",
        ),
        note_questions=(
            ("What hardness is the {name} tempered to?", ("28-32 HRC", "28-32")),
            ("What roughness do the bearing seats of the {name} need?", ("Ra 0.8", "0.8")),
        ),
    ),
    Drawing(
        file_name="Lagerdeckel.png",
        style="de",
        split="tuning",
        number="LD-1208-00",
        title="Lagerdeckel",
        english="bearing cover",
        layout="below",
        fields=(
            Field("title", "Benennung", "Lagerdeckel", ("bearing cover",), span=2),
            Field("number", "Zeichnungsnummer", "LD-1208-00"),
            Field("revision", "Index", "B"),
            Field("material", "Werkstoff", "S235JR"),
            Field("scale", "Maßstab", "1:1"),
            Field("surface", "Oberfläche", "verzinkt", ("zinc plated", "galvanised", "galvanized")),
            Field("weight", "Gewicht", "0,45 kg", ("0.45 kg", "0,45", "0.45")),
            Field("tolerance", "Allgemeintoleranz", "ISO 2768-mK", ("2768-mK",)),
            Field("sheet", "Blatt", "1 von 1", ("1 of 1",)),
            Field("format", "Format", "A3"),
            Field("date", "Datum", "12.03.2025", ("2025-03-12",)),
            Field("creator", "Gezeichnet", "H. Berger"),
        ),
        dims=(
            Dim(
                "diameter",
                "Ø120",
                "length",
                "What is the outside diameter of the {name}?",
                ("Ø120", "120"),
            ),
            Dim("fit", "Ø62 H8", "bore", "What fit is on the centre bore of the {name}?", ("H8",)),
            Dim(
                "thread",
                "4x M6",
                "holes",
                "What size are the threaded holes in the {name}?",
                ("M6",),
            ),
            Dim(
                "tolerance",
                "8 ±0,1",
                "thickness",
                "How thick is the {name} and to what tolerance?",
                ("±0,1", "±0.1", "0,1", "0.1"),
            ),
            Dim("angle", "30°", "angle", "What chamfer angle does {name} have?", ("30°", "30")),
        ),
        notes=(
            "Tolerierung ISO 8015",
            "Kanten gebrochen 0,5x45°",
            "Oberfläche Ra 3,2",
        ),
        traps=(
            "Wer hat den {name} geprüft? Who checked it?",
            "What seal goes into the {name}?",
        ),
        note_questions=(
            ("What surface roughness does the {name} need?", ("Ra 3,2", "3,2", "Ra 3.2", "3.2")),
            ("How much are the edges of the {name} broken?", ("0,5x45°", "0,5", "0.5")),
        ),
    ),
    Drawing(
        file_name="SP-4471_Spannpratze.png",
        style="de",
        split="dev",
        number="SP-4471",
        title="Spannpratze",
        english="clamping claw",
        layout="beside",
        fields=(
            Field("title", "Benennung", "Spannpratze", ("clamping claw", "clamp"), span=2),
            Field("number", "Zeichnungsnummer", "SP-4471"),
            Field("revision", "Änderung", "A"),
            Field("material", "Werkstoff", "42CrMo4"),
            Field("scale", "Maßstab", "2:1"),
            Field("surface", "Oberfläche", "brüniert", ("black oxide", "blackened", "bruniert")),
            Field("weight", "Masse", "0,12 kg", ("0.12 kg", "0,12", "0.12")),
            Field("tolerance", "Allgemeintoleranz", "ISO 2768-fH", ("2768-fH",)),
            Field("sheet", "Blatt", "2 von 3", ("2 of 3",)),
            Field("format", "Format", "A4"),
            Field("creator", "Gezeichnet", "F. Wagner"),
            Field("approver", "Geprüft", "U. Klein"),
        ),
        dims=(
            Dim("linear", "85", "length", "How long is the {name}?", ("85",)),
            Dim(
                "diameter",
                "Ø13",
                "bore",
                "What is the diameter of the slot hole in the {name}?",
                ("Ø13", "13"),
            ),
            Dim("radius", "R6", "corner", "What radius has the nose of the {name}?", ("R6",)),
            Dim(
                "angle",
                "15°",
                "angle",
                "What is the angle of the sloped face on {name}?",
                ("15°", "15"),
            ),
        ),
        notes=(
            "Allgemeintoleranzen ISO 2768-fH",
            "Härten 45+5 HRC",
            "Entgraten",
        ),
        holes=(
            Hole("1", "12,0", "10,0", "M8"),
            Hole("2", "42,5", "10,0", "Ø13"),
            Hole("3", "73,0", "10,0", "Ø6,6"),
        ),
        traps=(
            "What clamping force does the {name} hold?",
            "Who approved revision B of the {name}?",
        ),
        note_questions=(("To what hardness is the {name} hardened?", ("45+5 HRC", "45+5", "45")),),
    ),
    Drawing(
        file_name="fuehrungsschiene.png",
        style="de",
        split="tuning",
        number="FS-0930-2",
        title="Führungsschiene",
        english="guide rail",
        layout="stacked",
        fields=(
            Field("title", "Benennung", "Führungsschiene", ("guide rail",), span=2),
            Field("number", "Zeichnungsnummer", "FS-0930-2"),
            Field("revision", "Index", "C"),
            Field("material", "Werkstoff", "C45E"),
            Field("scale", "Maßstab", "1:5"),
            Field(
                "surface",
                "Oberfläche",
                "gehärtet und geschliffen",
                ("hardened and ground", "geschliffen"),
            ),
            Field("weight", "Gewicht", "3,8 kg", ("3.8 kg", "3,8", "3.8")),
            Field("tolerance", "Allgemeintoleranz", "ISO 2768-mH", ("2768-mH",)),
            Field("sheet", "Blatt", "1 von 1", ("1 of 1",)),
            Field("format", "Format", "A2"),
            Field("date", "Datum", "05.09.2025", ("2025-09-05",)),
        ),
        dims=(
            Dim("linear", "600", "length", "What is the total length of the {name}?", ("600",)),
            Dim("linear", "40", "width", "How wide is the {name}?", ("40",)),
            Dim(
                "thread",
                "M5x0.8",
                "holes",
                "What thread is in the mounting holes of the {name}?",
                ("M5x0.8", "M5"),
            ),
            Dim(
                "tolerance",
                "20 ±0,02",
                "thickness",
                "What is the tolerance on the 20 mm height of the {name}?",
                ("±0,02", "±0.02", "0,02", "0.02"),
            ),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mH",
            "Laufflächen induktiv gehärtet 58 HRC",
            "Geradheit 0,02 auf 600",
        ),
        revisions=(
            Rev("A", "Erstausgabe", "10.01.2025", ("Erstausgabe", "first issue")),
            Rev("B", "Bohrungen M5 statt M4", "02.06.2025", ("M5", "M4")),
            Rev("C", "Länge 600 statt 580", "05.09.2025", ("600", "580")),
        ),
        traps=(
            "What load rating does the {name} have?",
            "Which carriage runs on the {name}?",
        ),
        note_questions=(
            ("To what hardness are the running faces of the {name} hardened?", ("58 HRC", "58")),
        ),
    ),
    Drawing(
        file_name="distansbricka.png",
        style="se",
        split="dev",
        number="KMM-2024-017",
        title="Distansbricka",
        english="spacer washer",
        layout="below",
        fields=(
            Field("title", "Benämning", "Distansbricka", ("spacer washer", "spacer"), span=2),
            Field("number", "Ritningsnummer", "KMM-2024-017"),
            Field("revision", "Rev.", "A"),
            Field("material", "Material", "EN AW-6061-T6", ("6061-T6",)),
            Field("scale", "Skala", "2:1"),
            Field(
                "surface",
                "Ytbehandling",
                "Anodiserad svart",
                ("anodised", "anodized", "Anodiserad"),
            ),
            Field("weight", "Vikt", "6,2 g", ("6.2 g", "6,2", "6.2")),
            Field("sheet", "Blad", "1/1", ("1 of 1",)),
            Field("format", "Format", "A4"),
            Field("course", "Kurs", "TMMV07"),
            Field("creator", "Ritad av", "E. Holm"),
        ),
        dims=(
            Dim(
                "diameter",
                "Ø30",
                "length",
                "What is the outer diameter of the {name}?",
                ("Ø30", "30"),
            ),
            Dim(
                "fit", "Ø10 H7", "bore", "What tolerance class is the hole of the {name}?", ("H7",)
            ),
            Dim(
                "tolerance",
                "5 ±0,05",
                "thickness",
                "What is the thickness tolerance of {name}?",
                ("±0,05", "±0.05", "0,05", "0.05"),
            ),
            Dim("angle", "45°", "angle", "What angle is the chamfer of the {name}?", ("45°", "45")),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mK",
            "Generell ytstruktur Ra 1,6",
            "Skarpa kanter brytes",
        ),
        traps=(
            "Who approved the {name}?",
            "What torque is the {name} clamped with?",
        ),
        note_questions=(
            ("Which general tolerance applies to the {name}?", ("ISO 2768-mK", "2768-mK")),
            (
                "What general surface roughness does the {name} have?",
                ("Ra 1,6", "1,6", "Ra 1.6", "1.6"),
            ),
        ),
    ),
    Drawing(
        file_name="HN-5520.png",
        style="se",
        split="tuning",
        number="HN-5520",
        title="Hjulnav",
        english="wheel hub",
        layout="beside",
        fields=(
            Field("title", "Benämning", "Hjulnav", ("wheel hub",), span=2),
            Field("number", "Ritningsnummer", "HN-5520"),
            Field("revision", "Rev.", "B"),
            Field("material", "Material", "SS 2541"),
            Field("scale", "Skala", "1:1"),
            Field(
                "surface", "Ytbehandling", "Förzinkad", ("zinc plated", "galvanised", "galvanized")
            ),
            Field("weight", "Vikt", "0,74 kg", ("0.74 kg", "0,74", "0.74")),
            Field("sheet", "Blad", "1/2", ("1 of 2",)),
            Field("format", "Format", "A3"),
            Field("course", "Kurs/Projekt", "TMKT48"),
            Field("date", "Datum", "2025-04-28"),
        ),
        dims=(
            Dim(
                "diameter",
                "Ø110",
                "length",
                "What is the largest diameter of the {name}?",
                ("Ø110", "110"),
            ),
            Dim(
                "fit",
                "Ø47 N7",
                "bore",
                "What fit does the bearing bore of the {name} have?",
                ("N7",),
            ),
            Dim(
                "thread",
                "5x M12x1.5",
                "holes",
                "What thread are the wheel studs holes on the {name}?",
                ("M12x1.5", "M12"),
            ),
            Dim("radius", "R3", "corner", "What is the fillet radius on the {name}?", ("R3",)),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mK",
            "SURFACE FINISH: Ra 1.6 i lagerläget",
            "Åtdragningsmoment hjulbultar 110 Nm",
        ),
        holes=(
            Hole("H1", "0,0", "50,0", "M12x1.5"),
            Hole("H2", "47,6", "15,5", "M12x1.5"),
            Hole("H3", "29,4", "-40,5", "M12x1.5"),
            Hole("H4", "-29,4", "-40,5", "M12x1.5"),
            Hole("H5", "-47,6", "15,5", "M12x1.5"),
        ),
        traps=(
            "Which bearing is pressed into the {name}?",
            "Who approved the {name}?",
        ),
        note_questions=(("What torque do the wheel bolts of the {name} take?", ("110 Nm", "110")),),
    ),
    Drawing(
        file_name="kedjespannare_KS-118-03.png",
        style="se",
        split="dev",
        number="KS-118-03",
        title="Kedjespännare",
        english="chain tensioner",
        layout="stacked",
        fields=(
            Field("title", "Benämning", "Kedjespännare", ("chain tensioner",), span=2),
            Field("number", "Ritningsnummer", "KS-118-03"),
            Field("revision", "Rev.", "C"),
            Field("material", "Material", "PA66-GF30"),
            Field("scale", "Skala", "1:2"),
            Field("surface", "Ytbehandling", "Obehandlad", ("untreated", "none")),
            Field("weight", "Vikt", "85 g", ("85",)),
            Field("sheet", "Blad", "1/1", ("1 of 1",)),
            Field("format", "Format", "A3"),
            Field("course", "Projekt", "FS-2025", ()),
        ),
        dims=(
            Dim("linear", "140", "length", "What is the overall length of the {name}?", ("140",)),
            Dim(
                "diameter",
                "Ø22",
                "bore",
                "What diameter is the pivot hole of the {name}?",
                ("Ø22", "22"),
            ),
            Dim("radius", "R15", "corner", "What radius is on the end of the {name}?", ("R15",)),
            Dim("angle", "20°", "angle", "What angle is the ramp of the {name}?", ("20°", "20")),
        ),
        notes=(
            "Tolerance, if not indicated acc. to ISO 2768-mK",
            "Formsprutad, släppvinkel 1°",
            "Materialmärkning >PA66-GF30<",
        ),
        revisions=(
            Rev("A", "Första utgåva", "2024-11-04", ("Första utgåva", "first issue")),
            Rev("B", "Radie R15 ändrad", "2025-01-20", ("R15",)),
            Rev("C", "Material PA66-GF30", "2025-03-02", ("PA66-GF30",)),
        ),
        traps=(
            "What spring rate does the {name} need?",
            "What colour is the {name}?",
        ),
        note_questions=(("What draft angle does the {name} have as moulded?", ("1°",)),),
    ),
    Drawing(
        file_name="ZC-0215-01.png",
        style="zh",
        split="tuning",
        number="ZC-0215-01",
        title="轴承座",
        english="bearing housing",
        layout="beside",
        fields=(
            Field("title", "名称", "轴承座", ("bearing housing", "bearing seat"), span=2),
            Field("number", "图号", "ZC-0215-01"),
            Field("material", "材料", "HT200"),
            Field("scale", "比例", "1:2"),
            Field("weight", "重量", "2.6 kg", ("2.6",)),
            Field("surface", "表面处理", "发黑", ("black oxide", "blackened", "blackening")),
            Field("sheet", "张数", "共 2 张 第 1 张", ("第 1 张", "1 of 2")),
            Field("creator", "设计", "王明"),
            Field("date", "日期", "2025-07-15"),
        ),
        dims=(
            Dim("linear", "160", "length", "What is the base length of the {name}?", ("160",)),
            Dim("fit", "Ø72 K7", "bore", "What fit is the bearing bore of the {name}?", ("K7",)),
            Dim("thread", "2x M10", "holes", "What thread are the holes in the {name}?", ("M10",)),
            Dim("radius", "R5", "corner", "What radius is on the {name}'s corners?", ("R5",)),
        ),
        notes=(
            "未注尺寸公差按 GB/T 1804-m",
            "未注圆角 R3",
            "SURFACE FINISH: Ra 3.2",
        ),
        traps=(
            "Who checked the {name}?",
            "What lubricant does the {name} use?",
        ),
        note_questions=(
            (
                "What standard governs the untoleranced dimensions of the {name}?",
                ("GB/T 1804-m", "1804-m"),
            ),
        ),
    ),
    Drawing(
        file_name="falanpan_FL-3306.png",
        style="zh",
        split="dev",
        number="FL-3306",
        title="法兰盘",
        english="flange",
        layout="below",
        fields=(
            Field("title", "名称", "法兰盘", ("flange",), span=2),
            Field("number", "图号", "FL-3306"),
            Field("material", "材料", "Q235"),
            Field("scale", "比例", "1:1"),
            Field("weight", "重量", "1.1 kg", ("1.1",)),
            Field("surface", "表面处理", "镀锌", ("zinc plated", "galvanised", "galvanized")),
            Field("sheet", "张数", "共 1 张 第 1 张", ("第 1 张", "1 of 1")),
            Field("creator", "设计", "李华"),
            Field("date", "日期", "2026-01-08"),
        ),
        dims=(
            Dim(
                "diameter",
                "Ø180",
                "length",
                "What is the outside diameter of the {name}?",
                ("Ø180", "180"),
            ),
            Dim("fit", "Ø40 H7", "bore", "What fit is on the centre bore of the {name}?", ("H7",)),
            Dim(
                "tolerance",
                "18 ±0.1",
                "thickness",
                "What is the thickness tolerance on the {name}?",
                ("±0.1", "0.1"),
            ),
            Dim("angle", "30°", "angle", "What is the chamfer angle of the {name}?", ("30°", "30")),
        ),
        notes=(
            "未注尺寸公差按 GB/T 1804-m",
            "去毛刺",
            "SURFACE FINISH: Ra 6.3",
        ),
        holes=(
            Hole("1", "65.0", "0.0", "Ø14"),
            Hole("2", "0.0", "65.0", "Ø14"),
            Hole("3", "-65.0", "0.0", "Ø14"),
            Hole("4", "0.0", "-65.0", "M12"),
        ),
        traps=(
            "What pressure rating does the {name} have?",
            "What gasket goes with the {name}?",
        ),
        note_questions=(("What surface finish does the {name} call for?", ("Ra 6.3", "6.3")),),
    ),
    # ---- Drawings with their questions written by hand (layouts and wordings the ones above lack).
    Drawing(
        file_name="GH-7702-11.png",
        style="iso",
        split="tuning",
        number="GH-7702-11",
        title="GEARBOX HOUSING",
        english="gearbox housing",
        layout="under",
        columns=3,
        fields=(
            Field("title", "TITLE", "GEARBOX HOUSING", span=2),
            Field("number", "PART NO.", "GH-7702-11"),
            Field("revision", "REV", "C"),
            Field("material", "MATL", "EN-GJL-250"),
            Field("finish", "FINISH", "POWDER COAT"),
            Field("mass", "MASS", "4.2 kg"),
            Field("scale", "SCALE", "1:2"),
            Field("format", "SIZE", "A2"),
            Field("creator", "DRAWN", "P. AHMED"),
            Field("checker", "CHECKED", "T. WEISS"),
            Field("date", "DATE", "2026-01-19"),
            Field("sheet", "SHEET", "2 OF 3"),
            Field("project", "PROJECT", "GBX-26"),
            Field("quantity", "QTY", "1"),
        ),
        dims=(
            Dim("linear", "310", "length", "", ()),
            Dim("linear", "220", "width", "", ()),
            Dim("fit", "Ø90 H7", "bore", "", ()),
            Dim("thread", "8x M10", "holes", "", ()),
            Dim("radius", "R6", "corner", "", ()),
            Dim("tolerance", "25 ±0.2", "thickness", "", ()),
        ),
        notes=(
            "ALL UNTOLERANCED DIMENSIONS TO ISO 2768-m",
            "BREAK ALL SHARP EDGES 0.3 MAX",
            "LEAK TEST AT 2 BAR AIR FOR 60 s",
            "MACHINED SURFACES Ra 3.2 UNLESS NOTED",
            "PAINT COLOUR RAL 9005",
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "2025-10-02", ("INITIAL",), zone="-", by="T.W."),
            Rev("B", "ADDED LEAK TEST", "2025-12-08", ("LEAK",), zone="C4", by="T.W."),
            Rev("C", "BORE Ø88 TO Ø90 H7", "2026-01-19", ("Ø90",), zone="B2", by="M.K."),
        ),
        rev_columns=(
            ("rev", "REV", 70),
            ("zone", "ZONE", 80),
            ("text", "DESCRIPTION", 330),
            ("date", "DATE", 170),
            ("by", "APPD", 90),
        ),
        captions=("", "REVISION HISTORY", "GENERAL NOTES"),
        asks=(
            Ask(
                "material",
                "What's the gearbox housing cast from?",
                ("EN-GJL-250", "GJL-250"),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "What's the part number for the gearbox housing?",
                ("GH-7702-11",),
                ("field", "naming"),
            ),
            Ask("revision", "Which revision is GH-7702-11 at now?", ("C",), ("field",)),
            Ask(
                "finish",
                "How is the gearbox housing finished?",
                ("POWDER COAT",),
                ("field", "naming"),
            ),
            Ask("mass", "How heavy is part GH-7702-11?", ("4.2 kg", "4.2"), ("field",)),
            Ask(
                "scale",
                "What scale is the gearbox housing drawn at?",
                ("1:2",),
                ("field", "naming"),
            ),
            Ask("sheet", "Which sheet of the set is GH-7702-11?", ("2 OF 3",), ("field",)),
            Ask(
                "checker",
                "Who checked the gearbox housing drawing?",
                ("T. WEISS", "WEISS"),
                ("field", "naming"),
            ),
            Ask(
                "size",
                "What paper size is GH-7702-11.png printed on?",
                ("A2",),
                ("field", "naming"),
            ),
            Ask(
                "project",
                "Which project does the gearbox housing belong to?",
                ("GBX-26",),
                ("field", "naming"),
            ),
            Ask(
                "fit",
                "What's the fit on the Ø90 bore of the gearbox housing?",
                ("H7",),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread are the eight tapped holes in GH-7702-11?",
                ("M10",),
                ("dimension",),
            ),
            Ask(
                "wall",
                "How much can the 25 mm wall of the gearbox housing vary?",
                ("±0.2", "0.2"),
                ("dimension", "naming"),
            ),
            Ask(
                "length",
                "How long is the gearbox housing end to end?",
                ("310",),
                ("dimension", "naming"),
            ),
            Ask(
                "leak",
                "At what pressure is the gearbox housing leak tested?",
                ("2 BAR",),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "What tolerance applies where none is given on GH-7702-11?",
                ("ISO 2768-m", "2768-m"),
                ("note",),
            ),
            Ask(
                "colour",
                "What colour is the gearbox housing painted?",
                ("RAL 9005", "9005"),
                ("note", "naming"),
            ),
            Ask(
                "edges",
                "How much should the sharp edges of GH-7702-11 be broken?",
                ("0.3",),
                ("note",),
            ),
            Ask(
                "rev-b",
                "What changed in rev B of the gearbox housing?",
                ("LEAK TEST", "LEAK"),
                ("table", "naming"),
            ),
            Ask("rev-c-by", "Who approved revision C of GH-7702-11?", ("M.K.",), ("table",)),
            Ask(
                "rev-a-date",
                "When was revision A of the gearbox housing released?",
                ("2025-10-02",),
                ("table", "naming"),
            ),
            Ask(
                "trap-torque",
                "What torque do the M10 bolts on the gearbox housing need?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-temp",
                "What is the maximum oil temperature for GH-7702-11?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-coat",
                "How thick is the powder coat on the gearbox housing?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="PB-118-4_pillow_block_base.png",
        style="ansi",
        split="tuning",
        number="PB-118-4",
        title="PILLOW BLOCK BASE",
        english="pillow block base",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "TITLE", "PILLOW BLOCK BASE", span=2),
            Field("number", "DWG NO.", "PB-118-4"),
            Field("size", "SIZE", "C"),
            Field("scale", "SCALE", "1:1"),
            Field("revision", "REV", "E"),
            Field("material", "MATL", "1018 CRS"),
            Field("finish", "FINISH", "ZINC PLATE CLEAR"),
            Field("quantity", "QTY REQD", "2"),
            Field("creator", "DRAWN BY", "D. MORALES"),
            Field("approver", "APPROVED BY", ""),
            Field("date", "DATE", "03/14/2026"),
            Field("sheet", "SHEET", "1 OF 2"),
        ),
        dims=(
            Dim("linear", "5.250", "length", "", ()),
            Dim("linear", "2.125", "width", "", ()),
            Dim("tolerance", "Ø1.000 +.002/-.000", "bore", "", ()),
            Dim("thread", "2X 3/8-16 UNC", "holes", "", ()),
            Dim("radius", "R.25", "corner", "", ()),
        ),
        notes=(
            "DIMENSIONS ARE IN INCHES",
            "TOLERANCES UNLESS OTHERWISE SPECIFIED: .XX ±.01 .XXX ±.005",
            "CASE HARDEN .030 DEEP, 58-62 HRC",
            "DEBURR ALL EDGES",
        ),
        holes=(
            Hole("A1", "0.625", "0.500", "Ø.266 THRU"),
            Hole("A2", "4.625", "0.500", "Ø.266 THRU"),
            Hole("B1", "1.500", "1.750", "3/8-16 UNC"),
            Hole("B2", "3.750", "1.750", "3/8-16 UNC"),
        ),
        hole_columns=(
            ("tag", "HOLE", 100),
            ("size", "SIZE", 250),
            ("x", "X", 130),
            ("y", "Y", 130),
        ),
        asks=(
            Ask(
                "material",
                "What's the pillow block base made out of?",
                ("1018 CRS", "1018"),
                ("field", "naming"),
            ),
            Ask(
                "finish",
                "What kind of plating goes on PB-118-4?",
                ("ZINC PLATE", "ZINC PLATE CLEAR"),
                ("field",),
            ),
            Ask("qty", "How many of PB-118-4 do we need to make?", ("2",), ("field",)),
            Ask(
                "drawn",
                "Who drew up the pillow block base?",
                ("D. MORALES", "MORALES"),
                ("field", "naming"),
            ),
            Ask(
                "size",
                "What size sheet is the pillow block base drawing?",
                ("C",),
                ("field", "naming"),
            ),
            Ask("revision", "What revision letter is PB-118-4 on?", ("E",), ("field",)),
            Ask(
                "date",
                "When was the pillow block base drawn?",
                ("03/14/2026",),
                ("field", "naming"),
            ),
            Ask(
                "sheet",
                "Which sheet is PB-118-4_pillow_block_base.png?",
                ("1 OF 2",),
                ("field", "naming"),
            ),
            Ask(
                "bore-tol",
                "What's the tolerance on the 1 inch bore of the pillow block base?",
                ("+.002", ".002"),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread do the tapped holes in PB-118-4 have?",
                ("3/8-16 UNC", "3/8-16"),
                ("dimension",),
            ),
            Ask(
                "length",
                "Overall, how long is the pillow block base?",
                ("5.250",),
                ("dimension", "naming"),
            ),
            Ask("radius", "What's the corner radius on PB-118-4?", ("R.25",), ("dimension",)),
            Ask(
                "hardness",
                "How hard should the pillow block base be after case hardening?",
                ("58-62 HRC", "58-62"),
                ("note", "naming"),
            ),
            Ask("case", "How deep is the case hardening on PB-118-4?", (".030",), ("note",)),
            Ask(
                "tol3",
                "What's the three-place decimal tolerance on PB-118-4?",
                ("±.005", ".005"),
                ("note",),
            ),
            Ask(
                "hole-a2-x",
                "What's the X coordinate of hole A2 on the pillow block base?",
                ("4.625",),
                ("table", "naming"),
            ),
            Ask(
                "hole-b1-size",
                "What size is hole B1 on PB-118-4?",
                ("3/8-16 UNC", "3/8-16"),
                ("table",),
            ),
            Ask(
                "hole-b2-y",
                "Give me the Y location of hole B2 on drawing PB-118-4.",
                ("1.750",),
                ("table",),
            ),
            Ask(
                "trap-approver",
                "Who approved the pillow block base drawing?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-weight", "How much does PB-118-4 weigh?", (), ("unanswerable",)),
            Ask(
                "trap-torque",
                "What torque do the 3/8-16 screws on the pillow block base take?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="lagerbock_LB-3340-01.png",
        style="de",
        split="tuning",
        number="LB-3340-01",
        title="Lagerbock",
        english="bearing block",
        layout="under",
        fields=(
            Field("title", "Benennung", "Lagerbock", span=2),
            Field("number", "Zeichnungsnr.", "LB-3340-01"),
            Field("revision", "Zust.", "C"),
            Field("material", "Werkstoff", "EN-GJS-400-15"),
            Field("scale", "Maßstab", "1:2"),
            Field("surface", "Oberfläche", "grundiert"),
            Field("weight", "Masse", "2,1 kg"),
            Field("creator", "Gez.", "L. Vogel"),
            Field("checker", "Gepr.", "S. Krämer"),
            Field("approver", "Freig.", ""),
            Field("date", "Datum", "21.10.2025"),
            Field("sheet", "Blatt", "1/1"),
        ),
        dims=(
            Dim("diameter", "Ø80", "length", "", ()),
            Dim("fit", "Ø35 H7", "bore", "", ()),
            Dim("diameter", "2x Ø13", "holes", "", ()),
            Dim("radius", "R10", "corner", "", ()),
            Dim("tolerance", "18 ±0,1", "thickness", "", ()),
        ),
        notes=(
            "Freimaßtoleranzen nach DIN ISO 2768-m",
            "Alle Kanten entgratet",
            "Nicht bemaßte Radien R2",
            "Lagersitz Ra 0,8",
        ),
        revisions=(
            Rev("A", "Erstausgabe", "04.03.2025", ("Erstausgabe",), by="Vogel"),
            Rev("B", "Bohrung Ø35 H7 statt Ø32", "02.07.2025", ("Ø35 H7", "Ø35"), by="Vogel"),
            Rev("C", "Masse ergänzt", "21.10.2025", ("Masse",), by="Krämer"),
        ),
        rev_columns=(
            ("rev", "Zust.", 80),
            ("text", "Änderung", 360),
            ("date", "Datum", 180),
            ("by", "Name", 130),
        ),
        asks=(
            Ask(
                "material",
                "What's the Lagerbock made of?",
                ("EN-GJS-400-15", "GJS-400-15"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What is the drawing number of the bearing block?",
                ("LB-3340-01",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("revision", "Which revision is LB-3340-01 on?", ("C",), ("field", "field_foreign")),
            Ask(
                "surface",
                "How is the surface of the Lagerbock treated?",
                ("grundiert", "primed"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "What does the bearing block weigh?",
                ("2,1 kg", "2.1 kg", "2,1", "2.1"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checker",
                "Who checked drawing LB-3340-01?",
                ("S. Krämer", "Krämer"),
                ("field", "field_foreign"),
            ),
            Ask(
                "drawn",
                "Who drew the Lagerbock?",
                ("L. Vogel", "Vogel"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "What scale is lagerbock_LB-3340-01.png at?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "date",
                "What date is on the bearing block drawing?",
                ("21.10.2025",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "fit",
                "What fit does the bearing seat bore of the Lagerbock have?",
                ("H7",),
                ("dimension", "naming"),
            ),
            Ask(
                "holes",
                "What diameter are the two fixing holes on LB-3340-01?",
                ("Ø13", "13"),
                ("dimension",),
            ),
            Ask(
                "radius",
                "What's the big corner radius on the Lagerbock?",
                ("R10",),
                ("dimension", "naming"),
            ),
            Ask(
                "base",
                "What tolerance is on the 18 mm base of the bearing block?",
                ("±0,1", "±0.1", "0,1", "0.1"),
                ("dimension", "naming"),
            ),
            Ask(
                "gentol",
                "Which standard covers untoleranced sizes on the bearing block?",
                ("DIN ISO 2768-m", "2768-m"),
                ("note", "naming"),
            ),
            Ask(
                "seat",
                "How rough may the bearing seat of LB-3340-01 be?",
                ("Ra 0,8", "0,8", "Ra 0.8", "0.8"),
                ("note",),
            ),
            Ask(
                "rev-b",
                "What was changed in revision B of the Lagerbock?",
                ("Ø35 H7", "Ø35", "Bohrung"),
                ("table", "naming"),
            ),
            Ask(
                "rev-c-date", "When was revision C of LB-3340-01 made?", ("21.10.2025",), ("table",)
            ),
            Ask("trap-release", "Who released the Lagerbock drawing?", (), ("unanswerable",)),
            Ask(
                "trap-bearing", "Which bearing goes into the bearing block?", (), ("unanswerable",)
            ),
            Ask(
                "trap-torque",
                "What torque for the fixing bolts of LB-3340-01?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="navkapsel.png",
        style="se",
        split="tuning",
        number="NK-0412",
        title="Navkapsel",
        english="hub cap",
        layout="inline",
        fields=(
            Field("title", "Benämning", "Navkapsel", span=2),
            Field("number", "Ritn.nr", "NK-0412"),
            Field("revision", "Utgåva", "B"),
            Field("material", "Material", "EN AW-6082-T6"),
            Field("scale", "Skala", "2:1"),
            Field("surface", "Ytbehandling", "Anodiserad klar"),
            Field("weight", "Vikt", "120 g"),
            Field("creator", "Konstr.", "E. Nyström"),
            Field("checker", "Granskad", ""),
            Field("date", "Datum", "2025-09-30"),
            Field("sheet", "Blad", "1/1"),
        ),
        dims=(
            Dim("diameter", "Ø64", "length", "", ()),
            Dim("fit", "Ø30 h9", "bore", "", ()),
            Dim("diameter", "3x Ø5,5", "holes", "", ()),
            Dim("radius", "R1", "corner", "", ()),
            Dim("angle", "10°", "angle", "", ()),
        ),
        notes=(
            "Ej toleranssatta mått enligt SS-ISO 2768-f",
            "Skarpa kanter brytes",
            "Åtdragningsmoment M5: 6 Nm",
        ),
        holes=(
            Hole("K1", "20,0", "0,0", "Ø5,5"),
            Hole("K2", "-10,0", "17,3", "Ø5,5"),
            Hole("K3", "-10,0", "-17,3", "Ø5,5"),
            Hole("G1", "0,0", "25,0", "M5"),
        ),
        hole_columns=(("tag", "Hål", 90), ("size", "Ø", 200), ("x", "X", 140), ("y", "Y", 140)),
        asks=(
            Ask(
                "material",
                "What is the hub cap made of?",
                ("EN AW-6082-T6", "6082-T6"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "Which drawing number does the Navkapsel have?",
                ("NK-0412",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "revision",
                "What issue is the navkapsel drawing at?",
                ("B",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What finish does NK-0412 get?",
                ("Anodiserad klar", "anodised", "anodized"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "How much does the hub cap weigh?",
                ("120 g", "120"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer",
                "Who designed the hub cap?",
                ("E. Nyström", "Nyström"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("scale", "What scale is NK-0412 drawn to?", ("2:1",), ("field", "field_foreign")),
            Ask(
                "title",
                "What part is NK-0412?",
                ("Navkapsel", "hub cap"),
                ("field", "field_foreign"),
            ),
            Ask(
                "od",
                "What's the outer diameter of the hub cap?",
                ("Ø64", "64"),
                ("dimension", "naming"),
            ),
            Ask(
                "fit",
                "What fit is on the 30 mm bore of navkapsel.png?",
                ("h9",),
                ("dimension", "naming"),
            ),
            Ask(
                "holes",
                "How big are the three through holes in the hub cap?",
                ("Ø5,5", "5,5", "Ø5.5", "5.5"),
                ("dimension", "naming"),
            ),
            Ask(
                "torque",
                "What's the tightening torque for the M5 screws on NK-0412?",
                ("6 Nm", "6 N·m"),
                ("note",),
            ),
            Ask(
                "gentol",
                "What general tolerance does the Navkapsel use?",
                ("SS-ISO 2768-f", "2768-f"),
                ("note", "naming"),
            ),
            Ask(
                "hole-k2-x", "Where is hole K2 on the hub cap, X?", ("-10,0",), ("table", "naming")
            ),
            Ask("hole-g1-size", "What size is hole G1 on NK-0412?", ("M5",), ("table",)),
            Ask("trap-checker", "Who checked the hub cap drawing?", (), ("unanswerable",)),
            Ask("trap-hardness", "What hardness does the Navkapsel need?", (), ("unanswerable",)),
            Ask("trap-oring", "Which O-ring seals the hub cap?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="DG-0620-02.png",
        style="zh",
        split="tuning",
        number="DG-0620-02",
        title="轴承端盖",
        english="bearing end cap",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "名称", "轴承端盖", span=2),
            Field("number", "图样代号", "DG-0620-02"),
            Field("material", "材质", "Q235"),
            Field("scale", "比例", "1:1"),
            Field("weight", "质量", "0.8 kg"),
            Field("surface", "表面处理", "镀锌"),
            Field("creator", "设计", "李强"),
            Field("checker", "审核", "张伟"),
            Field("approver", "批准", ""),
            Field("date", "日期", "2025-08-20"),
            Field("sheet", "张数", "共 1 张 第 1 张"),
        ),
        dims=(
            Dim("diameter", "Ø100", "length", "", ()),
            Dim("fit", "Ø62 H8", "bore", "", ()),
            Dim("diameter", "4x Ø9", "holes", "", ()),
            Dim("radius", "R2", "corner", "", ()),
        ),
        notes=("未注倒角 C1", "锐边倒钝", "SURFACE FINISH: Ra 6.3"),
        asks=(
            Ask(
                "material",
                "What material is the bearing end cap?",
                ("Q235",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the bearing end cap?",
                ("DG-0620-02",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight", "How heavy is DG-0620-02?", ("0.8 kg", "0.8"), ("field", "field_foreign")
            ),
            Ask(
                "surface",
                "What plating does the bearing end cap get?",
                ("镀锌", "galvanised", "zinc plated"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("designer", "Who designed DG-0620-02?", ("李强",), ("field", "field_foreign")),
            Ask(
                "checker",
                "Who reviewed the bearing end cap drawing?",
                ("张伟",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "title",
                "What is part DG-0620-02 called?",
                ("轴承端盖", "bearing end cap", "end cover"),
                ("field", "field_foreign"),
            ),
            Ask(
                "scale",
                "What scale is DG-0620-02.png?",
                ("1:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "fit",
                "What is the fit of the centre bore on the bearing end cap?",
                ("H8",),
                ("dimension", "naming"),
            ),
            Ask(
                "holes",
                "How big are the four bolt holes on DG-0620-02?",
                ("Ø9", "9"),
                ("dimension",),
            ),
            Ask(
                "od",
                "What's the outside diameter of the bearing end cap?",
                ("Ø100", "100"),
                ("dimension", "naming"),
            ),
            Ask(
                "roughness",
                "What roughness is called for on DG-0620-02?",
                ("Ra 6.3", "6.3"),
                ("note",),
            ),
            Ask(
                "trap-approver", "Who approved the bearing end cap drawing?", (), ("unanswerable",)
            ),
            Ask("trap-seal", "What seal goes in the bearing end cap?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="bearing_sleeve.png",
        style="iso",
        split="tuning",
        number="BS-2290-05",
        title="BEARING SLEEVE",
        english="bearing sleeve",
        layout="beside",
        fields=(
            Field("title", "Part name", "BEARING SLEEVE", span=2),
            Field("number", "Doc. no.", "BS-2290-05"),
            Field("revision", "Issue", "04"),
            Field("material", "Material spec.", "16MnCr5"),
            Field("heat", "Heat treatment", "Case hardened"),
            Field("tolerance", "Tolerance class", "ISO 2768-fH"),
            Field("mass", "Mass", "0.21 kg"),
            Field("scale", "Scale", "2:1"),
            Field("format", "Format", "A4"),
            Field("creator", "Author", "J. Svensson"),
            Field("checker", "Reviewer", "A. Kim"),
            Field("date", "Issued", "2026-03-02"),
        ),
        dims=(
            Dim("linear", "60", "length", "", ()),
            Dim("fit", "Ø40 g6", "width", "", ()),
            Dim("fit", "Ø25 H7", "bore", "", ()),
            Dim("thread", "2x M4", "holes", "", ()),
            Dim("chamfer", "1x45°", "angle", "", ()),
        ),
        notes=(
            "Surface hardness 60 ±2 HRC, case depth 0.6",
            "Bore honed, Ra 0.4",
            "Lubricate with grease before assembly",
        ),
        captions=("", "", "Notes"),
        asks=(
            Ask(
                "material",
                "What steel is the bearing sleeve made from?",
                ("16MnCr5",),
                ("field", "naming"),
            ),
            Ask("issue", "What issue is BS-2290-05 at?", ("04",), ("field",)),
            Ask(
                "heat",
                "Is the bearing sleeve heat treated?",
                ("Case hardened",),
                ("field", "naming"),
            ),
            Ask(
                "tolclass",
                "What general tolerance class does BS-2290-05 use?",
                ("ISO 2768-fH", "2768-fH"),
                ("field",),
            ),
            Ask(
                "mass",
                "What's the mass of the bearing sleeve?",
                ("0.21 kg", "0.21"),
                ("field", "naming"),
            ),
            Ask(
                "author",
                "Who's the author of bearing_sleeve.png?",
                ("J. Svensson", "Svensson"),
                ("field", "naming"),
            ),
            Ask(
                "reviewer",
                "Who reviewed the bearing sleeve drawing?",
                ("A. Kim",),
                ("field", "naming"),
            ),
            Ask("issued", "When was BS-2290-05 issued?", ("2026-03-02",), ("field",)),
            Ask(
                "format",
                "What size paper is the bearing sleeve drawing?",
                ("A4",),
                ("field", "naming"),
            ),
            Ask("length", "How long is the bearing sleeve?", ("60",), ("dimension", "naming")),
            Ask(
                "od-fit",
                "What fit is on the outside diameter of BS-2290-05?",
                ("g6",),
                ("dimension",),
            ),
            Ask(
                "bore-fit",
                "What's the bore fit of the bearing sleeve?",
                ("H7",),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread are the grub screw holes in the bearing sleeve?",
                ("M4",),
                ("dimension", "naming"),
            ),
            Ask(
                "hardness",
                "How hard does the surface of the bearing sleeve need to be?",
                ("60 ±2 HRC", "60"),
                ("note", "naming"),
            ),
            Ask(
                "honed",
                "What finish is the bore of BS-2290-05 honed to?",
                ("Ra 0.4", "0.4"),
                ("note",),
            ),
            Ask(
                "trap-grease",
                "Which grease is the bearing sleeve lubricated with?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-force",
                "What press-in force is allowed for BS-2290-05?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-speed",
                "What is the maximum speed of the bearing sleeve?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    # ---- Six more tuning drawings (decision 0029): Chinese blocks with "名称：压板" on one line and a
    # sign-off grid with dates, German and Swedish notes and labels, an English GENERAL NOTES list.
    Drawing(
        file_name="yaban_YB-2312-05.png",
        style="zh",
        split="tuning",
        number="YB-2312-05",
        title="压板",
        english="clamp plate",
        layout="inline",
        colon="：",
        bold_values=True,
        fields=(
            Field("title", "名称", "压板", ("clamp plate", "pressure plate"), span=2),
            Field("number", "图号", "YB-2312-05"),
            Field("material", "材料", "45钢", ("45 steel",)),
            Field("scale", "比例", "1:1"),
            Field("weight", "重量", "0.42kg"),
            Field("quantity", "数量", "4"),
            Field("surface", "表面处理", "发黑", ("black oxide", "blackened")),
            Field("creator", "设计", "赵敏"),
            Field("checker", "审核", "孙磊"),
            Field("date", "日期", "2026.01.15"),
        ),
        dims=(
            Dim("linear", "120", "length", "", ()),
            Dim("linear", "60", "width", "", ()),
            Dim("fit", "Ø16H7", "bore", "", ()),
            Dim("thread", "2×M10-6H", "holes", "", ()),
            Dim("radius", "R5", "corner", "", ()),
            Dim("tolerance", "20±0.1", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "未注倒角C1",
            "调质处理HB220-250",
            "去毛刺锐边",
            "未注公差按GB/T 1804-m",
            "夹紧面淬火HRC40-45",
        ),
        revisions=(
            Rev("A", "", "2025.11.03", (), by="赵敏", places="1", doc="GG-2025-118"),
            Rev("B", "", "2026.01.15", (), by="孙磊", places="2", doc="GG-2026-007"),
        ),
        rev_columns=(
            ("rev", "标记", 80),
            ("places", "处数", 80),
            ("doc", "更改文件号", 220),
            ("by", "签名", 120),
            ("date", "日期", 180),
        ),
        asks=(
            Ask(
                "material",
                "What steel is the clamp plate made of?",
                ("45钢", "45 steel"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the Chinese clamp plate?",
                ("YB-2312-05",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "title",
                "What is part YB-2312-05 called?",
                ("压板", "clamp plate", "pressure plate"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "How much does YB-2312-05 weigh?",
                ("0.42kg", "0.42 kg", "0.42"),
                ("field", "field_foreign"),
            ),
            Ask(
                "qty",
                "How many clamp plates do we need to make?",
                ("4",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment does the 压板 get?",
                ("发黑", "black oxide", "blackened"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer",
                "Who designed the clamp plate?",
                ("赵敏",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "reviewer",
                "Who reviewed drawing YB-2312-05?",
                ("孙磊",),
                ("field", "field_foreign"),
            ),
            Ask(
                "scale",
                "What scale is yaban_YB-2312-05.png drawn at?",
                ("1:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "length",
                "How long is the clamp plate overall?",
                ("120",),
                ("dimension", "naming"),
            ),
            Ask(
                "bore-fit",
                "What's the tolerance on the bore of YB-2312-05?",
                ("H7", "Ø16H7"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What thread size are the tapped holes on the clamp plate?",
                ("2×M10-6H", "M10-6H", "M10"),
                ("dimension", "naming"),
            ),
            Ask(
                "thick",
                "How thick is the 压板, and to what tolerance?",
                ("20±0.1", "±0.1"),
                ("dimension", "naming"),
            ),
            Ask("radius", "What's the corner radius on YB-2312-05?", ("R5",), ("dimension",)),
            Ask(
                "note2",
                "What does note 2 on the clamp plate say?",
                ("调质处理HB220-250", "HB220-250"),
                ("note", "naming"),
            ),
            Ask(
                "chamfer",
                "What chamfer goes where none is shown on YB-2312-05?",
                ("未注倒角C1", "C1"),
                ("note",),
            ),
            Ask(
                "gentol",
                "Which general tolerance standard does the Chinese clamp plate drawing use?",
                ("GB/T 1804-m", "1804-m"),
                ("note", "naming"),
            ),
            Ask(
                "hardness",
                "How hard does the clamping face of the 压板 need to be?",
                ("HRC40-45", "夹紧面淬火HRC40-45"),
                ("note", "naming"),
            ),
            Ask(
                "edges",
                "What do the technical requirements of YB-2312-05 say about sharp edges?",
                ("去毛刺锐边",),
                ("note",),
            ),
            Ask(
                "rev-b-doc",
                "What's the change document number for revision B of the clamp plate?",
                ("GG-2026-007",),
                ("table", "naming"),
            ),
            Ask("rev-b-by", "Who signed change B on YB-2312-05?", ("孙磊",), ("table",)),
            Ask(
                "rev-a-date",
                "When was change A made on the clamp plate drawing?",
                ("2025.11.03",),
                ("table", "naming"),
            ),
            Ask(
                "trap-approver",
                "Who approved the clamp plate drawing?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-torque",
                "What torque do the M10 screws in YB-2312-05 need?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-flatness",
                "What flatness is the clamping face of the clamp plate held to?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="DL-5208-01.png",
        style="zh",
        split="tuning",
        number="DL-5208-01",
        title="皮带轮",
        english="belt pulley",
        layout="beside",
        fields=(
            Field("title", "零件名称", "皮带轮", ("belt pulley", "pulley"), span=2),
            Field("number", "代号", "DL-5208-01"),
            Field("material", "材料", "HT200"),
            Field("quantity", "数量", "2"),
            Field("unit", "单位", "件"),
            Field("scale", "比例", "1:2"),
            Field("weight", "重量", "3.6 kg"),
            Field("creator", "设计", "王磊 2026.02.10"),
            Field("checker", "校对", "刘洋 2026.02.12"),
            Field("reviewer", "审核", "陈静 2026.02.20"),
            Field("approver", "批准", "周建国 2026.02.25"),
            Field("standard", "标准化", ""),
            Field("sheet", "张次", "共2张 第1张"),
        ),
        dims=(
            Dim("diameter", "Ø200", "length", "", ()),
            Dim("diameter", "Ø120", "width", "", ()),
            Dim("fit", "Ø32H7", "bore", "", ()),
            Dim("diameter", "4×Ø30", "holes", "", ()),
            Dim("radius", "R5", "corner", "", ()),
            Dim("tolerance", "65±0.1", "thickness", "", ()),
            Dim("angle", "34°", "angle", "", ()),
        ),
        notes=(
            "铸件不得有气孔、砂眼等缺陷",
            "时效处理消除内应力",
            "未注铸造圆角R3~R5",
            "轮槽工作面粗糙度Ra3.2",
            "做静平衡试验",
            "未注公差按GB/T 1804-c",
        ),
        asks=(
            Ask(
                "material",
                "What is the belt pulley cast from?",
                ("HT200",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "title",
                "What's the part name on DL-5208-01?",
                ("皮带轮", "belt pulley", "pulley"),
                ("field", "field_foreign"),
            ),
            Ask("qty", "How many of DL-5208-01 are required?", ("2",), ("field", "field_foreign")),
            Ask(
                "weight",
                "What does the Chinese pulley weigh?",
                ("3.6 kg", "3.6"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer",
                "Who designed the belt pulley?",
                ("王磊",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checker",
                "Who checked the pulley drawing DL-5208-01?",
                ("刘洋",),
                ("field", "field_foreign"),
            ),
            Ask(
                "reviewer",
                "Who reviewed the belt pulley drawing?",
                ("陈静",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("approver", "Who approved DL-5208-01?", ("周建国",), ("field", "field_foreign")),
            Ask(
                "approved-date",
                "When was the belt pulley drawing approved?",
                ("2026.02.25",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "sheet",
                "Which sheet is DL-5208-01.png?",
                ("共2张 第1张", "第1张"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "What scale is the pulley drawn at?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "od",
                "What's the largest diameter on the belt pulley?",
                ("Ø200", "200"),
                ("dimension", "naming"),
            ),
            Ask("bore", "What fit is the bore of DL-5208-01?", ("H7", "Ø32H7"), ("dimension",)),
            Ask(
                "groove",
                "What is the groove angle of the belt pulley?",
                ("34°",),
                ("dimension", "naming"),
            ),
            Ask(
                "width",
                "What's the tolerance on the 65 mm width of DL-5208-01?",
                ("±0.1", "65±0.1"),
                ("dimension",),
            ),
            Ask(
                "holes",
                "How big are the four lightening holes in the Chinese pulley?",
                ("4×Ø30", "Ø30", "30"),
                ("dimension", "naming"),
            ),
            Ask(
                "note4",
                "What does note 4 of the belt pulley's technical requirements say?",
                ("轮槽工作面粗糙度Ra3.2", "Ra3.2"),
                ("note", "naming"),
            ),
            Ask(
                "fillet",
                "What radius do unmarked cast fillets on DL-5208-01 get?",
                ("未注铸造圆角R3~R5", "R3~R5"),
                ("note",),
            ),
            Ask(
                "gentol",
                "Which general tolerance applies to the pulley drawing?",
                ("GB/T 1804-c", "1804-c"),
                ("note", "naming"),
            ),
            Ask(
                "balance",
                "Does the belt pulley have to be balanced?",
                ("做静平衡试验", "静平衡试验"),
                ("note", "naming"),
            ),
            Ask(
                "trap-standard",
                "Who did the standardisation check on DL-5208-01?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-belt", "Which belt runs on the belt pulley?", (), ("unanswerable",)),
            Ask(
                "trap-speed",
                "What is the maximum speed of pulley DL-5208-01?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="Gabelkopf_GK-4520-10.png",
        style="de",
        split="tuning",
        number="GK-4520-10",
        title="Gabelkopf",
        english="clevis",
        layout="inline",
        fields=(
            Field("title", "Benennung", "Gabelkopf", ("clevis",), span=2),
            Field("number", "Sachnummer", "GK-4520-10"),
            Field("revision", "Index", "c"),
            Field("material", "Werkstoff", "C45+C"),
            Field("semi", "Halbzeug", "Rd 40 EN 10278"),
            Field("surface", "Oberflächenbehandlung", "verzinkt", ("zinc plated",), span=2),
            Field("norm", "Norm", "DIN 71752"),
            Field("scale", "Maßstab", "1:1"),
            Field("weight", "Gewicht", "0,31 kg", ("0.31 kg",)),
            Field("creator", "Erstellt", "M. Becker"),
            Field("checker", "Geprüft", "J. Hoffmann"),
            Field("date", "Datum", "12.01.2026"),
            Field("sheet", "Blatt", "1 von 1"),
        ),
        dims=(
            Dim("linear", "62", "length", "", ()),
            Dim("diameter", "Ø40", "width", "", ()),
            Dim("fit", "Ø20 H7", "bore", "", ()),
            Dim("thread", "M10x1,25", "holes", "", ()),
            Dim("radius", "R12", "corner", "", ()),
            Dim("tolerance", "18 ±0,1", "thickness", "", ()),
        ),
        notes=(
            "Allgemeintoleranzen ISO 2768-mK",
            "Nicht bemaßte Radien R2",
            "Kanten gebrochen 0,5x45°",
            "Gewindefreistich DIN 76-B",
            "Bolzenbohrung Ra 1,6",
        ),
        revisions=(
            Rev("a", "Erstausgabe", "05.05.2025", ("Erstausgabe",), by="Becker"),
            Rev("b", "Gewinde M10x1,25 statt M10", "18.09.2025", ("M10x1,25",), by="Becker"),
            Rev("c", "Werkstoff C45+C statt S235", "12.01.2026", ("C45+C",), by="Hoffmann"),
        ),
        rev_columns=(
            ("rev", "Index", 85),
            ("text", "Änderung", 375),
            ("date", "Datum", 165),
            ("by", "Name", 140),
        ),
        asks=(
            Ask(
                "material",
                "What's the Gabelkopf made of?",
                ("C45+C",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the Sachnummer of the clevis?",
                ("GK-4520-10",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "semi",
                "What bar stock is GK-4520-10 made from?",
                ("Rd 40 EN 10278", "Rd 40"),
                ("field", "field_foreign"),
            ),
            Ask(
                "surface",
                "How is the surface of the German clevis treated?",
                ("verzinkt", "zinc plated"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "norm",
                "Which standard is the Gabelkopf made to?",
                ("DIN 71752", "71752"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("index", "What change index is GK-4520-10 at?", ("c",), ("field", "field_foreign")),
            Ask(
                "weight",
                "How heavy is the clevis?",
                ("0,31 kg", "0.31 kg", "0,31", "0.31"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "creator",
                "Who created drawing GK-4520-10?",
                ("M. Becker", "Becker"),
                ("field", "field_foreign"),
            ),
            Ask(
                "checker",
                "Who checked the Gabelkopf drawing?",
                ("J. Hoffmann", "Hoffmann"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "thread",
                "What's the thread size on the clevis?",
                ("M10x1,25", "M10x1.25"),
                ("dimension", "naming"),
            ),
            Ask(
                "fit",
                "What fit does the pin bore of GK-4520-10 have?",
                ("H7", "Ø20 H7"),
                ("dimension",),
            ),
            Ask(
                "slot",
                "What's the tolerance on the 18 mm fork slot of the Gabelkopf?",
                ("±0,1", "±0.1", "0,1", "0.1"),
                ("dimension", "naming"),
            ),
            Ask(
                "length",
                "How long is the clevis overall?",
                ("62",),
                ("dimension", "naming"),
            ),
            Ask(
                "gentol",
                "What's the general tolerance on the Gabelkopf?",
                ("ISO 2768-mK", "2768-mK"),
                ("note", "naming"),
            ),
            Ask(
                "radii",
                "What radius goes where none is dimensioned on GK-4520-10?",
                ("R2",),
                ("note",),
            ),
            Ask(
                "edges",
                "How are the edges of Gabelkopf_GK-4520-10.png finished?",
                ("0,5x45°", "0.5x45°", "Kanten gebrochen 0,5x45°"),
                ("note", "naming"),
            ),
            Ask(
                "note4",
                "What does note 4 on GK-4520-10 say?",
                ("Gewindefreistich DIN 76-B", "DIN 76-B"),
                ("note",),
            ),
            Ask(
                "pinbore",
                "How smooth must the pin bore of the clevis be?",
                ("Ra 1,6", "Ra 1.6", "1,6", "1.6"),
                ("note", "naming"),
            ),
            Ask(
                "rev-b",
                "What changed in revision b of the Gabelkopf?",
                ("M10x1,25", "Gewinde"),
                ("table", "naming"),
            ),
            Ask("rev-c-by", "Who made change c on GK-4520-10?", ("Hoffmann",), ("table",)),
            Ask(
                "rev-a-date",
                "When was the clevis drawing first issued?",
                ("05.05.2025",),
                ("table", "naming"),
            ),
            Ask("trap-approver", "Who released the Gabelkopf drawing?", (), ("unanswerable",)),
            Ask("trap-pin", "Which pin goes through the clevis?", (), ("unanswerable",)),
            Ask(
                "trap-zinc",
                "How thick is the zinc layer on GK-4520-10?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="druckstueck.png",
        style="de",
        split="tuning",
        number="DS-1733-00",
        title="Druckstück",
        english="thrust pad",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "Benennung", "Druckstück", ("thrust pad", "pressure pad"), span=2),
            Field("number", "Sachnummer", "DS-1733-00"),
            Field("material", "Werkstoff", "18CrNiMo7-6"),
            Field("raw", "Rohteil", "Rd 50 x 36"),
            Field("surface", "Oberflächenbehandlung", "siehe Anm. 3"),
            Field("norm", "Norm", "DIN 6311"),
            Field("scale", "Maßstab", "2:1"),
            Field("weight", "Gewicht", "0,45 kg", ("0.45 kg",)),
            Field("creator", "Erstellt", "K. Wagner"),
            Field("checker", "Geprüft", ""),
            Field("date", "Datum", "03.02.2026"),
            Field("sheet", "Blatt", "1/1"),
        ),
        dims=(
            Dim("diameter", "Ø50", "length", "", ()),
            Dim("thread", "M16x1,5", "width", "", ()),
            Dim("fit", "Ø12 H7", "bore", "", ()),
            Dim("countersink", "2x Ø6,6 / Senkung Ø11x90°", "holes", "", ()),
            Dim("radius", "R3", "corner", "", ()),
            Dim("tolerance", "32 ±0,05", "thickness", "", ()),
            Dim("angle", "15°", "angle", "", ()),
        ),
        notes=(
            "Allgemeintoleranzen DIN ISO 2768-fH",
            "Werkstück entgratet",
            "Oberfläche brüniert",
            "Einsatzgehärtet, Eht 0,6 +0,2, 58-62 HRC",
            "Druckfläche geschliffen Ra 0,4",
        ),
        captions=("", "", "Hinweise"),
        asks=(
            Ask(
                "material",
                "What material is the Druckstück?",
                ("18CrNiMo7-6",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the part number of the thrust pad?",
                ("DS-1733-00",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "raw",
                "What blank is DS-1733-00 cut from?",
                ("Rd 50 x 36", "Rd 50"),
                ("field", "field_foreign"),
            ),
            Ask(
                "norm",
                "Which DIN standard does the thrust pad follow?",
                ("DIN 6311", "6311"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment does the Druckstück get?",
                ("brüniert", "Oberfläche brüniert", "black oxide"),
                ("field", "field_foreign", "note", "naming"),
            ),
            Ask(
                "scale",
                "What scale is druckstueck.png?",
                ("2:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "How much does DS-1733-00 weigh?",
                ("0,45 kg", "0.45 kg", "0,45", "0.45"),
                ("field", "field_foreign"),
            ),
            Ask(
                "creator",
                "Who drew the thrust pad?",
                ("K. Wagner", "Wagner"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("date", "When was DS-1733-00 drawn?", ("03.02.2026",), ("field", "field_foreign")),
            Ask(
                "od",
                "What's the outside diameter of the Druckstück?",
                ("Ø50", "50"),
                ("dimension", "naming"),
            ),
            Ask(
                "fit",
                "What's the tolerance on the centre bore of DS-1733-00?",
                ("H7", "Ø12 H7"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What thread is on the thrust pad?",
                ("M16x1,5", "M16x1.5"),
                ("dimension", "naming"),
            ),
            Ask(
                "csk",
                "What size is the countersink on DS-1733-00?",
                ("Ø11x90°", "Senkung Ø11x90°", "Ø11"),
                ("dimension",),
            ),
            Ask(
                "height",
                "What's the tolerance on the 32 mm height of the German thrust pad?",
                ("±0,05", "±0.05", "0,05", "0.05"),
                ("dimension", "naming"),
            ),
            Ask(
                "hardness",
                "How hard is the thrust pad after case hardening?",
                ("58-62 HRC", "58-62"),
                ("note", "naming"),
            ),
            Ask(
                "depth",
                "What case depth is specified on DS-1733-00?",
                ("Eht 0,6 +0,2", "0,6", "0.6"),
                ("note",),
            ),
            Ask(
                "gentol",
                "What general tolerance class applies to the Druckstück?",
                ("DIN ISO 2768-fH", "2768-fH"),
                ("note", "naming"),
            ),
            Ask(
                "face",
                "How is the pressure face of DS-1733-00 finished?",
                ("geschliffen Ra 0,4", "Ra 0,4", "Ra 0.4", "0,4"),
                ("note",),
            ),
            Ask(
                "note2",
                "What does note 2 on the thrust pad say?",
                ("Werkstück entgratet", "entgratet"),
                ("note", "naming"),
            ),
            Ask("trap-checker", "Who checked the Druckstück drawing?", (), ("unanswerable",)),
            Ask(
                "trap-load",
                "What load can thrust pad DS-1733-00 take?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-torque",
                "What torque does the M16x1,5 thread of the thrust pad need?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="styrbult_SB-2044-07.png",
        style="se",
        split="tuning",
        number="SB-2044-07",
        title="Styrbult",
        english="guide bolt",
        layout="under",
        columns=3,
        fields=(
            Field("title", "Benämning", "Styrbult", ("guide bolt",), span=2),
            Field("number", "Artikelnummer", "SB-2044-07"),
            Field("material", "Material", "SS 2541"),
            Field("surface", "Ytbehandling", "Svartoxiderad", ("black oxide",)),
            Field("scale", "Skala", "2:1"),
            Field("weight", "Vikt", "85 g"),
            Field("creator", "Ritad av", "A. Lindqvist"),
            Field("checker", "Kontrollerad", "M. Berg"),
            Field("approver", "Godkänd", "K. Holm"),
            Field("date", "Datum", "2026-02-27"),
            Field("revision", "Rev.", "B"),
            Field("sheet", "Blad", "1(1)"),
        ),
        dims=(
            Dim("linear", "95", "length", "", ()),
            Dim("fit", "Ø16 f7", "width", "", ()),
            Dim("fit", "Ø6 H7", "bore", "", ()),
            Dim("thread", "M12x1,25", "holes", "", ()),
            Dim("radius", "R2", "corner", "", ()),
            Dim("tolerance", "12 ±0,1", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "Ej angivna toleranser enligt SS-ISO 2768-m",
            "Skarpa kanter brytes",
            "Härdas till 58 HRC",
            "Gängan rullas",
            "Styrdiameter slipas Ra 0,4",
            "Märkes med artikelnummer",
        ),
        revisions=(
            Rev("A", "Ny ritning", "2025-06-12", ("Ny ritning",), by="AL"),
            Rev("B", "Härdning ändrad till 58 HRC", "2026-02-27", ("58 HRC", "Härdning"), by="MB"),
        ),
        rev_columns=(
            ("rev", "Rev", 70),
            ("text", "Ändring", 400),
            ("date", "Datum", 170),
            ("by", "Sign.", 100),
        ),
        asks=(
            Ask(
                "material",
                "What material is the guide bolt?",
                ("SS 2541", "2541"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the article number of the Styrbult?",
                ("SB-2044-07",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment does SB-2044-07 get?",
                ("Svartoxiderad", "black oxide"),
                ("field", "field_foreign"),
            ),
            Ask(
                "drawn",
                "Who drew the Swedish guide bolt?",
                ("A. Lindqvist", "Lindqvist"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checked",
                "Who checked drawing SB-2044-07?",
                ("M. Berg", "Berg"),
                ("field", "field_foreign"),
            ),
            Ask(
                "approved",
                "Who approved the Styrbult?",
                ("K. Holm", "Holm"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "How heavy is the guide bolt?",
                ("85 g", "85"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "revision",
                "What revision is styrbult_SB-2044-07.png at?",
                ("B",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "fit",
                "What fit is on the guide diameter of SB-2044-07?",
                ("f7", "Ø16 f7"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What thread does the Styrbult have?",
                ("M12x1,25", "M12x1.25"),
                ("dimension", "naming"),
            ),
            Ask(
                "length",
                "How long is the guide bolt overall?",
                ("95",),
                ("dimension", "naming"),
            ),
            Ask(
                "head",
                "What's the tolerance on the 12 mm head of SB-2044-07?",
                ("±0,1", "±0.1", "0,1", "0.1"),
                ("dimension",),
            ),
            Ask(
                "bore",
                "What's the tolerance on the Ø6 hole in the guide bolt?",
                ("H7", "Ø6 H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "hardness",
                "What hardness does the Styrbult need?",
                ("58 HRC", "Härdas till 58 HRC"),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "Which general tolerance applies to SB-2044-07?",
                ("SS-ISO 2768-m", "2768-m"),
                ("note",),
            ),
            Ask(
                "edges",
                "What should be done with the sharp edges on the guide bolt?",
                ("Skarpa kanter brytes", "brytes"),
                ("note", "naming"),
            ),
            Ask(
                "note5",
                "What does note 5 on SB-2044-07 say?",
                ("Styrdiameter slipas Ra 0,4", "Ra 0,4", "Ra 0.4"),
                ("note",),
            ),
            Ask(
                "marking",
                "How is the Swedish guide bolt to be marked?",
                ("Märkes med artikelnummer", "artikelnummer"),
                ("note", "naming"),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of the Styrbult?",
                ("58 HRC", "Härdning"),
                ("table", "naming"),
            ),
            Ask("rev-b-sign", "Who signed revision B of SB-2044-07?", ("MB",), ("table",)),
            Ask("trap-load", "What's the maximum load on the guide bolt?", (), ("unanswerable",)),
            Ask(
                "trap-bushing",
                "Which bushing does the Styrbult run in?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-depth", "How deep is SB-2044-07 hardened?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="rocker_arm.png",
        style="ansi",
        split="tuning",
        number="RA-9051-03",
        title="ROCKER ARM",
        english="rocker arm",
        layout="beside",
        fields=(
            Field("title", "TITLE", "ROCKER ARM", span=2),
            Field("number", "DWG NO.", "RA-9051-03"),
            Field("revision", "REV", "D"),
            Field("material", "MATERIAL", "AISI 4140"),
            Field("finish", "FINISH", "SEE NOTE 7"),
            Field("weight", "WEIGHT", "0.62 kg"),
            Field("scale", "SCALE", "1:1"),
            Field("size", "SIZE", "B"),
            Field("creator", "DRAWN", "R. OKAFOR"),
            Field("checker", "CHECKED", "L. NGUYEN"),
            Field("approver", "APPROVED", "S. PATEL"),
            Field("date", "DATE", "2026-02-16"),
            Field("sheet", "SHEET", "1 OF 1"),
        ),
        dims=(
            Dim("tolerance", "185 ±0.2", "length", "", ()),
            Dim("diameter", "Ø40", "width", "", ()),
            Dim("fit", "Ø22 H7", "bore", "", ()),
            Dim("thread", "M8x1.25-6H", "holes", "", ()),
            Dim("radius", "R15", "corner", "", ()),
            Dim("linear", "16", "thickness", "", ()),
            Dim("angle", "120°", "angle", "", ()),
        ),
        notes=(
            "ALL DIMENSIONS IN MILLIMETERS",
            "UNTOLERANCED DIMENSIONS ±0.1",
            "REMOVE ALL BURRS AND SHARP EDGES",
            "BREAK EDGES 0.5 MAX",
            "INDUCTION HARDEN PIVOT BORE TO 50-55 HRC",
            "TIGHTEN CLAMP SCREW TO 25 N·m",
            "PAINT PER SPEC PS-114, GREY RAL 7035",
            "MARK PART NO. AND REV PER MIL-STD-130",
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "2025-07-01", ("INITIAL",), by="S.P.", doc="ECO-1102"),
            Rev("B", "ADDED NOTE 6", "2025-09-22", ("NOTE 6",), by="S.P.", doc="ECO-1187"),
            Rev("C", "R15 WAS R12", "2025-12-04", ("R15", "R12"), by="S.P.", doc="ECO-1240"),
            Rev(
                "D",
                "HARDNESS WAS 45-50 HRC",
                "2026-02-16",
                ("HARDNESS", "45-50 HRC"),
                by="L.N.",
                doc="ECO-1306",
            ),
        ),
        rev_columns=(
            ("rev", "REV", 60),
            ("doc", "ECO", 150),
            ("text", "DESCRIPTION", 390),
            ("date", "DATE", 180),
            ("by", "APPD", 90),
        ),
        captions=("", "", "GENERAL NOTES:"),
        asks=(
            Ask(
                "material",
                "What's the rocker arm made of?",
                ("AISI 4140", "4140"),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number for the rocker arm?",
                ("RA-9051-03",),
                ("field", "naming"),
            ),
            Ask("revision", "What rev is RA-9051-03 at?", ("D",), ("field",)),
            Ask(
                "finish",
                "What finish does the rocker arm get?",
                ("RAL 7035", "PS-114", "PAINT PER SPEC PS-114, GREY RAL 7035"),
                ("field", "note", "naming"),
            ),
            Ask("weight", "How much does RA-9051-03 weigh?", ("0.62 kg", "0.62"), ("field",)),
            Ask(
                "approved",
                "Who approved the rocker arm drawing?",
                ("S. PATEL", "PATEL"),
                ("field", "naming"),
            ),
            Ask(
                "checked",
                "Who checked rocker_arm.png?",
                ("L. NGUYEN", "NGUYEN"),
                ("field", "naming"),
            ),
            Ask(
                "ctr",
                "What's the tolerance on the 185 length of the rocker arm?",
                ("±0.2", "185 ±0.2", "0.2"),
                ("dimension", "naming"),
            ),
            Ask(
                "bore",
                "What fit is the pivot bore of RA-9051-03?",
                ("H7", "Ø22 H7"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What thread is the tapped hole in the rocker arm?",
                ("M8x1.25-6H", "M8x1.25"),
                ("dimension", "naming"),
            ),
            Ask(
                "largest",
                "What's the largest diameter on RA-9051-03?",
                ("Ø40", "40"),
                ("dimension",),
            ),
            Ask(
                "angle",
                "What angle is between the two arms of the rocker arm?",
                ("120°",),
                ("dimension", "naming"),
            ),
            Ask(
                "note6",
                "What does note 6 on RA-9051-03 say?",
                ("TIGHTEN CLAMP SCREW TO 25 N·m", "25 N·m"),
                ("note",),
            ),
            Ask(
                "torque",
                "What torque for the clamp screw on the rocker arm?",
                ("25 N·m", "25 Nm"),
                ("note", "naming"),
            ),
            Ask("edges", "How much should edges be broken on RA-9051-03?", ("0.5",), ("note",)),
            Ask(
                "hardness",
                "What hardness is the pivot bore of the rocker arm?",
                ("50-55 HRC", "50-55"),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "What's the tolerance on dimensions without one on RA-9051-03?",
                ("±0.1",),
                ("note",),
            ),
            Ask(
                "marking",
                "How is the rocker arm to be marked?",
                ("MIL-STD-130", "MARK PART NO. AND REV PER MIL-STD-130"),
                ("note", "naming"),
            ),
            Ask(
                "deburr",
                "Does the ANSI rocker arm drawing say anything about burrs?",
                ("REMOVE ALL BURRS AND SHARP EDGES",),
                ("note", "naming"),
            ),
            Ask(
                "rev-d",
                "What changed in revision D of the rocker arm?",
                ("HARDNESS", "45-50 HRC"),
                ("table", "naming"),
            ),
            Ask("rev-c-eco", "Which ECO is revision C of RA-9051-03?", ("ECO-1240",), ("table",)),
            Ask(
                "rev-b-date",
                "When was rev B of the rocker arm released?",
                ("2025-09-22",),
                ("table", "naming"),
            ),
            Ask(
                "trap-primer",
                "What primer goes under the paint on RA-9051-03?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-roughness",
                "What surface roughness does the pivot bore of the rocker arm need?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-bushing",
                "Which bushing is pressed into the rocker arm?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    # ---- Decision 0046: six more tuning drawings (a GB/T 10609.1 block, label over value with a
    # parts list and a hole table, a Stückliste, a narrow REV column, a TABLE OF HOLES in inches, long
    # English notes); questions written by hand before reading the answering code.
    Drawing(
        file_name="DX-3105-02.png",
        style="zh",
        split="tuning",
        number="DX-3105-02",
        title="导向板",
        english="guide plate",
        layout="beside",
        fields=(
            Field("creator", "设计", "王海涛", date="2026.03.02"),
            Field("standard", "标准化", "赵敏", date="2026.03.06"),
            Field("reviewer", "审核", "李建华", date="2026.03.09"),
            Field("process", "工艺", "孙立", date="2026.03.10"),
            Field("approver", "批准", "周国强", date="2026.03.16"),
            Field("stage", "阶段标记", "S"),
            Field("weight", "重量", "2.35 kg"),
            Field("scale", "比例", "1:1"),
            Field("material", "材料", "45 GB/T 699", span=2),
            Field("title", "图样名称", "导向板", ("guide plate",)),
            Field("number", "图样代号", "DX-3105-02"),
            Field("company", "单位名称", "华东精密机械有限公司"),
            Field("sheet", "张数", "共 3 张 第 2 张"),
        ),
        dims=(
            Dim("linear", "160", "length", "", ()),
            Dim("tolerance", "90±0.05", "width", "", ()),
            Dim("fit", "Ø25H7", "bore", "", ()),
            Dim("thread", "4×M8-6H", "holes", "", ()),
            Dim("radius", "R10", "corner", "", ()),
            Dim("linear", "20", "thickness", "", ()),
            Dim("angle", "45°", "angle", "", ()),
        ),
        notes=(
            "热处理：淬火后回火 HRC 35~40",
            "表面镀锌钝化，镀层厚度 8~12μm",
            "未注形位公差按 GB/T 1184-K",
            "未注尺寸公差按 GB/T 1804-f",
            "锐边倒钝，去除毛刺",
            "螺纹精度 6H，螺孔口倒角 C0.5",
            "导向面粗糙度 Ra 0.8",
        ),
        revisions=(
            Rev("a", "", "2026.04.08", (), zone="B3", by="王海涛", places="2", doc="GG-2026-017"),
            Rev("b", "", "2026.05.20", (), zone="C5", by="李建华", places="1", doc="GG-2026-031"),
        ),
        rev_columns=(
            ("rev", "标记", 100),
            ("places", "处数", 100),
            ("zone", "分区", 120),
            ("doc", "更改文件号", 300),
            ("by", "签名", 200),
            ("date", "年月日", 240),
        ),
        rev_above_block=True,
        asks=(
            Ask(
                "material",
                "What material is the guide plate made of?",
                ("45 GB/T 699", "GB/T 699"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the Chinese guide plate?",
                ("DX-3105-02",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "title",
                "What is the part on DX-3105-02 called?",
                ("导向板", "guide plate"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "How heavy is DX-3105-02?",
                ("2.35 kg", "2.35"),
                ("field", "field_foreign"),
            ),
            Ask(
                "scale",
                "What scale is 导向板 drawn at?",
                ("1:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "stage",
                "What stage mark does the guide plate drawing carry?",
                ("S",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "sheet",
                "Which sheet of the set is DX-3105-02.png?",
                ("共 3 张 第 2 张", "第 2 张", "2 of 3"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer",
                "Who designed the guide plate?",
                ("王海涛",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "standard",
                "Who did the standardisation check on DX-3105-02?",
                ("赵敏",),
                ("field", "field_foreign"),
            ),
            Ask(
                "reviewer",
                "Who reviewed the Chinese guide plate drawing?",
                ("李建华",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "process",
                "Who signed for process engineering on DX-3105-02?",
                ("孙立",),
                ("field", "field_foreign"),
            ),
            Ask(
                "approved-date",
                "When was the guide plate drawing approved?",
                ("2026.03.16",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "company",
                "Which company is the guide plate drawing from?",
                ("华东精密机械有限公司",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "heat",
                "How is the guide plate heat treated?",
                ("淬火后回火", "HRC 35~40", "35~40"),
                ("note", "naming"),
            ),
            Ask("plating", "What plating does DX-3105-02 get?", ("镀锌", "镀锌钝化"), ("note",)),
            Ask(
                "plating-thickness",
                "How thick is the zinc layer on the guide plate?",
                ("8~12μm", "8~12"),
                ("note", "naming"),
            ),
            Ask(
                "geomtol",
                "Which standard covers the geometric tolerances not shown on DX-3105-02?",
                ("GB/T 1184-K", "1184-K"),
                ("note",),
            ),
            Ask(
                "thread-class",
                "What thread tolerance class do the tapped holes of the guide plate have?",
                ("6H", "M8-6H"),
                ("note", "naming"),
            ),
            Ask(
                "note5",
                "What does note 5 of the technical requirements on DX-3105-02 say?",
                ("锐边倒钝，去除毛刺", "去除毛刺"),
                ("note",),
            ),
            Ask(
                "bore",
                "What's the tolerance on the Ø25 bore of the guide plate?",
                ("H7", "Ø25H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "width",
                "What is the tolerance on the 90 width of DX-3105-02?",
                ("±0.05", "90±0.05"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What size are the tapped holes on the Chinese guide plate?",
                ("M8", "4×M8-6H"),
                ("dimension", "naming"),
            ),
            Ask("length", "How long is DX-3105-02 overall?", ("160",), ("dimension",)),
            Ask(
                "change-a-doc",
                "Which change document number goes with change a on DX-3105-02?",
                ("GG-2026-017",),
                ("table",),
            ),
            Ask(
                "change-b-by",
                "Who signed change b on the guide plate?",
                ("李建华",),
                ("table", "naming"),
            ),
            Ask(
                "change-a-zone",
                "Which zone of DX-3105-02 was change a made in?",
                ("B3",),
                ("table",),
            ),
            Ask(
                "trap-torque",
                "What torque are the M8 screws of DX-3105-02 tightened to?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-qty",
                "How many guide plates does DX-3105-02 ask for?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-bore-ra",
                "What surface roughness does the Ø25 bore of the guide plate need?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-paint", "What colour is the guide plate painted?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="JJ-4820-00.png",
        style="zh",
        split="tuning",
        number="JJ-4820-00",
        title="夹具底座",
        english="fixture base",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "名称", "夹具底座", ("fixture base",)),
            Field("number", "图号", "JJ-4820-00"),
            Field("revision", "版次", "B"),
            Field("material", "材料", "见明细栏", ("see parts list",)),
            Field("scale", "比例", "1:2"),
            Field("weight", "重量", "6.8 kg"),
            Field("creator", "设计", "陈晓东"),
            Field("reviewer", "审核", "黄丽"),
            Field("approver", "批准", ""),
            Field("date", "日期", "2026-01-18"),
            Field("sheet", "张次", "共1张 第1张"),
            Field("company", "单位", "东方工装设计室"),
        ),
        dims=(
            Dim("linear", "300", "length", "", ()),
            Dim("linear", "200", "width", "", ()),
            Dim("fit", "Ø40H8", "bore", "", ()),
            Dim("thread", "4×M8-6H", "holes", "", ()),
            Dim("radius", "R15", "corner", "", ()),
            Dim("tolerance", "25±0.02", "thickness", "", ()),
        ),
        notes=(
            "装配前所有零件清洗干净",
            "定位销孔与底板配作",
            "各螺钉拧紧力矩 25 N·m",
            "支承钉装配后等高，高度差不大于0.02",
            "非加工表面喷灰色漆",
        ),
        holes=(
            Hole("A", "", "", "Ø10H7", count="2", note="定位销孔"),
            Hole("B", "", "", "M8-6H", count="4", note="螺纹孔 深16"),
            Hole("C", "", "", "Ø9", count="4", note="通孔"),
            Hole("D", "", "", "Ø15深9", count="4", note="沉孔"),
        ),
        hole_columns=(
            ("tag", "代号", 100),
            ("size", "尺寸", 200),
            ("count", "数量", 100),
            ("note", "说明", 260),
        ),
        parts=(
            Part("1", "1", "底板", "JJ-4820-01", "HT250", note="时效处理"),
            Part("2", "2", "定位销", "GB/T 119.2 10×30", "GCr15"),
            Part("3", "4", "内六角螺钉", "GB/T 70.1 M8×25", "35钢", note="8.8级"),
            Part("4", "4", "支承钉", "JB/T 8029.2", "T8", note="HRC 55~60"),
            Part("5", "2", "定位块", "JJ-4820-02", "45钢", note="发黑"),
        ),
        part_columns=(
            ("pos", "序号", 80),
            ("number", "代号", 260),
            ("name", "名称", 200),
            ("qty", "数量", 100),
            ("material", "材料", 200),
            ("note", "备注", 220),
        ),
        captions=("孔表", "", "注："),
        asks=(
            Ask(
                "title",
                "What is drawing JJ-4820-00?",
                ("夹具底座", "fixture base"),
                ("field", "field_foreign"),
            ),
            Ask(
                "number",
                "What's the drawing number of the fixture base?",
                ("JJ-4820-00",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "revision",
                "What version is the fixture base drawing at?",
                ("B",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "What scale is JJ-4820-00.png drawn to?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "How much does the fixture base weigh?",
                ("6.8 kg", "6.8"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("designer", "Who designed JJ-4820-00?", ("陈晓东",), ("field", "field_foreign")),
            Ask(
                "reviewer",
                "Who reviewed the 夹具底座 drawing?",
                ("黄丽",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "date",
                "What date is on the fixture base drawing?",
                ("2026-01-18",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "material",
                "What material does the title block of JJ-4820-00 give?",
                ("见明细栏", "see parts list"),
                ("field", "field_foreign"),
            ),
            Ask(
                "item3-qty",
                "How many socket head screws, item 3, go into the fixture base?",
                ("4",),
                ("table", "naming"),
            ),
            Ask(
                "item2-material",
                "What material is item 2 of the parts list on JJ-4820-00?",
                ("GCr15",),
                ("table",),
            ),
            Ask(
                "item4-name",
                "What is item 4 in the parts list of the fixture base?",
                ("支承钉", "support pin"),
                ("table", "naming"),
            ),
            Ask(
                "base-number",
                "What is the part number of the base plate 底板 in JJ-4820-00?",
                ("JJ-4820-01",),
                ("table",),
            ),
            Ask(
                "base-material",
                "What is the base plate of the fixture base cast from?",
                ("HT250",),
                ("table", "naming"),
            ),
            Ask(
                "item5-remark",
                "What does the remark column say for item 5 on JJ-4820-00?",
                ("发黑",),
                ("table",),
            ),
            Ask(
                "hole-b",
                "What size is hole B in the hole table of JJ-4820-00?",
                ("M8-6H",),
                ("table",),
            ),
            Ask(
                "hole-c-count",
                "How many C holes does the Chinese fixture base have?",
                ("4",),
                ("table", "naming"),
            ),
            Ask(
                "hole-a-use",
                "What are the A holes on JJ-4820-00 for?",
                ("定位销孔",),
                ("table",),
            ),
            Ask(
                "torque",
                "What torque are the screws of the fixture base tightened to?",
                ("25 N·m", "25"),
                ("note", "naming"),
            ),
            Ask(
                "note4",
                "What does note 4 on JJ-4820-00 say?",
                ("支承钉装配后等高，高度差不大于0.02", "高度差不大于0.02"),
                ("note",),
            ),
            Ask(
                "paint",
                "What colour are the unmachined surfaces of the fixture base painted?",
                ("灰色", "grey"),
                ("note", "naming"),
            ),
            Ask(
                "thickness",
                "What's the tolerance on the 25 thickness of JJ-4820-00?",
                ("±0.02", "25±0.02"),
                ("dimension",),
            ),
            Ask(
                "bore",
                "What fit is the centre bore of the fixture base?",
                ("H8", "Ø40H8"),
                ("dimension", "naming"),
            ),
            Ask("length", "How long is the fixture base?", ("300",), ("dimension", "naming")),
            Ask("trap-approver", "Who approved JJ-4820-00?", (), ("unanswerable",)),
            Ask(
                "trap-roughness",
                "What surface roughness does the top face of the fixture base need?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-block-weight",
                "How much does the locating block, item 5 of JJ-4820-00, weigh?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-pin-hardness",
                "How hard are the locating pins of the fixture base?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="Vorgelegewelle_VW-3318-00.png",
        style="de",
        split="tuning",
        number="VW-3318-00",
        title="Vorgelegewelle kpl.",
        english="countershaft assembly",
        layout="beside",
        fields=(
            Field("title", "Benennung", "Vorgelegewelle kpl.", ("countershaft",), span=2),
            Field("number", "Zeichnungsnummer", "VW-3318-00"),
            Field("revision", "Index", "B"),
            Field("material", "Werkstoff", "siehe Stückliste", ("see parts list",)),
            Field("weight", "Gewicht", "2,85 kg", ("2.85 kg", "2.85")),
            Field("scale", "Maßstab", "1:1"),
            Field("surface", "Oberfläche", "Rz 25"),
            Field("heat", "Wärmebehandlung", "vergütet 28-32 HRC"),
            Field("sheet", "Blatt", "1 von 2", ("1 of 2",)),
            Field("format", "Format", "A3"),
            Field("creator", "Gezeichnet", "K. Hoffmann"),
            Field("checker", "Geprüft", "S. Wagner"),
            Field("approver", "Freigegeben", "T. Braun"),
            Field("date", "Datum", "12.02.2026"),
        ),
        dims=(
            Dim("linear", "245", "length", "", ()),
            Dim("diameter", "Ø72", "width", "", ()),
            Dim("fit", "Ø30 k6", "bore", "", ()),
            # The thread on the corner leader: a long label at the holes leader runs under the parts list.
            Dim("thread", "M12x1,5", "corner", "", ()),
            Dim("diameter", "Ø9", "holes", "", ()),
            Dim("linear", "28", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "Nicht bemaßte Fasen 1x45°",
            "Lagersitze geschliffen Ra 0,8",
            "Verzahnung einsatzgehärtet Eht 0,8 mm, 58-62 HRC",
            "Lager mit Fett füllen",
            "Sicherungsringe nach Montage auf festen Sitz prüfen",
            "Allgemeintoleranzen ISO 2768-mK",
        ),
        revisions=(
            Rev("A", "Erstausgabe", "12.11.2025", ("Erstausgabe",), by="K.H."),
            Rev(
                "B",
                "Pos. 5 Sicherungsring ergänzt",
                "12.02.2026",
                ("Sicherungsring", "Pos. 5"),
                by="S.W.",
            ),
        ),
        rev_columns=(
            ("rev", "Index", 80),
            ("text", "Änderung", 440),
            ("date", "Datum", 180),
            ("by", "Name", 120),
        ),
        parts=(
            Part("1", "1", "Welle", "VW-3318-01", "42CrMo4", unit="Stk"),
            Part("2", "1", "Stirnrad", "VW-3318-02", "16MnCr5", unit="Stk"),
            Part("3", "1", "Passfeder", "DIN 6885-A 8x7x28", "C45+C", unit="Stk"),
            Part("4", "2", "Rillenkugellager", "DIN 625 6206-2RS", "100Cr6", unit="Stk"),
            Part("5", "2", "Sicherungsring", "DIN 471 30x1,5", "C75S", unit="Stk"),
        ),
        part_columns=(
            ("pos", "Pos.", 70),
            ("qty", "Menge", 100),
            ("unit", "Einheit", 110),
            ("name", "Benennung", 250),
            ("number", "Sachnummer", 280),
            ("material", "Werkstoff", 250),
        ),
        part_caption="Stückliste",
        captions=("", "", "Technische Anforderungen"),
        note_number="{}) ",
        asks=(
            Ask(
                "shaft-material",
                "What is the shaft, Pos. 1, of VW-3318-00 made of?",
                ("42CrMo4",),
                ("table",),
            ),
            Ask(
                "gear-material",
                "Which material is the spur gear in the countershaft assembly?",
                ("16MnCr5",),
                ("table", "naming"),
            ),
            Ask(
                "bearings",
                "Which bearings are used on the German shaft with the parts list?",
                ("6206-2RS", "Rillenkugellager"),
                ("table", "naming"),
            ),
            Ask("bearing-qty", "How many bearings go into VW-3318-00?", ("2",), ("table",)),
            Ask(
                "item5",
                "What is item 5 in the Stückliste of the Vorgelegewelle?",
                ("Sicherungsring", "DIN 471 30x1,5"),
                ("table", "naming"),
            ),
            Ask(
                "key",
                "Which standard is the feather key of VW-3318-00 made to?",
                ("DIN 6885-A 8x7x28", "DIN 6885"),
                ("table",),
            ),
            Ask(
                "unit",
                "In what unit does the countershaft parts list count its quantities?",
                ("Stk",),
                ("table", "naming"),
            ),
            Ask(
                "weight",
                "How much does the countershaft assembly weigh?",
                ("2,85 kg", "2.85 kg", "2,85", "2.85"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "sheet",
                "Which sheet is Vorgelegewelle_VW-3318-00.png?",
                ("1 von 2", "1 of 2"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "heat",
                "How is the shaft of VW-3318-00 heat treated?",
                ("vergütet 28-32 HRC", "vergütet"),
                ("field", "field_foreign"),
            ),
            Ask(
                "surface",
                "What general surface finish is given on the Vorgelegewelle drawing?",
                ("Rz 25",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "seat-roughness",
                "How smooth must the bearing seats of VW-3318-00 be?",
                ("Ra 0,8", "Ra 0.8"),
                ("note",),
            ),
            Ask(
                "case-depth",
                "What case depth does the gearing of the countershaft get?",
                ("Eht 0,8 mm", "0,8 mm", "0.8 mm"),
                ("note", "naming"),
            ),
            Ask(
                "note5",
                "What does note 5 of VW-3318-00 say?",
                ("Sicherungsringe nach Montage auf festen Sitz prüfen", "festen Sitz"),
                ("note",),
            ),
            Ask(
                "chamfer",
                "What chamfer goes on edges without a dimension on the German countershaft?",
                ("1x45°",),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "Which general tolerances apply to VW-3318-00?",
                ("ISO 2768-mK", "2768-mK"),
                ("note",),
            ),
            Ask(
                "approver",
                "Who released the Vorgelegewelle drawing?",
                ("T. Braun",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("checker", "Who checked VW-3318-00?", ("S. Wagner",), ("field", "field_foreign")),
            Ask(
                "rev-b",
                "What changed in index B of the countershaft drawing?",
                ("Sicherungsring", "Pos. 5"),
                ("table", "naming"),
            ),
            Ask(
                "rev-a-date", "When was index A of VW-3318-00 issued?", ("12.11.2025",), ("table",)
            ),
            Ask(
                "largest",
                "What's the largest diameter on the countershaft?",
                ("Ø72", "72"),
                ("dimension", "naming"),
            ),
            Ask(
                "seat-fit",
                "What tolerance is on the Ø30 bearing seat of VW-3318-00?",
                ("k6", "Ø30 k6"),
                ("dimension",),
            ),
            Ask(
                "thread",
                "What thread is on the German countershaft?",
                ("M12x1,5", "M12x1.5"),
                ("dimension", "naming"),
            ),
            Ask("length", "What is the overall length of VW-3318-00?", ("245",), ("dimension",)),
            Ask(
                "trap-teeth",
                "How many teeth does the spur gear of the countershaft have?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-torque",
                "What torque is the M12x1,5 nut of VW-3318-00 tightened to?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-module",
                "What module is the gear on the Vorgelegewelle?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-grease",
                "Which grease are the bearings of VW-3318-00 filled with?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="kamskiva_KM-6027-02.png",
        style="se",
        split="tuning",
        number="KM-6027-02",
        title="Kamskiva",
        english="cam disc",
        layout="below",
        fields=(
            Field("title", "Benämning", "Kamskiva", ("cam disc",)),
            Field("number", "Ritningsnummer", "KM-6027-02"),
            Field("material", "Material", "16MnCr5 SS-EN 10084"),
            Field("roughness", "Ytjämnhet", "Ra 1,6", ("Ra 1.6",)),
            Field("surface", "Ytbehandling", "Fosfaterad", ("phosphated",)),
            Field("weight", "Vikt", "1,24 kg", ("1.24 kg",)),
            Field("scale", "Skala", "1:1"),
            Field("sheet", "Blad", "1/1"),
            Field("format", "Format", "A3"),
            Field("revision", "Rev", "C"),
            Field("creator", "Konstruktör", "E. Lindqvist"),
            Field("checker", "Granskad", "M. Berg"),
            Field("approver", "Godkänd", "J. Nyström"),
            Field("date", "Datum", "2026-02-20"),
        ),
        dims=(
            Dim("diameter", "Ø84", "length", "", ()),
            Dim("diameter", "Ø60", "width", "", ()),
            Dim("fit", "Ø25 H7", "bore", "", ()),
            Dim("thread", "M6", "holes", "", ()),
            Dim("radius", "R42", "corner", "", ()),
            Dim("tolerance", "18 ±0,05", "thickness", "", ()),
            Dim("angle", "15°", "angle", "", ()),
        ),
        notes=(
            "Ej måttsatta toleranser enligt SS-ISO 2768-mK",
            "Grader avlägsnas, kanter brytes 0,2-0,5 mm",
            "Sätthärdas, härddjup 0,6-0,9 mm, 58-62 HRC",
            "Kamytan slipas, Ra 0,4",
            "Märks med ritningsnummer och revision",
            "Rostskyddsolja efter kontroll",
        ),
        revisions=(
            Rev("A", "Första utgåva", "2025-10-06", ("Första",), by="EL"),
            Rev("B", "Kamprofil ändrad, R42 var R40", "2025-12-11", ("R42", "R40"), by="MB"),
            Rev("C", "Not 3 tillagd", "2026-02-20", ("Not 3",), by="JN"),
        ),
        rev_columns=(
            ("rev", "Rev", 62),
            ("text", "Ändringsbeskrivning", 430),
            ("date", "Datum", 180),
            ("by", "Sign.", 90),
        ),
        captions=("", "Ändringar", "Noter"),
        asks=(
            Ask(
                "material",
                "What material is the cam disc made of?",
                ("16MnCr5 SS-EN 10084", "16MnCr5"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the Kamskiva?",
                ("KM-6027-02",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "title",
                "What part is KM-6027-02?",
                ("Kamskiva", "cam disc"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "How much does the Swedish cam disc weigh?",
                ("1,24 kg", "1.24 kg", "1,24", "1.24"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "roughness",
                "What roughness does the title block of KM-6027-02 call for?",
                ("Ra 1,6", "Ra 1.6"),
                ("field", "field_foreign"),
            ),
            Ask(
                "surface",
                "What surface treatment does the cam disc get?",
                ("Fosfaterad", "phosphated"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "What scale is kamskiva_KM-6027-02.png?",
                ("1:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "sheet",
                "Which sheet is the Kamskiva drawing?",
                ("1/1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "format",
                "What paper size is KM-6027-02 drawn on?",
                ("A3",),
                ("field", "field_foreign"),
            ),
            Ask(
                "designer",
                "Who designed the cam disc?",
                ("E. Lindqvist",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("checker", "Who reviewed KM-6027-02?", ("M. Berg",), ("field", "field_foreign")),
            Ask(
                "approver",
                "Who approved the Swedish cam drawing?",
                ("J. Nyström", "J. Nystrom"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "case-depth",
                "How deep is the cam disc case hardened?",
                ("0,6-0,9 mm", "0.6-0.9 mm", "0,6-0,9"),
                ("note", "naming"),
            ),
            Ask("hardness", "What hardness must KM-6027-02 reach?", ("58-62 HRC",), ("note",)),
            Ask(
                "cam-face",
                "How fine must the cam face of the Kamskiva be ground?",
                ("Ra 0,4", "Ra 0.4"),
                ("note", "naming"),
            ),
            Ask(
                "note1",
                "Which general tolerance does note 1 of KM-6027-02 give?",
                ("SS-ISO 2768-mK", "2768-mK"),
                ("note",),
            ),
            Ask(
                "note6",
                "What does note 6 on the cam disc drawing say?",
                ("Rostskyddsolja efter kontroll", "Rostskyddsolja"),
                ("note", "naming"),
            ),
            Ask(
                "edges",
                "How much are the edges of KM-6027-02 broken?",
                ("0,2-0,5 mm", "0.2-0.5 mm", "0,2-0,5"),
                ("note",),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of KM-6027-02?",
                ("R42", "Kamprofil"),
                ("table",),
            ),
            Ask(
                "rev-c-sign", "Who signed revision C of the cam disc?", ("JN",), ("table", "naming")
            ),
            Ask(
                "rev-a-date",
                "When was the Kamskiva first issued?",
                ("2025-10-06",),
                ("table", "naming"),
            ),
            Ask(
                "bore",
                "What fit is the bore of the cam disc?",
                ("H7", "Ø25 H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "largest",
                "What's the largest diameter on KM-6027-02?",
                ("Ø84", "84"),
                ("dimension",),
            ),
            Ask(
                "thickness",
                "What tolerance is on the 18 mm thickness of the cam disc?",
                ("±0,05", "18 ±0,05", "±0.05"),
                ("dimension", "naming"),
            ),
            Ask("thread", "What size is the tapped hole on KM-6027-02?", ("M6",), ("dimension",)),
            Ask("trap-lift", "What is the lift of the cam on KM-6027-02?", (), ("unanswerable",)),
            Ask(
                "trap-keyway",
                "Which keyway standard does the cam disc use?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-speed",
                "What is the maximum speed of the Kamskiva?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-paint", "What colour is the cam disc painted?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="JP-55187.png",
        style="ansi",
        split="tuning",
        number="JP-55187",
        title="JIG PLATE",
        english="jig plate",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "TITLE", "JIG PLATE", span=2),
            Field("number", "DWG NO.", "JP-55187"),
            Field("revision", "REV", "C"),
            Field("material", "MATERIAL", "6061-T6 ALUMINUM"),
            Field("weight", "WEIGHT", "1.85 LB"),
            Field("finish", "FINISH", "BLACK ANODIZE, MIL-A-8625 TY II", span=2),
            Field("size", "SIZE", "B"),
            Field("scale", "SCALE", "1:2"),
            Field("sheet", "SHEET", "1 OF 1"),
            Field("date", "DATE", "2026-01-27"),
            Field("creator", "DRAWN", "T. KOWALSKI"),
            Field("checker", "CHECKED", "A. RIVERA"),
            Field("engineer", "ENG APPR", "M. OYELARAN"),
            Field("qa", "QA", "D. BROOKS"),
        ),
        dims=(
            Dim("linear", "5.000", "length", "", ()),
            Dim("tolerance", "3.500 ±.005", "width", "", ()),
            Dim("diameter", "Ø.750 THRU", "bore", "", ()),
            Dim("thread", "3X 1/4-20 UNC-2B", "holes", "", ()),
            Dim("radius", "R.25", "corner", "", ()),
            Dim("linear", ".625", "thickness", "", ()),
            Dim("angle", "45°", "angle", "", ()),
        ),
        notes=(
            "INTERPRET DRAWING PER ASME Y14.5-2018.",
            "UNLESS OTHERWISE SPECIFIED: DIMENSIONS ARE IN INCHES.",
            "TOLERANCES: .XX ±.01  .XXX ±.005  ANGLES ±0.5°",
            "BREAK ALL SHARP EDGES .005-.015.",
            "ALL MACHINED SURFACES 63 µin Ra MAX.",
            "MASK DOWEL HOLES B1 AND B2 DURING ANODIZE.",
            "PART MUST BE FLAT WITHIN .002 AFTER FINISH.",
            "INSPECT 100% PER QA PLAN QP-210.",
        ),
        holes=(
            Hole("A1", ".500", ".500", "Ø.201", note="1/4-20 UNC-2B THRU"),
            Hole("A2", "4.500", ".500", "Ø.201", note="1/4-20 UNC-2B THRU"),
            Hole("A3", "4.500", "3.000", "Ø.201", note="1/4-20 UNC-2B THRU"),
            Hole("B1", "1.250", "1.750", "Ø.250", note="REAM FOR DOWEL, THRU"),
            Hole("B2", "3.750", "1.750", "Ø.250", note="REAM FOR DOWEL, THRU"),
            Hole("C1", "2.500", "1.750", "Ø.750", note="C'BORE Ø1.12 .38 DP"),
        ),
        hole_columns=(
            ("tag", "HOLE", 80),
            ("x", "X LOC", 120),
            ("y", "Y LOC", 120),
            ("size", "SIZE", 150),
            ("note", "DESCRIPTION", 330),
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "2025-06-10", ("INITIAL",), by="M.O."),
            Rev("B", "ADDED HOLE C1", "2025-09-03", ("C1",), by="M.O."),
            Rev("C", "B1/B2 WAS Ø.187", "2026-01-27", ("Ø.187", "B1/B2"), by="D.B."),
        ),
        rev_columns=(
            ("rev", "REV", 60),
            ("text", "DESCRIPTION", 426),
            ("date", "DATE", 170),
            ("by", "APPROVED", 144),
        ),
        captions=("TABLE OF HOLES", "REVISIONS", "GENERAL NOTES:"),
        asks=(
            Ask(
                "material",
                "What's the jig plate made of?",
                ("6061-T6 ALUMINUM", "6061-T6"),
                ("field", "naming"),
            ),
            Ask(
                "finish",
                "What finish does JP-55187 get?",
                ("BLACK ANODIZE", "MIL-A-8625"),
                ("field",),
            ),
            Ask(
                "weight",
                "How much does the jig plate weigh?",
                ("1.85 LB", "1.85"),
                ("field", "naming"),
            ),
            Ask("size", "What drawing size is JP-55187?", ("B",), ("field",)),
            Ask(
                "sheet",
                "How many sheets is the hole-table plate drawing?",
                ("1 OF 1",),
                ("field", "naming"),
            ),
            Ask("drawn", "Who drew JP-55187.png?", ("T. KOWALSKI",), ("field", "naming")),
            Ask(
                "checked", "Who checked the jig plate drawing?", ("A. RIVERA",), ("field", "naming")
            ),
            Ask(
                "eng-appr",
                "Who gave engineering approval on JP-55187?",
                ("M. OYELARAN",),
                ("field",),
            ),
            Ask("qa", "Who signed QA on the jig plate?", ("D. BROOKS",), ("field", "naming")),
            Ask("rev", "What revision is the jig plate drawing at?", ("C",), ("field", "naming")),
            Ask("hole-b2", "Where is hole B2 on JP-55187?", ("3.750",), ("table",)),
            Ask(
                "hole-a3",
                "What size is hole A3 on the jig plate?",
                ("Ø.201", "1/4-20 UNC-2B"),
                ("table", "naming"),
            ),
            Ask(
                "hole-c1",
                "What counterbore does hole C1 of the jig plate get?",
                ("C'BORE Ø1.12 .38 DP", "Ø1.12"),
                ("table", "naming"),
            ),
            Ask(
                "hole-a3-y",
                "What is the Y location of hole A3 on JP-55187?",
                ("3.000",),
                ("table",),
            ),
            Ask(
                "rev-c",
                "What changed in revision C of the jig plate?",
                ("Ø.187", "B1/B2"),
                ("table", "naming"),
            ),
            Ask("rev-b-by", "Who approved rev B of JP-55187?", ("M.O.",), ("table",)),
            Ask(
                "y14-5",
                "Which standard is the jig plate drawing interpreted to?",
                ("ASME Y14.5-2018", "Y14.5"),
                ("note", "naming"),
            ),
            Ask("units", "What units are the dimensions of JP-55187 in?", ("INCHES",), ("note",)),
            Ask(
                "three-place",
                "What's the tolerance on a three-place decimal on the jig plate?",
                ("±.005",),
                ("note", "naming"),
            ),
            Ask("flatness", "How flat does JP-55187 have to be?", (".002",), ("note",)),
            Ask(
                "note6",
                "What does note 6 on the jig plate drawing say?",
                ("MASK DOWEL HOLES B1 AND B2 DURING ANODIZE",),
                ("note", "naming"),
            ),
            Ask("thickness", "How thick is the jig plate?", (".625",), ("dimension", "naming")),
            Ask(
                "width",
                "What's the tolerance on the 3.500 width of JP-55187?",
                ("±.005", "3.500 ±.005"),
                ("dimension",),
            ),
            Ask(
                "corner",
                "What radius are the corners of the hole-table plate?",
                ("R.25",),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-torque",
                "What torque do the screws in the A holes of JP-55187 get?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-anodize-thickness",
                "How thick is the anodize on the jig plate?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-cage", "What is the cage code on JP-55187?", (), ("unanswerable",)),
            Ask("trap-hardness", "How hard is the jig plate?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="hinge_bracket_HB-2094-01.png",
        style="iso",
        split="tuning",
        number="HB-2094-01",
        title="Hinge bracket",
        english="hinge bracket",
        layout="below",
        columns=3,
        fields=(
            Field("title", "Title", "Hinge bracket", span=2),
            Field("number", "Drawing No.", "HB-2094-01"),
            Field("part number", "Part No.", "P-77310"),
            Field("material", "Material", "EN AW-5754 H22"),
            Field("finish", "Finish", "Clear anodised"),
            Field("mass", "Mass", "0.21 kg"),
            Field("tolerance", "General tolerances", "ISO 2768-fH"),
            Field("surface texture", "Surface texture", "Ra 3.2 ISO 1302"),
            Field("projection", "Projection", "First angle"),
            Field("scale", "Scale", "1:1"),
            Field("size", "Size", "A3"),
            Field("sheet", "Sheet", "1 of 1"),
            Field("revision", "Revision", "D"),
            Field("creator", "Drawn", "P. Marsh"),
            Field("checker", "Checked", "K. Osei"),
            Field("approver", "Approved", "R. Haddad"),
            Field("date", "Date", "2026-02-02"),
        ),
        dims=(
            Dim("linear", "120", "length", "", ()),
            Dim("tolerance", "60 ±0.1", "width", "", ()),
            Dim("fit", "Ø10 H7", "bore", "", ()),
            Dim("diameter", "4x Ø6.6", "holes", "", ()),
            Dim("radius", "R8", "corner", "", ()),
            Dim("linear", "5", "thickness", "", ()),
            Dim("angle", "90°", "angle", "", ()),
        ),
        notes=(
            "All dimensions are in millimetres and apply after surface treatment unless stated otherwise.",
            "General tolerances to ISO 2768-fH.",
            "Remove all burrs and break sharp edges 0.2-0.4 mm, except where a sharp edge is required.",
            "Inside bend radius R3 where no radius is shown.",
            "Ream the hinge pin bore after anodising.",
            "Anodise clear to ISO 7599, layer at least 15 µm.",
            "Parts shall pass a 240 hours neutral salt spray test to ISO 9227 without pitting.",
            "Mark part number and revision with ink on the face shown.",
        ),
        revisions=(
            Rev("A", "First issue", "2025-05-12", ("First issue",), by="R.H."),
            Rev("B", "Slot width 10.5 was 10", "2025-08-30", ("10.5", "Slot width"), by="R.H."),
            Rev(
                "C",
                "Note 7 added (salt spray test)",
                "2025-11-18",
                ("Note 7", "salt spray"),
                by="P.S.",
            ),
            Rev(
                "D",
                "Material was EN AW-6060 T6",
                "2026-02-02",
                ("EN AW-6060", "Material"),
                by="R.H.",
            ),
        ),
        rev_columns=(
            ("rev", "Rev.", 70),
            ("text", "Description", 480),
            ("date", "Date", 180),
            ("by", "Approved", 150),
        ),
        note_wrap=1040,
        asks=(
            Ask(
                "part-number",
                "What's the part number of the hinge bracket?",
                ("P-77310",),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "Which drawing number does the hinge bracket have?",
                ("HB-2094-01",),
                ("field", "naming"),
            ),
            Ask(
                "material",
                "What aluminium is HB-2094-01 made from?",
                ("EN AW-5754 H22", "5754"),
                ("field",),
            ),
            Ask(
                "finish",
                "How is the hinge bracket finished?",
                ("Clear anodised",),
                ("field", "naming"),
            ),
            Ask("mass", "What's the mass of HB-2094-01?", ("0.21 kg", "0.21"), ("field",)),
            Ask(
                "gentol",
                "Which general tolerance class applies to the hinge bracket?",
                ("ISO 2768-fH", "2768-fH"),
                ("field", "naming"),
            ),
            Ask(
                "texture",
                "What surface texture does the title block of HB-2094-01 call for?",
                ("Ra 3.2",),
                ("field",),
            ),
            Ask(
                "projection",
                "Which projection is the hinge bracket drawn in?",
                ("First angle",),
                ("field", "naming"),
            ),
            Ask(
                "size",
                "What sheet size is hinge_bracket_HB-2094-01.png?",
                ("A3",),
                ("field", "naming"),
            ),
            Ask(
                "approver",
                "Who approved the hinge bracket drawing?",
                ("R. Haddad",),
                ("field", "naming"),
            ),
            Ask("checker", "Who checked HB-2094-01?", ("K. Osei",), ("field",)),
            Ask(
                "after-treatment",
                "Do the dimensions of the hinge bracket apply before or after anodising?",
                ("after surface treatment",),
                ("note", "naming"),
            ),
            Ask(
                "edges",
                "How much should the edges of HB-2094-01 be broken?",
                ("0.2-0.4 mm", "0.2-0.4"),
                ("note",),
            ),
            Ask(
                "bend",
                "What inside bend radius does the hinge bracket get where none is shown?",
                ("R3",),
                ("note", "naming"),
            ),
            Ask(
                "ream",
                "When is the pin bore of the hinge bracket reamed?",
                ("after anodising",),
                ("note", "naming"),
            ),
            Ask(
                "anodise-std",
                "Which standard is the hinge bracket anodised to?",
                ("ISO 7599",),
                ("note", "naming"),
            ),
            Ask(
                "layer",
                "What anodic layer thickness does HB-2094-01 need?",
                ("15 µm",),
                ("note",),
            ),
            Ask(
                "salt-spray",
                "How long is the salt spray test on the hinge bracket?",
                ("240 hours",),
                ("note", "naming"),
            ),
            Ask(
                "note8",
                "What does note 8 on HB-2094-01 say?",
                ("Mark part number and revision with ink",),
                ("note",),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of the hinge bracket?",
                ("10.5", "Slot width"),
                ("table", "naming"),
            ),
            Ask("rev-c-by", "Who approved revision C of HB-2094-01?", ("P.S.",), ("table",)),
            Ask(
                "bore",
                "What fit is the hinge pin bore?",
                ("H7", "Ø10 H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "holes",
                "What size are the mounting holes of HB-2094-01?",
                ("Ø6.6", "4x Ø6.6"),
                ("dimension",),
            ),
            Ask(
                "width",
                "What's the tolerance on the 60 mm width of the hinge bracket?",
                ("±0.1", "60 ±0.1"),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-torque",
                "What torque are the hinge bracket's mounting screws tightened to?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-pin", "Which hinge pin goes into HB-2094-01?", (), ("unanswerable",)),
            Ask(
                "trap-load",
                "How much load can the hinge bracket carry?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-bushing",
                "Which bushing is pressed into the pin bore of HB-2094-01?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    # ---- Six drawings written from the renderer's records only, with their questions, by writers
    # who never saw the answering code (decision 0065).
    Drawing(
        file_name="shuchuzhou_SZ-1907-03.png",
        style="zh",
        split="tuning",
        number="SZ-1907-03",
        title="输出轴",
        english="output shaft",
        layout="inline",
        colon="：",
        bold_values=True,
        fields=(
            Field("company", "单位", "江南减速机制造有限公司", span=2),
            Field("title", "零件名称", "输出轴", ("output shaft",)),
            Field("number", "图号", "SZ-1907-03"),
            Field("material", "材料", "40Cr GB/T 3077"),
            Field("heat", "热处理", "调质", ("quenched and tempered", "hardened and tempered")),
            Field("weight", "质量", "3.8 kg"),
            Field("scale", "比例", "1:2"),
            Field("surface", "表面处理", "发黑", ("black oxide", "blackened")),
            Field("sheet", "张次", "共 2 张 第 1 张"),
            Field("creator", "设计", "陈志远"),
            Field("checker", "校对", "刘晓峰"),
            Field("approver", "审定", ""),
            Field("date", "日期", "2025.11.18"),
        ),
        dims=(
            Dim("linear", "285", "length", "", ()),
            Dim("diameter", "Ø48", "width", "", ()),
            Dim("fit", "Ø40k6", "bore", "", ()),
            Dim("thread", "M24×1.5-6g", "holes", "", ()),
            Dim("radius", "R1.5", "corner", "", ()),
            Dim("tolerance", "62±0.1", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "调质硬度 HB 241~286，Ø40k6 轴颈高频淬火 HRC 48~53",
            "未注倒角 C1，未注圆角 R0.5",
            "未注线性尺寸公差按 GB/T 1804-m",
            "未注几何公差按 GB/T 1184-H",
            "两端中心孔 GB/T 145 B3.15/10",
            "轴颈表面粗糙度 Ra 0.8，其余 Ra 3.2",
            "经磁粉探伤检查，不允许有裂纹",
        ),
        revisions=(
            Rev(
                "A",
                "轴颈长度 60 改为 62±0.1",
                "2025.12.05",
                ("62±0.1", "轴颈长度"),
                doc="GC-25-114",
            ),
            Rev("B", "增加两端中心孔 B3.15", "2026.01.20", ("中心孔", "B3.15"), doc="GC-26-009"),
            Rev("C", "未注倒角 C0.5 改为 C1", "2026.02.26", ("C1", "倒角"), doc="GC-26-041"),
        ),
        rev_columns=(
            ("rev", "版次", 80),
            ("text", "更改内容", 380),
            ("doc", "更改单号", 180),
            ("date", "日期", 160),
        ),
        captions=("", "修改记录", ""),
        asks=(
            Ask(
                "material",
                "What's the output shaft made of?",
                ("40Cr", "40Cr GB/T 3077"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "SZ-1907-03 的质量 - how heavy is it?",
                ("3.8 kg", "3.8"),
                ("field", "field_foreign"),
            ),
            Ask(
                "checker",
                "Who checked shuchuzhou_SZ-1907-03.png?",
                ("刘晓峰",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment does the 输出轴 get?",
                ("发黑", "black oxide"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "journal-hardness",
                "How hard is the bearing journal of SZ-1907-03 after induction hardening?",
                ("HRC 48~53", "48~53"),
                ("note",),
            ),
            Ask(
                "general-tol",
                "Which general tolerance applies to the output shaft?",
                ("GB/T 1804-m", "1804-m"),
                ("note", "naming"),
            ),
            Ask(
                "journal-fit",
                "What's the fit on the bearing journal of SZ-1907-03?",
                ("k6", "Ø40k6"),
                ("dimension",),
            ),
            Ask(
                "length",
                "Overall length of the Chinese output shaft?",
                ("285",),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread is cut on the end of SZ-1907-03?",
                ("M24×1.5", "M24×1.5-6g"),
                ("dimension",),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of the output shaft?",
                ("中心孔", "增加两端中心孔 B3.15"),
                ("table", "naming"),
            ),
            Ask(
                "trap-approver",
                "Who approved (审定) the output shaft drawing?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-rev-d",
                "What was changed in revision D of SZ-1907-03?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-keyway",
                "How deep is the keyway on the output shaft?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="DJ-2740-01.png",
        style="zh",
        split="tuning",
        number="DJ-2740-01",
        title="电机安装板",
        english="motor mounting plate",
        layout="under",
        columns=3,
        fields=(
            Field("company", "单位", "苏州恒力自动化设备有限公司", span=2),
            Field("number", "图号 DWG NO.", "DJ-2740-01"),
            Field("title", "名称", "电机安装板", ("motor mounting plate",)),
            Field("material", "材料 MATERIAL", "Q235-A"),
            Field("weight", "重量(kg)", "1.62"),
            Field("scale", "比例", "1:1"),
            Field("surface", "表面处理", "喷塑", ("powder coated", "powder coating")),
            Field("quantity", "件数", "2"),
            Field("creator", "制图", "黄丽"),
            Field("checker", "校核", "吴晓东"),
            Field("approver", "审定", "郑宏"),
            Field("date", "日期", "2026-01-12"),
            Field("sheet", "张数", "共 1 张 第 1 张"),
            Field("standard", "标准化", ""),
        ),
        dims=(
            Dim("linear", "200", "length", "", ()),
            Dim("tolerance", "160±0.1", "width", "", ()),
            Dim("fit", "Ø52H8", "bore", "", ()),
            Dim("diameter", "4×Ø9", "holes", "", ()),
            Dim("radius", "R8", "corner", "", ()),
            Dim("linear", "8", "thickness", "", ()),
            Dim("angle", "45°", "angle", "", ()),
        ),
        notes=(
            "未注尺寸公差按 GB/T 1804-m",
            "安装面平面度 0.05，粗糙度 Ra 1.6",
            "去除毛刺飞边，锐角倒钝 C0.5",
            "表面喷塑，颜色 RAL 7035 浅灰，涂层厚度 60~80μm",
            "M6 螺纹孔深 12，孔口倒角 C0.5",
            "板材不允许有裂纹、分层等缺陷",
            "激光打标图号，字高 5 mm",
        ),
        holes=(
            Hole("A1", "25", "25", "Ø9", note="通孔"),
            Hole("A2", "175", "25", "Ø9", note="通孔"),
            Hole("A3", "25", "135", "Ø9", note="通孔"),
            Hole("A4", "175", "135", "Ø9", note="通孔"),
            Hole("B1", "100", "80", "Ø52H8", note="电机止口"),
            Hole("C1", "60", "80", "M6-6H", note="深 12"),
            Hole("C2", "140", "80", "M6-6H", note="深 12"),
        ),
        hole_columns=(
            ("tag", "孔号", 90),
            ("x", "X", 110),
            ("y", "Y", 110),
            ("size", "孔径", 200),
            ("note", "说明", 230),
        ),
        asks=(
            Ask(
                "material", "What material is DJ-2740-01?", ("Q235-A",), ("field", "field_foreign")
            ),
            Ask(
                "weight",
                "How much does the motor mounting plate weigh?",
                ("1.62",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "quantity",
                "How many of the 电机安装板 do we make?",
                ("2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("drawn-by", "Who drew DJ-2740-01?", ("黄丽",), ("field", "field_foreign")),
            Ask(
                "colour",
                "What colour is the motor plate powder coated?",
                ("RAL 7035", "浅灰"),
                ("note", "naming"),
            ),
            Ask(
                "hole-b1",
                "What size is hole B1 on DJ-2740-01?",
                ("Ø52H8",),
                ("table",),
            ),
            Ask(
                "hole-c2-x",
                "X coordinate of hole C2 on DJ-2740-01.png?",
                ("140",),
                ("table", "naming"),
            ),
            Ask(
                "c-thread",
                "What thread are the C holes in the little steel motor plate?",
                ("M6", "M6-6H"),
                ("table", "naming"),
            ),
            Ask("thickness", "How thick is DJ-2740-01?", ("8",), ("dimension",)),
            Ask(
                "width-tol",
                "What's the tolerance on the 160 width of the motor mounting plate?",
                ("±0.1", "160±0.1"),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-standard",
                "Who signed the standardisation check (标准化) on DJ-2740-01?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-revision",
                "What revision is the motor mounting plate at?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-heat",
                "What heat treatment does DJ-2740-01 call for?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="tougai_zujian_TG-6214-03.png",
        style="zh",
        split="tuning",
        number="TG-6214-03",
        title="轴承透盖组件",
        english="bearing cover assembly",
        layout="stacked",
        columns=3,
        fields=(
            Field(
                "title",
                "图样名称",
                "轴承透盖组件",
                ("bearing cover assembly", "bearing cover"),
                span=2,
            ),
            Field("number", "图样代号", "TG-6214-03"),
            Field("weight", "质量", "4.1 kg"),
            Field("scale", "比例", "1:2"),
            Field("size", "图幅", "A3"),
            Field("sheet", "张次", "共 2 张 第 1 张", ("1 of 2", "sheet 1 of 2")),
            Field("stage", "阶段标记", "S"),
            Field("date", "日期", "2026-04-22"),
            Field("creator", "设计", "刘晓东"),
            Field("reviewer", "审核", "陈静"),
            Field("approver", "批准", ""),
            Field("company", "单位名称", "江南减速机制造有限公司", span=3),
        ),
        dims=(
            Dim("diameter", "Ø180", "length", "", ()),
            Dim("fit", "Ø110f7", "width", "", ()),
            Dim("fit", "Ø85H8", "bore", "", ()),
            Dim("diameter", "6×Ø11", "holes", "", ()),
            Dim("radius", "R3", "corner", "", ()),
            Dim("tolerance", "22±0.05", "thickness", "", ()),
            Dim("angle", "15°", "angle", "", ()),
        ),
        notes=(
            "装配前所有零件须清洗干净，不得有毛刺、铁屑",
            "油封唇口涂 2# 锂基润滑脂",
            "螺钉按对角顺序分两次拧紧，拧紧力矩 45 N·m",
            "透盖铸件须经人工时效处理",
            "未注尺寸公差按 GB/T 1804-m",
            "油封孔表面粗糙度 Ra 1.6",
            "外露表面喷涂灰色面漆",
        ),
        revisions=(
            Rev("a", "螺钉孔 Ø9 改为 Ø11", "2026-01-15", ("Ø9", "Ø11"), by="刘晓东", places="6"),
            Rev("b", "油封型号改为 FB 型", "2026-03-08", ("FB",), by="陈静", places="1"),
            Rev(
                "c",
                "增加技术要求第 3 条",
                "2026-04-22",
                ("第 3 条", "技术要求"),
                by="陈静",
                places="1",
            ),
        ),
        rev_columns=(
            ("rev", "标记", 80),
            ("places", "处数", 80),
            ("text", "更改内容", 320),
            ("by", "签名", 120),
            ("date", "日期", 170),
        ),
        parts=(
            Part("1", "1", "透盖", "TG-6214-03-1", "HT200", note=""),
            Part("2", "1", "骨架油封 FB 62×85×10", "GB/T 13871.1", "NBR", note="外购"),
            Part("3", "1", "O形圈 110×3.55", "GB/T 3452.1", "NBR", note="外购"),
            Part("4", "6", "螺钉 M10×30", "GB/T 70.1", "8.8级", note="外购"),
        ),
        part_columns=(
            ("pos", "序号", 80),
            ("number", "代号", 220),
            ("name", "名称", 330),
            ("qty", "数量", 80),
            ("material", "材料", 170),
            ("note", "备注", 180),
        ),
        asks=(
            Ask(
                "number",
                "What's the drawing number of the 轴承透盖组件?",
                ("TG-6214-03",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight", "How heavy is TG-6214-03?", ("4.1 kg", "4.1"), ("field", "field_foreign")
            ),
            Ask(
                "scale",
                "What scale is the bearing cover assembly drawn at?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("designer", "谁设计的 TG-6214-03?", ("刘晓东",), ("field", "field_foreign")),
            Ask(
                "sheet",
                "Which sheet is tougai_zujian_TG-6214-03.png?",
                ("共 2 张 第 1 张", "第 1 张", "1 of 2"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "torque",
                "What torque do the cover screws on TG-6214-03 get?",
                ("45 N·m", "45"),
                ("note",),
            ),
            Ask(
                "grease",
                "What grease goes on the seal lip of the Chinese bearing cover?",
                ("2# 锂基润滑脂", "锂基润滑脂"),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "透盖组件 untoleranced dimensions, which standard?",
                ("GB/T 1804-m", "1804-m"),
                ("note", "naming"),
            ),
            Ask(
                "seal-bore",
                "What's the fit on the seal bore of the bearing cover?",
                ("H8", "Ø85H8"),
                ("dimension", "naming"),
            ),
            Ask(
                "spigot",
                "Spigot diameter on TG-6214-03, with its tolerance?",
                ("Ø110f7", "110f7", "Ø110 f7", "110 f7"),
                ("dimension",),
            ),
            Ask(
                "screw-qty",
                "How many M10 screws does the bearing cover assembly use?",
                ("6",),
                ("table", "naming"),
            ),
            Ask(
                "oring-std",
                "What's the standard number for the O-ring, item 3, on TG-6214-03?",
                ("GB/T 3452.1", "3452.1"),
                ("table",),
            ),
            Ask(
                "rev-a",
                "What was changed in 更改 a on the bearing cover drawing?",
                ("螺钉孔 Ø9 改为 Ø11", "Ø11", "Ø9"),
                ("table", "naming"),
            ),
            Ask(
                "trap-approver",
                "Who approved TG-6214-03?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-rev-d",
                "What changed in revision d of the bearing cover assembly?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-hardness",
                "What hardness does the cover casting on TG-6214-03 need?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="spindle_adapter_plate.png",
        style="ansi",
        split="tuning",
        number="AP-6613-01",
        title="ADAPTER PLATE, SPINDLE MOTOR",
        english="spindle motor adapter plate",
        layout="under",
        fields=(
            Field("title", "TITLE", "ADAPTER PLATE, SPINDLE MOTOR", span=2),
            Field("number", "DWG NO.", "AP-6613-01"),
            Field("revision", "REV", "C"),
            Field("material", "MATL", "6061-T6 ALUMINUM"),
            Field("finish", "FINISH", "BLK ANODIZE, SEE NOTE 5"),
            Field(
                "tolerance",
                "TOLERANCES UNLESS OTHERWISE SPECIFIED",
                ".XX ±.01   .XXX ±.005   ANGLES ±0.5°",
                span=2,
            ),
            Field("size", "SIZE", "B"),
            Field("scale", "SCALE", "1:2"),
            Field("weight", "WEIGHT", "1.12 LB"),
            Field("sheet", "SHEET", "1 OF 1"),
            Field("creator", "DRAWN", "J. MARSH  01/12/26"),
            Field("checker", "CHECKED", "T. OYELARAN  01/14/26"),
            Field("approver", "ENG APPR", "D. KOWALSKI  01/20/26"),
            Field("mfg", "MFG APPR", ""),
        ),
        dims=(
            Dim("linear", "6.000", "length", "", ()),
            Dim("tolerance", "4.000 ±.005", "width", "", ()),
            Dim("fit", "Ø1.5010/1.5000", "bore", "", ()),
            Dim("thread", "4X 1/4-20 UNC-2B .50 DP", "holes", "", ()),
            Dim("radius", "4X R.25", "corner", "", ()),
            Dim("linear", ".500", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "INTERPRET DRAWING PER ASME Y14.5-2018",
            "ALL DIMENSIONS ARE IN INCHES",
            "BREAK ALL SHARP EDGES .015 MAX",
            "ALL MACHINED SURFACES 63 µin Ra MAX",
            "FINISH: BLACK ANODIZE PER MIL-A-8625 TYPE II, CLASS 2",
            "MASK Ø1.5010/1.5000 BORE FROM ANODIZE",
            "HOLE TABLE ORIGIN AT LOWER LEFT CORNER",
            "BAG AND TAG WITH DWG NO. AND REV",
        ),
        holes=(
            Hole("A1", ".500", ".500", "1/4-20 UNC-2B .50 DP"),
            Hole("A2", "5.500", ".500", "1/4-20 UNC-2B .50 DP"),
            Hole("A3", ".500", "3.500", "1/4-20 UNC-2B .50 DP"),
            Hole("A4", "5.500", "3.500", "1/4-20 UNC-2B .50 DP"),
            Hole("B1", "3.000", "2.000", "Ø1.5010/1.5000 THRU"),
            Hole("C1", "1.250", "2.000", "Ø.2505/.2500 THRU"),
            Hole("C2", "4.750", "2.000", "Ø.2505/.2500 THRU"),
        ),
        hole_columns=(
            ("tag", "HOLE", 90),
            ("x", "X LOC", 120),
            ("y", "Y LOC", 120),
            ("size", "DESCRIPTION", 360),
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "06/03/25", ("INITIAL",), zone="", by="D.K."),
            Rev(
                "B",
                "Ø.250 DOWEL HOLES WAS Ø.188",
                "09/17/25",
                ("Ø.188", "DOWEL"),
                zone="C3",
                by="D.K.",
            ),
            Rev("C", "ADDED NOTE 6", "01/20/26", ("NOTE 6",), zone="B2", by="D.K."),
        ),
        rev_columns=(
            ("zone", "ZONE", 90),
            ("rev", "REV", 70),
            ("text", "DESCRIPTION", 450),
            ("date", "DATE", 160),
            ("by", "APPROVED", 150),
        ),
        asks=(
            Ask(
                "number",
                "What's the dwg number for the spindle motor adapter plate?",
                ("AP-6613-01",),
                ("field", "naming"),
            ),
            Ask("revision", "What rev is AP-6613-01 at?", ("C",), ("field",)),
            Ask(
                "material",
                "What's the little aluminum adapter plate made of exactly?",
                ("6061-T6", "6061-T6 ALUMINUM"),
                ("field", "naming"),
            ),
            Ask(
                "tol3",
                "What's the three-place decimal tolerance on AP-6613-01?",
                ("±.005", ".XXX ±.005"),
                ("field",),
            ),
            Ask(
                "checked",
                "Who checked spindle_adapter_plate.png?",
                ("T. OYELARAN", "OYELARAN"),
                ("field", "naming"),
            ),
            Ask(
                "weight",
                "How much does the black anodized adapter plate weigh?",
                ("1.12 LB", "1.12"),
                ("field", "naming"),
            ),
            Ask(
                "anodize",
                "What spec is the anodize on AP-6613-01 called out to?",
                ("MIL-A-8625 TYPE II", "MIL-A-8625"),
                ("note",),
            ),
            Ask(
                "edges",
                "How much edge break on the adapter plate?",
                (".015 MAX", ".015"),
                ("note", "naming"),
            ),
            Ask(
                "mask",
                "Does AP-6613-01 say to mask anything before anodize?",
                ("MASK Ø1.5010/1.5000 BORE FROM ANODIZE", "Ø1.5010/1.5000 BORE"),
                ("note",),
            ),
            Ask(
                "c1",
                "What size is hole C1 on AP-6613-01?",
                ("Ø.2505/.2500 THRU", "Ø.2505/.2500"),
                ("table",),
            ),
            Ask(
                "a3-y",
                "Y location of hole A3 on the spindle adapter plate?",
                ("3.500",),
                ("table", "naming"),
            ),
            Ask(
                "rev-b",
                "What changed in rev B of the adapter plate?",
                ("Ø.250 DOWEL HOLES WAS Ø.188", "Ø.188"),
                ("table", "naming"),
            ),
            Ask(
                "thread",
                "What thread are the four corner holes on AP-6613-01?",
                ("1/4-20 UNC-2B", "1/4-20"),
                ("dimension",),
            ),
            Ask(
                "width",
                "Tolerance on the 4 inch width of the adapter plate?",
                ("±.005", "4.000 ±.005"),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-mfg",
                "Who signed manufacturing approval on AP-6613-01?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-flatness",
                "What flatness does the spindle adapter plate call for?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-rev-d",
                "What changed in rev D of AP-6613-01?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="FP-3619-02.png",
        style="de",
        split="tuning",
        number="FP-3619-02",
        title="Führungsplatte",
        english="guide plate",
        layout="beside",
        columns=2,
        fields=(
            Field("title", "Benennung", "Führungsplatte", ("guide plate",)),
            Field("number", "Zeichnungs-Nr.", "FP-3619-02"),
            Field("material", "Werkstoff/Material", "16MnCr5 (1.7131)", ("16MnCr5", "1.7131")),
            Field("surface", "Oberfläche", "brüniert", ("black oxide", "blackened")),
            Field("scale", "Maßstab", "1:1"),
            Field("weight", "Masse", "2,2 kg", ("2.2 kg",)),
            Field("gentol", "Allgemeintol.", "DIN ISO 2768-mK"),
            Field("format", "Format", "A3"),
            Field("sheet", "Blatt", "1 von 1"),
            Field("revision", "Index", "b"),
            Field("creator", "Gezeichnet", "M. Schäfer", span=2, date="12.01.2026"),
            Field("checker", "Geprüft", "R. Hoffmann", span=2, date="16.01.2026"),
            Field("approver", "Freigegeben", "", span=2),
        ),
        dims=(
            Dim("linear", "150", "length", "", ()),
            Dim("tolerance", "100 ±0,05", "width", "", ()),
            Dim("fit", "Ø30 H7", "bore", "", ()),
            Dim("thread", "4x M8 - 16 tief", "holes", "", ()),
            Dim("radius", "R10", "corner", "", ()),
            Dim("linear", "20", "thickness", "", ()),
            Dim("angle", "20°", "angle", "", ()),
        ),
        notes=(
            "Allgemeintoleranzen DIN ISO 2768-mK",
            "Nicht bemaßte Radien R0,5",
            "Alle Kanten gebrochen 0,2x45°",
            "Einsatzgehärtet und angelassen 58+2 HRC, Eht 0,8+0,3",
            "Gewinde vor dem Einsatzhärten abdecken",
            "Passbohrungen nach dem Härten geschliffen, Ra 0,8",
            "Kennzeichnen mit Zeichn.-Nr. und Index (Schlagzahlen 3 mm)",
        ),
        note_number="{}) ",
        holes=(
            Hole("A1", "15", "15", "M8 - 16 tief", note="Gewinde"),
            Hole("A2", "135", "15", "M8 - 16 tief", note="Gewinde"),
            Hole("A3", "15", "85", "M8 - 16 tief", note="Gewinde"),
            Hole("A4", "135", "85", "M8 - 16 tief", note="Gewinde"),
            Hole("B1", "40", "50", "Ø8 H7", note="Passbohrung"),
            Hole("B2", "110", "50", "Ø8 H7", note="Passbohrung"),
            Hole("C1", "75", "50", "Ø30 H7", note="durchgehend"),
        ),
        hole_columns=(
            ("tag", "Pos.", 80),
            ("x", "X", 100),
            ("y", "Y", 100),
            ("size", "Bohrung", 240),
            ("note", "Bemerkung", 200),
        ),
        captions=("Bohrungstabelle (Maße in mm)", "", "Anmerkungen"),
        asks=(
            Ask(
                "material",
                "What material is FP-3619-02 made of?",
                ("16MnCr5", "16MnCr5 (1.7131)", "1.7131"),
                ("field", "field_foreign"),
            ),
            Ask(
                "creator",
                "Who drew the Führungsplatte?",
                ("M. Schäfer", "Schäfer"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checked-date",
                "When was the guide plate checked?",
                ("16.01.2026",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "What's the Masse on FP-3619-02.png?",
                ("2,2 kg", "2.2 kg", "2,2", "2.2"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "hole-b2",
                "What size is hole B2 on FP-3619-02?",
                ("Ø8 H7", "8 H7"),
                ("table",),
            ),
            Ask(
                "hole-a3-y",
                "Hole A3 on the Führungsplatte, what's its Y coordinate?",
                ("85",),
                ("table", "naming"),
            ),
            Ask(
                "width-tol",
                "What's the tolerance on the 100 mm width of the little German guide plate?",
                ("±0,05", "±0.05", "0,05", "0.05"),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "How deep are the M8 threads on FP-3619-02?",
                ("16 tief", "16", "M8 - 16 tief"),
                ("dimension",),
            ),
            Ask(
                "hardness",
                "What hardness does the Führungsplatte get after case hardening?",
                ("58+2 HRC", "58+2"),
                ("note", "naming"),
            ),
            Ask(
                "note2",
                "What does note 2 say on FP-3619-02?",
                ("Nicht bemaßte Radien R0,5", "R0,5", "R0.5"),
                ("note",),
            ),
            Ask(
                "trap-approver",
                "Who released the guide plate, Freigegeben?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-index-b",
                "What changed in index b of FP-3619-02?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-torque",
                "What torque do the M8 screws in the Führungsplatte get?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="bottenplatta_kompl.png",
        style="se",
        split="tuning",
        number="BP-5531-01",
        title="Bottenplatta, kompl.",
        english="fixture base plate assembly",
        layout="inline",
        bold_values=True,
        columns=2,
        fields=(
            Field(
                "title",
                "Benämning",
                "Bottenplatta, kompl.",
                ("base plate assembly", "fixture base plate", "base plate, complete"),
                span=2,
            ),
            Field("number", "Ritningsnummer", "BP-5531-01"),
            Field("revision", "Utgåva", "C"),
            Field("material", "Material", "Se stycklista", ("see parts list",)),
            Field("scale", "Skala", "1:2"),
            Field(
                "surface", "Ytbehandling", "Förzinkad", ("zinc plated", "zinc-plated", "galvanised")
            ),
            Field("weight", "Vikt", "7,2 kg", ("7.2 kg",)),
            Field("gentol", "Toleranser", "SS-ISO 2768-m"),
            Field("sheet", "Blad", "1(1)"),
            Field("format", "Format", "A3"),
            Field("creator", "Ritad av", "S. Nyberg"),
            Field("checker", "Granskad", "L. Ahlgren"),
            Field("approver", "Godkänd", ""),
            Field("date", "Datum", "2026-03-04"),
        ),
        dims=(
            Dim("linear", "240", "length", "", ()),
            Dim("tolerance", "160 ±0,2", "width", "", ()),
            Dim("fit", "Ø25 H7", "bore", "", ()),
            Dim("radius", "R15", "corner", "", ()),
            Dim("linear", "25", "thickness", "", ()),
            Dim("angle", "45°", "angle", "", ()),
        ),
        notes=(
            "Ej måttsatta radier R1",
            "Gradas, brutna kanter max 0,3",
            "Pos 2 härdas till 45-50 HRC",
            "Pos 3 pressas in efter förzinkning",
            "Skruvar pos 4 dras med 49 Nm",
            "Planhet undersida 0,05",
            "Märks med ritningsnummer och utgåva",
        ),
        parts=(
            Part("1", "1", "Bottenplatta", "BP-5531-11", "SS 1312"),
            Part("2", "2", "Styrtapp", "BP-5531-12", "SS 2541"),
            Part("3", "2", "Borrbussning", "DIN 179 A 10x16", "", note="Köpdetalj"),
            Part("4", "4", "Insexskruv", "MC6S M10x30 8.8", "", note="Köpdetalj"),
            Part("5", "2", "Cylindriskt stift", "ISO 8734 8x30", "", note="Köpdetalj"),
        ),
        part_columns=(
            ("pos", "Pos", 60),
            ("name", "Benämning", 260),
            ("number", "Beteckning", 270),
            ("material", "Material", 160),
            ("qty", "Antal", 90),
            ("note", "Anm.", 220),
        ),
        part_caption="Stycklista",
        revisions=(
            Rev("A", "Första utgåva", "2025-09-15", ("Första utgåva",), by="SN", doc="-"),
            Rev(
                "B",
                "Pos 4 ändrad till M10x30",
                "2025-11-20",
                ("M10x30", "Pos 4"),
                by="LA",
                doc="ÄO 1187",
            ),
            Rev(
                "C",
                "Härdning pos 2 ändrad",
                "2026-03-04",
                ("Härdning", "pos 2"),
                by="LA",
                doc="ÄO 1302",
            ),
        ),
        rev_columns=(
            ("rev", "Rev", 60),
            ("text", "Ändring", 390),
            ("doc", "ÄO-nr", 130),
            ("date", "Datum", 180),
            ("by", "Sign", 80),
        ),
        captions=("", "Revideringar", "Anmärkningar"),
        asks=(
            Ask(
                "number",
                "What's the drawing number of the bottenplatta?",
                ("BP-5531-01",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checker",
                "Who checked BP-5531-01?",
                ("L. Ahlgren", "Ahlgren"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "Vikt på BP-5531-01, how heavy is it?",
                ("7,2 kg", "7.2 kg", "7,2", "7.2"),
                ("field", "field_foreign"),
            ),
            Ask(
                "surface",
                "What surface treatment is on the Swedish fixture base plate?",
                ("Förzinkad", "zinc plated"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "item2-material",
                "What material is item 2 on BP-5531-01?",
                ("SS 2541", "2541"),
                ("table",),
            ),
            Ask(
                "screws",
                "How many socket head screws go into bottenplatta_kompl?",
                ("4",),
                ("table", "naming"),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of BP-5531-01?",
                ("M10x30", "Pos 4 ändrad till M10x30"),
                ("table",),
            ),
            Ask(
                "hardness",
                "How hard do the guide pins on the base plate assembly have to be?",
                ("45-50 HRC", "45-50"),
                ("note", "naming"),
            ),
            Ask(
                "torque",
                "What torque are the screws on BP-5531-01 tightened to?",
                ("49 Nm", "49"),
                ("note",),
            ),
            Ask(
                "bore",
                "What's the fit on the big bore of the Bottenplatta?",
                ("H7", "Ø25 H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-approver",
                "Who approved BP-5531-01, godkänd av?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-rev-d",
                "What changed in revision D of the bottenplatta?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-ra",
                "What Ra does the underside of BP-5531-01 need?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    # ---- The held-out part (decision 0016, "A third split"): written without reading the answering
    # code; its results are looked at only as totals by class, style and cause, never one by one.
    Drawing(
        file_name="CC-5012-02_cable_clamp.png",
        style="iso",
        split="heldout",
        number="CC-5012-02",
        title="CABLE CLAMP",
        english="cable clamp",
        layout="under",
        columns=3,
        fields=(
            Field("title", "TITLE", "CABLE CLAMP", span=2),
            Field("number", "DRAWING NO.", "CC-5012-02"),
            Field("revision", "REV", "E"),
            Field("material", "MATERIAL", "1.4301"),
            Field("finish", "FINISH", "BEAD BLASTED", ("bead blasted",)),
            Field("mass", "MASS", "85 g", ("85",)),
            Field("scale", "SCALE", "2:1"),
            Field("size", "SIZE", "A3"),
            Field("creator", "DRAWN", "P. HAAS"),
            Field("checker", "CHECKED", "R. IMAI"),
            Field("approver", "APPROVED", ""),
            Field("date", "DATE", "2026-03-12"),
            Field("sheet", "SHEET", "1 / 1"),
            Field("project", "PROJECT", "LINE 7 RETROFIT"),
        ),
        dims=(
            Dim("linear", "96", "length", "", ()),
            Dim("linear", "40", "width", "", ()),
            Dim("fit", "Ø22 H8", "bore", "", ()),
            Dim("diameter", "2x Ø6.6 THRU", "holes", "", ()),
            Dim("radius", "R5", "corner", "", ()),
            Dim("tolerance", "3 ±0.05", "thickness", "", ()),
            Dim("angle", "15°", "angle", "", ()),
        ),
        notes=(
            "Tolerances unless stated: ISO 2768-fH",
            "Break all edges 0.2 x 45°",
            "Passivate after blasting",
            "Laser mark part no., characters 3 mm high",
        ),
        holes=(
            Hole("A1", "12.0", "20.0", "Ø6.6 THRU"),
            Hole("A2", "84.0", "20.0", "Ø6.6 THRU"),
            Hole("B1", "48.0", "8.0", "M4x0.7"),
        ),
        revisions=(
            Rev("C", "First release", "2025-07-01", ("First release",), zone="-", by="PH"),
            Rev("D", "Hole A2 moved to X 84.0", "2025-12-15", ("moved",), zone="B2", by="RI"),
            Rev("E", "Material was 1.4016", "2026-03-12", ("1.4016",), zone="C4", by="RI"),
        ),
        rev_columns=(
            ("rev", "REV", 70),
            ("zone", "ZONE", 90),
            ("text", "DESCRIPTION", 390),
            ("date", "DATE", 170),
            ("by", "BY", 80),
        ),
        asks=(
            Ask("material", "What's the cable clamp made of?", ("1.4301",), ("field", "naming")),
            Ask("material-short", "Material of CC-5012-02?", ("1.4301",), ("field",)),
            Ask(
                "revision",
                "Which revision is the cable clamp drawing at?",
                ("E",),
                ("field", "naming"),
            ),
            Ask(
                "finish",
                "What finish does CC-5012-02_cable_clamp.png call for?",
                ("BEAD BLASTED", "bead blasted", "blasted"),
                ("field", "naming"),
            ),
            Ask("mass", "How heavy is the cable clamp?", ("85 g", "85"), ("field", "naming")),
            Ask(
                "checker",
                "Who checked the clamp drawing, the one in 1.4301?",
                ("R. IMAI", "IMAI"),
                ("field", "naming"),
            ),
            Ask("scale", "What scale is CC-5012-02 drawn at?", ("2:1",), ("field",)),
            Ask(
                "project",
                "Which project is the cable clamp for?",
                ("LINE 7 RETROFIT", "LINE 7"),
                ("field", "naming"),
            ),
            Ask(
                "bore-fit",
                "What fit is on the big hole in the middle of the cable clamp?",
                ("Ø22 H8", "H8"),
                ("dimension", "naming"),
            ),
            Ask("length", "How long is CC-5012-02 overall?", ("96",), ("dimension",)),
            Ask("radius", "Corner radius on the cable clamp?", ("R5",), ("dimension", "naming")),
            Ask(
                "thickness",
                "What tolerance is on the 3 mm thickness of CC-5012-02?",
                ("±0.05", "0.05"),
                ("dimension",),
            ),
            Ask(
                "edges",
                "How much should the edges of the cable clamp be broken?",
                ("0.2 x 45°", "0.2"),
                ("note", "naming"),
            ),
            Ask(
                "gentol",
                "Which general tolerance applies to the cable clamp?",
                ("ISO 2768-fH", "2768-fH"),
                ("note", "naming"),
            ),
            Ask(
                "marking",
                "How high are the laser marked characters on CC-5012-02?",
                ("3 mm",),
                ("note",),
            ),
            Ask(
                "hole-a2",
                "Where is hole A2 of CC-5012-02 in X?",
                ("84.0",),
                ("table",),
            ),
            Ask(
                "hole-b1",
                "What thread is hole B1 on the cable clamp?",
                ("M4x0.7",),
                ("table", "naming"),
            ),
            Ask(
                "rev-e",
                "What material did the cable clamp have before revision E?",
                ("1.4016",),
                ("table", "naming"),
            ),
            Ask(
                "rev-zone", "Which zone is the rev D change of CC-5012-02 in?", ("B2",), ("table",)
            ),
            Ask(
                "rev-by",
                "Who signed revision D on the cable clamp drawing?",
                ("RI",),
                ("table", "naming"),
            ),
            Ask("trap-approver", "Who approved drawing CC-5012-02?", (), ("unanswerable",)),
            Ask(
                "trap-roughness",
                "What surface roughness does the bore of the cable clamp need?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-hole-b2",
                "What's the X position of hole B2 on CC-5012-02?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-number", "What material is drawing CC-5012-03?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="sensor_bracket.png",
        style="iso",
        split="heldout",
        number="SB-3307-11",
        title="SENSOR BRACKET",
        english="sensor bracket",
        layout="beside",
        fields=(
            Field("title", "Title", "SENSOR BRACKET", span=2),
            Field("number", "Drawing No.", "SB-3307-11"),
            Field("revision", "Revision", "03"),
            Field("material", "Material", "EN AW-6082-T6", ("6082-T6",)),
            Field("surface", "Surface treatm.", "Anodised black", ("anodised",)),
            Field("mass", "Weight", "0.42 kg", ("0.42",)),
            Field("scale", "Scale", "1:1"),
            Field("format", "Sheet size", "A4"),
            Field("tolerance", "General tol.", "ISO 2768-mK", ("2768-mK",)),
            Field("creator", "Designed by", "M. Okafor"),
            Field("checker", "Checked by", "D. Varga"),
            Field("approver", "Approved by", "H. Lindqvist"),
            Field("date", "Date", "12/02/2026"),
        ),
        dims=(
            Dim("linear", "120", "length", "", ()),
            Dim("linear", "45", "width", "", ()),
            Dim("fit", "Ø18 H7", "bore", "", ()),
            Dim("thread", "4x M5 x 10 deep", "holes", "", ()),
            Dim("radius", "R3", "corner", "", ()),
            Dim("tolerance", "6 +0.1/0", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "All edges deburred, 0.3 max",
            "Anodise black after machining, layer 15-25 µm",
            "Datum face A: Ra 0.8",
        ),
        asks=(
            Ask(
                "material",
                "What is the sensor bracket made of?",
                ("EN AW-6082-T6", "6082-T6"),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "Drawing number of the sensor bracket?",
                ("SB-3307-11",),
                ("field", "naming"),
            ),
            Ask("revision", "Which revision is SB-3307-11?", ("03",), ("field",)),
            Ask(
                "designer",
                "Who designed the sensor bracket?",
                ("M. Okafor", "Okafor"),
                ("field", "naming"),
            ),
            Ask("approver", "Who approved SB-3307-11?", ("H. Lindqvist", "Lindqvist"), ("field",)),
            Ask(
                "weight",
                "What does the sensor bracket weigh?",
                ("0.42 kg", "0.42"),
                ("field", "naming"),
            ),
            Ask(
                "date", "What date is on sensor_bracket.png?", ("12/02/2026",), ("field", "naming")
            ),
            Ask("format", "What sheet size is the SB-3307-11 drawing?", ("A4",), ("field",)),
            Ask(
                "gentol",
                "I need the general tolerance class for the sensor bracket",
                ("ISO 2768-mK", "2768-mK"),
                ("field", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment is on the sensor bracket?",
                ("Anodised black", "anodised"),
                ("field", "naming"),
            ),
            Ask(
                "layer",
                "How thick is the anodise layer on SB-3307-11?",
                ("15-25 µm", "15-25"),
                ("note",),
            ),
            Ask(
                "datum-a",
                "What roughness does datum face A of the sensor bracket need?",
                ("Ra 0.8", "0.8"),
                ("note", "naming"),
            ),
            Ask(
                "deburr",
                "How big may the deburred edges be on the bracket for the sensor?",
                ("0.3 max", "0.3"),
                ("note", "naming"),
            ),
            Ask(
                "thread",
                "What thread are the four tapped holes on SB-3307-11?",
                ("M5",),
                ("dimension",),
            ),
            Ask(
                "depth",
                "How deep are the M5 holes on the sensor bracket?",
                ("10 deep", "10"),
                ("dimension", "naming"),
            ),
            Ask(
                "thickness",
                "What's the tolerance on the plate thickness of SB-3307-11?",
                ("+0.1/0", "+0.1"),
                ("dimension",),
            ),
            Ask("width", "How wide is SB-3307-11?", ("45",), ("dimension",)),
            Ask(
                "bore",
                "The bracket with the 18 mm bore, what fit is that bore?",
                ("Ø18 H7", "H7"),
                ("dimension", "naming"),
            ),
            Ask(
                "trap-hole",
                "What is the X position of hole A1 on the sensor bracket?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-hardness",
                "What hardness does SB-3307-11 call for?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-number", "Who designed drawing SB-3307-12?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="D-40127_flanged_bushing.png",
        style="ansi",
        split="heldout",
        number="D-40127",
        title="FLANGED BUSHING",
        english="flanged bushing",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "TITLE", "FLANGED BUSHING", span=2),
            Field("number", "DWG NO.", "D-40127"),
            Field("size", "SIZE", "B"),
            Field("scale", "SCALE", "2:1"),
            Field("revision", "REV", "C"),
            Field("material", "MATERIAL", "C93200 BRONZE", ("C93200", "bronze")),
            Field("finish", "FINISH", "AS MACHINED"),
            Field("weight", "WEIGHT", "0.45 LB", ("0.45",)),
            Field("creator", "DWN", "J. ABERNATHY"),
            Field("checker", "CHK", "M. LEE"),
            Field("approver", "APPD", ""),
            Field("date", "DATE", "03/14/26"),
            Field("sheet", "SHEET", "1 OF 1", ("1 of 1",)),
            Field("cage", "CAGE CODE", "3FV72"),
            Field(
                "tolerance",
                "TOLERANCES UNLESS OTHERWISE SPECIFIED",
                ".XX ±.01   .XXX ±.005   ANGLES ±1°",
                span=3,
            ),
        ),
        dims=(
            Dim("diameter", "Ø1.250", "length", "", ()),
            Dim("diameter", "Ø.875", "width", "", ()),
            Dim("fit", "Ø.5005/.5000", "bore", "", ()),
            Dim("thread", "3X #8-32 UNC-2B", "holes", "", ()),
            Dim("radius", "R.06", "corner", "", ()),
            Dim("tolerance", ".188 ±.005", "thickness", "", ()),
            Dim("angle", "45° X .03", "angle", "", ()),
        ),
        notes=(
            "BREAK ALL SHARP EDGES .005-.015",
            "DIMENSIONS ARE IN INCHES",
            "PRESS FIT INTO HOUSING, REAM AFTER ASSEMBLY",
        ),
        revisions=(
            Rev("A", "INITIAL RELEASE", "09/02/25", ("INITIAL RELEASE",)),
            Rev("B", "BORE WAS .4995/.4990", "11/20/25", (".4995/.4990", ".4995")),
            Rev("C", "ADDED CHAMFER 45° X .03", "03/14/26", ("CHAMFER",)),
        ),
        # Narrower than the style's block, which would run into the flange thickness.
        rev_columns=(("rev", "REV", 70), ("text", "DESCRIPTION", 420), ("date", "DATE", 170)),
        asks=(
            Ask(
                "material",
                "What's the flanged bushing made of?",
                ("C93200 BRONZE", "C93200", "bronze"),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "What is the drawing number for the flanged bushing?",
                ("D-40127",),
                ("field", "naming"),
            ),
            Ask("revision", "D-40127, what rev is it?", ("C",), ("field",)),
            Ask("size", "What size sheet is D-40127 on?", ("B",), ("field",)),
            Ask(
                "drawn",
                "Who drew the bushing?",
                ("J. ABERNATHY", "ABERNATHY"),
                ("field", "naming"),
            ),
            Ask(
                "checker",
                "Who checked D-40127_flanged_bushing.png?",
                ("M. LEE", "LEE"),
                ("field", "naming"),
            ),
            Ask(
                "weight",
                "What's the weight of the bronze bushing?",
                ("0.45 LB", "0.45"),
                ("field", "naming"),
            ),
            Ask(
                "three-place",
                "What's the three-place decimal tolerance on D-40127?",
                ("±.005", ".005"),
                ("field",),
            ),
            Ask(
                "angles",
                "What is the angular tolerance on the flanged bushing?",
                ("ANGLES ±1°", "±1°"),
                ("field", "naming"),
            ),
            Ask("cage", "What's the CAGE code on drawing D-40127?", ("3FV72",), ("field",)),
            Ask(
                "bore",
                "What are the bore limits of the flanged bushing?",
                ("Ø.5005/.5000", ".5005/.5000", ".5005"),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread are the three tapped holes in D-40127?",
                ("#8-32 UNC-2B", "8-32 UNC", "8-32"),
                ("dimension",),
            ),
            Ask(
                "flange",
                "How thick is the flange on the flanged bushing?",
                (".188",),
                ("dimension", "naming"),
            ),
            Ask("chamfer", "What chamfer is on D-40127?", ("45° X .03", ".03"), ("dimension",)),
            Ask(
                "od",
                "Outside diameter of the flange of D-40127?",
                ("Ø1.250", "1.250"),
                ("dimension",),
            ),
            Ask(
                "rev-b",
                "What was the bore before revision B of the bushing?",
                (".4995/.4990", ".4995"),
                ("table", "naming"),
            ),
            Ask("rev-c-date", "When was rev C of D-40127 released?", ("03/14/26",), ("table",)),
            Ask(
                "rev-c",
                "What changed in rev C of the flanged bushing drawing?",
                ("ADDED CHAMFER", "chamfer"),
                ("table", "naming"),
            ),
            Ask(
                "ream",
                "What happens after the bushing D-40127 is pressed into its housing?",
                ("REAM AFTER ASSEMBLY", "ream"),
                ("note",),
            ),
            Ask(
                "edges",
                "How much are the sharp edges of the bronze bushing broken?",
                (".005-.015",),
                ("note", "naming"),
            ),
            Ask(
                "trap-approver",
                "Who approved the flanged bushing drawing?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-rev-d", "When was revision D of D-40127 made?", (), ("unanswerable",)),
            Ask(
                "trap-force",
                "What press-in force does the flanged bushing need?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="pump_mounting_flange.png",
        style="ansi",
        split="heldout",
        number="PF-20417",
        title="PUMP MOUNTING FLANGE",
        english="pump mounting flange",
        layout="inline",
        fields=(
            Field("title", "TITLE", "PUMP MOUNTING FLANGE", span=2),
            Field("number", "DWG NO.", "PF-20417"),
            Field("revision", "REV", "A"),
            Field("size", "SIZE", "C"),
            Field("scale", "SCALE", "1:2"),
            Field("material", "MATL", "ASTM A36", ("A36",)),
            Field("finish", "FINISH", "PAINT RAL 5010", ("RAL 5010", "5010")),
            Field("weight", "WT", "4.6 KG", ("4.6",)),
            Field("sheet", "SHEET", "2 OF 3", ("2 of 3",)),
            Field("creator", "DWN", "A. PATEL"),
            Field("checker", "CHK", "S. NGUYEN"),
            Field("approver", "APPD", "K. BROOKS"),
            Field("date", "DATE", "2026-01-30"),
        ),
        dims=(
            Dim("diameter", "Ø260", "length", "", ()),
            Dim("linear", "200", "width", "", ()),
            Dim("tolerance", "Ø110 +0.035/0", "bore", "", ()),
            Dim("diameter", "6X Ø14 THRU ON Ø230 B.C.", "holes", "", ()),
            Dim("radius", "R15", "corner", "", ()),
            Dim("tolerance", "20 ±0.3", "thickness", "", ()),
            Dim("angle", "60°", "angle", "", ()),
        ),
        notes=(
            "DIMENSIONS ARE IN MILLIMETERS",
            "TOLERANCES UNLESS OTHERWISE SPECIFIED: ±0.5",
            "FLATNESS 0.05 ON PUMP FACE",
            "PAINT ALL EXCEPT PUMP FACE AND BORE",
        ),
        holes=(
            Hole("A1", "115.0", "0.0", "Ø14 THRU"),
            Hole("A2", "57.5", "99.6", "Ø14 THRU"),
            Hole("A3", "-57.5", "99.6", "Ø14 THRU"),
            Hole("A4", "-115.0", "0.0", "Ø14 THRU"),
            Hole("A5", "-57.5", "-99.6", "Ø14 THRU"),
            Hole("A6", "57.5", "-99.6", "Ø14 THRU"),
            Hole("B1", "0.0", "-80.0", "M10x1.5"),
            Hole("B2", "0.0", "80.0", "M10x1.5"),
        ),
        asks=(
            Ask(
                "material",
                "What's the pump mounting flange made of?",
                ("ASTM A36", "A36"),
                ("field", "naming"),
            ),
            Ask(
                "number",
                "Drawing number of the pump mounting flange?",
                ("PF-20417",),
                ("field", "naming"),
            ),
            Ask("sheet", "Which sheet is PF-20417?", ("2 OF 3", "2 of 3"), ("field",)),
            Ask("weight", "How heavy is the pump flange?", ("4.6 KG", "4.6"), ("field", "naming")),
            Ask("drawn", "Who drew PF-20417?", ("A. PATEL", "PATEL"), ("field",)),
            Ask(
                "approver",
                "Who approved the pump mounting flange?",
                ("K. BROOKS", "BROOKS"),
                ("field", "naming"),
            ),
            Ask(
                "colour",
                "What colour is the part on pump_mounting_flange.png painted?",
                ("RAL 5010", "5010"),
                ("field", "naming"),
            ),
            Ask("size", "What drawing size is PF-20417?", ("C",), ("field",)),
            Ask(
                "date",
                "What's the date on the pump flange drawing?",
                ("2026-01-30",),
                ("field", "naming"),
            ),
            Ask(
                "bolt-circle",
                "What's the bolt circle diameter on the pump mounting flange?",
                ("Ø230", "230"),
                ("dimension", "naming"),
            ),
            Ask(
                "holes",
                "What size are the six through holes on the pump flange?",
                ("Ø14",),
                ("dimension", "naming"),
            ),
            Ask("od", "Outside diameter of PF-20417?", ("Ø260", "260"), ("dimension",)),
            Ask(
                "bore",
                "What's the bore tolerance on the pump mounting flange?",
                ("+0.035/0", "+0.035"),
                ("dimension", "naming"),
            ),
            Ask(
                "flatness",
                "How flat must the pump face of PF-20417 be?",
                ("FLATNESS 0.05", "0.05"),
                ("note",),
            ),
            Ask("gentol", "What is the general tolerance on PF-20417?", ("±0.5", "0.5"), ("note",)),
            Ask(
                "unpainted",
                "Which faces of the pump flange are left unpainted?",
                ("PUMP FACE",),
                ("note", "naming"),
            ),
            Ask(
                "hole-a2",
                "Y location of hole A2 on the pump mounting flange?",
                ("99.6",),
                ("table", "naming"),
            ),
            Ask("hole-b2", "What size is hole B2 on PF-20417?", ("M10x1.5",), ("table",)),
            Ask(
                "hole-a4",
                "Hole A4 on the pump flange, where is it in X?",
                ("-115.0", "-115"),
                ("table", "naming"),
            ),
            Ask("trap-hole-c1", "What size is hole C1 on PF-20417?", (), ("unanswerable",)),
            Ask(
                "trap-number",
                "What is the weight on drawing PF-20418?",
                (),
                ("unanswerable",),
            ),
            Ask(
                "trap-bolts",
                "What bolts hold the pump on the pump mounting flange?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="Antriebswelle_AW-2281-00.png",
        style="de",
        split="heldout",
        number="AW-2281-00",
        title="Antriebswelle",
        english="drive shaft",
        layout="below",
        columns=3,
        fields=(
            Field("title", "Benennung", "Antriebswelle", ("drive shaft",), span=2),
            Field("number", "Zeichnungsnummer", "AW-2281-00"),
            Field("material", "Werkstoff", "42CrMo4"),
            Field(
                "heat treatment",
                "Wärmebehandlung",
                "vergütet",
                ("quenched and tempered", "hardened and tempered"),
            ),
            Field("surface", "Oberfläche", "brüniert", ("blackened", "black oxide")),
            Field("weight", "Gewicht", "3,8 kg", ("3.8 kg", "3,8", "3.8")),
            Field("scale", "Maßstab", "1:2"),
            Field("sheet", "Blatt", "1 von 2", ("1 of 2",)),
            Field("creator", "Gezeichnet", "F. Brandt"),
            Field("checker", "Geprüft", "U. Seidel"),
            Field("approver", "Freigabe", ""),
            Field("date", "Datum", "14.01.2026"),
            Field("tolerance", "Allgemeintoleranz", "ISO 2768-mK", ("2768-mK",)),
            Field("revision", "Änderungsindex", "C"),
        ),
        dims=(
            Dim("linear", "285", "length", "", ()),
            Dim("diameter", "Ø55", "width", "", ()),
            Dim("fit", "Ø40 k6", "bore", "", ()),
            Dim("thread", "M10x1,25", "holes", "", ()),
            Dim("radius", "R2", "corner", "", ()),
            Dim("fit", "12 P9", "thickness", "", ()),
            Dim("angle", "30°", "angle", "", ()),
        ),
        notes=(
            "Vergütet auf 900-1100 N/mm²",
            "Lagersitze geschliffen, Ra 0,4",
            "Nicht bemaßte Radien R0,5",
            "Zentrierbohrung DIN 332-D M10 beidseitig",
        ),
        revisions=(
            Rev("A", "Erstausgabe", "02.06.2025", ("Erstausgabe",), zone="-", by="FB"),
            Rev("B", "Passung Ø40 k6 statt j6", "20.10.2025", ("k6", "j6"), zone="C3", by="US"),
            Rev(
                "C",
                "Wärmebehandlung ergänzt",
                "14.01.2026",
                ("Wärmebehandlung",),
                zone="A1",
                by="US",
            ),
        ),
        rev_columns=(
            ("rev", "Index", 80),
            ("zone", "Zone", 80),
            ("text", "Änderung", 360),
            ("date", "Datum", 170),
            ("by", "Name", 90),
        ),
        asks=(
            Ask(
                "material",
                "What material is the drive shaft?",
                ("42CrMo4",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "heat",
                "What's the heat treatment on AW-2281-00?",
                ("vergütet", "quenched and tempered", "hardened and tempered"),
                ("field", "field_foreign"),
            ),
            Ask(
                "strength",
                "What strength is the Antriebswelle heat treated to?",
                ("900-1100 N/mm²", "900-1100"),
                ("note", "naming"),
            ),
            Ask(
                "weight",
                "How much does the drive shaft weigh?",
                ("3,8 kg", "3.8 kg", "3,8", "3.8"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "drawn",
                "Who drew Antriebswelle_AW-2281-00.png?",
                ("F. Brandt", "Brandt"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "checker",
                "Who checked the drive shaft drawing?",
                ("U. Seidel", "Seidel"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What's the surface finish of the Antriebswelle, the Oberfläche?",
                ("brüniert", "blackened", "black oxide"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("sheet", "Which sheet is AW-2281-00?", ("1 von 2",), ("field", "field_foreign")),
            Ask(
                "scale",
                "What scale is the drive shaft drawn at?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "index",
                "What Änderungsindex is the drive shaft drawing on?",
                ("C",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "fit",
                "What fit is on the bearing seat of the drive shaft?",
                ("Ø40 k6", "k6"),
                ("dimension", "naming"),
            ),
            Ask(
                "thread",
                "What thread is on AW-2281-00?",
                ("M10x1,25", "M10x1.25"),
                ("dimension",),
            ),
            Ask(
                "length",
                "How long is the Antriebswelle overall?",
                ("285",),
                ("dimension", "naming"),
            ),
            Ask(
                "keyway",
                "What's the keyway width and fit on AW-2281-00?",
                ("12 P9", "P9"),
                ("dimension",),
            ),
            Ask(
                "seats",
                "How rough may the bearing seats of the drive shaft be?",
                ("Ra 0,4", "Ra 0.4", "0,4", "0.4"),
                ("note", "naming"),
            ),
            Ask(
                "centre",
                "What centre holes does AW-2281-00 call for?",
                ("DIN 332-D M10", "DIN 332-D", "332-D"),
                ("note",),
            ),
            Ask(
                "rev-b",
                "What changed in index B of the drive shaft drawing?",
                ("k6", "j6"),
                ("table", "naming"),
            ),
            Ask(
                "rev-zone",
                "In which zone is the index C change on AW-2281-00?",
                ("A1",),
                ("table",),
            ),
            Ask(
                "first",
                "When was the drive shaft drawing first issued?",
                ("02.06.2025",),
                ("table", "naming"),
            ),
            Ask("trap-release", "Who released AW-2281-00?", (), ("unanswerable",)),
            Ask("trap-rev-d", "What does index D of AW-2281-00 change?", (), ("unanswerable",)),
            Ask(
                "trap-hrc",
                "What hardness in HRC must the drive shaft reach?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
    Drawing(
        file_name="klemmhebel.png",
        style="de",
        split="heldout",
        number="KH-0518-3",
        title="Klemmhebel",
        english="clamping lever",
        layout="inline",
        fields=(
            Field("title", "Benennung", "Klemmhebel", ("clamping lever", "clamp lever"), span=2),
            Field("number", "Zeichnungs-Nr.", "KH-0518-3"),
            Field("revision", "Ausgabe", "02"),
            Field("material", "Werkstoff", "POM-C"),
            Field("colour", "Farbe", "schwarz", ("black",)),
            Field("weight", "Gewicht", "18 g", ("18",)),
            Field("scale", "Maßstab", "2:1"),
            Field("tolerance", "Toleranzen", "DIN ISO 20457 TG6", ("20457", "TG6")),
            Field("sheet", "Blatt", "1/1"),
            Field("creator", "Gezeichnet", "A. Wolf"),
            Field("checker", "Geprüft", "T. Koch"),
            Field("approver", "Freigabe", "M. Schulz"),
            Field("date", "Datum", "03.03.2026"),
        ),
        dims=(
            Dim("linear", "68", "length", "", ()),
            Dim("linear", "22", "width", "", ()),
            Dim("fit", "Ø10 H9", "bore", "", ()),
            Dim("diameter", "2x Ø4,5", "holes", "", ()),
            Dim("radius", "R11", "corner", "", ()),
            Dim("tolerance", "8 ±0,1", "thickness", "", ()),
            Dim("angle", "15°", "angle", "", ()),
        ),
        notes=(
            "Spritzgrat max. 0,1 mm",
            "Entformungsschrägen 1° zulässig",
            "Teil mit Zeichnungsnummer kennzeichnen",
        ),
        holes=(
            Hole("B1", "0,0", "0,0", "Ø10 H9"),
            Hole("B2", "48,0", "6,5", "Ø4,5"),
            Hole("B3", "48,0", "-6,5", "Ø4,5"),
        ),
        asks=(
            Ask(
                "material",
                "What plastic is the Klemmhebel made of?",
                ("POM-C",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "colour",
                "What colour is the clamping lever?",
                ("schwarz", "black"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("weight", "What does KH-0518-3 weigh?", ("18 g", "18"), ("field", "field_foreign")),
            Ask(
                "issue",
                "What issue is the clamping lever drawing at?",
                ("02",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "approver",
                "Who approved klemmhebel.png?",
                ("M. Schulz", "Schulz"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "tolerance",
                "Which tolerance standard covers dimensions without tolerance on KH-0518-3?",
                ("DIN ISO 20457 TG6", "20457", "TG6"),
                ("field", "field_foreign"),
            ),
            Ask(
                "date", "What date is KH-0518-3 from?", ("03.03.2026",), ("field", "field_foreign")
            ),
            Ask(
                "checker",
                "Who checked the Klemmhebel?",
                ("T. Koch", "Koch"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "The lever in POM-C, which scale is it drawn at?",
                ("2:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "pivot",
                "What fit is on the pivot bore of the clamping lever?",
                ("Ø10 H9", "H9"),
                ("dimension", "naming"),
            ),
            Ask("length", "How long is the clamping lever?", ("68",), ("dimension", "naming")),
            Ask(
                "thickness",
                "Tolerance on the 8 mm thickness of KH-0518-3?",
                ("±0,1", "±0.1", "0,1", "0.1"),
                ("dimension",),
            ),
            Ask(
                "flash",
                "How much flash is allowed on the clamping lever?",
                ("0,1 mm", "0.1 mm", "0,1", "0.1"),
                ("note", "naming"),
            ),
            Ask("draft", "What draft angle is allowed on KH-0518-3?", ("1°",), ("note",)),
            Ask(
                "hole-b3",
                "What is the Y coordinate of hole B3 on the Klemmhebel?",
                ("-6,5", "-6.5"),
                ("table", "naming"),
            ),
            Ask(
                "hole-b2",
                "Hole B2 on KH-0518-3, what size is it?",
                ("Ø4,5", "Ø4.5", "4,5", "4.5"),
                ("table",),
            ),
            Ask("trap-hole-b4", "What size is hole B4 of the Klemmhebel?", (), ("unanswerable",)),
            Ask(
                "trap-mould",
                "Which mould number is the clamping lever made in?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-number", "What material is drawing KH-0519-3?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="AT-7719_axeltapp.png",
        style="se",
        split="heldout",
        number="AT-7719",
        title="Axeltapp",
        english="axle pin",
        layout="under",
        fields=(
            Field("title", "Benämning", "Axeltapp", ("axle pin", "stub axle"), span=2),
            Field("number", "Ritn.nr", "AT-7719"),
            Field("revision", "Rev.", "D"),
            Field("material", "Material", "C45E"),
            Field("surface", "Ytbehandling", "Förnicklad", ("nickel plated", "nickel")),
            Field("weight", "Vikt", "0,65 kg", ("0.65 kg", "0,65", "0.65")),
            Field("scale", "Skala", "1:1"),
            Field("creator", "Konstruerad", "J. Holm"),
            Field("checker", "Granskad", "A. Ek"),
            Field("approver", "Godkänd", ""),
            Field("date", "Datum", "2026-01-22"),
            Field("sheet", "Blad", "1(1)"),
        ),
        dims=(
            Dim("linear", "110", "length", "", ()),
            Dim("fit", "Ø25 f7", "width", "", ()),
            Dim("fit", "Ø6 H11", "bore", "", ()),
            Dim("thread", "M12x1,25", "holes", "", ()),
            Dim("radius", "R0,8", "corner", "", ()),
            Dim("tolerance", "8 -0,1", "thickness", "", ()),
            Dim("angle", "2 x 45°", "angle", "", ()),
        ),
        notes=(
            "Induktionshärdad 50-55 HRC, djup 1-1,5 mm",
            "Ej måttsatta fasar 0,5 x 45°",
            "Allmänna toleranser SS-ISO 2768-m",
        ),
        revisions=(
            Rev("A", "Första utgåva", "2025-04-11", ("Första utgåva",), by="JH"),
            Rev("B", "Fas 2 x 45° tillagd", "2025-06-02", ("Fas", "2 x 45°"), by="JH"),
            Rev("C", "Ø25 f7, var g6", "2025-09-18", ("g6", "f7"), by="AE"),
            Rev("D", "Material ändrat till C45E", "2026-01-22", ("C45E", "Material"), by="AE"),
        ),
        rev_columns=(
            ("rev", "Rev.", 80),
            ("text", "Ändring", 400),
            ("date", "Datum", 190),
            ("by", "Sign.", 100),
        ),
        asks=(
            Ask(
                "material",
                "What's the axle pin made of?",
                ("C45E",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "revision",
                "Which revision is the Axeltapp at?",
                ("D",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer", "Who designed AT-7719?", ("J. Holm", "Holm"), ("field", "field_foreign")
            ),
            Ask(
                "reviewer",
                "Who reviewed the axle pin drawing?",
                ("A. Ek", "Ek"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "How much does AT-7719_axeltapp.png weigh?",
                ("0,65 kg", "0.65 kg", "0,65", "0.65"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "plating",
                "What plating does the axle pin get?",
                ("Förnicklad", "nickel plated", "nickel"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale",
                "Scale of the axeltapp drawing?",
                ("1:1",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "hardness",
                "How hard is the Axeltapp after induction hardening?",
                ("50-55 HRC", "50-55"),
                ("note", "naming"),
            ),
            Ask(
                "depth",
                "How deep is the hardening on AT-7719?",
                ("1-1,5 mm", "1-1.5 mm", "1-1,5", "1-1.5"),
                ("note",),
            ),
            Ask(
                "gentol",
                "What general tolerances apply to the stub axle?",
                ("SS-ISO 2768-m", "2768-m"),
                ("note", "naming"),
            ),
            Ask(
                "chamfers",
                "What size are the chamfers that aren't dimensioned on AT-7719?",
                ("0,5 x 45°", "0.5 x 45°", "0,5", "0.5"),
                ("note",),
            ),
            Ask(
                "fit",
                "What fit is on the 25 mm diameter of the axle pin?",
                ("Ø25 f7", "f7"),
                ("dimension", "naming"),
            ),
            Ask("length", "How long is the axle pin?", ("110",), ("dimension", "naming")),
            Ask(
                "thread",
                "What thread is on the end of the axle pin?",
                ("M12x1,25", "M12x1.25"),
                ("dimension", "naming"),
            ),
            Ask(
                "cross", "What size is the cross hole in AT-7719?", ("Ø6 H11", "Ø6"), ("dimension",)
            ),
            Ask(
                "rev-c",
                "What fit did the Ø25 have before rev C of AT-7719?",
                ("g6",),
                ("table",),
            ),
            Ask(
                "rev-b-date",
                "When was revision B of the axle pin drawing made?",
                ("2025-06-02",),
                ("table", "naming"),
            ),
            Ask("rev-c-sign", "Who signed revision C on AT-7719?", ("AE",), ("table",)),
            Ask("trap-approver", "Who approved the axle pin?", (), ("unanswerable",)),
            Ask(
                "trap-old-material",
                "What material was AT-7719 made of before revision D?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-rev-e", "Who signed revision E of AT-7719?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="konsol.png",
        style="se",
        split="heldout",
        number="KB-3350-02",
        title="Konsol",
        english="bracket",
        layout="stacked",
        columns=3,
        fields=(
            Field("title", "Benämning", "Konsol", ("bracket",), span=2),
            Field("number", "Ritn. nr", "KB-3350-02"),
            Field("revision", "Rev", "A"),
            Field("scale", "Skala", "1:5"),
            Field("material", "Material", "S355J2"),
            Field(
                "surface",
                "Ytbehandling",
                "Varmförzinkad",
                ("hot-dip galvanised", "hot-dip galvanized", "galvanised", "galvanized"),
            ),
            Field("weight", "Vikt", "1,9 kg", ("1.9 kg", "1,9", "1.9")),
            Field("format", "Format", "A3"),
            Field("creator", "Konstruerad", "K. Sjöberg"),
            Field("checker", "Granskad", "L. Strand"),
            Field("approver", "Godkänd", "P. Lind"),
            Field("date", "Datum", "2026-02-27"),
            Field("sheet", "Blad", "1/2"),
        ),
        dims=(
            Dim("linear", "250", "length", "", ()),
            Dim("linear", "160", "width", "", ()),
            Dim("diameter", "Ø40", "bore", "", ()),
            Dim("diameter", "4x Ø13", "holes", "", ()),
            Dim("radius", "R20", "corner", "", ()),
            Dim("linear", "t=8", "thickness", "", ()),
            Dim("angle", "90°", "angle", "", ()),
        ),
        notes=(
            "Svets a4 runtom",
            "Varmförzinkas efter svetsning, min 70 µm",
            "Allmänna toleranser ISO 13920-BF",
        ),
        holes=(
            Hole("H1", "20", "20", "Ø13"),
            Hole("H2", "230", "20", "Ø13"),
            Hole("H3", "20", "140", "Ø13"),
            Hole("H4", "230", "140", "Ø13"),
            Hole("H5", "125", "80", "Ø40"),
        ),
        asks=(
            Ask(
                "material",
                "What steel is the Konsol made of?",
                ("S355J2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the galvanised bracket?",
                ("KB-3350-02",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "scale", "What scale is konsol.png?", ("1:5",), ("field", "field_foreign", "naming")
            ),
            Ask(
                "surface",
                "How is the surface of bracket KB-3350-02 treated?",
                ("Varmförzinkad", "hot-dip galvanised", "galvanised", "galvanized"),
                ("field", "field_foreign"),
            ),
            Ask(
                "weight",
                "What does the Konsol weigh?",
                ("1,9 kg", "1.9 kg", "1,9", "1.9"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "approver",
                "Who approved KB-3350-02?",
                ("P. Lind", "Lind"),
                ("field", "field_foreign"),
            ),
            Ask(
                "checker",
                "Who checked the bracket drawing KB-3350-02?",
                ("L. Strand", "Strand"),
                ("field", "field_foreign"),
            ),
            Ask(
                "designer",
                "Who designed the Konsol?",
                ("K. Sjöberg", "Sjöberg"),
                ("field", "field_foreign", "naming"),
            ),
            Ask("format", "What format is KB-3350-02 on?", ("A3",), ("field", "field_foreign")),
            Ask(
                "sheet",
                "Which sheet of how many is KB-3350-02?",
                ("1/2",),
                ("field", "field_foreign"),
            ),
            Ask(
                "revision",
                "Which revision is the bracket drawing at, the Konsol?",
                ("A",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("weld", "What weld size is called for on the Konsol?", ("a4",), ("note", "naming")),
            Ask(
                "zinc",
                "How thick must the zinc be on KB-3350-02?",
                ("70 µm", "70"),
                ("note",),
            ),
            Ask(
                "gentol",
                "Which tolerance standard does the welded bracket follow?",
                ("ISO 13920-BF", "13920-BF"),
                ("note", "naming"),
            ),
            Ask("hole-h5", "What size is hole H5 on KB-3350-02?", ("Ø40",), ("table",)),
            Ask(
                "hole-h2",
                "What is the X position of hole H2 on the Konsol?",
                ("230",),
                ("table", "naming"),
            ),
            Ask(
                "thickness",
                "How thick is the plate of the Konsol?",
                ("t=8", "8"),
                ("dimension", "naming"),
            ),
            Ask("radius", "What's the corner radius on KB-3350-02?", ("R20",), ("dimension",)),
            Ask("trap-hole-h6", "What size is hole H6 on the Konsol?", (), ("unanswerable",)),
            Ask(
                "trap-process",
                "Which welding process does KB-3350-02 specify, MIG or TIG?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-number", "What does drawing KB-3350-03 weigh?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="chilunzhou_CZ-4402-01.png",
        style="zh",
        split="heldout",
        number="CZ-4402-01",
        title="齿轮轴",
        english="gear shaft",
        layout="inline",
        fields=(
            Field("title", "名称", "齿轮轴", ("gear shaft",), span=2),
            Field("number", "图号", "CZ-4402-01"),
            Field("material", "材料", "45钢", ("45 steel",)),
            Field("scale", "比例", "1:1"),
            Field("weight", "重量", "1.6 kg", ("1.6",)),
            Field(
                "heat treatment",
                "热处理",
                "调质 220-250HBW",
                ("220-250HBW", "quenched and tempered"),
            ),
            Field("creator", "设计", "王磊"),
            Field("checker", "审核", "李娜"),
            Field("approver", "批准", ""),
            Field("date", "日期", "2026-02-16"),
            Field("sheet", "张次", "共 2 张 第 1 张", ("第 1 张",)),
        ),
        dims=(
            Dim("linear", "220", "length", "", ()),
            Dim("diameter", "Ø45", "width", "", ()),
            Dim("fit", "Ø35 js6", "bore", "", ()),
            Dim("thread", "M8-6H", "holes", "", ()),
            Dim("radius", "R1", "corner", "", ()),
            Dim("fit", "10N9", "thickness", "", ()),
            Dim("angle", "C2", "angle", "", ()),
        ),
        notes=(
            "调质处理 220-250HBW。",
            "齿面淬火 48-52HRC。",
            "未注倒角 C1。",
            "未注公差按 GB/T 1804-m。",
        ),
        revisions=(
            Rev("A", "首次发布", "2025-08-05", ("首次发布",)),
            Rev("B", "键槽改为 10N9", "2026-02-16", ("10N9", "键槽")),
        ),
        asks=(
            Ask(
                "material",
                "What material is the gear shaft?",
                ("45钢", "45 steel"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "heat",
                "What heat treatment does CZ-4402-01 get?",
                ("调质", "220-250HBW", "quenched and tempered"),
                ("field", "field_foreign"),
            ),
            Ask(
                "flanks",
                "How hard are the tooth flanks of the gear shaft?",
                ("48-52HRC",),
                ("note", "naming"),
            ),
            Ask("designer", "Who designed CZ-4402-01?", ("王磊",), ("field", "field_foreign")),
            Ask(
                "checker",
                "Who reviewed the gear shaft drawing?",
                ("李娜",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "weight",
                "How much does chilunzhou_CZ-4402-01.png weigh?",
                ("1.6 kg", "1.6"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "sheets",
                "How many sheets does the gear shaft drawing have?",
                ("共 2 张",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("scale", "What scale is CZ-4402-01?", ("1:1",), ("field", "field_foreign")),
            Ask(
                "date",
                "What's the date on the gear shaft drawing?",
                ("2026-02-16",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "journal",
                "What fit is on the bearing journal of the gear shaft?",
                ("Ø35 js6", "js6"),
                ("dimension", "naming"),
            ),
            Ask(
                "chamfer",
                "What chamfer applies where none is given on CZ-4402-01?",
                ("C1",),
                ("note",),
            ),
            Ask(
                "keyway", "What's the keyway on the gear shaft?", ("10N9",), ("dimension", "naming")
            ),
            Ask(
                "thread",
                "What thread is in the end of CZ-4402-01?",
                ("M8-6H", "M8"),
                ("dimension",),
            ),
            Ask(
                "gentol",
                "Which general tolerance standard does the gear shaft use?",
                ("GB/T 1804-m", "1804-m"),
                ("note", "naming"),
            ),
            Ask(
                "rev-b",
                "What changed in revision B of CZ-4402-01?",
                ("10N9", "键槽"),
                ("table",),
            ),
            Ask(
                "first",
                "When was the gear shaft drawing first released?",
                ("2025-08-05",),
                ("table", "naming"),
            ),
            Ask("length", "Overall length of the gear shaft?", ("220",), ("dimension", "naming")),
            Ask("trap-approver", "Who approved the gear shaft?", (), ("unanswerable",)),
            Ask(
                "trap-module",
                "What module are the gear teeth on CZ-4402-01?",
                (),
                ("unanswerable",),
            ),
            Ask("trap-number", "How much does drawing CZ-4403-01 weigh?", (), ("unanswerable",)),
        ),
    ),
    Drawing(
        file_name="ZJ-6610.png",
        style="zh",
        split="heldout",
        number="ZJ-6610",
        title="支架",
        english="support bracket",
        layout="under",
        columns=3,
        fields=(
            Field("title", "名称", "支架", ("support bracket", "bracket"), span=2),
            Field("number", "图号", "ZJ-6610"),
            Field("material", "材料", "Q235B"),
            Field("scale", "比例", "1:2"),
            Field("weight", "重量", "850 g", ("850",)),
            Field(
                "surface",
                "表面处理",
                "喷塑",
                ("powder coated", "powder coating", "powder coat"),
            ),
            Field("quantity", "数量", "2"),
            Field("revision", "版本", "B"),
            Field("creator", "设计", "陈晨"),
            Field("checker", "审核", ""),
            Field("approver", "批准", "赵强"),
            Field("date", "日期", "2026-02-09"),
            Field("sheet", "张次", "共 1 张 第 1 张", ("第 1 张",)),
        ),
        dims=(
            Dim("linear", "300", "length", "", ()),
            Dim("linear", "150", "width", "", ()),
            Dim("diameter", "Ø60", "bore", "", ()),
            Dim("diameter", "4×Ø11", "holes", "", ()),
            Dim("radius", "R10", "corner", "", ()),
            Dim("linear", "δ=6", "thickness", "", ()),
            Dim("angle", "45°", "angle", "", ()),
        ),
        notes=(
            "未注圆角 R3。",
            "焊后去除焊渣、毛刺。",
            "喷塑颜色 RAL 9005,厚度 60-80μm。",
        ),
        holes=(
            Hole("A", "25", "25", "Ø11"),
            Hole("B", "275", "25", "Ø11"),
            Hole("C", "25", "125", "Ø11"),
            Hole("D", "275", "125", "Ø11"),
            Hole("E", "150", "75", "M8"),
        ),
        asks=(
            Ask(
                "material",
                "What's the support bracket made of?",
                ("Q235B",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "number",
                "What's the drawing number of the support bracket?",
                ("ZJ-6610",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("revision", "Which revision is ZJ-6610?", ("B",), ("field", "field_foreign")),
            Ask(
                "weight",
                "How heavy is the support bracket?",
                ("850 g", "850"),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "surface",
                "What surface treatment does ZJ-6610 get?",
                ("喷塑", "powder coated", "powder coating", "powder coat"),
                ("field", "field_foreign"),
            ),
            Ask(
                "colour",
                "What colour is the powder coat on the support bracket?",
                ("RAL 9005", "9005"),
                ("note", "naming"),
            ),
            Ask(
                "coating",
                "How thick is the coating on ZJ-6610?",
                ("60-80μm", "60-80"),
                ("note",),
            ),
            Ask(
                "approver",
                "Who approved ZJ-6610.png?",
                ("赵强",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "designer",
                "Who designed the support bracket?",
                ("陈晨",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "quantity",
                "How many support brackets are needed, per the drawing?",
                ("2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask(
                "fillet",
                "What is the radius of the fillets that are not dimensioned on the support bracket?",
                ("R3",),
                ("note", "naming"),
            ),
            Ask("hole-e", "What size is hole E on ZJ-6610?", ("M8",), ("table",)),
            Ask(
                "hole-d",
                "Where is hole D on the support bracket in X?",
                ("275",),
                ("table", "naming"),
            ),
            Ask(
                "holes",
                "What size are the four mounting holes of ZJ-6610?",
                ("Ø11",),
                ("dimension",),
            ),
            Ask(
                "plate",
                "How thick is the plate of the support bracket?",
                ("δ=6", "6"),
                ("dimension", "naming"),
            ),
            Ask(
                "centre",
                "What is the centre hole diameter of ZJ-6610?",
                ("Ø60", "60"),
                ("dimension",),
            ),
            Ask(
                "scale",
                "The bracket in Q235B, what scale is it drawn at?",
                ("1:2",),
                ("field", "field_foreign", "naming"),
            ),
            Ask("trap-checker", "Who checked ZJ-6610?", (), ("unanswerable",)),
            Ask("trap-hole-f", "What size is hole F on ZJ-6610?", (), ("unanswerable",)),
            Ask(
                "trap-weld",
                "Which welding standard does the support bracket follow?",
                (),
                ("unanswerable",),
            ),
        ),
    ),
)


# ------------------------------------------------------------------------------------ drawing


def _font(size: int, style: str, bold: bool = False) -> ImageFont.FreeTypeFont:
    if style == "zh":
        return ImageFont.truetype(_CJK, size)
    if style == "ansi":
        name = "DejaVuSansMono-Bold.ttf" if bold else "DejaVuSansMono.ttf"
    elif style == "de":
        name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(_DEJAVU + name, size)


def _label(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, style: str
) -> None:
    """Text on a white patch, so lines under it do not touch the glyphs."""
    font = _font(size, style)
    w = draw.textlength(text, font=font)
    draw.rectangle([xy[0] - 4, xy[1] - 2, xy[0] + w + 4, xy[1] + size + 6], fill=255)
    draw.text(xy, text, font=font, fill=0)


def _dim_line(
    draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], text: str, style: str
) -> None:
    draw.line([a, b], fill=0, width=2)
    for x, y in (a, b):
        draw.line([(x - 7, y - 7), (x + 7, y + 7)], fill=0, width=3)
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    font = _font(34, style)
    w = draw.textlength(text, font=font)
    _label(draw, (mid[0] - w / 2, mid[1] - 20), text, 34, style)


def _part(draw: ImageDraw.ImageDraw, d: Drawing) -> None:
    """A plate in front view with a bore, four holes and a round corner, and a side view."""
    x0, y0, x1, y1 = 300, 300, 1050, 800
    draw.rounded_rectangle([x0, y0, x1, y1], radius=40, outline=0, width=6)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    draw.ellipse([cx - 110, cy - 110, cx + 110, cy + 110], outline=0, width=5)
    for hx, hy in ((x0 + 80, y0 + 80), (x1 - 80, y0 + 80), (x0 + 80, y1 - 80), (x1 - 80, y1 - 80)):
        draw.ellipse([hx - 22, hy - 22, hx + 22, hy + 22], outline=0, width=4)
    # Side view, with a chamfer at its top corner.
    sx0, sx1 = 1180, 1260
    draw.polygon(
        [(sx0, y0), (sx1 - 25, y0), (sx1, y0 + 25), (sx1, y1), (sx0, y1)], outline=0, width=6
    )
    by_slot = {dim.slot: dim for dim in d.dims}
    if "length" in by_slot:
        draw.line([(x0, y1 + 20), (x0, y1 + 130)], fill=0, width=2)
        draw.line([(x1, y1 + 20), (x1, y1 + 130)], fill=0, width=2)
        _dim_line(draw, (x0, y1 + 110), (x1, y1 + 110), by_slot["length"].text, d.style)
    if "width" in by_slot:
        draw.line([(x0 - 20, y0), (x0 - 150, y0)], fill=0, width=2)
        draw.line([(x0 - 20, y1), (x0 - 150, y1)], fill=0, width=2)
        _dim_line(draw, (x0 - 120, y0), (x0 - 120, y1), by_slot["width"].text, d.style)
    if "bore" in by_slot:
        # Leader from the bore's rim down to its label inside the plate, under the bore.
        font = _font(34, d.style)
        w = draw.textlength(by_slot["bore"].text, font=font)
        draw.line([(cx + 40, cy + 103), (cx + 70, cy + 150)], fill=0, width=2)
        _label(draw, (cx - w / 2 + 60, cy + 152), by_slot["bore"].text, 34, d.style)
    if "holes" in by_slot:
        hx, hy = x1 - 80, y1 - 80
        draw.line([(hx + 16, hy + 16), (hx + 140, hy + 140)], fill=0, width=2)
        _label(draw, (hx + 145, hy + 120), by_slot["holes"].text, 34, d.style)
    if "corner" in by_slot:
        draw.line([(x0 + 12, y0 + 12), (x0 - 80, y0 - 90)], fill=0, width=2)
        _label(draw, (x0 - 150, y0 - 140), by_slot["corner"].text, 34, d.style)
    if "thickness" in by_slot:
        draw.line([(sx0, y0 - 20), (sx0, y0 - 110)], fill=0, width=2)
        draw.line([(sx1, y0 - 20), (sx1, y0 - 110)], fill=0, width=2)
        draw.line([(sx0 - 60, y0 - 90), (sx1 + 60, y0 - 90)], fill=0, width=2)
        _label(draw, (sx1 + 70, y0 - 112), by_slot["thickness"].text, 34, d.style)
    if "angle" in by_slot:
        draw.arc([sx1 - 70, y0 - 70, sx1 + 70, y0 + 70], 0, 90, fill=0, width=2)
        _label(draw, (sx1 + 40, y0 + 50), by_slot["angle"].text, 34, d.style)


def _notes(draw: ImageDraw.ImageDraw, d: Drawing, top: int) -> None:
    header = d.captions[2] or _STYLE_WORDS[d.style][0]
    draw.text((110, top), header, font=_font(32, d.style, bold=True), fill=0)
    font = _font(28, d.style)
    y = top + 46
    for i, note in enumerate(d.notes, start=1):
        number = d.note_number.format(i)
        lines = _wrapped(draw, note, font, d.note_wrap) if d.note_wrap else [note]
        indent = draw.textlength(number, font=font)
        draw.text((110, y), number + lines[0], font=font, fill=0)
        for line in lines[1:]:
            y += 46
            # A continuation line hangs under the note's text, not under its number.
            draw.text((110 + indent, y), line, font=font, fill=0)
        y += 46


def _wrapped(
    draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int
) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and draw.textlength(f"{lines[-1]} {word}", font=font) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _table(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int],
    caption: str,
    header: tuple[str, ...],
    rows: list[tuple[str, ...]],
    widths: tuple[int, ...],
    style: str,
    caption_row: bool = True,
) -> None:
    """A boxed table: caption row (unless ``caption_row`` is False), header row, data rows."""
    x, y = box
    row_h = 46
    total = sum(widths)
    n = len(rows) + 1 + caption_row
    draw.rectangle([x, y, x + total, y + n * row_h], outline=0, width=4)
    if caption_row:
        draw.text((x + 12, y + 8), caption, font=_font(28, style, bold=True), fill=0)
    for r, cells in enumerate([header, *rows], start=int(caption_row)):
        top = y + r * row_h
        draw.line([(x, top), (x + total, top)], fill=0, width=2)
        left = x
        for c, (text, w) in enumerate(zip(cells, widths, strict=True)):
            if c:
                draw.line([(left, top), (left, top + row_h)], fill=0, width=2)
            draw.text((left + 10, top + 8), text, font=_font(26, style), fill=0)
            left += w


def _rows(fields: tuple[Field, ...], columns: int = 2) -> list[list[Field]]:
    """Fields packed into rows of ``columns`` cells (a field spans ``span`` of them)."""
    rows: list[list[Field]] = []
    current: list[Field] = []
    for f in fields:
        if sum(c.span for c in current) + f.span > columns:
            rows.append(current)
            current = []
        current.append(f)
    if current:
        rows.append(current)
    return rows


def _block_top(d: Drawing) -> int:
    """The y of the title block's top edge."""
    rows = _rows(d.fields, d.columns)
    row_h = {"below": 82, "under": 82, "beside": 56, "stacked": 44, "inline": 56}[d.layout]
    return PAGE[1] - 60 - row_h * len(rows) * (2 if d.layout == "stacked" else 1)


def _title_block(draw: ImageDraw.ImageDraw, d: Drawing) -> None:
    """The title block in the bottom-right corner, its cells in the drawing's layout."""
    rows = _rows(d.fields, d.columns)
    stacked = d.layout == "stacked"
    row_h = {"below": 82, "under": 82, "beside": 56, "stacked": 44, "inline": 56}[d.layout]
    x1, y1 = PAGE[0] - 60, PAGE[1] - 60
    x0 = x1 - 1060
    y0 = _block_top(d)
    draw.rectangle([x0, y0, x1, y1], outline=0, width=5)
    label_size, value_size = (20, 32) if d.layout in ("below", "under") else (24, 28)
    top = y0
    half = (x1 - x0) // d.columns
    for r, cells in enumerate(rows):
        if r:
            draw.line([(x0, top), (x1, top)], fill=0, width=3)
        left = x0
        for f in cells:
            width = half * f.span
            if left != x0:
                draw.line(
                    [(left, top), (left, top + row_h * (2 if stacked else 1))], fill=0, width=3
                )
            if d.layout == "below":
                draw.text((left + 10, top + 6), f.label, font=_font(label_size, d.style), fill=0)
                draw.text(
                    (left + 20, top + 36), f.value, font=_font(value_size, d.style, True), fill=0
                )
            elif d.layout == "under":
                # The value on top, its label in small letters under it (some ISO blocks).
                draw.text(
                    (left + 16, top + 6), f.value, font=_font(value_size, d.style, True), fill=0
                )
                draw.text((left + 10, top + 52), f.label, font=_font(label_size, d.style), fill=0)
            elif d.layout == "beside":
                split = left + (215 if f.span == 1 else 250)
                draw.line([(split, top), (split, top + row_h)], fill=0, width=2)
                draw.text(
                    (left + 8, top + 14), f.label, font=_font(label_size - 4, d.style), fill=0
                )
                draw.text(
                    (split + 12, top + 12), f.value, font=_font(value_size, d.style, True), fill=0
                )
                if f.date:
                    # A sign-off row: role | name | date, the date in a cell of its own.
                    when = left + width - 190
                    draw.line([(when, top), (when, top + row_h)], fill=0, width=2)
                    draw.text(
                        (when + 10, top + 14), f.date, font=_font(label_size - 2, d.style), fill=0
                    )
            elif d.layout == "stacked":
                draw.line([(left, top + row_h), (left + width, top + row_h)], fill=0, width=2)
                draw.text(
                    (left + 10, top + 10), f.label, font=_font(label_size - 2, d.style), fill=0
                )
                draw.text(
                    (left + 14, top + row_h + 6),
                    f.value,
                    font=_font(value_size, d.style, True),
                    fill=0,
                )
            elif d.bold_values:
                label = f"{f.label}{d.colon}"
                font = _font(value_size, d.style)
                draw.text((left + 10, top + 12), label, font=font, fill=0)
                # The CJK font has no bold face: its strokes are thickened instead.
                draw.text(
                    (left + 10 + draw.textlength(label, font=font), top + 12),
                    f.value,
                    font=_font(value_size, d.style, True),
                    fill=0,
                    stroke_width=1 if d.style == "zh" else 0,
                    stroke_fill=0,
                )
            else:
                draw.text(
                    (left + 10, top + 12),
                    f"{f.label}{d.colon}{f.value}".rstrip(),
                    font=_font(value_size, d.style),
                    fill=0,
                )
            left += width
        top += row_h * (2 if stacked else 1)


def draw_drawing(d: Drawing) -> Image.Image:
    """Render one drawing as a greyscale page."""
    page = Image.new("L", PAGE, 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle([40, 40, PAGE[0] - 40, PAGE[1] - 40], outline=0, width=6)
    _part(draw, d)
    words = _STYLE_WORDS[d.style]
    top = 110
    if d.holes:
        columns = d.hole_columns or tuple(
            zip(("tag", "x", "y", "size"), words[2], (110, 140, 140, 250), strict=True)
        )
        _table(
            draw,
            (PAGE[0] - 79 - sum(c[2] for c in columns), top),
            d.captions[0] or words[1],
            tuple(c[1] for c in columns),
            [tuple(getattr(h, c[0]) for c in columns) for h in d.holes],
            tuple(c[2] for c in columns),
            d.style,
        )
        # A drawing with both tables has its revision block under the hole table.
        top += (len(d.holes) + 2) * 46 + 40
    if d.revisions and not d.rev_above_block:
        columns = d.rev_columns or tuple(
            zip(("rev", "text", "date"), words[4], (90, 440, 230), strict=True)
        )
        _table(
            draw,
            (PAGE[0] - 79 - sum(c[2] for c in columns), top),
            d.captions[1] or words[3],
            tuple(c[1] for c in columns),
            [tuple(getattr(r, c[0]) for c in columns) for r in d.revisions],
            tuple(c[2] for c in columns),
            d.style,
        )
    _above_block(draw, d)
    _notes(draw, d, 1060)
    _title_block(draw, d)
    return page


def _above_block(draw: ImageDraw.ImageDraw, d: Drawing) -> None:
    """Tables standing on the title block: the change rows right above it, the parts list above them."""
    bottom = _block_top(d)
    stack: list[tuple[tuple[tuple[str, str, int], ...], list[object], str]] = []
    if d.revisions and d.rev_above_block:
        stack.append((d.rev_columns, list(d.revisions), ""))
    if d.parts:
        stack.append((d.part_columns, list(d.parts), d.part_caption))
    for columns, rows, caption in stack:
        bottom -= (len(rows) + 1 + bool(caption)) * 46
        _table(
            draw,
            (PAGE[0] - 60 - sum(c[2] for c in columns), bottom),
            caption,
            tuple(c[1] for c in columns),
            [tuple(getattr(r, c[0]) for c in columns) for r in rows],
            tuple(c[2] for c in columns),
            d.style,
            caption_row=bool(caption),
        )


#: PNG text key holding :func:`render_stamp` of what drew the file.
_STAMP_KEY = "openclaw-render"


@functools.cache
def _renderer_source() -> str:
    """This module's text without the drawing records and the questions: what draws a record."""
    text = Path(__file__).read_text(encoding="utf-8")
    records = text.index("\nDRAWINGS: tuple[Drawing, ...] = (")
    drawing = re.search(r"^# -+ drawing$", text, re.M)
    questions = re.search(r"^# -+ questions$", text, re.M)
    assert drawing is not None and questions is not None, "the section lines of this module moved"
    return text[:records] + text[drawing.start() : questions.start()]


def render_stamp(d: Drawing) -> str:
    """A hash of the record and of the code that draws it: a cached PNG with another stamp is stale."""
    return hashlib.sha256((_renderer_source() + repr(d)).encode()).hexdigest()[:16]


def _stamp_of(path: Path) -> str:
    try:
        with Image.open(path) as image:
            return str(image.info.get(_STAMP_KEY, ""))
    except OSError:  # a truncated or foreign file is drawn again
        return ""


def write_drawings(folder: Path | None = None) -> list[Path]:
    """Write every drawing as PNG into ``folder`` (default bench/out/answer_drawings).

    A file already there is kept only when it carries the stamp of its record and of the drawing
    code (:func:`render_stamp`): a file drawn before either changed would be measured as the new one.
    """
    folder = folder or out_dir("answer_drawings")
    folder.mkdir(parents=True, exist_ok=True)
    if not Path(_CJK).is_file():
        # Found late otherwise: a FreeType "cannot open resource" half-way through the renders.
        raise SystemExit(
            f"the Chinese drawings are drawn in {_CJK}, which is missing: "
            "apt-get install fonts-wqy-microhei (./bootstrap.sh test installs it)"
        )
    paths = []
    for d in DRAWINGS:
        path = folder / d.file_name
        stamp = render_stamp(d)
        if _stamp_of(path) != stamp:
            info = PngImagePlugin.PngInfo()
            info.add_text(_STAMP_KEY, stamp)
            draw_drawing(d).save(path, dpi=(200, 200), pnginfo=info)
        paths.append(path)
    return paths


# ---------------------------------------------------------------------------------- questions

_FIELD_ASKS: dict[str, tuple[str, ...]] = {
    "material": (
        "What material is the {name} made of?",
        "Which material does {name} call for?",
        "What's the {name} made from?",
    ),
    "scale": ("What scale is the {name} drawing?", "What is the scale of the {name} drawing?"),
    "weight": ("How much does the {name} weigh?", "What weight is given for {name}?"),
    "mass": ("What is the mass of the {name}?", "How heavy is the {name}?"),
    "surface": (
        "What surface treatment does the {name} get?",
        "Which surface treatment is specified on {name}?",
    ),
    "finish": ("What finish does the {name} get?", "Which finish is called out on {name}?"),
    "sheet": (
        "Which sheet is the {name} drawing?",
        "What sheet number does the {name} drawing show?",
    ),
    "format": (
        "What paper format is the {name} drawing?",
        "What sheet size is the {name} drawing on?",
    ),
    "size": ("What drawing size is the {name} drawing?", "What size letter is the {name} drawing?"),
    "revision": (
        "What revision is the {name} drawing at?",
        "Which revision is the {name} drawing?",
    ),
    "date": ("What date is on the {name} drawing?", "When was the {name} drawing issued?"),
    "tolerance": (
        "Which general tolerance applies to the {name}?",
        "What general tolerance class is {name} made to?",
    ),
    "creator": ("Who drew the {name} drawing?", "Who created the {name} drawing?"),
    "approver": ("Who approved the {name} drawing?", "Who signed off the {name} drawing?"),
    "checker": ("Who checked the {name} drawing?",),
    "course": (
        "What course or project code is on the {name} drawing?",
        "Which project is the {name} drawing for?",
    ),
    "document type": ("What document type is the {name} drawing?",),
    "document status": ("What is the document status of the {name} drawing?",),
    "responsible department": ("Which department is responsible for the {name}?",),
    "technical reference": ("Who is the technical reference for the {name} drawing?",),
}
#: Drawings written, with their questions, from the records' format alone by writers who never saw
#: the answering code (decision 0065): their questions are the batch "blind2".
BLIND2 = frozenset(
    {
        "shuchuzhou_SZ-1907-03.png",
        "DJ-2740-01.png",
        "tougai_zujian_TG-6214-03.png",
        "spindle_adapter_plate.png",
        "FP-3619-02.png",
        "bottenplatta_kompl.png",
    }
)
#: Fields asked about only now and then (every drawing has them; the set would drown in them).
_SOMETIMES = {"date", "creator", "checker", "technical reference", "responsible department"}


def _pick(options: tuple[str, ...], key: str) -> str:
    """A stable choice among ``options`` for ``key`` (the same every run)."""
    digest = hashlib.sha256(key.encode()).digest()
    return options[digest[0] % len(options)]


def _names(d: Drawing) -> list[tuple[str, str]]:
    """Ways to name the drawing: (how, text). Number, title, English sense, file name.

    A Chinese title is left out: a person asking in English names that part in English or by number.
    """
    names = [("number", d.number)]
    if d.style != "zh":
        names.append(("title", d.title.lower() if d.title.isupper() else d.title))
    if d.english.lower() != d.title.lower():
        names.append(("translation", d.english))
    names.append(("file", d.file_name))
    return names


def _phrase(template: str, name: str, how: str) -> str:
    """Put the drawing's name into a template.

    ``{name} drawing`` speaks of the drawing ("drawing GB-4410-01", "the gearbox cover drawing"); a bare
    ``{name}`` speaks of the part ("the part on drawing GB-4410-01", "the gearbox cover").
    """
    text = template.replace("the {name}", "{name}")
    if how in ("number", "file"):
        text = text.replace("{name} drawing", f"drawing {name}").replace(
            "{name}", f"the part on drawing {name}"
        )
    else:
        text = text.replace("{name}", f"the {name}")
    return text[0].upper() + text[1:]


def questions_for(d: Drawing) -> list[dict[str, object]]:
    """The questions about one drawing, from its truth, each naming the drawing one of several ways."""
    if d.asks:
        return [_asked(d, a) for a in d.asks]
    foreign = d.style in ("de", "se", "zh")
    names = _names(d)
    out: list[dict[str, object]] = []
    turn = 0

    def add(
        qid: str, template: str, expect: tuple[str, ...], classes: list[str], avoid: str = ""
    ) -> None:
        nonlocal turn
        choices = [n for n in names if n[0] != avoid]
        how, name = choices[turn % len(choices)]
        turn += 1
        tags = list(classes)
        if how != "number":
            tags.append("naming")
        out.append(
            {
                "id": f"{d.number.lower()}-{qid}",
                "question": _phrase(template, name, how),
                "expect": list(expect),
                "source": d.file_name,
                "drawing": d.file_name,
                "classes": tags,
                "answerable": True,
            }
        )

    for f in d.fields:
        if f.key in ("title", "number"):
            continue
        if f.key in _SOMETIMES and _pick(("ask", "skip"), d.number + f.key) == "skip":
            continue
        template = _pick(_FIELD_ASKS[f.key], d.number + f.key)
        tags = ["field"] + (["field_foreign"] if foreign else [])
        add(f.key.replace(" ", "-"), template, (f.value, *f.also), tags)
    title = next(f for f in d.fields if f.key == "title")
    number = next(f for f in d.fields if f.key == "number")
    # The drawing number asked by title, and the title asked by number.
    add(
        "number",
        "What is the drawing number of the {name} drawing?",
        (number.value,),
        ["field", *(["field_foreign"] if foreign else [])],
        avoid="number",
    )
    out.append(
        {
            "id": f"{d.number.lower()}-title",
            "question": f"What part is drawing {d.number}?",
            "expect": [title.value, *title.also],
            "source": d.file_name,
            "drawing": d.file_name,
            "classes": ["field", *(["field_foreign"] if foreign else [])],
            "answerable": True,
        }
    )
    for i, dim in enumerate(d.dims):
        add(f"dim{i}-{dim.kind}", dim.ask, dim.expect, ["dimension"])
    for i, (template, expect) in enumerate(d.note_questions):
        add(f"note{i}", template, expect, ["note"])
    if d.holes:
        first, last = d.holes[0], d.holes[-1]
        add(
            "hole-size",
            f"What size is hole {last.tag} in the hole table of the {{name}} drawing?",
            (last.size,),
            ["table"],
        )
        add(
            "hole-x",
            f"What is the X position of hole {first.tag} on the {{name}} drawing?",
            (first.x,),
            ["table"],
        )
    if d.revisions:
        last_rev = d.revisions[-1]
        first_rev = d.revisions[0]
        add(
            "rev-change",
            f"What changed in revision {last_rev.rev} of the {{name}} drawing?",
            last_rev.gist,
            ["table"],
        )
        add(
            "rev-date",
            f"When was revision {first_rev.rev} of the {{name}} drawing made?",
            (first_rev.date,),
            ["table"],
        )
    for i, trap in enumerate(d.traps):
        how, name = names[(turn + i) % len(names)]
        out.append(
            {
                "id": f"{d.number.lower()}-trap{i}",
                "question": _phrase(trap, name, how),
                "expect": [],
                "source": "",
                "drawing": d.file_name,
                "classes": ["unanswerable"],
                "answerable": False,
            }
        )
    return out


def _asked(d: Drawing, a: Ask) -> dict[str, object]:
    """A hand-written question as an entry of the set."""
    answerable = "unanswerable" not in a.classes
    return {
        "id": f"{d.number.lower()}-{a.qid}",
        "question": a.question,
        "expect": list(a.expect),
        "source": d.file_name if answerable else "",
        "drawing": d.file_name,
        "classes": list(a.classes),
        "answerable": answerable,
    }


def drawn_text(d: Drawing) -> str:
    """Every piece of text drawn on the page, one per line."""
    words = _STYLE_WORDS[d.style]
    lines = [f"{f.label} {f.value}" + (f" {f.date}" if f.date else "") for f in d.fields]
    lines += [dim.text for dim in d.dims] + list(d.notes)
    lines += [" ".join(v for v in h.__dict__.values() if v) for h in d.holes]
    lines += [" ".join(v for v in p.__dict__.values() if v) for p in d.parts]
    lines += [
        " ".join(r.__dict__[k] for k in ("rev", "zone", "text", "date", "by"))
        + "".join(f" {v}" for v in (r.places, r.doc) if v)
        for r in d.revisions
    ]
    lines += [words[0], words[1], words[3], *d.captions, d.part_caption]
    return "\n".join(lines)


def check_truth() -> list[str]:
    """Questions none of whose expected forms was drawn (should be none).

    A held-out question is held to more: each of its forms is drawn, is the decimal-point form of a
    drawn decimal comma, or is a title-block value's declared English sense (``Field.also``), so no
    form was guessed while writing it.
    """
    from bench.answer_eval_set import matches

    problems = []
    for d in DRAWINGS:
        text = drawn_text(d)
        pointed = text.replace(",", ".")
        senses = {a for f in d.fields for a in f.also}
        for q in questions_for(d):
            expect = q["expect"]
            assert isinstance(expect, list)
            if q["answerable"] and not any(matches(text, e) for e in expect):
                problems.append(f"{q['id']}: none of {expect} is drawn")
            if d.split == "heldout":
                problems += [
                    f"{q['id']}: {e!r} is not drawn"
                    for e in expect
                    if not (matches(text, e) or matches(pointed, e) or e in senses)
                ]
    return problems


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def questions_toml() -> str:
    """Every rendered drawing's questions and split as TOML (the file bench/data/answer_eval/rendered.toml)."""
    lines = [
        "# Generated by bench/answer_drawings.py --write-questions from the drawings' truth (what was drawn).",
        "# Do not edit by hand: change the Drawing records and regenerate.",
        "",
        "[drawings]",
    ]
    for d in DRAWINGS:
        lines.append(f'"{d.file_name}" = {{ split = "{d.split}", style = "rendered-{d.style}" }}')
    for d in DRAWINGS:
        lines.append("")
        lines.append(f"# ---- {d.file_name}: {d.title} ({d.english}), {d.style}, {d.split}")
        for q in questions_for(d):
            lines.append("[[question]]")
            for key in ("id", "question", "expect", "source", "drawing", "classes", "answerable"):
                lines.append(f"{key} = {_toml_value(q[key])}")
            if d.file_name in BLIND2:
                lines.append('batch = "blind2"')
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, help="folder for the PNGs (default bench/out/answer_drawings)"
    )
    parser.add_argument("--write-questions", type=Path, help="write the questions TOML here")
    args = parser.parse_args()
    problems = check_truth()
    for line in problems:
        print(f"  truth check: {line}")
    paths = write_drawings(args.out)
    print(f"{len(paths)} drawings in {paths[0].parent}")
    if args.write_questions:
        args.write_questions.parent.mkdir(parents=True, exist_ok=True)
        args.write_questions.write_text(questions_toml(), encoding="utf-8")
        print(f"questions written to {args.write_questions}")


if __name__ == "__main__":
    main()
