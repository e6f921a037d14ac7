"""GB/T 10609.1 title blocks (decision 0046): the sign-off grid's labels paired with their own
name and date cells, the block's further fields (stage mark, company, standardised by, process
engineer), and the change rows over the block read as a revision table."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from appliance.document import Box
from appliance.vision.ocrlines import OcrWord
from appliance.vision.settings import VisionSettings
from appliance.vision.titlefields import cell_fields, choose_fields
from appliance.vision.titlegrid import Cell

#: Where bench/answer_drawings.py writes the drawings of the answers set.
_RENDERED = Path(__file__).resolve().parents[2] / "bench" / "out" / "answer_drawings"


def _cell(x0: float, y0: float, x1: float, y1: float, *texts: str, size: float = 18) -> tuple:
    """A cell with its words side by side in the middle of its height, ``size`` pixels tall."""
    top = (y0 + y1 - size) / 2
    words = [
        OcrWord(
            text=t,
            raw_text=t,
            conf=90.0,
            box=Box(x0 + 10 + 60 * i, top, x0 + 60 * i + 60, top + size),
        )
        for i, t in enumerate(texts)
    ]
    return (Cell(Box(x0, y0, x1, y1)), words)


def _gb_grid() -> list[tuple]:
    """The sign-off grid of DX-3105-02 as the block's pass reads it: label | name | date twice a
    row, the stage mark beside the approval, the material over the title's label, the company."""
    rows = []
    for y, (left, right) in enumerate(
        [
            (("设计", "王海涛", "2026.03.02"), ("标准化", "赵敏", "2026.03.06")),
            (("审核", "李建华", "2026.03.09"), ("工艺", "孙 \\ 立", "2026.03.10")),
        ]
    ):
        top, bottom = 1200 + 55 * y, 1250 + 55 * y
        rows += [
            _cell(1225, top, 1433, bottom, left[0]),
            _cell(1437, top, 1557, bottom, left[1], size=26),
            _cell(1563, top, 1747, bottom, left[2]),
            _cell(1753, top, 1962, bottom, right[0]),
            _cell(1968, top, 2088, bottom, right[1], size=26),
            _cell(2092, top, 2273, bottom, right[2]),
        ]
    rows += [
        _cell(1225, 1310, 1433, 1360, "批准"),
        _cell(1437, 1310, 1557, 1360, "周国强", size=26),
        _cell(1563, 1310, 1747, 1360, "2026.03.16"),
        _cell(1753, 1310, 1962, 1360, "阶段标记"),
        _cell(1968, 1310, 2273, 1360, "S", size=20),
        _cell(1225, 1365, 1433, 1415, "重量"),
        _cell(1437, 1365, 1747, 1415, "2.35", "kg", size=26),
        _cell(1753, 1365, 1962, 1415, "比例"),
        _cell(1968, 1365, 2273, 1415, "1:1", size=20),
        # The material's value is hardly bigger than its label; the cell under the label is the
        # title's label, not the material.
        _cell(1225, 1420, 1468, 1470, "材料"),
        _cell(1472, 1420, 2273, 1470, "45", "GB/T", "699", size=20),
        _cell(1225, 1475, 1433, 1525, "图 样", "名 称"),
        _cell(1437, 1475, 1747, 1525, "导向", "板", size=26),
        _cell(1225, 1530, 1433, 1580, "单位", "名", "称"),
        _cell(1437, 1530, 1747, 1580, "华东精密机械有限公司", size=26),
    ]
    return rows


def test_each_sign_off_label_takes_its_own_name_and_the_approval_its_date() -> None:
    fields = cell_fields(_gb_grid())
    values = {k: v.value for k, v in fields.items()}
    assert values["drawn_by"] == "王海涛"
    assert values["standardised_by"] == "赵敏"
    assert values["checked_by"] == "李建华"
    assert values["process_by"] == "孙立"  # the stroke read as "\" between the characters dropped
    assert values["approved_by"] == "周国强"
    assert values["approved_date"] == "2026.03.16"
    # No date cell of its own: the drawing's date is the day it was approved, not begun.
    assert values["date"] == "2026.03.16"
    assert values["stage"] == "S"
    assert values["material"] == "45 GB/T 699"
    assert values["title"] == "导向板"
    assert values["company"] == "华东精密机械有限公司"


