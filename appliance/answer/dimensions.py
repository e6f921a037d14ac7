"""Questions over a drawing's dimensions, answered from its typed set with the dimension's own box.

"What thread goes through the adapter plate?", "the largest diameter of the piston", "the overall
length", "the tolerance on the 70.5 diameter", "which diameter has an H12 fit", "how many holes":
each names a kind of dimension and how to pick one (largest, smallest, the one with a given value or
fit, all of them). The answer is taken from the typed dimensions of the drawing the question is
about (:attr:`Source.dimensions`, put there by the vision package), never from another drawing and
never from a title-block field: "thread size" is not the sheet size. A source without a typed set (a
PDF's text layer) is read line by line with the same parser; bare numbers there are not believed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from appliance.answer import extractive, subjects
from appliance.answer.context import Source
from appliance.drawing_terms import translate
from appliance.vision.dimensions import Dimension, DimensionKind, parse_dimensions

K = DimensionKind

#: The region a dimension is cited in: the section the vision package indexes dimension slices under.
DIMENSIONS_SECTION = "dimensions"


@dataclass(frozen=True)
class _Intent:
    """What a dimension question asks."""

    #: What the answer is about: thread, diameter, radius, angle, chamfer, length, tolerance, fit,
    #: holes, depth.
    aspect: str
    #: How to pick: ``max``, ``min`` or ``all``.
    pick: str
    #: Values the question names ("the 70.5 diameter").
    values: tuple[float, ...]
    #: A fit class the question names ("H12").
    fit: str
    #: Whether it asks how many.
    count: bool
    #: How many features the question says there are ("the four holes"; 0 when it does not say).
    features: int
    #: The question's words that say what is asked (left out when finding the drawing).
    words: tuple[str, ...]
    #: Thread sizes the question names ("the M8 holes": "M8").
    threads: tuple[str, ...] = ()


_ASPECT_WORDS: tuple[tuple[str, str], ...] = (
    ("tolerance class", "fit"),
    ("fit class", "fit"),
    ("iso 286", "fit"),
    ("fit", "fit"),
    ("passung", "fit"),
    ("toleranced", "tolerance"),
    ("tolerance", "tolerance"),
    ("deviation", "tolerance"),
    ("limits", "tolerance"),
    ("thread", "thread"),
    ("gewinde", "thread"),
    ("gänga", "thread"),
    ("tapped", "thread"),
    ("tap size", "thread"),
    # What is asked comes before the feature it is asked of: "how deep is the Ø52 bore" asks a
    # depth, not a diameter.
    ("how deep", "depth"),
    ("depth", "depth"),
    ("chamfer", "chamfer"),
    ("fase", "chamfer"),
    ("bevel", "chamfer"),
    ("radius", "radius"),
    ("radii", "radius"),
    ("fillet", "radius"),
    ("rounding", "radius"),
    ("angle", "angle"),
    ("degrees", "angle"),
    ("winkel", "angle"),
    ("counterbore", "counterbore"),
    ("c'bore", "counterbore"),
    ("spot face", "counterbore"),
    ("spotface", "counterbore"),
    ("diameter", "diameter"),
    ("durchmesser", "diameter"),
    ("diam", "diameter"),
    ("bore", "diameter"),
    ("spigot", "diameter"),
    ("journal", "diameter"),
    ("⌀", "diameter"),
    ("holes", "holes"),
    ("hole", "diameter"),
    ("how thick", "thickness"),
    ("thickness", "thickness"),
    ("overall length", "length"),
    ("total length", "length"),
    ("overall size", "length"),
    ("overall width", "length"),
    ("overall height", "length"),
    ("length", "length"),
    ("how long", "length"),
    ("longest", "length"),
    ("width", "length"),
    ("how wide", "length"),
    ("height", "length"),
    ("how tall", "length"),
    ("how high", "length"),
    ("largest dimension", "length"),
    ("biggest dimension", "length"),
)
#: Questions about the drawing's general rules, not one of its dimensions.
_GENERAL = re.compile(
    r"\bgeneral\b|\bstandard\b|\biso\s?2768\b|\bunless\b|\bnot (?:indicated|stated|specified)\b"
    r"|\bdecimals?\b|\bplaces?\b"
)
#: A note that gives every edge of a kind its size ("未注倒角 C1", "ALL CHAMFERS 0.5x45°",
#: "Kanten gebrochen 0,5x45°", "FILLETS R2 UNLESS NOTED"): the chamfer or radius of a drawing
#: that dimensions none.
_EDGE_NOTES = {
    "chamfer": re.compile(r"\bC\s?\d+(?:[.,]\d+)?\b|\d+(?:[.,]\d+)?\s?[xX×]\s?45\s?°"),
    "radius": re.compile(r"\bR\s?\d+(?:[.,]\d+)?\b"),
}
#: A question about the edges a drawing leaves undimensioned: "what chamfer applies where none is
#: given", "which radius unless noted", "the general fillet radius".
_EDGE_DEFAULT = re.compile(
    r"\b(?:none is (?:given|shown|stated|drawn|dimensioned|specified|marked|noted)"
    r"|not (?:given|shown|dimensioned|specified|indicated|stated|noted|marked)"
    r"|unspecified|undimensioned|unmarked|otherwise|unless|general|default"
    # The part's edges as a whole: "how big a chamfer on the sharp edges", "all edges".
    r"|sharp (?:edges?|corners?)|(?:all|the) edges)\b",
    re.I,
)
_EDGE_ASPECT = (
    ("chamfer", re.compile(r"\b(?:chamfer\w*|bevel\w*|broken edges?|edge break)\b", re.I)),
    ("radius", re.compile(r"\b(?:radius|radii|fillets?|rounds?)\b", re.I)),
)


def edge_note_extract(question: str, sources: Sequence[Source]) -> extractive.Extract | None:
    """The note sizing the chamfers or edge radii a drawing does not dimension, when the question
    asks for that default ("what chamfer applies where none is given on DG-0620-02")."""
    if not _EDGE_DEFAULT.search(question):
        return None
    aspect = next((name for name, words in _EDGE_ASPECT if words.search(question)), "")
    if not aspect:
        return None
    return _edge_note(
        question, aspect, subjects.subject_sources(question, "", sources)[:1], sources
    )


def _edge_note(
    question: str, aspect: str, subject: Sequence[Source], sources: Sequence[Source]
) -> extractive.Extract | None:
    """The line of the subject drawing that sizes every edge of the kind (see :data:`_EDGE_NOTES`)."""
    files = {(s.source, s.page) for s in subject}
    drawing = [s for s in sources if (s.source, s.page) in files]

    def sizes_every_edge(quote: str) -> bool:
        said = f"{quote} {translate(quote)}"
        return bool(_EDGE_NOTES[aspect].search(quote) and _DEFAULT_LINE.search(said))

    line = extractive.line_extract(question, drawing, sizes_every_edge) if drawing else None
    if line is None and drawing:
        line = extractive.line_extract(question, drawing)
        if line is not None and not _EDGE_NOTES[aspect].search(line.quote):
            line = None
    return line


#: A line that sizes every edge it speaks of, not one edge: "Nicht bemaßte Radien R2", "未注倒角
#: C1", "BREAK ALL SHARP EDGES 0.5", "FILLETS R2 UNLESS NOTED", "Kanten gebrochen 0,5x45°".
_DEFAULT_LINE = re.compile(
    r"nicht\s*bema\w*|unbema\w*|未注|unless|otherwise|\bnot\s+(?:dimensioned|shown|noted|specified)"
    r"|\bej\s+(?:m[åa]tt\w*|angiv\w*)|\ball\b|\balle\b|\balla\b|kant\w*|\bedges?\b|undimensioned"
    r"|unspecified",
    re.I,
)


#: A tolerance question names the feature it is about ("the 70.5 diameter", "the thickness");
#: "the tolerance on the part" asks for the general tolerance, which is no dimension.
_FEATURE = re.compile(
    r"\b(?:diam\w*|bore\w*|holes?|thick\w*|height|length|width|radius|radii|angle|chamfer|depth"
    r"|deep|wide|long|tall|slot|pocket|step|shaft|pin|groove)\b|⌀"
)
_MAX = re.compile(r"\b(?:largest|biggest|greatest|max(?:imum)?|outer|outside|external|overall)\b")
_MIN = re.compile(r"\b(?:smallest|least|min(?:imum)?|inner|inside|internal|narrowest)\b")
_COUNT = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b")
# A value the question names: "70.5", "Ø21.5", ".500"; not the digits of a drawing number or a file
# name ("GB-4410-01.png", "LiU0010", "UR10_29.20").
_VALUE = re.compile(r"(?<![\w.\-/])[⌀øØrR]?\s?(\d+(?:[.,]\d+)?|\.\d+)(?![\w\-/]|[.,]\d*[A-Za-z_])")
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "twelve": 12}
_FIT = re.compile(r"(?<![A-Za-z])([A-Z]{1,2}\d{1,2}(?:/[a-z]{1,2}\d{1,2})?)(?![\w])")


#: A distance between features ("the hole spacing", "the pitch of the bolt circle", "how far apart"):
#: no one dimension's size, and the features' own sizes are not it.
_SPACING = re.compile(
    r"\b(?:spacing|spaced|pitch circle|bolt circle|far apart|centre distance|center distance"
    r"|distance between|between (?:the )?(?:holes|centres|centers))\b"
)
#: A thread size as a question names it ("M8", "M10x1.25").
_THREAD_NAMED = re.compile(r"\bM\d+(?:[.,]\d+)?(?:\s?[x×]\s?\d+(?:[.,]\d+)?)?\b", re.I)


def asks_dimension(question: str) -> bool:
    """Whether the question is about the drawing's dimensions (then only the set answers it)."""
    return _intent(question) is not None


