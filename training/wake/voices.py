"""Synthetic speakers besides espeak-ng: Debian's flite and festival voices, and who may hear which.

espeak-ng makes every one of its voices with one formant synthesiser; these are other families —
diphone concatenation (flite ``kal``, festival ``*_diphone``), statistical parametric (flite's
clustergen ``rms``/``slt``/``awb``, festival's HTS ``cmu_us_slt_arctic_hts``) and unit selection
(``msu_ru_nsh_clunits``) — with other glottal sources, formants and timing. The keyword model's
training (``training.wake.train``) uses the TRAIN voices, picks its threshold on the
VALIDATION ones, and never hears the HELD_OUT ones, which only ``bench/audio_wake.py`` uses.

The non-English festival voices read English with their own language's letter-to-sound rules:
whisper tiny.en hears their "open claw" as "open select", "open the lamp", "happy end, slough".
They are speakers for negatives and babble only, never for positives (the phrase they say is not
the phrase).
"""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from appliance.audio.base import SAMPLE_RATE, Samples
from appliance.audio.errors import TtsError
from appliance.audio.wavio import resample, to_int16

_LETTERS_ONLY = re.compile(r"[^A-Za-z' ]+")
#: Seconds one synthesiser call may take (festival loads its voice each time: about 0.3 s).
SYNTH_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class SyntheticVoice:
    """One speaker of a synthesiser other than espeak-ng (flite, festival, Pico or RHVoice)."""

    #: "flite", "festival", "pico" or "rhvoice".
    engine: str
    #: The engine's voice name (``flite -lv``; festival's ``voice_<name>`` function; Pico's
    #: language; RHVoice's profile).
    name: str
    #: True when the voice reads English as English (fit to say the wake phrase).
    english: bool
    #: Range of the mean F0 (Hz) drawn for it; engines that cannot move it ignore the value.
    f0_range: tuple[float, float] = (85.0, 150.0)

    @property
    def label(self) -> str:
        """``engine:name``, as benchmarks and head files record it."""
        return f"{self.engine}:{self.name}"

    def say(self, text: str, stretch: float = 1.0, f0: float | None = None) -> Samples:
        """``text`` spoken as 16 kHz mono int16; ``stretch`` > 1 is slower speech.

        ``f0``: the mean pitch in Hz where the voice's intonation model takes a target (flite
        ``kal``, ``slt``, ``awb``; festival's English diphone voices); others keep their own.
        """
        if not self.english:
            # Their letter-to-sound rules know their own alphabet's letters, not digits or
            # stray dots: the Russian voice stops with no audio at "0.40" or a lone ".".
            text = _LETTERS_ONLY.sub(" ", text).strip() or "a"
        if self.engine == "flite":
            return flite(text, self.name, stretch, f0)
        if self.engine == "festival":
            return festival(text, self.name, stretch, f0)
        if self.engine == "pico":
            return pico(text, self.name, stretch, f0)
        if self.engine == "rhvoice":
            return rhvoice(text, self.name, stretch, f0)
        raise TtsError(f"unknown speech engine {self.engine!r} for voice {self.name!r}")


FEMALE = (150.0, 240.0)

#: Training speakers: flite's US male diphone voice (8 and 16 kHz), its clustergen US male and
#: female; festival's HTS US female (another engine than flite's ``slt``, same speaker).
TRAIN_VOICES = (
    SyntheticVoice("flite", "kal", True),
    SyntheticVoice("flite", "kal16", True),
    SyntheticVoice("flite", "rms", True),
    SyntheticVoice("flite", "slt", True, FEMALE),
    SyntheticVoice("festival", "cmu_us_slt_arctic_hts", True, FEMALE),
)
#: Training speakers for negatives only: other languages' voices reading English.
TRAIN_FOREIGN_VOICES = (
    SyntheticVoice("festival", "lp_diphone", False),
    SyntheticVoice("festival", "pc_diphone", False, FEMALE),
    SyntheticVoice("festival", "czech_dita", False, FEMALE),
    SyntheticVoice("festival", "czech_ph", False),
    SyntheticVoice("festival", "suo_fi_lj_diphone", False, FEMALE),
    SyntheticVoice("festival", "msu_ru_nsh_clunits", False),
)
#: Kept out of fitting and used, with espeak-ng's validation variants, to pick the threshold:
#: festival's US male diphone voice (the speaker of flite ``kal``, another engine) and a Finnish
#: male (negatives only).
VALIDATION_VOICES = (
    SyntheticVoice("festival", "kal_diphone", True),
    SyntheticVoice("festival", "hy_fi_mv_diphone", False),
)
#: Never heard in training: the benchmark's speakers of this family — a Scottish male (flite's
#: clustergen ``awb``) and a US male diphone voice (festival's ``ked_diphone``).
HELD_OUT_VOICES = (
    SyntheticVoice("flite", "awb", True),
    SyntheticVoice("festival", "ked_diphone", True),
)


