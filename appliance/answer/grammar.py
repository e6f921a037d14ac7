"""GBNF grammars that constrain the model's answer to a checkable shape, built per request.

llama.cpp masks every token the grammar does not allow, so a small model that never writes ``[n]`` on
its own must write one. Two shapes:

* :func:`citation_grammar` (format ``grammar``/``fewshot``): one short sentence, then one or more
  citation markers whose numbers are only those of the request's sources, then the end. The sentence
  may not contain brackets or a newline, and a full stop only inside a number (``21.5``) or right
  before the citation, so the model has to cite where it would otherwise start a second sentence.
* :func:`extraction_grammar` (format ``extract``): ``[n] `` and then one line copied verbatim from
  source ``n``. The model only chooses; every word of the answer is the source's own, and the claim
  check still runs on it.

Neither grammar loosens the check in :mod:`appliance.answer.verify`: they decide what the model can
write, not what is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence

from appliance.answer.context import Source
from appliance.answer.protocol import MAX_GRAMMAR_CHARS

#: Longest answer sentence the citation grammar allows, in characters (then it must cite).
SENTENCE_MAX_CHARS = 160
#: Longest copied line the extraction grammar offers (longer lines are cut at a word).
LINE_MAX_CHARS = 100
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def literal(text: str) -> str:
    """``text`` as a GBNF string literal (quotes, backslashes and control characters escaped)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _numbers_rule(numbers: Sequence[int]) -> str:
    if not numbers:
        raise ValueError("a grammar needs at least one source number")
    return "src ::= " + " | ".join(literal(str(n)) for n in sorted(set(numbers)))


def citation_grammar(numbers: Sequence[int]) -> str:
    """A short sentence followed by ``[n]`` markers, ``n`` among ``numbers``."""
    return "\n".join(
        [
            'root ::= claim "."? " [" src "]" ("[" src "]"){0,2} "."?',
            f"claim ::= [^.\\[\\]\\n] (char){{0,{SENTENCE_MAX_CHARS - 1}}}",
            'char ::= [^.\\[\\]\\n] | "." [0-9]',
            _numbers_rule(numbers),
        ]
    )


def candidate_lines(src: Source) -> list[str]:
    """Lines of a source the extraction grammar lets the model copy (its label first)."""
    seen: set[str] = set()
    lines = []
    fields = [f"{name.replace('_', ' ')}: {value}" for name, value in src.fields.items()]
    for raw in [src.label(), *fields, *src.text.splitlines()]:
        line = " ".join(raw.split())
        if len(line) > LINE_MAX_CHARS:
            line = line[:LINE_MAX_CHARS].rsplit(" ", 1)[0]
        if len(line) < 2 or line in seen:
            continue
        seen.add(line)
        lines.append(line)
    return lines


def extraction_grammar(sources: Sequence[Source], max_chars: int = MAX_GRAMMAR_CHARS) -> str:
    """``[n] `` followed by one line of source ``n`` verbatim; sources beyond ``max_chars`` are left out."""
    rules: list[str] = []
    names: list[str] = []
    size = 0
    for src in sources:
        lines = candidate_lines(src)
        if not lines:
            continue
        name = f"s{src.number}"
        rule = f'{name} ::= "[{src.number}] " (' + " | ".join(literal(x) for x in lines) + ")"
        if size + len(rule) + 64 > max_chars:
            break
        size += len(rule) + 1
        rules.append(rule)
        names.append(name)
    if not names:
        raise ValueError("no source has a line to copy")
    return "\n".join(["root ::= " + " | ".join(names), *rules])
