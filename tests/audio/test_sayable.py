"""What the English voice is given to say: Chinese in English or pinyin, drawing marks in words,
heard back through the real Piper voice and whisper."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.audio import sayable as sayable_module
from appliance.audio.build import build_speaker
from appliance.audio.phrases import normalise_words
from appliance.audio.piper import PiperTts, PiperVoice
from appliance.audio.sayable import pinyin, sayable
from appliance.audio.sinks import WavFileSink
from appliance.audio.tts import Speaker, single
from appliance.audio.wavio import to_16k
from appliance.config import load_config


def test_chinese_terms_are_said_by_their_english_sense() -> None:
    assert sayable("The surface treatment is 镀锌.") == "The surface treatment is galvanised."
    assert sayable("6. 螺纹精度 6H") == "6. thread accuracy 6H"
    assert sayable("技术要求：1. 未注倒角C1。2. 去毛刺。") == (
        "technical requirements: 1. unspecified chamfer C1. 2. deburr."
    )


def test_unknown_characters_are_said_in_pinyin_and_a_name_as_a_name() -> None:
    assert pinyin("李华") == ["li", "hua"]
    assert sayable("It was drawn by 李华.") == "It was drawn by Li Hua."
    assert sayable("Approved by 周国强") == "Approved by Zhou Guoqiang"
    # Inside a run the glossary knows part of, the rest is said syllable by syllable.
    assert sayable("5. 做静平衡试验") == "5. zuo static balancing test"


def test_a_sense_written_beside_its_chinese_is_said_once() -> None:
    # The index writes a title-block line's sense in brackets; an answer gives value and sense.
    assert sayable("轴承座 (bearing housing)") == "bearing housing"
    assert sayable("The surface treatment is 镀锌, galvanised.") == (
        "The surface treatment is galvanised."
    )
    # Brackets that say something else stay.
    assert sayable("镀锌 (see note 3)") == "galvanised (see note 3)"


def test_sheet_cells_of_chinese_blocks() -> None:
    assert sayable("The sheet is 共 2 张 第 1 张.") == "The sheet is sheet 1 of 2."
    assert sayable("第 3 张 共 4 张") == "sheet 3 of 4"


def test_drawing_marks_become_words() -> None:
    assert sayable("The bore is ⌀40 H7.") == "The bore is diameter 40 H7."
    assert sayable("Ø 12 and Φ20") == "diameter 12 and diameter 20"
    assert sayable("The hole is 12 +0.02/-0.01.") == "The hole is 12 plus 0.02, minus 0.01."
    assert (
        sayable("Tolerance ±0.1, Ra 6.3 µm") == "Tolerance plus or minus 0.1, R.A. 6.3 micrometres"
    )
    # The micro sign typed or read as "u"; a word starting "um" after a number is left alone.
    assert sayable("layer at least 15 um.") == "layer at least 15 micrometres."
    assert sayable("Ra 63 uin") == "R.A. 63 microinches"
    assert sayable("2 umbrellas") == "2 umbrellas"
    assert sayable("The scale is 1:2.") == "The scale is 1 to 2."
    assert sayable("Sheet 2 OF 3") == "Sheet 2 of 3"
    assert sayable("⏥ 0.05 and ⊥ 0.1") == "flatness 0.05 and perpendicularity 0.1"
    assert sayable("2 x ⌀19.9 0/-0.1") == "2 x diameter 19.9 plus 0, minus 0.1"
    assert sayable("The weight is 0,12 kg, Ra 3,2") == "The weight is 0.12 kg, R.A. 3.2"


def test_dates_are_said_as_dates() -> None:
    assert sayable("The date of revision A is 2024-11-04.") == (
        "The date of revision A is November 4, 2024."
    )
    assert sayable("2026.05.20") == "May 20, 2026"
    assert sayable("2026-13-40") == "2026-13-40"  # no such date: left as written


def test_drawing_numbers_are_read_out_and_other_codes_are_left_alone() -> None:
    assert sayable("Source: drawing FL-3306, page 1.") == "Source: drawing F L, 3 3 0 6, page 1."
    assert sayable("The drawing number is KMM-2024-017.") == (
        "The drawing number is K M M, 2 0 2 4, 0 1 7."
    )
    # A designation of the same shape that is not named as a drawing is said as written.
    assert sayable("The material is EN AW-6061-T6.") == "The material is EN AW-6061-T6."
    unchanged = "M8-6H, HB220-250, GB/T 1804-f, ISO 2768-mK, 12:30:45, 1,000 pcs"
    assert sayable(unchanged) == unchanged


def test_plain_english_is_said_as_written() -> None:
    text = "The material is aluminium 6061-T6. Source: drawing A-1024, revision C, page 1."
    assert sayable(text) == text


def test_without_the_pinyin_table_unknown_characters_are_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sayable_module, "_pinyin_table", lambda: {})
    said = sayable("It was drawn by 李华. The finish is 镀锌.")
    assert said == "It was drawn by. The finish is galvanised."


class _Recording:
    """A synthesiser that records what it is given (the speaker's contract, not a voice)."""

    name = "recording"
    quick_start = False
    language = "en-us"

    def __init__(self) -> None:
        self.given: list[str] = []

    async def synthesize(self, text: str) -> tuple[np.ndarray, int]:
        self.given.append(text)
        return np.zeros(160, dtype=np.int16), 16000


async def test_the_speaker_says_the_sayable_form_and_reports_the_text(tmp_path: Path) -> None:
    tts = _Recording()
    speaker = Speaker(tts, WavFileSink(tmp_path / "out"), wording=sayable)  # type: ignore[arg-type]
    report = await speaker.speak(single("The finish is 镀锌. Drawn by 李华."))
    assert tts.given == ["The finish is galvanised.", "Drawn by Li Hua."]
    assert report.spoken == ["The finish is 镀锌.", "Drawn by 李华."]
    # Without a wording the text goes to the voice as written.
    plain = _Recording()
    await Speaker(plain, WavFileSink(tmp_path / "out2")).speak(single("镀锌."))  # type: ignore[arg-type]
    assert plain.given == ["镀锌."]


def test_an_english_voice_gets_the_sayable_wording(tmp_path: Path) -> None:
    config = load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data"),
            "OPENCLAW_PATHS__MODELS_DIR": str(tmp_path / "models"),
            "OPENCLAW_AUDIO__TTS_ENGINE": "espeak-ng",
        }
    )
    assert build_speaker(config, WavFileSink(tmp_path / "out")).wording is sayable
    chinese = load_config(
        environ={
            "OPENCLAW_PATHS__DATA_DIR": str(tmp_path / "data"),
            "OPENCLAW_PATHS__MODELS_DIR": str(tmp_path / "models"),
            "OPENCLAW_AUDIO__TTS_ENGINE": "espeak-ng",
            "OPENCLAW_AUDIO__TTS_VOICE": "cmn",
        }
    )
    assert build_speaker(chinese, WavFileSink(tmp_path / "out")).wording is None