#: SVOX Pico's two English speakers (Debian non-free ``libttspico-utils``, the files
#: Apache-2.0): diphones a person recorded, not a synthesiser's model. Training speakers of the
#: "-pico" kinds only when asked for (``--positive-pico`` ...); never a test speaker of the
#: benchmark's other families. Its pitch is a percentage of its own, from :data:`PICO_F0_HZ`.
PICO_VOICES = (
    SyntheticVoice("pico", "en-US", True, (170.0, 235.0)),
    SyntheticVoice("pico", "en-GB", True, (170.0, 235.0)),
)
#: The mean F0 Pico's pitch level 100 is taken to be (its voices are female).
PICO_F0_HZ = 200.0

#: RHVoice's English speakers whose data is LGPL-2.1+ (Debian non-free
#: ``rhvoice-english``, non-free only because the voices are trained models without their training
#: scripts): statistical parametric models of the CMU ARCTIC recordings of four people — ``bdl``
#: (US male), ``clb`` (US female), ``alan`` (Scottish male) and ``slt`` (US female, the person
#: behind flite's ``slt`` and festival's HTS voice). Training speakers of the "-rhvoice" kinds only
#: when asked for (``--positive-rhvoice`` ...). The package's two other English voices
#: (``evgeniy-eng``, ``lyubov``) are CC BY-NC-ND and never used.
RHVOICE_VOICES = (
    SyntheticVoice("rhvoice", "bdl", True, (95.0, 145.0)),
    SyntheticVoice("rhvoice", "clb", True, (160.0, 225.0)),
    SyntheticVoice("rhvoice", "alan", True, (100.0, 150.0)),
    SyntheticVoice("rhvoice", "slt", True, (150.0, 215.0)),
)
#: Each RHVoice speaker's own mean F0 (Hz) at pitch 100, read off its "open claw" (median of an
#: autocorrelation pitch track): a drawn F0 is asked for as a percentage of it.
RHVOICE_F0_HZ = {"bdl": 120.0, "clb": 185.0, "alan": 125.0, "slt": 180.0}


def wav_to_samples(wav: bytes, what: str) -> Samples:
    """A synthesiser's WAV output as 16 kHz mono int16; ``TtsError`` when there is none."""
    import soundfile as sf

    if not wav:
        raise TtsError(f"{what} produced no audio")
    data, sr = sf.read(io.BytesIO(wav), dtype="float32")
    data = np.asarray(data, dtype=np.float32)
    if data.ndim > 1:
        data = data.mean(axis=1)
    return to_int16(resample(data, int(sr), SAMPLE_RATE))


#: Debian packages of the programs whose name is not their package's.
_PACKAGES = {
    "text2wave": "festival",
    "pico2wave": "libttspico-utils (non-free)",
    "RHVoice-test": "rhvoice and rhvoice-english (non-free)",
}


def _run(argv: list[str], what: str, stdin: str | None = None) -> bytes:
    try:
        done = subprocess.run(
            argv, input=None if stdin is None else stdin.encode(), capture_output=True,
            check=False, timeout=SYNTH_TIMEOUT_S,
        )  # fmt: skip
    except FileNotFoundError as exc:
        package = _PACKAGES.get(argv[0], argv[0])
        raise TtsError(f"{argv[0]} is not installed (Debian package {package})") from exc
    except subprocess.TimeoutExpired as exc:
        raise TtsError(f"{what} took longer than {SYNTH_TIMEOUT_S:.0f} s") from exc
    if done.returncode != 0:
        raise TtsError(f"{what} failed: {done.stderr.decode(errors='replace')[-200:]}")
    return done.stdout


def _run_to_wav(argv: Callable[[str], list[str]], what: str, stdin: str | None = None) -> Samples:
    """Run a synthesiser that writes its WAV only to a named file (``argv(path)`` names it)."""
    with tempfile.TemporaryDirectory(prefix="openclaw-voice-") as tmp:
        out = Path(tmp) / "speech.wav"
        _run(argv(str(out)), what, stdin=stdin)
        wav = out.read_bytes() if out.is_file() else b""
    return wav_to_samples(wav, what)