def test_a_stage_mark_is_a_letter_and_a_dotted_date_year_first_is_a_date() -> None:
    chosen = choose_fields(
        {
            "stage": cell_fields([_cell(0, 0, 200, 50, "阶段标记"), _cell(204, 0, 400, 50, "S")])[
                "stage"
            ]
        }
    )
    assert chosen == {"stage": "S"}
    from appliance.vision.titlefields import valid_value

    assert valid_value("date", "2026.03.16")
    assert not valid_value("date", "2026.13.16")
    assert valid_value("approved_date", "2026.03.16")
    assert not valid_value("stage", "周国强周国强")


def test_an_empty_standardisation_cell_takes_no_neighbour() -> None:
    """DL-5208-01's 标准化 is signed by nobody: the sheet label beside it is no name."""
    fields = cell_fields(
        [
            _cell(0, 0, 200, 50, "标准化"),
            _cell(204, 0, 400, 50),
            _cell(404, 0, 600, 50, "张次"),
            _cell(604, 0, 800, 50, "共2张", "第1张"),
        ]
    )
    assert "standardised_by" not in fields


def test_an_approval_dated_in_the_approvers_own_cell() -> None:
    """DL-5208-01 writes name and date in one cell: the approval date (and the drawing's date) is
    that one, not the designer's date in the cell before it."""
    fields = cell_fields(
        [
            _cell(0, 0, 200, 50, "设计"),
            _cell(204, 0, 600, 50, "王磊", "2026.02.10", size=26),
            _cell(0, 54, 200, 104, "批准"),
            _cell(204, 54, 600, 104, "周建国", "2026.02.25", size=26),
        ]
    )
    assert fields["approved_date"].value == fields["date"].value == "2026.02.25"


@pytest.mark.skipif(
    not (_RENDERED / "DX-3105-02.png").exists(), reason="bench/answer_drawings.py not run"
)
def test_dx_3105_02_block_read_with_its_gb_fields() -> None:
    """The rendered drawing, read by Tesseract: every field of its block."""
    from appliance.vision.titleblock import read_title_block

    gray = cv2.imread(str(_RENDERED / "DX-3105-02.png"), cv2.IMREAD_GRAYSCALE)
    assert isinstance(gray, np.ndarray)
    block = read_title_block(gray, VisionSettings())
    assert block is not None
    fields = block.fields
    assert fields["title"] == "导向板"
    assert fields["material"] == "45 GB/T 699"
    assert fields["stage"] == "S"
    assert fields["company"] == "华东精密机械有限公司"
    assert fields["standardised_by"] == "赵敏"
    assert fields["process_by"] == "孙立"
    assert fields["approved_by"] == "周国强"
    assert fields["approved_date"] == fields["date"] == "2026.03.16"


def _words(cell: Cell, *texts: str, conf: float = 90.0) -> list[OcrWord]:
    b = cell.box
    return [
        OcrWord(
            text=t,
            raw_text=t,
            conf=conf,
            box=Box(b.x0 + 5 + 40 * i, b.y0 + 5, b.x0 + 40 * i + 40, b.y1 - 5),
        )
        for i, t in enumerate(texts)
    ]


