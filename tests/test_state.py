"""The live state folds events into the snapshot, survives malformed ones, and accounts latency."""

from __future__ import annotations

import asyncio

from appliance.events import Event, EventBus, EventType
from appliance.latency import LatencyBook, QuestionTimer
from appliance.state import LiveState


def test_jobs_rooms_components_and_counters() -> None:
    state = LiveState(keep_jobs=2)
    for n in range(4):
        state.apply(Event(EventType.INDEX_QUEUED, {"job": f"j{n}", "source": f"f{n}.pdf"}))
        state.apply(Event(EventType.INDEX_PROGRESS, {"job": f"j{n}", "progress": 0.5}))
        assert state.indexing()
        kind = EventType.INDEX_DONE if n % 2 == 0 else EventType.INDEX_FAILED
        state.apply(Event(kind, {"job": f"j{n}", "message": "m", "code": "pdf_corrupt"}))
    assert not state.indexing()
    assert [j["job"] for j in state.jobs] == ["j3", "j2"]  # only the newest finished jobs are kept
    assert state.counters["indexed"] == 2 and state.counters["index_failed"] == 2
    state.apply(Event(EventType.COMPONENT_STATE, {"name": "presence", "status": "running"}))
    state.apply(Event(EventType.COMPONENT_STATE, {"component": "presence", "status": "no-adapter"}))
    assert state.components["presence"]["detail"] == "no-adapter"
    state.apply(
        Event(
            EventType.ROOM_CHANGED,
            {
                "to_room": "lab",
                "room_name": "Electronics lab",
                "namespaces": ["global", "electronics"],
                "reason": "entered",
                "detail": "beacon at -60 dBm",
            },
        )
    )
    assert state.room == {
        "name": "Electronics lab",
        "namespaces": ["global", "electronics"],
        "reason": "beacon at -60 dBm",
        "manual": False,
    }
    before = state.version
    state.apply(Event(EventType.WAKE_DETECTED, {}))
    assert state.activity == "listening" and state.version == before + 1


async def test_a_malformed_event_does_not_stop_the_state() -> None:
    bus = EventBus()
    state = LiveState()
    queue = state.attach(bus)
    task = asyncio.create_task(state.follow(queue))
    bus.publish(Event(EventType.INDEX_PROGRESS, {"job": "j1", "progress": "not a number"}))
    bus.publish(Event(EventType.ERROR, {"code": "x", "message": "after the bad one"}))
    while state.counters["errors"] == 0:
        await asyncio.wait_for(state.wait_change(state.version, 10), 20)
    assert state.last_error == {"code": "x", "message": "after the bad one"}
    assert not task.done()
    task.cancel()


def test_stage_durations_and_percentiles() -> None:
    timer = QuestionTimer(
        wake_at=10.0, wake_delay_s=0.2, captured_at=12.0, cued_at=12.01, transcribed_at=12.5
    )
    timer.retrieval_started_at, timer.retrieved_at = 12.5, 12.55
    timer.first_token_at, timer.first_audio_at, timer.done_at = 12.6, 13.0, 15.0
    assert timer.stages() == {
        "wake": 0.2,
        "capture": 2.0,
        "cue": 0.01,
        "transcription": 0.5,
        "retrieval": 0.05,
        "first_token": 0.05,
        "first_audio": 1.0,
        "total": 5.0,
    }
    book = LatencyBook(keep=10)
    for n in range(20):
        book.record({"retrieval": n / 100})
    summary = book.summary()["retrieval"]
    assert summary["count"] == 10 and summary["last"] == 0.19
    assert summary["p50"] == 0.145 and summary["p95"] == 0.19


def test_the_drawing_in_hand_is_shown_until_it_is_let_go() -> None:
    state = LiveState()
    assert state.snapshot()["in_hand"] == {}
    state.apply(
        Event(
            EventType.IN_HAND,
            {
                "namespace": "shop",
                "source": "inbox/shop/A-1024_revC.png",
                "why": "scanned",
                "until": 1234.5,
            },
        )
    )
    hand = state.snapshot()["in_hand"]
    assert hand["namespace"] == "shop" and hand["why"] == "scanned" and hand["until"] == 1234.5
    assert "A-1024_revC.png" in hand["name"]
    state.apply(Event(EventType.IN_HAND, {}))
    assert state.snapshot()["in_hand"] == {}
