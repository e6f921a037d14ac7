"""``openclaw presence``, ``openclaw presence record`` and ``openclaw rooms`` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from appliance.cli import main
from appliance.config import load_config
from appliance.document import DocumentSlice, SourceDocument
from appliance.errors import ExitCode
from appliance.index.store import IndexStore
from appliance.presence.trace import SAMPLE_ROOMS_NAME, package_data

SAMPLE = str(package_data(SAMPLE_ROOMS_NAME))


def run(capsys: pytest.CaptureFixture[str], config_file: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--config", str(config_file), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_presence_replays_the_development_trace(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(
        capsys,
        config_file,
        "presence",
        "--trace",
        "dev",
        "--speed",
        "0",
        "--rooms",
        SAMPLE,
        "--json",
    )
    assert code == ExitCode.OK
    data = json.loads(out)
    assert data["room"] == "machine-shop" and data["namespaces"] == ["global", "shop"]
    assert [s["to_room"] for s in data["switch_history"]] == [
        "machine-shop",
        "electronics-lab",
        "assembly",
        "machine-shop",
    ]
    assert data["scanner"]["parse"]["malformed_total"] > 0
    # The walk ends standing at the shop bench: no move seen for a while, none towards a room.
    assert data["moving"] == [] and data["still_for_s"] > 0
    assert {b["room"] for b in data["beacons"]} == {"machine-shop", "electronics-lab", "assembly"}


def test_presence_table_without_a_rooms_file_shows_the_beacons(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, config_file, "presence", "--trace", "dev", "--speed", "0")
    assert code == ExitCode.OK
    assert "room: no room" in out
    assert (
        "ibeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0:1:1" in out
    )  # ids to copy into a rooms file
    assert "malformed" in out


def test_presence_with_a_missing_trace_reports_and_keeps_going(
    capsys, config_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "gone.jsonl"
    code, out, _ = run(
        capsys, config_file, "presence", "--trace", str(missing), "--duration", "0.3", "--json"
    )
    assert code == ExitCode.OK
    scanner = json.loads(out)["scanner"]
    assert scanner["failures"] >= 1  # it failed, said why, and was retrying until stopped
    assert scanner["last_error"] == "trace gone.jsonl: cannot be opened (FileNotFoundError)"


def test_rooms_lists_rooms_beacons_and_namespaces(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, config_file, "rooms", "--rooms", SAMPLE)
    assert code == ExitCode.OK
    assert (
        "assembly: Assembly area -> assembly, shop (radius 3.5 m; next to electronics-lab)" in out
    )
    assert "(radius 4 m; next to assembly, machine-shop)" in out  # the lab, named by both
    assert "eddystone-uid:0123456789abcdef0123:0000000000a1 (soldering station)" in out
    assert "namespaces not checked: there is no index yet" in out
    code, out, _ = run(capsys, config_file, "rooms", "--rooms", SAMPLE, "--json")
    rooms = json.loads(out)["rooms"]
    assert len(rooms) == 3 and rooms[0]["next_to"] == ["electronics-lab"]
    # The shop and the lab have one beacon each and a door to another room; the assembly area two.
    advised = [room["key"] for room in rooms if room["advice"]]
    assert advised == ["machine-shop", "electronics-lab"]
    assert "second beacon" in rooms[1]["advice"]


def test_rooms_advises_a_second_beacon_only_where_it_helps(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, config_file, "rooms", "--rooms", SAMPLE)
    assert code == ExitCode.OK
    lines = out.splitlines()
    advice = [i for i, line in enumerate(lines) if line.startswith("    advice: one beacon")]
    # Under the shop's and the lab's entries (each after its one beacon line), not the assembly's.
    assert [lines[i - 2].split(":")[0] for i in advice] == ["machine-shop", "electronics-lab"]


def test_rooms_without_a_rooms_file_points_to_the_sample(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, config_file, "rooms")
    assert code == ExitCode.CONFIG
    assert "[rooms_invalid] rooms file rooms.toml: not found; start from the sample" in err


def test_rooms_file_naming_a_beacon_twice_stops_with_exit_code_3(
    capsys, config_file: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "rooms.toml"
    beacon = "altbeacon:4c0f1b2e-5a6d-4e7f-8a9b-0c1d2e3f4a5b:7:1"
    bad.write_text(
        f'[rooms.a]\nnamespaces = ["global"]\n[[rooms.a.beacons]]\nid = "{beacon}"\n'
        f'[rooms.b]\nnamespaces = ["global"]\n[[rooms.b.beacons]]\nid = "{beacon}"\n',
        encoding="utf-8",
    )
    code, _, err = run(capsys, config_file, "rooms", "--rooms", str(bad))
    assert code == ExitCode.CONFIG
    assert "listed twice (already in room 'a')" in err
    assert str(tmp_path) not in err


def test_rooms_checks_namespaces_against_the_index(capsys, config_file: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    config = load_config(config_file)
    with IndexStore.open(config, embedder=embedder) as store:
        slices = (DocumentSlice(text="lathe speeds"),)
        store.replace_source(SourceDocument("notes.md", "shop", "h1", slices))
    rooms = config.data_path("rooms.toml")
    rooms.write_text('[rooms.lab]\nnamespaces = ["electronics"]\n', encoding="utf-8")
    code, _, err = run(capsys, config_file, "rooms")
    assert code == ExitCode.CONFIG
    assert "namespace 'electronics' does not exist in the index (known: global, shop)" in err
    rooms.write_text('[rooms.shop]\nnamespaces = ["shop"]\n', encoding="utf-8")
    code, out, _ = run(capsys, config_file, "rooms")
    assert code == ExitCode.OK and "namespaces not checked" not in out


@pytest.mark.skipif(
    Path("/run/dbus/system_bus_socket").exists(),
    reason="this machine has a D-Bus system bus, so a real Bluetooth stack may answer",
)
def test_record_without_bluetooth_fails_clearly(capsys, config_file: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out_file = tmp_path / "radio.jsonl"
    code, _, err = run(capsys, config_file, "presence", "record", str(out_file), "--duration", "5")
    assert code == ExitCode.HARDWARE
    assert "[bluetooth_unavailable] cannot record: Bluetooth service unreachable" in err
    assert not out_file.exists()  # no empty trace left behind


def test_presence_commands_are_documented(capsys, config_file: Path) -> None:  # type: ignore[no-untyped-def]
    for args in (["presence", "--help"], ["presence", "record", "--help"], ["rooms", "--help"]):
        code, out, _ = run(capsys, config_file, *args)
        assert code == ExitCode.OK
        assert "Usage:" in out and len(out.splitlines()) > 5
