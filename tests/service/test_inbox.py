"""The inbox watcher keeps a real index in step with real folders (watchfiles, debounced)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from appliance.config import Config
from appliance.events import Event, EventType
from appliance.service.inbox import InboxWatcher
from appliance.service.indexer import IndexQueue


async def _sources(queue: IndexQueue, namespace: str) -> dict[str, str]:
    records = await queue.call(lambda lib: lib.sources(namespace))
    return {r.source: r.content_hash for r in records}


async def _job_end(events: asyncio.Queue[Event], source_suffix: str) -> Event:
    while True:
        event = await asyncio.wait_for(events.get(), 60)
        if event.type in (EventType.INDEX_DONE, EventType.INDEX_FAILED) and str(
            event.data["source"]
        ).endswith(source_suffix):
            return event


async def test_new_changed_and_deleted_files(config: Config, queue: IndexQueue) -> None:
    data = config.paths.data_dir
    inbox = data / "inbox"
    (inbox / "shop").mkdir(parents=True)
    events = queue.bus.subscribe_queue()
    watcher = InboxWatcher(queue, [inbox], debounce_s=0.3)
    task = asyncio.create_task(watcher.run())
    await asyncio.wait_for(watcher.reconciled.wait(), 60)  # the watch is up by then

    note = inbox / "shop" / "spindle.md"
    note.write_text("# Spindle\n\nThe spindle bearing takes ISO VG 32 oil.\n", encoding="utf-8")
    done = await _job_end(events, "spindle.md")
    assert done.type == EventType.INDEX_DONE, done.data
    assert "inbox/shop/spindle.md" in await _sources(queue, "shop")

    first_hash = (await _sources(queue, "shop"))["inbox/shop/spindle.md"]
    note.write_text("# Spindle\n\nThe spindle bearing takes ISO VG 46 oil now.\n", encoding="utf-8")
    done = await _job_end(events, "spindle.md")
    assert done.type == EventType.INDEX_DONE
    assert (await _sources(queue, "shop"))["inbox/shop/spindle.md"] != first_hash

    # A broken file is reported with its code, and what is indexed stays.
    (inbox / "shop" / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    failed = await _job_end(events, "broken.pdf")
    assert failed.type == EventType.INDEX_FAILED and failed.data["code"]
    assert (
        "/" not in failed.data["message"].split("broken.pdf")[0][-5:]
    )  # no directory in the message
    assert "inbox/shop/spindle.md" in await _sources(queue, "shop")

    note.unlink()
    done = await _job_end(events, "spindle.md")
    assert done.data["action"] == "forget"
    assert "inbox/shop/spindle.md" not in await _sources(queue, "shop")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_a_file_dropped_in_during_the_checksum_pass_is_indexed(
    config: Config, queue: IndexQueue
) -> None:
    """The pass waits behind the index queue; a file arriving as it ends must not fall between
    the pass (which has listed the folder) and the watch."""
    inbox = config.paths.data_dir / "inbox"
    (inbox / "shop").mkdir(parents=True)
    (inbox / "shop" / "first.md").write_text("# First\n\nThe vice is 150 mm.\n", encoding="utf-8")
    events = queue.bus.subscribe_queue()
    watcher = InboxWatcher(queue, [inbox], debounce_s=0.3)
    late = inbox / "shop" / "late.md"
    folder_pass = watcher._reconcile_folder

    async def pass_then_drop(folder: Path, namespace: str) -> int:
        jobs = await folder_pass(folder, namespace)
        if namespace == "shop":  # the folder is listed: only the watch can see this one
            late.write_text("# Late\n\nThe lathe chuck takes 3 jaws.\n", encoding="utf-8")
        return jobs

    watcher._reconcile_folder = pass_then_drop  # type: ignore[method-assign]
    task = asyncio.create_task(watcher.run())
    assert (await _job_end(events, "first.md")).type == EventType.INDEX_DONE
    done = await _job_end(events, "late.md")
    assert done.type == EventType.INDEX_DONE, done.data
    assert "inbox/shop/late.md" in await _sources(queue, "shop")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_startup_reconciliation_by_checksum(config: Config, queue: IndexQueue) -> None:
    data = config.paths.data_dir
    inbox = data / "inbox"
    (inbox / "lab").mkdir(parents=True)
    keep = inbox / "lab" / "keep.md"
    gone = inbox / "lab" / "gone.md"
    changed = inbox / "lab" / "changed.md"
    for path, text in ((keep, "solder at 350 C"), (gone, "old note"), (changed, "torque 25 N m")):
        path.write_text(f"# {path.stem}\n\n{text}\n", encoding="utf-8")
        job = queue.submit("index", "lab", path=path)
        assert job.done is not None
        await job.done
    # While the service is "down": one file deleted, one changed, one added.
    gone.unlink()
    changed.write_text("# changed\n\ntorque 30 N m\n", encoding="utf-8")
    (inbox / "lab" / "new.md").write_text("# new\n\nflux type ROL0\n", encoding="utf-8")
    before = await _sources(queue, "lab")

    watcher = InboxWatcher(queue, [inbox], debounce_s=0.3)
    jobs = await watcher.reconcile()
    assert jobs == 3  # changed + new indexed, gone forgotten; keep untouched
    while queue.pending():
        await asyncio.sleep(0.05)
    await queue.call(lambda lib: None)  # the last job has finished on the writer thread
    after = await _sources(queue, "lab")
    assert set(after) == {"inbox/lab/keep.md", "inbox/lab/changed.md", "inbox/lab/new.md"}
    assert after["inbox/lab/keep.md"] == before["inbox/lab/keep.md"]
    assert after["inbox/lab/changed.md"] != before["inbox/lab/changed.md"]


async def test_files_outside_namespaces_and_temporary_files_are_ignored(
    config: Config, queue: IndexQueue, tmp_path: Path
) -> None:
    inbox = config.paths.data_dir / "inbox"
    (inbox / "Bad Name").mkdir(parents=True)
    (inbox / "Bad Name" / "x.md").write_text("# x\n\ntext\n", encoding="utf-8")
    (inbox / "global").mkdir(parents=True)
    (inbox / "global" / ".hidden.md").write_text("# h\n\ntext\n", encoding="utf-8")
    (inbox / "global" / "upload.pdf.part").write_bytes(b"%PDF-")
    (inbox / "global" / "notes.docx").write_bytes(b"PK")
    watcher = InboxWatcher(queue, [inbox], debounce_s=0.3)
    assert await watcher.reconcile() == 0


async def _next_event(events: asyncio.Queue[Event], kind: EventType, source: str) -> Event:
    while True:
        event = await asyncio.wait_for(events.get(), 60)
        if event.type == kind and event.data["source"] == source:
            return event


async def test_a_name_that_is_not_utf8_is_indexed_under_its_display_form(
    config: Config, queue: IndexQueue
) -> None:
    from appliance.state import LiveState
    from appliance.web.app import json_bytes

    inbox = config.paths.data_dir / "inbox"
    (inbox / "shop").mkdir(parents=True)
    state = LiveState()
    events = queue.bus.subscribe_queue()
    seen = queue.bus.subscribe_queue()
    watcher = InboxWatcher(queue, [inbox], debounce_s=0.3)
    task = asyncio.create_task(watcher.run())
    await asyncio.wait_for(watcher.reconciled.wait(), 60)

    # watchfiles cannot report this name and stops; the watcher rescans and keeps watching.
    raw = os.fsencode(inbox / "shop") + b"/bracket\xff.md"
    with open(raw, "wb") as fh:
        fh.write(b"# Bracket\n\nThe M8 bolts on the bracket take 25 N m.\n")
    done = await _job_end(events, "bracket\\xff.md")
    assert done.type == EventType.INDEX_DONE, done.data
    assert "inbox/shop/bracket\\xff.md" in await _sources(queue, "shop")
    assert not task.done()

    later = inbox / "shop" / "later.md"
    later.write_text("# Later\n\nThe vice jaws are 150 mm wide.\n", encoding="utf-8")
    assert (await _job_end(events, "later.md")).type == EventType.INDEX_DONE

    while not seen.empty():
        state.apply(seen.get_nowait())
    snapshot = json.loads(json_bytes(state.snapshot()))
    assert any(j["source"] == "bracket\\xff.md" for j in snapshot["jobs"])
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_a_failed_file_is_not_retried_at_start_until_it_changes(
    config: Config, queue: IndexQueue
) -> None:
    inbox = config.paths.data_dir / "inbox"
    (inbox / "lab").mkdir(parents=True)
    broken = inbox / "lab" / "scan.md"
    broken.write_bytes(b"# Scan\n\x00\x01\x02 binary, not a note\n")
    events = queue.bus.subscribe_queue()

    first = InboxWatcher(queue, [inbox], debounce_s=0.3)
    assert await first.reconcile() == 1
    failed = await _job_end(events, "scan.md")
    assert failed.type == EventType.INDEX_FAILED and failed.data["code"] == "binary_as_text"
    await queue.drained()
    while first._pending:
        await asyncio.sleep(0.05)
    record = config.paths.data_dir / "index-failures.json"
    assert "inbox/lab/scan.md" in json.loads(record.read_text())["failures"]

    # A restart: the record is read again, the file is shown as failed and not queued.
    second = InboxWatcher(queue, [inbox], debounce_s=0.3)
    assert await second.reconcile() == 0
    shown = await _next_event(events, EventType.INDEX_FAILED, "inbox/lab/scan.md")
    assert shown.data["recorded"] and shown.data["code"] == failed.data["code"]

    # Changed (here: fixed), it is tried again, indexed, and the record is cleared.
    broken.write_text("# Scan\n\nThe scan table is 600 mm deep.\n", encoding="utf-8")
    third = InboxWatcher(queue, [inbox], debounce_s=0.3)
    assert await third.reconcile() == 1
    assert (await _job_end(events, "scan.md")).type == EventType.INDEX_DONE
    while third._pending:
        await asyncio.sleep(0.05)
    assert "inbox/lab/scan.md" not in json.loads(record.read_text())["failures"]