def _intent(question: str) -> _Intent | None:
    q = " " + question.lower().replace("ø", "⌀").replace("∅", "⌀") + " "
    if _GENERAL.search(q):
        return None
    words: list[str] = []
    aspect = ""
    for phrase, name in _ASPECT_WORDS:
        pattern = re.escape(phrase) if phrase == "⌀" else r"\b" + re.escape(phrase) + r"\w*"
        if re.search(pattern, q):
            aspect = aspect or name
            words.append(phrase)
    if not aspect or _SPACING.search(q):
        return None
    values = tuple(float(v.replace(",", ".")) for v in _VALUE.findall(question))
    if aspect == "tolerance" and not values and not _FEATURE.search(q):
        return None
    count = bool(_COUNT.search(q))
    if count and aspect == "diameter" and "hole" in q:
        aspect = "holes"
    pick = "max" if _MAX.search(q) else "min" if _MIN.search(q) else "all"
    fits = _FIT.findall(question)
    features = next((n for w, n in _NUMBER_WORDS.items() if re.search(rf"\b{w}\b", q)), 0)
    if aspect == "chamfer" and re.search(r"\bangle|\bdegree", q):
        aspect = "chamfer_angle"
    # Written as the drawing's own threads are ("m8 x 1,25" is "M8x1.25"), by the same reader.
    threads = tuple(
        d.thread
        for named in _THREAD_NAMED.findall(question)
        for d in parse_dimensions(named.upper())
        if d.thread
    )
    return _Intent(
        aspect, pick, values, fits[0] if fits else "", count, features, tuple(words), threads
    )