def test_change_rows_become_a_revision_table_keyed_by_their_mark() -> None:
    """The two readings of DX-3105-02's change rows: headers misread in one or both ("分所",
    "ake 名"), each name read right in one of them; the columns the answers ask by."""
    from appliance.vision.titlechanges import _table

    xs = [(1224, 1318), (1322, 1418), (1422, 1538), (1542, 1838), (1842, 2038), (2042, 2275)]
    rows = [[Cell(Box(x0, y, x1, y + 40)) for x0, x1 in xs] for y in (1069, 1113, 1159, 1203)]
    texts = [
        [
            ("标记",),
            ("处", "数"),
            ("分", "所"),
            ("更", "改", "文件", "号"),
            ("ake", "名"),
            ("年", "月", "日"),
        ],
        [("a",), ("2",), ("B3",), ("GG-2026-017",), ("亚", "海", "涛"), ("2026.04.08",)],
        [("b",), ("1",), ("cS",), ("GG-2026-031",), ("李建华",), ("2026.05.20",)],
        [(), (), (), (), (), ()],  # a row left empty for the next change
    ]
    second = [
        [
            ("标记", "/人"),
            ("处数",),
            ("分", "x", "所"),
            ("更改文件号",),
            ("aE", "心名"),
            ("年月日",),
        ],
        [("a",), ("2",), ("B3",), ("GG-2026-017",), ("王海涛",), ("2026.04.08",)],
        [(), ("1",), ("C5",), ("GG-2026-031",), ("s+", "#1"), ("2026.05.20",)],
        [(), (), (), (), (), ()],
    ]
    readings = [
        [
            (_words(cell, *a), _words(cell, *b, conf=95.0 if len(b) == 1 else 40.0))
            for cell, a, b in zip(row, ra, rb, strict=True)
        ]
        for row, ra, rb in zip(rows, texts, second, strict=True)
    ]
    table = _table(rows, readings)
    assert table is not None and table.kind == "revisions"
    assert table.columns == ["key", "places", "zone", "order", "by", "date"]
    assert [r.key for r in table.rows] == ["A", "B"]
    a, b = table.rows
    assert a.cells["order"] == "GG-2026-017" and a.cells["zone"] == "B3"
    assert a.cells["by"] == "王海涛"  # the more confident of two names
    assert b.cells["by"] == "李建华" and b.cells["zone"] == "C5"  # the reading of the column's form
    assert b.cells["date"] == "2026.05.20"
    assert table.row("b") is b
    assert b.boxes["by"] == rows[2][4].box


def test_a_grid_over_the_block_without_a_mark_column_is_no_change_table() -> None:
    """A parts list ruled on a Chinese block (序号 | 代号 | 名称 | 数量) is not read as changes."""
    from appliance.vision.titlechanges import _table

    rows = [[Cell(Box(100 * i, y, 100 * i + 96, y + 40)) for i in range(4)] for y in (0, 44)]
    texts = [("序号", "代号", "名称", "数量"), ("1", "JJ-4820-01", "底板", "1")]
    readings = [
        [(_words(cell, t), _words(cell, t)) for cell, t in zip(row, rt, strict=True)]
        for row, rt in zip(rows, texts, strict=True)
    ]
    assert _table(rows, readings) is None


@pytest.mark.skipif(
    not (_RENDERED / "DX-3105-02.png").exists(), reason="bench/answer_drawings.py not run"
)
def test_dx_3105_02_change_rows_are_its_revision_table_not_loose_lines() -> None:
    from appliance.document import SliceKind
    from appliance.vision.analysis import analyse_image

    rgb = cv2.cvtColor(cv2.imread(str(_RENDERED / "DX-3105-02.png")), cv2.COLOR_BGR2RGB)
    slices = analyse_image(rgb, VisionSettings(), strict=False).slices
    tables = [s for s in slices if s.kind is SliceKind.TABLE]
    assert len(tables) == 1 and tables[0].section == "revisions"
    record = tables[0].extra["table"]
    rows = {r["key"]: r["cells"] for r in record["rows"]}  # type: ignore[index]
    assert set(rows) == {"A", "B"}
    assert rows["A"]["order"] == "GG-2026-017" and rows["A"]["zone"] == "B3"
    assert rows["B"]["by"] == "李建华" and rows["B"]["date"] == "2026.05.20"
    notes = " ".join(s.text for s in slices if s.kind is SliceKind.NOTE)
    assert "GG-2026" not in notes and "标记" not in notes
    # The title block's slice carries the table for a question that names the drawing.
    assert slices[0].kind is SliceKind.TITLE_BLOCK and slices[0].extra.get("tables")
