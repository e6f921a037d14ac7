"""Errors of the answer subsystem: every one is an AnswerError with a stable code."""

from __future__ import annotations

from appliance.errors import AnswerError, InputError


class WorkerUnavailable(AnswerError):
    """The worker is not ready (starting, restarting, or its model is missing or broken)."""

    code = "worker_unavailable"


class WorkerTimeout(AnswerError):
    """The worker did not finish an answer in time; it has been killed and will be restarted."""

    code = "worker_timeout"


class WorkerCrashed(AnswerError):
    """The worker died while answering (killed by the sandbox, out of memory, crashed)."""

    code = "worker_crashed"


class WorkerProtocolError(AnswerError):
    """A message on the worker's pipe was malformed; the worker is killed and restarted."""

    code = "worker_protocol"


class WorkerRequestError(AnswerError):
    """The worker refused or failed one request but is still alive (prompt too long, bad limits)."""

    code = "worker_request"


class QuestionError(InputError):
    """The question is empty or unusable."""

    code = "question_invalid"


class RoleError(AnswerError):
    """No prompt template exists for the configured role."""

    code = "role_unknown"