@dataclass(frozen=True)
class _Found:
    """A dimension and the source it was found in."""

    dimension: Dimension
    source: Source


def dimension_extract(question: str, sources: Sequence[Source]) -> extractive.Extract | None:
    """The answer to a dimension question from the typed set of the drawing it is about.

    When the drawing has no dimensions at all, the best quoted line answers (never a title-block
    field); when it has some and none answers, nothing does.
    """
    intent = _intent(question)
    if intent is None:
        return None
    found = _subject_dimensions(question, intent, sources)
    if not found:
        return extractive.line_extract(question, sources)
    # The drawing's dimensions were read and none answers: its other lines would only be a guess
    # ("FIRST ANGLE PROJECTION" for an angle, the sheet size for a hole size), except a note
    # sizing every chamfer or edge radius of the part.
    answer = _answer(intent, found)
    if answer is None and intent.aspect in _EDGE_NOTES:
        return _edge_note(question, intent.aspect, [found[0].source], sources)
    return answer


def _subject_dimensions(question: str, intent: _Intent, sources: Sequence[Source]) -> list[_Found]:
    """The typed dimensions of the drawing the question names (best-ranked first)."""
    asked = question.lower()
    for word in intent.words:
        asked = asked.replace(word, " ")
    subject = subjects.subject_sources(asked, "", sources)
    files = {(s.source, s.page) for s in subject}
    out: list[_Found] = []
    seen: set[Dimension] = set()
    for src in sources:
        if (src.source, src.page) not in files:
            continue
        records = [_record(r) for r in src.dimensions] or _from_text(src.text)
        for dim in records:
            # The title block, the summary and the dimension's own slice all carry its record; when
            # they come as separate sources it is still one dimension.
            if dim is not None and dim not in seen:
                seen.add(dim)
                out.append(_Found(dim, src))
    if not out:
        return []
    # One drawing only: the best-ranked source's file and page.
    first = out[0].source
    kept = [f for f in out if (f.source.source, f.source.page) == (first.source, first.page)]
    return _plus_minus_mended(kept)


