"""A hardness scale named by its inventor, and a geometric tolerance, must be stated by the line that
answers: "what Brinell hardness" is not "HRC 40-45", and the clamping face's flatness is not its
hardness."""

from __future__ import annotations

from appliance.answer.finding import find_extract
from tests.answer.sources import drawing_source

_CLAMP = drawing_source(
    1,
    "压板 YB-2312-05\n1. 未注倒角 C1\n2. 调质处理 HB220-250\n3. 去毛刺锐边\n5. 夹紧面淬火HRC40-45",
    title="压板",
    drawing="YB-2312-05",
)


def test_a_named_hardness_scale_picks_the_line_in_that_scale() -> None:
    found = find_extract("What Brinell hardness is YB-2312-05 tempered to?", [_CLAMP])
    assert found is not None and found.quote == "2. 调质处理 HB220-250"
    found = find_extract("What Rockwell hardness is the clamping face of YB-2312-05?", [_CLAMP])
    assert found is not None and found.quote == "5. 夹紧面淬火HRC40-45"
    # No line in Vickers: declined, not the nearest hardness.
    assert find_extract("What Vickers hardness is YB-2312-05?", [_CLAMP]) is None


def test_a_form_tolerance_is_answered_only_by_a_line_that_states_one() -> None:
    asked = "What flatness is the clamping face of YB-2312-05 held to?"
    assert find_extract(asked, [_CLAMP]) is None
    flat = drawing_source(
        1, "压板 YB-2312-05\n6. 夹紧面平面度 0.02", title="压板", drawing="YB-2312-05"
    )
    found = find_extract(asked, [flat])
    assert found is not None and "0.02" in found.quote
