"""The fixed commands heard as a grammar: whisper's probability of each whole command sentence.

Whisper tiny.en decoding freely writes "switch room" for "which room", "switch to my end" for "which
room am I in", and with the command hints as its prompt adds words nobody said ("switch to,
remember, machine shop"). The commands are a closed set, so the question can be asked the other
way round, as a grammar recogniser (Vosk's) does: how probable is each command sentence, start to
end, given this audio? The free transcript and every command sentence are forced through the same
decoder without any prompt (:meth:`WhisperRecogniser.texts_logprobs`). A command sentence nearly as
probable as the free transcript, or more, is what was said; only sentences about as long as what
was heard compete (:data:`WORD_WINDOW`). Questions and notes ("remember that ...") are open text
and stay as the free decode wrote them; a long utterance is never a command and is not scored
(decision 0033).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from appliance.audio.base import Samples
from appliance.audio.commands import CommandKind
from appliance.audio.phrases import find_phrase, first_repeat, normalise_words, word_spans

#: Utterances (after the wake phrase) of more words than this are taken as heard: every command
#: sentence is shorter, and scoring costs a decoder batch a question should not wait for.
MAX_WORDS = 6
#: How much less probable (natural log) than the free transcript a command sentence may be and still
#: be taken. Chosen on the tuning voices (``bench/audio_command_match.py --voices-from tuning``).
MARGIN = 4.0
#: Only sentences within this many words of what was heard are candidates. Whisper prices an early
#: end of text too cheaply to tell a command from a longer question that starts like it: "Open
#: Claw, stop" + end scored up to 12 nats over "Open Claw, stop, watch, battery size" for "stop
#: watch battery size". A misheard command keeps its length roughly ("switch room" for "which room",
#: "switch to my end" for "which room am I in"); a question that starts like a command is longer.
WORD_WINDOW = 1
#: The first words of a heard room switch ("switch to", "go to", "change to": the command parser's).
SWITCH_VERBS = ("switch", "go", "change")

#: The sentences of each fixed command, as people say them (the room commands come from the rooms
#: file). One spelling each: every sentence is scored without its final punctuation, and so is the
#: free transcript, so none is favoured by it.
SENTENCES: dict[CommandKind, tuple[str, ...]] = {
    CommandKind.SCAN: ("scan this", "scan that"),
    CommandKind.WHICH_ROOM: ("which room", "which room am I in", "what room is this"),
    CommandKind.REPEAT: ("repeat", "repeat that", "say that again"),
    CommandKind.STOP: ("stop", "cancel"),
}


@runtime_checkable
class SentenceScorer(Protocol):
    """A recogniser that can say how probable given texts are for some audio (whisper)."""

    def texts_logprobs(self, audio: Samples, texts: Sequence[str]) -> list[float]:
        """Natural-log probability of each whole text for ``audio``."""
        ...


@dataclass(frozen=True)
class GrammarSentence:
    """One sentence of the command grammar."""

    #: The command it says.
    kind: CommandKind
    #: The words, as the command parser reads them ("switch to the Machine shop").
    text: str


@dataclass(frozen=True)
class GrammarChoice:
    """What the grammar made of one utterance."""

    #: The text after the wake phrase: the best command sentence when taken, else the free text.
    text: str
    #: The most probable command sentence (taken or not).
    best: GrammarSentence
    #: Its log-probability minus the free transcript's: above ``-MARGIN`` it is taken.
    lead: float
    #: Whether the command sentence replaced the free text.
    taken: bool


def command_sentences(rooms: Sequence[str] = ()) -> list[GrammarSentence]:
    """Every sentence of the grammar; "switch to the <room>" for each of ``rooms``."""
    out = [GrammarSentence(kind, text) for kind, texts in SENTENCES.items() for text in texts]
    out += [GrammarSentence(CommandKind.SWITCH_ROOM, f"switch to the {room}") for room in rooms]
    return out


def _bare(text: str) -> str:
    return text.strip().rstrip(" \t.,;:!?")


def without_repeats(words: list[str], longest: int = 3) -> list[str]:
    """``words`` with immediate repeats of a word or a run of up to ``longest`` words removed.

    Greedy decoding loops repeat ("scan this, open, open, open, open, open"); the utterance said
    is about as long as the text without them, which is what the length window compares.
    """
    out = list(words)
    while (repeat := first_repeat(out, longest)) is not None:
        start, size = repeat
        del out[start + size : start + 2 * size]
    return out


def _lead_in(heard: str, after: str, phrase: str) -> str:
    """The words every command sentence is said after: the heard text to the end of the phrase.

    Only to its first occurrence: what whisper wrote between that and ``after`` is a loop ("Open
    Claw, switch to, open claw, switch to, ...") or a restart, and no command sentence holds it.
    Without the phrase (a capture after it, a press of the button), the text before ``after``.
    """
    spans = word_spans(heard)
    match = find_phrase([w for w, _, _ in spans], phrase)
    if match is not None:
        return _bare(heard[: spans[match.end - 1][2]])
    cut = heard.rfind(after)
    return _bare(heard[:cut]) if cut >= 0 else ""


def choose_command(
    scorer: SentenceScorer,
    audio: Samples,
    heard: str,
    after: str,
    rooms: Sequence[str] = (),
    *,
    phrase: str = "open claw",
    margin: float = MARGIN,
) -> GrammarChoice | None:
    """The command sentence ``audio`` says, if one is nearly as probable as what was heard.

    ``heard`` is the free transcript of the whole capture; ``after`` its words after the wake
    phrase (what the command parser reads). The phrase as heard is kept in front of every command
    sentence, so all candidates cover the same audio (:func:`_lead_in`). None when
    ``after`` is empty, longer than :data:`MAX_WORDS` words, or no sentence is within
    :data:`WORD_WINDOW` words of it (not scored).
    """
    words = without_repeats(normalise_words(after))
    n = len(words)
    if not n or n > MAX_WORDS:
        return None
    # A room switch lasts (the override holds until cleared), so the grammar only corrects the
    # room of a switch that was heard as one; it never makes a switch of other words ("no signed,
    # remember, machine shop drawing" for "who signed the machine shop drawing").
    switching = words[0] in SWITCH_VERBS
    sentences = [
        s
        for s in command_sentences(rooms)
        if abs(len(normalise_words(s.text)) - n) <= WORD_WINDOW
        and (s.kind != CommandKind.SWITCH_ROOM or switching)
    ]
    if not sentences:
        return None
    lead_in = _lead_in(heard, after, phrase)
    texts = [_bare(heard)]
    texts += [f"{lead_in}, {s.text}" if lead_in else s.text for s in sentences]
    scores = scorer.texts_logprobs(audio, texts)
    free, rest = scores[0], scores[1:]
    k = max(range(len(sentences)), key=rest.__getitem__)
    lead = rest[k] - free
    taken = lead >= -margin
    return GrammarChoice(sentences[k].text if taken else after, sentences[k], lead, taken)