#: A length whose ± was read as a 4 ("20±0.1" -> "2040.1", "90±0.05" -> "9040.05"): the nominal,
#: the 4, and a deviation below one.
_PLUS_MINUS_AS_FOUR = re.compile(r"^(\d{1,3})4(0[.,]\d{1,3})$")
#: How many times larger than every other size of the drawing such a length must be to be that
#: slip rather than a size ("140.5" on a part of 150 is a size).
_IMPLAUSIBLE = 4.0


def _plus_minus_mended(found: list[_Found]) -> list[_Found]:
    """The drawing's dimensions with a length that is a ± read as a 4 written as it was meant: a
    length like "2040.1" on a drawing whose other sizes are all under a quarter of it is
    "20 ±0.1" (a thin-stroked ± in some fonts is read as a 4)."""
    sizes = [
        f.dimension.value
        for f in found
        if f.dimension.value is not None and f.dimension.kind in (K.LINEAR, K.DIAMETER)
    ]
    out = []
    for f in found:
        dim = f.dimension
        slip = _PLUS_MINUS_AS_FOUR.match(dim.nominal) if dim.kind is K.LINEAR else None
        others = [v for v in sizes if v != dim.value]
        implausible = (
            dim.value is not None and bool(others) and dim.value > _IMPLAUSIBLE * max(others)
        )
        if slip and not dim.tolerance and implausible:
            meant = parse_dimensions(f"{slip[1]} ±{slip[2]}", dim.box)
            if len(meant) == 1 and meant[0].tolerance:
                f = _Found(meant[0], f.source)
        out.append(f)
    return out


def _record(data: object) -> Dimension | None:
    if not isinstance(data, dict):
        return None
    try:
        return Dimension.from_json(data)
    except ValueError:
        return None


#: Kinds a line of plain text is believed to be a dimension as (a bare number there is anything).
_TEXT_KINDS = (K.THREAD, K.DIAMETER, K.RADIUS, K.ANGLE, K.CHAMFER)


def _from_text(text: str) -> list[Dimension]:
    out: list[Dimension] = []
    for line in text.splitlines():
        if len(line) > 40 or sum(ch.isdigit() for ch in line) == 0:
            continue
        out.extend(
            d
            for d in parse_dimensions(line)
            if d.kind in _TEXT_KINDS or (d.value is not None and (d.tolerance or d.fit))
        )
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _answer(intent: _Intent, found: list[_Found]) -> extractive.Extract | None:
    named = [
        f
        for f in found
        if f.dimension.value is not None and any(_same(f.dimension.value, v) for v in intent.values)
    ]
    if not named and intent.values:
        # A number that is no dimension of the drawing (a quantity, part of a name) names nothing.
        intent = replace(intent, values=())
    if intent.features:
        counted = [f for f in found if f.dimension.count == intent.features]
        found = counted + [f for f in found if f not in counted]
    handler = _HANDLERS.get(intent.aspect)
    return handler(intent, found, named) if handler else None


