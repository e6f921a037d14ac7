"""Dimensions with their kind: a callout's text parsed into typed records (ISO 129 / ISO 286 forms).

``⌀21.5 ±0.1`` is a diameter of 21.5 mm toleranced ±0.1; ``4x M8`` four M8 threads; ``2x⌀8.80 H8``
two diameters with fit class H8; ``16.00 15.50`` a length given by its limits; ``1x45°`` a chamfer;
``+0.1 0`` deviations whose value OCR lost. One line of OCR may hold several dimensions (a stack of
two neighbours, a hole callout with its depth), so :func:`parse_dimensions` returns a list.

Only forms a drawing writes are accepted: a scale ("2:1"), a roughness value ("Ra 3.2") or a word
with digits is no dimension. The text is expected normalised (:func:`appliance.vision.symbols.normalise`:
``⌀`` for the diameter sign, ``±``, ``°``, decimal points).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from appliance.document import Box
from appliance.vision.symbols import normalise


class DimensionKind(enum.StrEnum):
    """What a dimension measures. Tolerances and fits of a value are attributes of its record; the
    kinds ``fit`` and ``tolerance`` are for a callout that is nothing else (its value not read)."""

    LINEAR = "linear"
    DIAMETER = "diameter"
    RADIUS = "radius"
    THREAD = "thread"
    ANGLE = "angle"
    CHAMFER = "chamfer"
    FIT = "fit"
    TOLERANCE = "tolerance"


@dataclass(frozen=True)
class Dimension:
    """One typed dimension of a drawing, with where it is."""

    #: The callout as read (normalised), e.g. ``"2x⌀19.9 0 -0.1"``.
    text: str
    #: What it measures.
    kind: DimensionKind
    #: Nominal value in mm (degrees for an angle; the chamfer's length for a chamfer); None when
    #: the callout has no value of its own (a bare fit or tolerance).
    value: float | None = None
    #: The value as written ("200.00", ".500"): drawings state precision by the digits they give.
    nominal: str = ""
    #: How many features it stands for ("4x" -> 4).
    count: int = 1
    #: Thread designation as written in ISO form, e.g. ``"M8"``, ``"M8x1.25"``, ``"M10x1-6H"``.
    thread: str = ""
    #: ISO 286 fit: hole class, shaft class or both (``"H7"``, ``"k6"``, ``"H7/g6"``).
    fit: str = ""
    #: The tolerance as a person says it: ``"±0.1"``, ``"+0.2/0"``, ``"16.00/15.50"`` (limits).
    tolerance: str = ""
    #: Upper deviation in mm (None when none is written).
    upper: float | None = None
    #: Lower deviation in mm (None when none is written).
    lower: float | None = None
    #: Upper and lower limit in mm when the value is given by its limits (``16.00`` over ``15.50``).
    limits: tuple[float, float] | None = None
    #: Hole or thread depth in mm (``⌀11 ↧20``).
    depth: float | None = None
    #: A reference (auxiliary) dimension, written in brackets.
    reference: bool = False
    #: Written bottom-to-top: it measures an extent that runs up the page in its view.
    vertical: bool = False
    #: Where it is on the page, in the source's coordinates.
    box: Box | None = None

    def callout(self) -> str:
        """The dimension as an answer quotes it, in drawing notation: ``"4 x M8"``, ``"⌀21.5 ±0.1"``."""
        head = f"{self.count} x " if self.count > 1 else ""
        if self.kind is DimensionKind.THREAD:
            body = self.thread
        elif self.kind in (DimensionKind.FIT, DimensionKind.TOLERANCE) or self.value is None:
            body = self.fit or self.tolerance
            return f"{head}{body}".strip()
        else:
            number = self.nominal or _number_text(self.value)
            if self.limits is not None:
                number = self.tolerance
            body = {
                DimensionKind.DIAMETER: f"⌀{number}",
                DimensionKind.RADIUS: f"R{number}",
                DimensionKind.ANGLE: f"{number}°",
                DimensionKind.CHAMFER: f"{number} x 45°" if "45" in self.text else number,
            }.get(self.kind, number)
            if self.fit:
                body += f" {self.fit}"
            if self.tolerance and self.limits is None:
                body += f" {self.tolerance}"
        if self.depth is not None:
            body += f", depth {_number_text(self.depth)}"
        if self.reference:
            body = f"({body})"
        return f"{head}{body}"

    def to_json(self) -> dict[str, Any]:
        """JSON form (the index stores it in a slice's ``extra["dimensions"]``); empty fields left out."""
        out: dict[str, Any] = {"text": self.text, "kind": str(self.kind)}
        for name in ("value", "upper", "lower", "depth"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        for name in ("nominal", "thread", "fit", "tolerance"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.limits is not None:
            out["limits"] = list(self.limits)
        if self.count != 1:
            out["count"] = self.count
        if self.reference:
            out["reference"] = True
        if self.vertical:
            out["vertical"] = True
        if self.box is not None:
            out["box"] = self.box.to_list()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dimension:
        """Inverse of :meth:`to_json`; raises ``ValueError`` on a malformed record."""
        try:
            box = data.get("box")
            return cls(
                text=str(data["text"]),
                kind=DimensionKind(data["kind"]),
                value=_float_or_none(data.get("value")),
                nominal=str(data.get("nominal", "")),
                count=int(data.get("count", 1)),
                thread=str(data.get("thread", "")),
                fit=str(data.get("fit", "")),
                tolerance=str(data.get("tolerance", "")),
                upper=_float_or_none(data.get("upper")),
                lower=_float_or_none(data.get("lower")),
                depth=_float_or_none(data.get("depth")),
                limits=_limits(data.get("limits")),
                reference=bool(data.get("reference", False)),
                vertical=bool(data.get("vertical", False)),
                box=Box.from_list(box) if box is not None else None,
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"not a dimension record: {err}") from err


def _limits(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    high, low = value
    return float(high), float(low)


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


def _number_text(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text or "0"


# --------------------------------------------------------------------------------------- parsing
#: A number as drawings write it: "16.5", "200", and inch decimals without the leading zero (".500").
_NUM = r"(?:\d+(?:\.\d+)?|(?<!\d)\.\d+)"
_TOKEN = re.compile(
    "|".join(
        [
            # 1x45°, 2 x 45°: a chamfer (length x angle).
            rf"(?P<chamfer>(?P<ch_len>{_NUM})\s?[xX×]\s?(?P<ch_ang>{_NUM})\s?°)",
            rf"(?P<chamfer_ch>CH\s?(?P<ch_only>{_NUM}))",
            # 4x, 2 X: how many features the callout stands for ("2×" is often read "2*").
            r"(?P<count>(?P<n>\d{1,3})\s?[xX×*](?=\s?(?:[⌀RMD]|SR|\d)))",
            # 4-M6, 6-⌀9: the count as Chinese and Japanese drawings write it.
            r"(?P<count_dash>(?<![\d.\-])(?P<nd>\d{1,2})\s?-\s?(?=M\d|⌀))",
            # Metric ISO thread M8, M8x1.25, M10x1-6H, MF12x1.5; trapezoidal Tr20x4; pipe G1/2.
            rf"(?P<thread>(?<![A-WYZa-wyz])(?:MF?|Tr)\s?{_NUM}(?:\s?[xX×]\s?{_NUM})?"
            r"(?:\s?-\s?\d[a-hA-H](?:\d[a-hA-H])?)?(?![\d.]))",
            # Pipe threads run G1/8 to G6; "G64" is a diameter whose sign was read as a G.
            r"(?P<pipe>(?<![A-Za-z])G\s?(?:\d/\d+|[1-6](?:/\d+)?)(?:\s?[AB])?(?![\d.]))",
            # Unified inch threads: 1/4-20 UNC, #10-32 UNF.
            r"(?P<unified>(?:\d+/\d+|#\d+|\d+)\s?-\s?\d+\s?UN(?:C|F|EF)(?:\s?-\s?\d[AB])?)",
            r"(?P<diameter>⌀\s?)",
            rf"(?P<radius>(?<![A-WYZa-wyz])S?R\s?)(?={_NUM})",
            # A lone D or B right before a decimal number: the diameter sign read as a letter.
            rf"(?P<diam_letter>(?<![A-Za-z])[DB]\s(?={_NUM}\b)|(?<![A-Za-z])G(?=\d{{2,}}\b))",
            # ↧ (depth), read as V, v or T between two numbers.
            rf"(?P<depth>(?<=\s)[↧VvT]\s?)(?={_NUM})",
            # A depth in words after its number ("M8 - 16 tief", ".50 DP", "16 deep", "12 djup")
            # or before it ("深12", "孔深 12").
            rf"(?P<depth_words>(?:-\s?)?(?P<dw>{_NUM})\s?(?:tief|deep|DEEP|DP|djup)\b)",
            rf"(?P<depth_zh>深\s?(?P<dz>{_NUM}))",
            rf"(?P<plusminus>±\s?(?P<pm>{_NUM}))",
            rf"(?P<signed>[+\-]\s?{_NUM})",
            rf"(?P<numeric>(?P<number>{_NUM})(?P<degree>\s?°)?)",
            # ISO 286 classes: grade 1-18 without a leading zero ("Z04" is a misread, not a class).
            r"(?P<fit>(?<![A-Za-z])[A-Z]{1,2}(?:1[0-8]|[1-9])(?:\s?/\s?[a-z]{1,2}(?:1[0-8]|[1-9]))?"
            r"(?![\w.])|(?<![A-Za-z])[a-z]{1,2}(?:1[0-8]|[1-9])(?![\w.]))",
            r"(?P<open>\()",
            r"(?P<close>\))",
            r"(?P<space>\s+)",
            r"(?P<junk>.)",
        ]
    )
)
#: Text that is never a dimension: a scale ("2:1"), roughness ("Ra 3.2", "Rz 6.3"), a date
#: ("2025-06-10", "10.01.2025"), a number with a leading zero ("02.06": no drawing writes one).
_NOT_DIMENSION = re.compile(
    r"^\s*\d+\s?:\s?\d+\s*$|R[az]\s?\d|\b(?:19|20)\d\d\s?[-/.]\s?\d\d?\s?[-/.]\s?\d\d?\b"
    r"|\b\d\d?\s?[-/.]\s?\d\d?\s?[-/.]\s?(?:19|20)\d\d\b|(?<![\d.])0\d"
)
#: A fit standing alone (its value not read) is believed only in the forms drawings use most: a
#: hole/shaft pair, or a common class of grade 5-12 (a lone "A3" is a sheet size, "S22" a misread).
_STANDALONE_FIT = re.compile(
    r"[A-Z]{1,2}\d{1,2}/[a-z]{1,2}\d{1,2}|(?:[HGFEDKMNP]|JS|js|[hgfedkmnp])(?:[5-9]|1[0-2])"
)
#: Two limits written one over the other (upper first) differ by at most this share of the upper.
_LIMIT_SPAN = 0.05


@dataclass
class _Draft:
    kind: DimensionKind = DimensionKind.LINEAR
    value: float | None = None
    count: int = 1
    thread: str = ""
    fit: str = ""
    deviations: list[float] | None = None
    plus_minus: float | None = None
    limits: tuple[float, float] | None = None
    depth: float | None = None
    reference: bool = False


def parse_dimensions(
    text: str, box: Box | None = None, *, vertical: bool = False
) -> list[Dimension]:
    """The dimensions of one callout's text (possibly none). Every record gets ``box``, and
    ``vertical`` when the text was read turned."""
    text = normalise(" ".join(text.split()))
    if not text or _NOT_DIMENSION.search(text):
        return []
    drafts: list[_Draft] = []
    current: _Draft | None = None
    pending_count = 1
    pending_prefix: DimensionKind | None = None
    pending_devs: list[float] = []
    pending_depth = False
    reference = False
    tokens = [(m.lastgroup or "", m) for m in _TOKEN.finditer(text)]
    tokens = [(kind, m) for kind, m in tokens if kind != "space"]
    # Numbers as written ("200.00", ".500", "+0.10"): the record repeats them so, not reformatted.
    written: dict[float, str] = {}
    for kind, m in tokens:
        if kind in ("numeric", "signed", "plusminus"):
            raw = m.group("number") if kind == "numeric" else m.group(0).replace(" ", "")
            raw = raw.lstrip("±")
            written.setdefault(float(raw), raw)

    def start(draft: _Draft) -> None:
        nonlocal current, pending_count, pending_prefix, pending_devs, reference
        draft.count = pending_count
        draft.reference = reference
        if pending_devs:
            draft.deviations = list(pending_devs)
        drafts.append(draft)
        current = draft
        pending_count, pending_prefix, pending_devs = 1, None, []

    for index, (kind, match) in enumerate(tokens):
        following = tokens[index + 1][0] if index + 1 < len(tokens) else ""
        group = match.group(0)
        if kind == "junk":
            if drafts:
                break  # a feature control frame or a word follows: the dimension ended
            pending_prefix = None
            continue
        if kind == "open":
            reference = True
        elif kind == "close":
            if current is not None and reference:
                current.reference = True
            reference = False
        elif kind == "chamfer":
            start(_Draft(DimensionKind.CHAMFER, float(match.group("ch_len"))))
        elif kind == "chamfer_ch":
            start(_Draft(DimensionKind.CHAMFER, float(match.group("ch_only"))))
        elif kind == "count":
            pending_count = int(match.group("n"))
        elif kind == "count_dash":
            pending_count = int(match.group("nd"))
        elif kind in ("depth_words", "depth_zh"):
            if current is not None and current.kind in (
                DimensionKind.DIAMETER,
                DimensionKind.THREAD,
            ):
                current.depth = float(match.group("dw") or match.group("dz"))
        elif kind in ("thread", "pipe", "unified"):
            designation = group.replace("×", "x").replace("X", "x")
            if kind != "unified":
                designation = re.sub(r"\s+", "", designation)
            nominal = re.search(r"\d+(?:\.\d+)?", designation)
            value = float(nominal.group(0)) if nominal and kind == "thread" else None
            start(_Draft(DimensionKind.THREAD, value, thread=designation))
        elif kind in ("diameter", "diam_letter"):
            pending_prefix = DimensionKind.DIAMETER
        elif kind == "radius":
            pending_prefix = DimensionKind.RADIUS
        elif kind == "depth":
            if current is not None and current.kind in (
                DimensionKind.DIAMETER,
                DimensionKind.THREAD,
            ):
                pending_depth = True
        elif kind == "plusminus":
            if current is not None and current.plus_minus is None and not current.deviations:
                current.plus_minus = float(match.group("pm"))
            else:
                pending_devs = []  # a ± without a value: nothing to attach it to
                start(_Draft(DimensionKind.TOLERANCE, plus_minus=float(match.group("pm"))))
        elif kind == "signed":
            value = float(group.replace(" ", ""))
            if (
                current is not None
                and current.value is not None
                and not current.deviations
                and current.plus_minus is None
                and current.limits is None
                and -value >= current.value
            ):
                current.limits = (-value, current.value)  # "5.8-5.85": a range, not a deviation
            elif (
                current is not None
                and current.kind is not DimensionKind.TOLERANCE
                and (len(current.deviations or []) < 2 and current.plus_minus is None)
            ):
                current.deviations = [*(current.deviations or []), value]
            elif following == "numeric" and pending_prefix is None:
                pending_devs.append(value)  # "+0.03 35.36 -0.03": the upper read before the value
            else:
                current = None
                pending_devs.append(value)
        elif kind == "numeric":
            value = float(match.group("number"))
            if match.group("degree"):
                start(_Draft(DimensionKind.ANGLE, value))
            elif pending_depth and current is not None:
                current.depth = value
                pending_depth = False
            elif pending_prefix is not None:
                start(_Draft(pending_prefix, value))
            elif value == 0 and _is_deviation_zero(current, tokens, index):
                if current is not None and len(current.deviations or []) < 2:
                    current.deviations = [*(current.deviations or []), 0.0]
                else:
                    pending_devs.append(0.0)
            elif (
                current is not None
                and current.kind is DimensionKind.LINEAR
                and current.value is not None
                and current.limits is None
                and not current.deviations
                and current.plus_minus is None
                and current.value > value >= current.value * (1 - _LIMIT_SPAN)
            ):
                current.limits = (current.value, value)
            elif (
                current is not None
                and current.value is not None
                and value < 0.1
                and value < 0.01 * current.value
            ):
                continue  # a deviation whose sign was lost: it is not a length of its own
            else:
                start(_Draft(DimensionKind.LINEAR, value))
        elif kind == "fit":
            fit = group.replace(" ", "")
            if current is not None and current.value is not None and not current.fit:
                current.fit = fit
            elif current is None and not drafts and _STANDALONE_FIT.fullmatch(fit):
                start(_Draft(DimensionKind.FIT, fit=fit))
            elif drafts:
                break  # a datum letter with a number ("A3") after the dimension: not a fit
    if pending_devs and not drafts:
        drafts.append(_Draft(DimensionKind.TOLERANCE, deviations=pending_devs))
    found = [_finish(draft, text, box, written, vertical) for draft in drafts]
    # A value of 0 is an ordinate origin or a misread mark ("© 0"), not a feature.
    return [d for d in found if d.value != 0.0]


def _is_deviation_zero(current: _Draft | None, tokens: list[tuple[str, Any]], index: int) -> bool:
    """A bare 0 is a deviation when it pairs with a signed one: "+0.1 0", "0 -0.1", "0.00 35-0.2"."""
    before = tokens[index - 1][0] if index > 0 else ""
    after = tokens[index + 1][0] if index + 1 < len(tokens) else ""
    if before == "signed" or after == "signed":
        return True
    if current is not None and current.deviations:
        return True
    # "0.00 35.00 -0.20": a zero, the value, then the signed partner.
    return after == "numeric" and index + 2 < len(tokens) and tokens[index + 2][0] == "signed"


def _finish(
    draft: _Draft, text: str, box: Box | None, written: dict[float, str], vertical: bool
) -> Dimension:
    def as_written(value: float) -> str:
        return written.get(value, _number_text(value))

    def signed(value: float) -> str:
        if value == 0:
            return "0"
        raw = as_written(value)
        return raw if raw[0] in "+-" else f"{'+' if value > 0 else '-'}{raw.lstrip('+-')}"

    tolerance, upper, lower = "", None, None
    if draft.plus_minus is not None:
        tolerance = f"±{as_written(draft.plus_minus)}"
        upper, lower = draft.plus_minus, -draft.plus_minus
    elif draft.deviations:
        devs = draft.deviations
        if len(devs) == 1:
            # One deviation: the other is zero (ISO 129 writes both, OCR may drop the 0).
            devs = [devs[0], 0.0] if devs[0] > 0 else [0.0, devs[0]]
        upper, lower = max(devs[:2]), min(devs[:2])
        tolerance = f"{signed(upper)}/{signed(lower)}"
    elif draft.limits is not None:
        high, low = draft.limits
        tolerance = (
            f"{as_written(high)}/{as_written(low)}"
            if draft.value == high
            else f"{as_written(low)}-{as_written(high)}"
        )
        if draft.value == low:  # a range written low-high: the value is its lower end
            upper, lower = round(high - low, 6), 0.0
        else:
            upper, lower = 0.0, round(low - high, 6)
    kind = draft.kind
    if kind is DimensionKind.LINEAR and draft.value is None:
        kind = DimensionKind.TOLERANCE
    return Dimension(
        text=text,
        kind=kind,
        value=draft.value,
        nominal=as_written(draft.value) if draft.value is not None else "",
        count=draft.count,
        thread=draft.thread,
        fit=draft.fit,
        tolerance=tolerance,
        upper=upper,
        lower=lower,
        depth=draft.depth,
        limits=draft.limits,
        reference=draft.reference,
        vertical=vertical,
        box=box,
    )
