"""Focused search: the named sources' slices ranked among themselves, first, by both channels."""

from __future__ import annotations

from appliance.document import DocumentSlice, SourceDocument
from appliance.index.keyword import keyword_channel_within
from appliance.index.search import SearchOptions, focus_slice_ids, search
from appliance.index.store import IndexStore

BRACKET = [
    "Torque the M8 bolts of the mounting bracket to 25 newton metres.",
    "Bracket material: aluminium 6082, anodised.",
    "Break all sharp edges of the bracket.",
]
PUMP = [
    "Pump housing bolts M8: torque 30 newton metres.",
    "Bleed the pump before the first start.",
]


def _index(store: IndexStore) -> dict[str, int]:
    for name, texts in (("bracket.md", BRACKET), ("pump.md", PUMP)):
        slices = tuple(DocumentSlice(text=t) for t in texts)
        store.replace_source(SourceDocument(name, "shop", name, slices))
    return {s.source: s.id for s in store.list_sources("shop")}


def test_focused_sources_come_first_and_ordinary_search_follows(store: IndexStore) -> None:
    ids = _index(store)
    question = "What torque do the M8 bolts take?"
    plain = search(store, question, ["shop"], include_global=False)
    focused = search(
        store,
        question,
        ["shop"],
        include_global=False,
        options=SearchOptions(focus_sources=(ids["pump.md"],)),
    )
    assert [h.source for h in focused[:2]] == ["pump.md", "pump.md"]
    assert focused[0].text == PUMP[0] and focused[0].focused
    # After the named source, the ordinary ranking without its slices, in its own order.
    rest = [h.id for h in plain if h.source != "pump.md"]
    assert [h.id for h in focused[2:]] == rest
    assert not any(h.focused for h in focused[2:])


def test_focused_keyword_scores_are_the_index_wide_bm25(store: IndexStore) -> None:
    ids = _index(store)
    slice_ids = focus_slice_ids(store, [ids["bracket.md"]])
    assert len(slice_ids) == 3
    question = "bracket bolts torque M8"
    store.phrases.warm()
    store.phrases.wait_idle(60)
    fallbacks = store.phrases.fallbacks
    in_memory = keyword_channel_within(store, question, slice_ids, 10, 60)
    assert store.phrases.fallbacks == fallbacks  # ranked from the shares, not by FTS5
    store.phrases.max_bytes = 0  # FTS5 ranks the rows instead
    from_fts5 = keyword_channel_within(store, question, slice_ids, 10, 60)
    assert [i for i, _ in in_memory] == [i for i, _ in from_fts5]
    assert [round(s, 9) for _, s in in_memory] == [round(s, 9) for _, s in from_fts5]
    assert store.get_slice(in_memory[0][0]).text == BRACKET[0]
    assert set(i for i, _ in in_memory) <= set(slice_ids)


def test_whole_focus_keeps_every_slice_of_the_named_source_past_the_limit(
    store: IndexStore,
) -> None:
    ids = _index(store)
    question = "What torque do the M8 bolts take?"
    options = SearchOptions(focus_sources=(ids["bracket.md"],), max_results=2)
    cut = search(store, question, ["shop"], include_global=False, options=options)
    assert len(cut) == 2  # the limit holds without it
    whole = search(
        store,
        question,
        ["shop"],
        include_global=False,
        options=SearchOptions(focus_sources=(ids["bracket.md"],), max_results=2, whole_focus=True),
    )
    named = [h for h in whole if h.source == "bracket.md"]
    assert sorted(h.text for h in named) == sorted(BRACKET)
    # The ordinary hits within the limit stay; no unnamed slice is added past it.
    assert all(h.focused for h in whole[2:])