def _extract(item: _Found, quote: str, field: str, several: bool = False) -> extractive.Extract:
    # The title block's slice and the page's summary carry every dimension's record too; the
    # listener is sent to the views, where the dimension is drawn, not to the title block.
    return extractive.Extract(
        item.source.number,
        quote,
        field,
        1.0,
        box=item.dimension.box or item.source.box,
        section=DIMENSIONS_SECTION,
        several=several,
    )


def _of_kind(found: list[_Found], *kinds: DimensionKind) -> list[_Found]:
    return [f for f in found if f.dimension.kind in kinds]


def _distinct(found: list[_Found]) -> list[_Found]:
    seen: dict[str, _Found] = {}
    for f in found:
        seen.setdefault(f.dimension.callout(), f)
    return list(seen.values())


def _picked(intent: _Intent, items: list[_Found], field: str) -> extractive.Extract | None:
    """The largest, the smallest, the only one, or all of them listed (cited at the first)."""
    items = [f for f in items if f.dimension.value is not None] or items
    if not items:
        return None
    if intent.pick in ("max", "min") and all(f.dimension.value is not None for f in items):
        best = (max if intent.pick == "max" else min)(items, key=lambda f: f.dimension.value or 0)
        prefix = "largest" if intent.pick == "max" else "smallest"
        return _extract(best, best.dimension.callout(), f"{prefix} {field}")
    distinct = _distinct(items)
    if len(distinct) == 1:
        return _extract(distinct[0], distinct[0].dimension.callout(), field)
    quote = ", ".join(f.dimension.callout() for f in distinct)
    return _extract(distinct[0], quote, _PLURAL.get(field, field + "s"), several=True)


_PLURAL = {"radius": "radii", "thread size": "threads"}


def _thread(intent: _Intent, found: list[_Found], named: list[_Found]) -> extractive.Extract | None:
    threads = _of_kind(found, K.THREAD)
    if not threads:
        return None
    if intent.count:
        total = sum(f.dimension.count for f in threads)
        listed = ", ".join(f.dimension.callout() for f in _distinct(threads))
        return _extract(threads[0], f"{total} ({listed})", "number of threads")
    distinct = _distinct(threads)
    quote = ", ".join(f.dimension.callout() for f in distinct)
    if len(distinct) == 1:
        return _extract(distinct[0], quote, "thread size")
    return _extract(distinct[0], quote, "threads", several=True)


def _diameter(
    intent: _Intent, found: list[_Found], named: list[_Found]
) -> extractive.Extract | None:
    diameters = _of_kind(found, K.DIAMETER)
    side = _fitted_side(intent)
    if intent.pick == "all" and side is not None and len(_distinct(diameters)) > 1:
        one = _one_fitted(diameters, side)
        if one is not None:
            return _extract(one, one.dimension.callout(), f"{side} diameter")
    if intent.pick == "all" and len(_distinct(diameters)) > 1:
        holes = [f for f in diameters if f.dimension.count > 1 or f.dimension.depth is not None]
        if intent.features:
            holes = [f for f in holes if f.dimension.count == intent.features] or holes
        if len(_distinct(holes)) == 1:
            return _extract(holes[0], holes[0].dimension.callout(), "hole diameter")
        # "The diameter of the piston" is its outside: the largest.
        return _picked(replace(intent, pick="max"), diameters, "diameter")
    return _picked(intent, diameters, "diameter")


#: Question words naming the inside of a fit (a bore) or its outside (a spigot, a journal).
_BORE_WORDS = frozenset({"bore", "bores", "housing"})
_SHAFT_WORDS = frozenset({"spigot", "spigots", "pilot", "journal", "journals", "shaft", "spindle"})


