"""Reading WAV files into the appliance's one format (16 kHz mono int16), and writing them.

Files of another rate, channel count or sample format are converted when ``convert`` is true (downmix
by averaging, resampling with a windowed-sinc low-pass, float → int16 with clipping) and refused with
a clear :class:`AudioFormatError` otherwise. A file whose header promises more sample data than the
file holds is refused as truncated: libsndfile would silently read the shorter part.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import soundfile as sf

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import AudioFormatError
from appliance.errors import public_name

#: Rates accepted for conversion; outside this range a file is surely not speech audio.
MIN_RATE, MAX_RATE = 8_000, 192_000
#: Channel counts accepted for downmixing.
MAX_CHANNELS = 8
#: Longest file read whole: a replayed session or a training clip is minutes long, while a
#: header may declare (and a sparse file may hold) gigabytes that would all be decoded in memory.
MAX_SECONDS = 3600
#: Most samples (frames x channels) decoded at once: 4 bytes each as float, so 512 MB.
MAX_SAMPLES = 128 * 1024 * 1024
#: RIFF chunks looked at before the data chunk must have come.
MAX_CHUNKS = 64
# espeak-ng and other streaming writers put a placeholder in the size fields.
_STREAMING_SIZES = {0, 0xFFFFFFFF, 0x7FFFFFFF, 0x7FFFF000}


@dataclass(frozen=True)
class WavInfo:
    """What a WAV file was before conversion."""

    #: Its sample rate.
    sample_rate: int
    #: Its channel count.
    channels: int
    #: libsndfile's subtype name (PCM_16, FLOAT, PCM_24 ...).
    subtype: str
    #: Its duration in seconds.
    seconds: float
    #: Whether it had to be converted.
    converted: bool


def check_riff_complete(path: Path) -> None:
    """Refuse a RIFF/WAVE file whose data chunk is shorter than its header says."""
    with path.open("rb") as fh:
        head = fh.read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            return  # not RIFF (or too short): libsndfile gives the precise error
        size = path.stat().st_size
        pos = 12
        # A real WAV has a handful of chunks before its data; a file of zeros after the header
        # would be walked 8 bytes at a time (2 GB sparse: hundreds of millions of reads).
        for _ in range(MAX_CHUNKS):
            if pos + 8 > size:
                return
            fh.seek(pos)
            chunk_id, chunk_size = struct.unpack("<4sI", fh.read(8))
            if chunk_id == b"data":
                available = size - pos - 8
                if chunk_size not in _STREAMING_SIZES and chunk_size > available:
                    raise AudioFormatError(
                        f"{public_name(path)}: truncated WAV (header promises {chunk_size} bytes of "
                        f"audio, the file holds {available})",
                        code="audio_truncated",
                    )
                return
            pos += 8 + chunk_size + (chunk_size & 1)
        raise AudioFormatError(
            f"{public_name(path)}: no audio data within its first {MAX_CHUNKS} RIFF chunks",
            code="audio_unreadable",
        )


def _reason(err: Exception) -> str:
    """libsndfile's own words, without the file name soundfile puts before them (a full path)."""
    return str(getattr(err, "error_string", "") or "unknown error")


def resample(audio: npt.NDArray[np.float32], src: int, dst: int) -> npt.NDArray[np.float32]:
    """Resample a mono float signal; a low-pass precedes downsampling so nothing aliases."""
    if src == dst or audio.size == 0:
        return audio
    x = audio
    if dst < src:
        cutoff = 0.5 * dst / src  # in cycles per input sample
        taps = 63
        n = np.arange(taps) - (taps - 1) / 2
        kernel = 2 * cutoff * np.sinc(2 * cutoff * n) * np.hamming(taps)
        kernel /= kernel.sum()
        x = np.convolve(x, kernel.astype(np.float32), mode="same")
    length = round(len(x) * dst / src)
    positions = np.arange(length, dtype=np.float64) * (src / dst)
    return np.interp(positions, np.arange(len(x)), x).astype(np.float32)


def to_int16(audio: npt.NDArray[np.float32]) -> Samples:
    """Float in [-1, 1] to int16, clipping what lies outside."""
    return np.clip(np.round(audio * 32767.0), -32768, 32767).astype(np.int16)


