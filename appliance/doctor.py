"""``openclaw doctor``: check every external piece the appliance needs and say how to fix what is missing.

Each check returns (ok, what was found, the command that fixes it). Checks that another package
already owns (Tesseract in vision, espeak-ng in audio, model files in models) are reused from there.
"""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass

import click

from appliance.cli import AppContext, echo_json, pass_app
from appliance.config import Config
from appliance.errors import ExitCode
from appliance.models.configured import configured_models
from appliance.models.store import file_status

#: Oldest SQLite the index is tested with (FTS5 trigram tokenizer, JSON functions, RETURNING).
MIN_SQLITE = (3, 38, 0)
#: Free space below this on the data directory's disk is reported (bytes).
MIN_FREE_BYTES = 1 << 30

CheckResult = tuple[bool, str, str]


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    #: What was checked.
    name: str
    #: Whether it is usable.
    ok: bool
    #: What was found.
    found: str
    #: The command (or step) that fixes it; "" when ok.
    fix: str = ""
    #: False for things the appliance can run without (a warning, not a failure).
    required: bool = True


def check_tesseract(config: Config) -> CheckResult:
    """Tesseract and the configured languages (the vision package's own check)."""
    from appliance.vision.tesseract import check_tesseract as vision_check
    from appliance.vision.tesseract import installed_languages

    ok, found, fix = vision_check(config.vision)
    if ok and config.vision.detect_orientation and "osd" not in installed_languages(config.vision):
        # Without osd.traineddata a drawing held sideways is OCRed sideways (no turn, no error).
        return (
            False,
            f"{found}; no orientation data (osd)",
            "sudo apt-get install tesseract-ocr-osd",
        )
    return ok, found, fix


def check_espeak(config: Config) -> CheckResult:
    """espeak-ng (the audio package's own check)."""
    from appliance.audio.tts import check_espeak as audio_check

    return audio_check()


def check_portaudio(config: Config) -> CheckResult:
    """PortAudio loads through sounddevice; input devices are counted."""
    fix = "sudo apt-get install libportaudio2"
    try:
        sd = importlib.import_module("sounddevice")
    except OSError as err:
        return False, f"PortAudio library not loadable ({err})", fix
    except ImportError:
        return False, "the sounddevice package is missing", "pip install sounddevice"
    try:
        devices = sd.query_devices()
    except Exception as err:
        return False, f"PortAudio cannot list devices ({type(err).__name__})", fix
    inputs = sum(1 for d in devices if d.get("max_input_channels", 0) > 0)
    version = sd.get_portaudio_version()[1]
    if config.audio.source == "sounddevice" and inputs == 0:
        return False, f"{version}; no input device (microphone) found", "plug in the USB microphone"
    return True, f"{version}; {inputs} input device(s)", ""


def check_sqlite(config: Config) -> CheckResult:
    """SQLite version and that sqlite-vec loads into it (the index package's own probe), plus FTS5."""
    from appliance.index import db

    try:
        version, vec = db.sqlite_versions()
        conn = db.connect(":memory:")
        try:
            fts5 = conn.execute("select sqlite_compileoption_used('ENABLE_FTS5')").fetchone()[0]
        finally:
            conn.close()
    except Exception as err:  # any failure to load is the finding
        return (
            False,
            f"SQLite with sqlite-vec is not usable ({err})",
            "pip install sqlean.py sqlite-vec",
        )
    parts = tuple(int(p) for p in str(version).split("."))
    if parts < MIN_SQLITE:
        return False, f"SQLite {version} is older than 3.38", "pip install --upgrade sqlean.py"
    if not fts5:
        return False, f"SQLite {version} lacks FTS5", "pip install --upgrade sqlean.py"
    return True, f"SQLite {version} with FTS5, sqlite-vec {vec}", ""


def _model_check(name: str, config: Config) -> CheckResult:
    """Every file of a model verified against the manifest, whatever way the model is published."""
    from appliance.errors import ModelError
    from appliance.models.manifest import load_manifest
    from appliance.models.store import EXTRACTED_RECORD, install_hint, model_dir

    try:
        spec = load_manifest().get(name)
    except Exception as err:
        return False, str(err), "use a model name from: openclaw models list"
    fix = install_hint(spec)
    if spec.archive is not None and not spec.files:
        # Published as an archive: its files are the ones recorded when it was extracted.
        try:
            folder = model_dir(spec, config.paths.models_dir)
        except ModelError as err:
            return False, err.message, fix
        record = folder / EXTRACTED_RECORD
        count = sum(1 for line in record.read_text(encoding="utf-8").splitlines() if line.strip())
        if count == 0:
            return False, f"the record of its extracted files ({EXTRACTED_RECORD}) is empty", fix
        return True, f"{count} extracted file(s) verified by sha256", ""
    if not spec.files:
        return False, "the manifest lists no files for it", "fix models/manifest.toml"
    bad = []
    for f in spec.files:
        status = file_status(spec, f, config.paths.models_dir)
        if status.state != "ok":
            bad.append(f"{f.path} {status.state}")
    if bad:
        return False, "; ".join(bad), fix
    return True, f"{len(spec.files)} file(s) verified by sha256", ""