@cache
def flite_voices() -> frozenset[str]:
    """The voices ``flite -lv`` lists (flite quietly uses its default for any other name)."""
    out = _run(["flite", "-lv"], "flite -lv").decode()
    return frozenset(out.split(":", 1)[-1].split())


def flite(text: str, voice: str, stretch: float = 1.0, f0: float | None = None) -> Samples:
    """flite speech as 16 kHz mono int16 (``kal`` is an 8 kHz voice: resampled)."""
    if voice not in flite_voices():
        raise TtsError(f"flite has no voice {voice!r} (it has {', '.join(sorted(flite_voices()))})")
    argv = ["flite", "-voice", voice, "--setf", f"duration_stretch={stretch:.3f}"]
    if f0 is not None:
        argv += ["--setf", f"int_f0_target_mean={f0:.1f}"]
    # A text starting with "-" would be read as an option: a space keeps it text.
    argv += ["-t", f" {text}" if text.startswith("-") else text, "-o", "/dev/stdout"]
    return wav_to_samples(_run(argv, f"flite voice {voice}"), f"flite voice {voice}")


def festival(text: str, voice: str, stretch: float = 1.0, f0: float | None = None) -> Samples:
    """festival speech (``text2wave``) as 16 kHz mono int16 (its voices run at 16-44.1 kHz).

    An unknown voice makes festival print an error and exit 0 with no audio: refused here.
    """
    argv = [
        "text2wave", "-eval", f"(voice_{voice})",
        "-eval", f"(Parameter.set 'Duration_Stretch {stretch:.3f})",
    ]  # fmt: skip
    if f0 is not None:
        # The linear-regression intonation of the diphone voices maps its model's F0 onto this
        # target; set after the voice, which resets it.
        argv += [
            "-eval",
            f"(set! int_lr_params '((target_f0_mean {f0:.1f}) (target_f0_std {f0 * 0.14:.1f})"
            " (model_f0_mean 170) (model_f0_std 34)))",
        ]
    # text2wave reads the text from stdin as a text file: nothing in it is taken as an option. It
    # writes a WAV to a file, not to a pipe (the header's data size is patched in by seeking back).
    return _run_to_wav(lambda out: [*argv, "-o", out], f"festival voice {voice}", text + "\n")


def pico(text: str, language: str, stretch: float = 1.0, f0: float | None = None) -> Samples:
    """SVOX Pico speech (``pico2wave``) as 16 kHz mono int16, at a duration stretch and mean F0."""
    # Letters only, as the foreign voices get: angle brackets would be read as markup, and the
    # training's cached "-pico" clips were made this way.
    plain = _LETTERS_ONLY.sub(" ", text).strip() or "a"
    speed = round(100.0 / stretch)
    return pico_levels(plain, language, speed, round(100.0 * (f0 or PICO_F0_HZ) / PICO_F0_HZ))


def pico_levels(text: str, language: str, speed: int, pitch: int) -> Samples:
    """``text`` as given, at Pico's own speed and pitch levels (percent), as 16 kHz mono int16.

    The levels are markup Pico reads in its text; ``pico2wave`` writes only to a named ``.wav``.
    """
    tagged = f"<speed level='{speed}'><pitch level='{pitch}'>{text}</pitch></speed>"
    return _run_to_wav(
        lambda out: ["pico2wave", "-l", language, "-w", out, tagged], f"pico voice {language}"
    )


def rhvoice(text: str, voice: str, stretch: float = 1.0, f0: float | None = None) -> Samples:
    """RHVoice speech (``RHVoice-test``) as 16 kHz mono int16, at a duration stretch and mean F0.

    Its rate and pitch are percentages of the voice's own (100 each); it writes 24 kHz WAV to a
    named file only, and reads the text from stdin (so nothing in it is taken as an option).
    """
    if voice not in RHVOICE_F0_HZ:
        raise TtsError(f"RHVoice speaker {voice!r} is not one of {', '.join(RHVOICE_F0_HZ)}")
    rate = round(100.0 / stretch)
    pitch = round(100.0 * (f0 or RHVOICE_F0_HZ[voice]) / RHVOICE_F0_HZ[voice])
    return _run_to_wav(
        lambda out: ["RHVoice-test", "-p", voice, "-r", str(rate), "-t", str(pitch), "-o", out],
        f"rhvoice voice {voice}",
        text + "\n",
    )