def to_16k(samples: Samples, rate: int) -> Samples:
    """int16 samples at ``rate`` Hz as the appliance's 16 kHz int16."""
    return to_int16(resample(samples.astype(np.float32) / 32768.0, rate, SAMPLE_RATE))


def read_wav(path: str | Path, *, convert: bool = True) -> tuple[Samples, WavInfo]:
    """Read an audio file as 16 kHz mono int16, converting or refusing other formats."""
    path = Path(path)
    name = public_name(path)
    if not path.is_file():
        raise AudioFormatError(f"{name}: no such audio file", code="audio_missing")
    check_riff_complete(path)
    # libsndfile is given the name as bytes: a name that is not UTF-8 cannot be encoded from str.
    raw = os.fsencode(path)
    try:
        info = sf.info(raw)
    except (sf.LibsndfileError, RuntimeError) as err:
        raise AudioFormatError(
            f"{name}: not a readable audio file ({_reason(err)})", code="audio_unreadable"
        ) from None
    rate, channels, subtype = int(info.samplerate), int(info.channels), str(info.subtype)
    is_native = rate == SAMPLE_RATE and channels == 1 and subtype == "PCM_16"
    if not is_native and not convert:
        raise AudioFormatError(
            f"{name}: {rate} Hz, {channels} channel(s), {subtype}; the appliance takes 16000 Hz mono "
            "PCM_16 (set audio.wav_convert = true to convert)",
            code="audio_format",
        )
    if not MIN_RATE <= rate <= MAX_RATE:
        raise AudioFormatError(f"{name}: sample rate {rate} Hz is outside {MIN_RATE}-{MAX_RATE} Hz")
    if not 1 <= channels <= MAX_CHANNELS:
        raise AudioFormatError(
            f"{name}: {channels} channels; at most {MAX_CHANNELS} can be downmixed"
        )
    frames = int(info.frames)
    if frames <= 0:
        raise AudioFormatError(f"{name}: the file holds no audio (0 frames)", code="audio_empty")
    if frames > MAX_SECONDS * rate or frames * channels > MAX_SAMPLES:
        raise AudioFormatError(
            f"{name}: {frames / rate:.0f} s of audio; at most {MAX_SECONDS} s "
            f"({MAX_SAMPLES // (1024 * 1024)} M samples) are read",
            code="audio_too_long",
        )
    try:
        if is_native:
            samples = sf.read(raw, dtype="int16", always_2d=False)[0]
            return np.ascontiguousarray(samples, dtype=np.int16), WavInfo(
                rate, channels, subtype, len(samples) / rate, False
            )
        data = sf.read(raw, dtype="float32", always_2d=True)[0]
    except (sf.LibsndfileError, RuntimeError) as err:
        raise AudioFormatError(
            f"{name}: audio data unreadable ({_reason(err)})", code="audio_unreadable"
        ) from None
    mono = data.mean(axis=1, dtype=np.float32)
    out = to_int16(resample(mono, rate, SAMPLE_RATE))
    return out, WavInfo(rate, channels, subtype, len(mono) / rate, True)


def write_wav(path: str | Path, audio: Samples, sample_rate: int = SAMPLE_RATE) -> Path:
    """Write mono int16 audio as a PCM_16 WAV file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    sf.write(str(path), np.asarray(audio, dtype=np.int16), sample_rate, subtype="PCM_16")
    return path


def speech_bounds(audio: Samples, threshold_db: float = -40.0) -> tuple[int, int]:
    """First and one-past-last sample of the 10 ms frames louder than ``threshold_db`` dBFS."""
    frame = SAMPLE_RATE // 100
    n = len(audio) // frame
    x = audio[: n * frame].astype(np.float32).reshape(n, frame) / 32768.0
    db = 10 * np.log10((x * x).mean(axis=1) + 1e-12)
    loud = np.nonzero(db > threshold_db)[0]
    if len(loud) == 0:
        return 0, 0
    return int(loud[0] * frame), int((loud[-1] + 1) * frame)