def check_listener(config: Config) -> CheckResult:
    """The configured question recogniser and wake detector really start (models loaded)."""
    from appliance.audio.build import build_recogniser, build_wake_detector
    from appliance.errors import OpenClawError

    s = config.audio
    what = f"wake {s.wake_engine}, speech {s.stt_engine}"
    try:
        recogniser = build_recogniser(config)
        build_wake_detector(config, recogniser)
    except OpenClawError as err:
        return (
            False,
            f"{what}: cannot start ({err.code}: {err.message}); the appliance will not listen",
            "install the model named above, or set audio.wake_engine / audio.stt_engine to an "
            "engine whose model is installed",
        )
    except ImportError as err:
        return (
            False,
            f"{what}: cannot start ({err}); the appliance will not listen",
            (f"pip install {err.name or 'the engine package'}"),
        )
    return True, f"{what}: both start", ""


def check_llama(config: Config) -> CheckResult:
    """llama-cpp-python for the answer worker (extractive answers work without it)."""
    if importlib.util.find_spec("llama_cpp") is None:
        return (
            False,
            "llama-cpp-python is not installed (answers will be extractive)",
            "pip install --no-deps <cached llama_cpp_python wheel> (see docs/service.md)",
        )
    return True, "llama-cpp-python installed", ""


def check_disk(config: Config) -> CheckResult:
    """Free space where the index and artifacts live."""
    folder = config.paths.data_dir
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    usage = shutil.disk_usage(probe)
    free_gb = usage.free / (1 << 30)
    if usage.free < MIN_FREE_BYTES:
        return False, f"{free_gb:.1f} GB free", "free some space or move paths.data_dir"
    return True, f"{free_gb:.1f} GB free", ""


def check_data_dir(config: Config) -> CheckResult:
    """The data directory exists (or can be created) and is writable."""
    folder = config.paths.data_dir
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".doctor-probe"
        probe.write_text("ok", encoding="ascii")
        probe.unlink()
    except OSError as err:
        return (
            False,
            f"data directory not writable ({err.strerror})",
            "sudo install -d -o openclaw -g openclaw /var/lib/openclaw",
        )
    return True, "writable", ""


def check_gpio(config: Config) -> CheckResult:
    """The configured GPIO pin factory can be created."""
    from appliance.errors import HardwareError
    from appliance.gpio.factory import make_pin_factory

    try:
        factory = make_pin_factory(config.gpio.pin_factory)
    except HardwareError as err:
        return (
            False,
            err.message,
            "sudo apt-get install python3-lgpio (Pi 5) or set gpio.pin_factory",
        )
    factory.close()
    return True, f"pin factory {config.gpio.pin_factory!r}", ""


def run_checks(config: Config) -> list[Check]:
    """Every check, in the order they are printed."""
    plan: list[tuple[str, Callable[[Config], CheckResult], bool]] = [
        ("data directory", check_data_dir, True),
        ("disk space", check_disk, True),
        ("sqlite + sqlite-vec", check_sqlite, True),
        ("tesseract", check_tesseract, True),
        ("espeak-ng", check_espeak, True),
        ("portaudio", check_portaudio, config.audio.source == "sounddevice"),
        ("gpio", check_gpio, True),
        ("llama-cpp-python", check_llama, False),
    ]
    checks = []
    for name, fn, required in plan:
        try:
            ok, found, fix = fn(config)
        except Exception as err:
            ok, found, fix = False, f"check failed: {type(err).__name__}: {err}", ""
        checks.append(Check(name, ok, found, fix, required))
    for model in configured_models(config):
        ok, found, fix = _model_check(model.name, config)
        checks.append(Check(f"{model.label}: {model.name}", ok, found, fix, model.required))
    try:
        ok, found, fix = check_listener(config)
    except Exception as err:  # an engine failing in a way nobody foresaw is still a finding
        ok, found, fix = False, f"check failed: {type(err).__name__}: {err}", ""
    checks.append(Check("listener engines", ok, found, fix, True))
    return checks


@click.command("doctor")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@pass_app
def doctor_command(app: AppContext, as_json: bool) -> None:
    """Check Tesseract, espeak-ng, PortAudio, models, SQLite and sqlite-vec, GPIO and disk space.

    Prints what is missing and the command that fixes it; exits non-zero when something required
    is missing.
    """
    checks = run_checks(app.config)
    if as_json:
        echo_json([vars(c) for c in checks])
    else:
        for c in checks:
            mark = "ok  " if c.ok else ("FAIL" if c.required else "warn")
            click.echo(f"{mark}  {c.name}: {c.found}")
            if not c.ok and c.fix:
                click.echo(f"      fix: {c.fix}")
    failed = [c for c in checks if c.required and not c.ok]
    if failed:
        raise SystemExit(int(ExitCode.EXTERNAL_PROGRAM))
