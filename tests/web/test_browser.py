"""The status page in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from appliance.service.samples import SAMPLES, draw_sample

RunningAppliance = Any  # the session fixture from conftest.py

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install chromium (the setup script installs it)"
        )
    profile = tempfile.mkdtemp(prefix="openclaw-chromium-")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 1280, "height": 1400},
        )
        yield context.browser or _ContextBrowser(context)  # type: ignore[misc]
        context.close()
    shutil.rmtree(profile, ignore_errors=True)


class _ContextBrowser:
    """A persistent context has no Browser object: open pages on the context itself."""

    def __init__(self, context: Any) -> None:
        self.context = context

    def new_page(self) -> Page:
        return self.context.new_page()  # type: ignore[no-any-return]


@pytest.fixture
def page(browser: Browser, running: RunningAppliance) -> Iterator[Page]:
    p = browser.new_page()
    p.goto(running.url + "/")
    expect(p.locator("#live")).to_have_text("live", timeout=30_000)
    yield p
    p.close()


def test_page_renders_components_and_sources(page: Page, artifacts_dir: Path) -> None:
    expect(page).to_have_title("OpenClaw bench appliance")
    expect(page.locator('#components tr[data-component="indexer"] td').nth(1)).to_have_text(
        "running"
    )
    expect(page.locator('#components tr[data-component="presence"] td').nth(1)).to_have_text(
        "disabled"
    )
    expect(page.locator('.ns[data-namespace="global"]')).to_contain_text("A-1024_revC.png")
    expect(page.locator("#jobs")).to_contain_text("done")
    page.screenshot(path=str(artifacts_dir / "status-page.png"), full_page=True)


def test_page_updates_live_and_highlights_the_cited_region(
    page: Page, running: RunningAppliance, artifacts_dir: Path
) -> None:
    before = int(page.locator("body").get_attribute("data-version") or "0")
    record = running.ask("what is the material of drawing A-1024?")
    item = page.locator(f'.question[data-id="{record["id"]}"]')
    expect(item).to_be_visible(timeout=30_000)  # arrived over server-sent events, no reload
    assert int(page.locator("body").get_attribute("data-version") or "0") > before
    expect(item.locator(".a")).to_contain_text("6061-T6")
    cite = item.locator(".citation").first
    expect(cite).to_contain_text("A-1024")
    image = cite.locator(".thumb img")
    expect(image).to_be_visible()
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle(), timeout=30_000
    )
    region = cite.locator(".thumb .region")
    expect(region).to_be_visible()
    img_box = image.bounding_box()
    reg_box = region.bounding_box()
    assert img_box is not None and reg_box is not None
    assert reg_box["width"] > 2 and reg_box["height"] > 2
    # The highlight lies on the thumbnail where the citation's box says.
    expected = record["citations"][0]["region"]
    assert abs(reg_box["x"] - (img_box["x"] + expected[0] * img_box["width"])) < 3
    assert abs(reg_box["y"] - (img_box["y"] + expected[1] * img_box["height"])) < 3
    assert reg_box["x"] + reg_box["width"] <= img_box["x"] + img_box["width"] + 3
    expect(page.locator("#latency")).to_contain_text("retrieval")
    cite.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "status-page-answer.png"), full_page=True)


def test_a_follow_up_is_answered_from_the_drawing_in_hand(
    page: Page, running: RunningAppliance, artifacts_dir: Path
) -> None:
    # Named once, then asked on: "it" is the drawing the last answer quoted, and the page says so.
    first = running.ask("what is the material of drawing A-1024?")
    record = running.ask("what scale is it drawn at?")
    shown = {k: (first.get(k), record.get(k)) for k in ("answer", "citations", "extra", "mode")}
    assert record["extra"]["in_hand"].endswith("A-1024_revC.png"), shown
    item = page.locator(f'.question[data-id="{record["id"]}"]')
    expect(item).to_be_visible(timeout=30_000)
    expect(item.locator(".lat")).to_contain_text("about the drawing in hand")
    expect(page.locator("#in-hand")).to_contain_text("A-1024")
    page.screenshot(path=str(artifacts_dir / "status-page-in-hand.png"))
    expect(item.locator(".citation").first).to_contain_text("A-1024")
    expect(item.locator(".a")).to_contain_text("1:2")


def test_a_question_pointing_at_no_drawing_is_asked_back_and_answered_after_the_reply(
    page: Page, running: RunningAppliance, artifacts_dir: Path
) -> None:
    # Two drawings, nothing in hand: "what is it made of?" is asked back, and the reply names
    # the drawing.
    assert running.appliance is not None
    appliance = running.appliance
    coupling = running.data_dir / "inbox" / "global" / SAMPLES[1].file_name
    draw_sample(SAMPLES[1]).convert("RGB").save(coupling)

    async def index() -> None:
        job = appliance.queue.submit("index", "global", path=coupling)
        assert job.done is not None
        await job.done

    running.call(index())
    appliance.pipeline.in_hand.drop()
    asked = running.ask("what is it made of?")
    assert asked["mode"] == "asked", asked
    record = running.ask("the mounting bracket")
    assert record["reply_to"] == "what is it made of", record
    first = page.locator(f'.question[data-id="{asked["id"]}"]')
    expect(first).to_be_visible(timeout=30_000)
    expect(first.locator(".lat")).to_contain_text("asked which drawing")
    expect(first.locator(".a")).to_contain_text("Which drawing do you mean")
    item = page.locator(f'.question[data-id="{record["id"]}"]')
    expect(item).to_be_visible(timeout=30_000)
    expect(item.locator(".reply")).to_contain_text('reply to "what is it made of"')
    expect(item.locator(".a")).to_contain_text("6061-T6")
    expect(item.locator(".citation").first).to_contain_text("A-1024")
    page.screenshot(path=str(artifacts_dir / "status-page-which-drawing.png"))


def test_admin_actions_are_refused_without_the_token(
    page: Page, running: RunningAppliance, artifacts_dir: Path
) -> None:
    page.click("#reindex-form button")
    expect(page.locator("#admin-result")).to_contain_text("refused (401)")
    page.fill("#token", "guessing-the-token")
    page.fill("#room-name", "shop")
    page.click("#room-form button")
    expect(page.locator("#admin-result")).to_contain_text("refused (403)")
    page.screenshot(path=str(artifacts_dir / "status-page-refused.png"), full_page=True)
    page.fill("#token", running.token)
    page.fill("#room-name", "")
    page.click("#room-form button")
    expect(page.locator("#admin-result")).to_contain_text("done")
    expect(page.locator("#admin-result")).to_have_class("ok")


def test_uploading_a_drawing_from_the_page(
    page: Page, running: RunningAppliance, tmp_path: Path, artifacts_dir: Path
) -> None:
    note = tmp_path / "bench-notes.md"
    note.write_text("# Bench notes\n\nThe soldering iron tip is a T18-C2.\n", encoding="utf-8")
    page.fill("#token", running.token)
    page.set_input_files("#upload-file", str(note))
    page.fill("#upload-ns", "lab")
    page.click("#upload-form button")
    expect(page.locator("#admin-result")).to_contain_text("done")
    expect(page.locator('.ns[data-namespace="lab"]')).to_contain_text(
        "bench-notes.md", timeout=60_000
    )
    page.screenshot(path=str(artifacts_dir / "status-page-upload.png"), full_page=True)