def _fitted_side(intent: _Intent) -> str | None:
    """ "bore" or "spigot" when the question names one side of a fit and not the other."""
    words = set(intent.words)
    bore, shaft = bool(words & _BORE_WORDS), bool(words & _SHAFT_WORDS)
    if bore == shaft:
        return None
    return "bore" if bore else "spigot"


def _one_fitted(found: list[_Found], side: str) -> _Found | None:
    """The one size toleranced for that side of a fit: a hole's fit class is a capital letter
    ("⌀25 H7"), a shaft's a small one ("⌀110 f7", the outside that locates in a bore)."""
    upper = side == "bore"
    sided = _distinct(
        [f for f in found if f.dimension.fit[:1].isupper() == upper and f.dimension.fit]
    )
    return sided[0] if len(sided) == 1 else None


def _simple(kind: DimensionKind, field: str) -> Callable[..., extractive.Extract | None]:
    def handle(
        intent: _Intent, found: list[_Found], named: list[_Found]
    ) -> extractive.Extract | None:
        return _picked(intent, _of_kind(found, kind), field)

    return handle


def _length(intent: _Intent, found: list[_Found], named: list[_Found]) -> extractive.Extract | None:
    lengths = [f for f in _of_kind(found, K.LINEAR) if f.dimension.value is not None]
    if not lengths:
        return None
    # A size with a fit ("13.70 H7", "25 h6") is a bore's or a shaft's, not the part's outline
    # (often a diameter whose symbol was not read).
    lengths = [f for f in lengths if not f.dimension.fit] or lengths
    lengths = [f for f in lengths if not _tag_in_inch_drawing(f, lengths)] or lengths
    ranked = sorted(lengths, key=lambda f: -(f.dimension.value or 0))
    words = " ".join(intent.words)
    if "wid" in words and "length" not in words and len(ranked) > 1:
        # Length, width, height in falling order: the width is the second of the lengths (the
        # length itself when it is drawn twice, once each way, as on a square plate).
        return _extract(ranked[1], ranked[1].dimension.callout(), "overall width")
    # Which way a dimension runs is not read (the text of a vertical dimension is often upright),
    # so "how long" and "how tall" are both the largest length.
    tall = any(w in words for w in ("height", "tall", "high"))
    best = ranked[0]
    return _extract(best, best.dimension.callout(), f"overall {'height' if tall else 'length'}")


_INCH_DECIMALS = re.compile(r"^\d*\.\d{3}$")


def _tag_in_inch_drawing(item: _Found, lengths: list[_Found]) -> bool:
    """A bare whole number on a drawing whose decimal lengths are all written to three places (inch
    drawings write "3.000", never "3"): a row tag or a zone mark read as a length."""
    nominal = item.dimension.nominal
    if not nominal.isdigit() or item.dimension.tolerance:
        return False
    decimals = [f.dimension.nominal for f in lengths if not f.dimension.nominal.isdigit()]
    return bool(decimals) and all(_INCH_DECIMALS.match(n) for n in decimals)


def _tolerance(
    intent: _Intent, found: list[_Found], named: list[_Found]
) -> extractive.Extract | None:
    candidates = [f for f in named if f.dimension.tolerance]
    if not candidates and named:
        # "The tolerance on the Ø6 hole" of a drawing that writes "⌀6 H7": the fit class is it.
        fitted = _distinct([f for f in named if f.dimension.fit])
        if len(fitted) == 1:
            item = fitted[0]
            return _extract(
                item, item.dimension.fit, f"tolerance class of {_feature(item.dimension)}"
            )
    if not candidates and not intent.values:
        if any(w in _ROUND_FEATURES for w in intent.words):
            # "the tolerance on the centre bore": a bore's or a shaft's size, not the part's
            # thickness; a bore given by its fit class ("⌀52 H7") is toleranced by that class.
            found = _of_kind(found, K.DIAMETER) + [
                f for f in found if f.dimension.fit and f.dimension.kind != K.DIAMETER
            ]
            fitted = _distinct([f for f in found if f.dimension.fit and not f.dimension.tolerance])
            side = _fitted_side(intent)
            if side is not None and len(fitted) > 1:
                # "The spigot diameter with its tolerance": the one outside fit ("⌀110 f7").
                one = _one_fitted(fitted, side)
                fitted = [one] if one is not None else fitted
                if one is not None:
                    return _extract(one, one.dimension.callout(), f"{side} diameter")
            if not any(f.dimension.tolerance for f in found) and len(fitted) == 1:
                item = fitted[0]
                return _extract(
                    item, item.dimension.fit, f"tolerance class of {_feature(item.dimension)}"
                )
        toleranced = _distinct([f for f in found if f.dimension.tolerance and f.dimension.value])
        if len(toleranced) == 1:
            candidates = toleranced
    if not candidates:
        return None
    item = candidates[0]
    dim = item.dimension
    return _extract(item, dim.tolerance, f"tolerance on {_feature(dim)}")


