"""One exception hierarchy for the whole appliance.

Every error carries a stable ``code`` (a short machine-readable string that the CLI, the logs and the
status page show) and a human ``message``. Foreign exceptions are wrapped at the stage boundary with
``raise SomeError(...) from err``. Messages meant for the LAN never contain secrets or absolute paths of
the user's files: use :func:`public_name` to refer to an input.
"""

from __future__ import annotations

import enum
from pathlib import Path

from appliance.ingest.names import display_name


class ExitCode(enum.IntEnum):
    """Process exit codes of the ``openclaw`` CLI, one per error family."""

    OK = 0
    FAILURE = 1
    USAGE = 2
    CONFIG = 3
    INPUT = 4
    INDEX = 5
    MODEL = 6
    EXTERNAL_PROGRAM = 7
    HARDWARE = 8
    ANSWER = 9
    INTERRUPTED = 130


class OpenClawError(Exception):
    """Base of every error the appliance raises on purpose."""

    #: Stable default code for the class; instances may carry a more specific one.
    code: str = "openclaw_error"
    exit_code: ExitCode = ExitCode.FAILURE

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"

    def to_dict(self) -> dict[str, str]:
        """The JSON form used by the CLI's ``--json`` output and the status page."""
        return {"code": self.code, "message": self.message}


class ConfigError(OpenClawError, ValueError):
    """A configuration value is missing, of the wrong type or out of range."""

    code = "config_invalid"
    exit_code = ExitCode.CONFIG


class InputError(OpenClawError, ValueError):
    """An input file or request is broken, unsupported or hostile."""

    code = "input_invalid"
    exit_code = ExitCode.INPUT


class IndexStoreError(OpenClawError, RuntimeError):
    """The knowledge index cannot be opened, read or written."""

    code = "index_error"
    exit_code = ExitCode.INDEX


class ModelError(OpenClawError, RuntimeError):
    """A model file is missing, corrupt or fails its manifest checksum."""

    code = "model_error"
    exit_code = ExitCode.MODEL


class ExternalProgramError(OpenClawError, RuntimeError):
    """An external program (Tesseract, espeak-ng, ...) is missing, failed or timed out."""

    code = "external_program_error"
    exit_code = ExitCode.EXTERNAL_PROGRAM


class HardwareError(OpenClawError, RuntimeError):
    """A hardware device (microphone, camera, Bluetooth adapter, GPIO) is missing or failed."""

    code = "hardware_error"
    exit_code = ExitCode.HARDWARE


class AnswerError(OpenClawError, RuntimeError):
    """The answer worker failed, timed out or produced an unusable answer."""

    code = "answer_error"
    exit_code = ExitCode.ANSWER


def public_name(path: str | Path) -> str:
    """The name of an input as it may appear in an error: the file name, never the absolute path.

    A name that is not valid UTF-8 (or holds control characters) is given in its printable form,
    so the error can be printed, logged and sent as JSON.
    """
    name = Path(str(path)).name
    return display_name(name) if name else "<input>"