async def test_a_chinese_answer_is_heard_in_words_not_as_chinese_letters(
    tmp_path: Path, whisper
) -> None:  # type: ignore[no-untyped-def]
    """The real Piper voice says a Chinese drawing's answer; whisper hears it back. Written as it
    is, the voice says "Chinese letter" for each character."""
    voice = PiperVoice.from_manifest(Path("/nonexistent-models-dir"))
    answer = "The surface treatment is 镀锌. The bore is ⌀40."

    async def heard(wording: object) -> list[str]:
        sink = WavFileSink(tmp_path / f"out-{wording is None}")
        speaker = Speaker(PiperTts(voice), sink, wording=wording)  # type: ignore[arg-type]
        await speaker.speak(single(answer))
        audio, rate = sink.concatenated()
        return normalise_words(whisper.transcribe(to_16k(audio, rate)).text)

    as_written = await heard(None)
    assert "chinese" in as_written
    said = await heard(sayable)
    assert "chinese" not in said
    assert any(w.startswith("galvani") for w in said)
    assert "diameter" in said and "40" in said


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
            st.sampled_from(list("⌀Ø±µ°:/-+.,，。：（） ()0123456789RaxAZ")),
        ),
        max_size=60,
    )
)
def test_whatever_is_given_nothing_unsayable_comes_out(text: str) -> None:
    said = sayable(text)
    # A diameter sign inside a word is a letter there ("Øster"); anywhere else it is said.
    assert not re.search(r"[\u3400-\u9fff⌀∅±]|(?<![^\W\d_])[ØøΦφϕ](?![^\W\d_])", said)
