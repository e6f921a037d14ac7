"""WAV input: the one format, conversions, and refusals of broken or unwanted files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

from appliance.audio.base import SAMPLE_RATE
from appliance.audio.errors import AudioFormatError
from appliance.audio.wavio import read_wav, resample, write_wav


def sine(freq: float, rate: int, seconds: float, amplitude: float = 0.5) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return (amplitude * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def peak_hz(audio: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(audio.astype(np.float64)))
    return float(np.fft.rfftfreq(len(audio), 1 / rate)[int(spectrum.argmax())])


def test_native_file_is_read_unchanged(tmp_path: Path) -> None:
    original = (sine(440, SAMPLE_RATE, 1.0) * 32767).astype(np.int16)
    path = write_wav(tmp_path / "a.wav", original)
    audio, info = read_wav(path)
    assert audio.dtype == np.int16
    assert np.array_equal(audio, original)
    assert not info.converted and info.sample_rate == SAMPLE_RATE and info.channels == 1


def test_stereo_float_44k_is_downmixed_and_resampled(tmp_path: Path) -> None:
    left, right = sine(1000, 44100, 2.0), sine(1000, 44100, 2.0)
    path = tmp_path / "stereo.wav"
    sf.write(str(path), np.stack([left, right], axis=1), 44100, subtype="FLOAT")
    audio, info = read_wav(path)
    assert (
        info.converted
        and info.sample_rate == 44100
        and info.channels == 2
        and info.subtype == "FLOAT"
    )
    assert abs(len(audio) - 2 * SAMPLE_RATE) <= 1
    assert abs(peak_hz(audio, SAMPLE_RATE) - 1000) < 2


def test_downsampling_does_not_alias_a_tone_above_the_new_nyquist(tmp_path: Path) -> None:
    # 11 kHz is above 8 kHz (Nyquist at 16 kHz): it must be filtered out, not folded to 5 kHz.
    tone = sine(11000, 48000, 1.0)
    out = resample(tone, 48000, SAMPLE_RATE)
    assert np.sqrt(np.mean(out**2)) < 0.05 * np.sqrt(np.mean(tone**2))


def test_8_bit_and_24_bit_files_are_converted(tmp_path: Path) -> None:
    for subtype in ("PCM_U8", "PCM_24"):
        path = tmp_path / f"{subtype}.wav"
        sf.write(str(path), sine(300, 8000, 1.0), 8000, subtype=subtype)
        audio, info = read_wav(path)
        assert info.subtype == subtype and info.converted
        assert abs(len(audio) - SAMPLE_RATE) <= 1
        assert abs(peak_hz(audio, SAMPLE_RATE) - 300) < 2


def test_conversion_can_be_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cd.wav"
    sf.write(str(path), sine(440, 44100, 0.5), 44100, subtype="PCM_16")
    with pytest.raises(AudioFormatError) as err:
        read_wav(path, convert=False)
    assert err.value.code == "audio_format"
    assert "44100 Hz" in err.value.message and "cd.wav" in err.value.message
    assert str(tmp_path) not in err.value.message  # never the absolute path


def test_clipping_float_input_saturates_instead_of_wrapping(tmp_path: Path) -> None:
    path = tmp_path / "loud.wav"
    sf.write(str(path), sine(200, 22050, 0.5, amplitude=3.0), 22050, subtype="FLOAT")
    audio, _ = read_wav(path)
    assert audio.max() == 32767 and audio.min() == -32768
    # Wrap-around would put large negative values right after large positive ones.
    jumps = np.abs(np.diff(audio.astype(np.int32)))
    assert jumps.max() < 20000


def test_truncated_wav_is_refused(tmp_path: Path) -> None:
    whole = write_wav(
        tmp_path / "whole.wav", (sine(440, SAMPLE_RATE, 2.0) * 20000).astype(np.int16)
    )
    cut = tmp_path / "cut.wav"
    cut.write_bytes(whole.read_bytes()[:20000])
    with pytest.raises(AudioFormatError) as err:
        read_wav(cut)
    assert err.value.code == "audio_truncated"
    header_only = tmp_path / "header.wav"
    header_only.write_bytes(whole.read_bytes()[:30])
    with pytest.raises(AudioFormatError) as err:
        read_wav(header_only)
    assert err.value.code == "audio_unreadable"


def test_not_audio_and_missing_files(tmp_path: Path) -> None:
    text = tmp_path / "notes.wav"
    text.write_text("this is not audio\n" * 50)
    with pytest.raises(AudioFormatError) as err:
        read_wav(text)
    assert err.value.code == "audio_unreadable"
    with pytest.raises(AudioFormatError) as err:
        read_wav(tmp_path / "gone.wav")
    assert err.value.code == "audio_missing"


def test_streamed_espeak_header_is_accepted(tmp_path: Path) -> None:
    import subprocess

    raw = subprocess.run(
        ["espeak-ng", "--stdout", "hello"], capture_output=True, check=True, timeout=30
    ).stdout
    path = tmp_path / "stream.wav"
    path.write_bytes(raw)  # size fields hold espeak-ng's streaming placeholder
    audio, info = read_wav(path)
    assert info.sample_rate == 22050 and len(audio) > SAMPLE_RATE // 4


def test_silence_reads_as_zeros(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "quiet.wav", np.zeros(SAMPLE_RATE, np.int16))
    audio, _ = read_wav(path)
    assert len(audio) == SAMPLE_RATE and not audio.any()