#: Words of a question naming a round feature (its size is a diameter).
_ROUND_FEATURES = frozenset(
    {"bore", "hole", "holes", "shaft", "pin", "diameter", "⌀", "spigot", "journal"}
)


def _thickness(
    intent: _Intent, found: list[_Found], named: list[_Found]
) -> extractive.Extract | None:
    """A plate's thickness: the smallest of its lengths when it has three or more (length, width
    and thickness drawn); a round part's one length; otherwise the thickness is not drawn."""
    lengths = _distinct(
        [f for f in _of_kind(found, K.LINEAR) if f.dimension.value and not f.dimension.fit]
    )
    # A lone digit without a tolerance beside real lengths is a zone mark or a balloon.
    lengths = [f for f in lengths if not _lone_digit(f)] or lengths
    round_part = len(_distinct(_of_kind(found, K.DIAMETER))) >= 2
    if len(lengths) == 1 and round_part:
        # A washer or a disc: drawn by its diameters, its one length is how thick it is.
        return _extract(lengths[0], lengths[0].dimension.callout(), "thickness")
    if len(lengths) < 3:
        return None
    thinnest = min(lengths, key=lambda f: f.dimension.value or 0.0)
    return _extract(thinnest, thinnest.dimension.callout(), "thickness")


def _lone_digit(item: _Found) -> bool:
    nominal = item.dimension.nominal
    return len(nominal) == 1 and nominal.isdigit() and not item.dimension.tolerance


def _fit(intent: _Intent, found: list[_Found], named: list[_Found]) -> extractive.Extract | None:
    if intent.fit:
        with_fit = [f for f in found if f.dimension.fit.lower() == intent.fit.lower()]
        if with_fit:
            return _extract(
                with_fit[0], with_fit[0].dimension.callout(), f"dimension with {intent.fit}"
            )
    fitted = [f for f in named if f.dimension.fit]
    if fitted:
        return _extract(
            fitted[0], fitted[0].dimension.fit, f"fit of {_feature(fitted[0].dimension)}"
        )
    if intent.values:
        return None
    fitted = _distinct([f for f in found if f.dimension.fit])
    if not fitted:
        return None
    side = _fitted_side(intent)
    one = _one_fitted(fitted, side) if side is not None and len(fitted) > 1 else None
    if one is not None:
        return _extract(one, one.dimension.callout(), f"{side} fit")
    quote = ", ".join(f.dimension.callout() for f in fitted)
    if len(fitted) == 1:
        return _extract(fitted[0], quote, "fit")
    return _extract(fitted[0], quote, "fits", several=True)


def _holes(intent: _Intent, found: list[_Found], named: list[_Found]) -> extractive.Extract | None:
    holes = [f for f in _of_kind(found, K.DIAMETER, K.THREAD) if f.dimension.count > 1]
    if intent.threads or named:
        # "How many M8 holes", "the Ø11 holes": those, not every hole of the part.
        holes = [f for f in holes if f in named or _is_thread_named(f.dimension, intent.threads)]
    if intent.features:
        holes = [f for f in holes if f.dimension.count == intent.features] or holes
    if not holes:
        return None
    distinct = _distinct(holes)
    listed = ", ".join(f.dimension.callout() for f in distinct)
    if not intent.count:
        if len(distinct) == 1:
            return _extract(distinct[0], listed, "hole size")
        return _extract(distinct[0], listed, "hole sizes", several=True)
    total = sum(f.dimension.count for f in distinct)
    return _extract(distinct[0], f"{total} ({listed})", "number of holes")


def _is_thread_named(dim: Dimension, threads: tuple[str, ...]) -> bool:
    """Whether ``dim`` is a thread the question names ("M8" names "M8x1.25" too)."""
    own = dim.thread
    return bool(own) and any(own == t or own.startswith(t + "x") for t in threads)


def _depth(intent: _Intent, found: list[_Found], named: list[_Found]) -> extractive.Extract | None:
    deep = [f for f in (named or found) if f.dimension.depth is not None]
    field = "depth"
    if any(w in _COUNTERBORE_WORDS for w in intent.words):
        chosen, field = _widest_counterbore(deep), "counterbore depth"
    else:
        chosen = deep[0] if deep else None
    if chosen is None:
        return None
    # The depth first, then what it is the depth of: "20 (4 x ⌀11.00)".
    dim = chosen.dimension
    return _extract(chosen, f"{dim.depth:g} ({replace(dim, depth=None).callout()})", field)


#: The question words that ask about a counterbore or a spot face (a countersink has an angle,
#: not a depth: the line that states it answers).
_COUNTERBORE_WORDS = frozenset(p for p, aspect in _ASPECT_WORDS if aspect == "counterbore")


def _widest_counterbore(found: list[_Found]) -> _Found | None:
    """A counterbore is the wider, shallower step of a hole drawn with a depth ("4 x ⌀11 ↧20" and
    "⌴ ⌀18 ↧12"): the widest of the diameters with a depth, when the drawing has two or more
    (a single drilled depth is the hole's, not a counterbore's)."""
    bores = _distinct([f for f in _of_kind(found, K.DIAMETER) if f.dimension.depth is not None])
    if len(bores) < 2:
        return None
    return max(bores, key=lambda f: f.dimension.value or 0.0)


def _counterbore(
    intent: _Intent, found: list[_Found], named: list[_Found]
) -> extractive.Extract | None:
    bore = _widest_counterbore(found)
    return None if bore is None else _extract(bore, bore.dimension.callout(), "counterbore")


def _chamfer_angle(
    intent: _Intent, found: list[_Found], named: list[_Found]
) -> extractive.Extract | None:
    """A chamfer's angle: from a "1x45°" callout, else the drawing's angles."""
    angled = [f for f in _of_kind(found, K.CHAMFER) if "°" in f.dimension.text]
    if angled:
        angles = [re.search(r"(\d+(?:\.\d+)?)\s?°", f.dimension.text) for f in angled]
        quote = ", ".join(dict.fromkeys(f"{m.group(1)}°" for m in angles if m))
        return _extract(angled[0], f"{quote} ({angled[0].dimension.callout()})", "chamfer angle")
    return _picked(intent, _of_kind(found, K.ANGLE), "angle")


def _feature(dim: Dimension) -> str:
    value = dim.nominal or (f"{dim.value:g}" if dim.value is not None else dim.text)
    return {K.DIAMETER: f"⌀{value}", K.RADIUS: f"R{value}", K.ANGLE: f"{value}°"}.get(
        dim.kind, dim.thread or value
    )


_HANDLERS: dict[str, Callable[..., extractive.Extract | None]] = {
    "thread": _thread,
    "diameter": _diameter,
    "counterbore": _counterbore,
    "radius": _simple(K.RADIUS, "radius"),
    "angle": _simple(K.ANGLE, "angle"),
    "chamfer": _simple(K.CHAMFER, "chamfer"),
    "chamfer_angle": _chamfer_angle,
    "length": _length,
    "thickness": _thickness,
    "tolerance": _tolerance,
    "fit": _fit,
    "holes": _holes,
    "depth": _depth,
}
