"""The real unit file under a real systemd: the service serves, answers, and cannot do what it must not.

systemd (in a container booted with systemd-nspawn, see ``container.py``) starts two units made from
``systemd/openclaw.service`` unchanged:

- ``openclaw.service`` itself, ExecStart and all. The container provides what the Pi image would: a
  venv at ``/opt/openclaw/venv`` (this checkout's packages under the system Python), the ``openclaw``
  user and groups, ``/etc/openclaw/openclaw.toml`` (the development backends: the question comes from
  a WAV file, the answer goes to one), and a state directory with the sample drawings already
  indexed. The test reads the status page from outside and waits for the spoken question's answer.
- ``openclaw-console.service`` as it is: at first boot it makes the admin token for the service's
  user and writes it to the console's login notice.
- ``openclaw-probe.service``: the same file under another name, with a drop-in that replaces only
  ExecStart and Type, running ``unit_probe.py``, which tries what a compromised service would: reach a
  public address, write outside its state directory, open netlink and Bluetooth sockets, use system
  calls outside the filter, map writable executable memory.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from appliance.demo import speak_question
from appliance.service.samples import write_samples
from tests.service.container import booted, cannot_boot, journal_text

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "openclaw.service"
QUESTION = "open claw, what material is drawing A-1024?"
SITE_PACKAGES = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]}")

#: Writable by anyone, outside the state directory (bound at the same path in the container).
SHARED = "/srv/openclaw-probe-shared"
#: CTranslate2's x86_64 wheel (whisper) compiles its kernels at run time through oneDNN, which needs
#: writable executable memory: under MemoryDenyWriteExecute=yes its encoder fails with "could not
#: create a primitive". Its aarch64 wheel (the Pi) is built with OpenBLAS and Ruy, without a JIT.
WX_NEEDED_HERE = platform.machine() == "x86_64"

pytestmark = pytest.mark.skipif(cannot_boot() is not None, reason=str(cannot_boot()))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unit_settings() -> dict[str, str]:
    settings: dict[str, str] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def _venv(folder: Path) -> Path:
    """``/opt/openclaw/venv`` as the image has it: this checkout's packages under the system Python.

    The development venv's own interpreter may live under /root (pyenv), which the unit's
    ProtectHome= hides; the system Python of the same minor version loads the same packages.
    """
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "python3").symlink_to(SYSTEM_PYTHON)
    (folder / "pyvenv.cfg").write_text(
        f"home = {SYSTEM_PYTHON.parent}\ninclude-system-site-packages = false\n", encoding="utf-8"
    )
    script = folder / "bin" / "openclaw"
    script.write_text(
        "#!/opt/openclaw/venv/bin/python3\nimport sys\nfrom appliance.cli import main\n"
        "sys.exit(main())\n",
        encoding="utf-8",
    )
    script.chmod(0o755)
    # The mount point of the development venv's site-packages.
    (folder / "lib" / SITE_PACKAGES.name).mkdir(parents=True)
    return folder


def _config(path: Path, port: int) -> None:
    path.write_text(
        f"""[paths]
data_dir = "/var/lib/openclaw"
models_dir = "{REPO / "var" / "models"}"
[web]
host = "127.0.0.1"
port = {port}
[audio]
source = "wav"
wav_files = ["question.wav"]
wav_realtime = false
sink = "wav"
[presence]
backend = "off"
[gpio]
pin_factory = "mock"
[vision]
camera = "folder"
[answer]
# Not the default: switched on so that llama.cpp's worker is checked under the unit's sandbox.
llm_model = "qwen2.5-coder-0.5b-instruct-q4_k_m"
""",
        encoding="utf-8",
    )


def _prepare_state(state: Path) -> None:
    """The sample drawings indexed (outside the inbox, so nothing re-indexes them) and the question."""
    samples = write_samples(state / "samples")
    env = {**os.environ, "OPENCLAW_PATHS__DATA_DIR": str(state)}
    env.pop("OPENCLAW_CONFIG", None)
    openclaw = str(Path(sys.executable).with_name("openclaw"))
    proc = subprocess.run(
        [openclaw, "index", *map(str, samples), "--namespace", "global"],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    asyncio.run(speak_question(QUESTION, state / "question.wav"))


def _units(folder: Path) -> list[tuple[Path, str]]:
    """Host files bound into the container's /etc: the unit twice, drop-ins, the users, a target."""
    folder.mkdir()
    (folder / "probe.conf").write_text(
        "[Service]\nType=oneshot\nWatchdogSec=0\nRestart=no\nExecStart=\n"
        f"ExecStart=/opt/openclaw/venv/bin/python3 {REPO / 'tests/service/unit_probe.py'} {REPO} "
        f"{SHARED}\n",
        encoding="utf-8",
    )
    # The question asked from the command line, under the unit's settings with no exception: the
    # embedder (onnxruntime) and the answer worker (llama.cpp) under MemoryDenyWriteExecute=yes.
    (folder / "ask.conf").write_text(
        "[Service]\nType=oneshot\nWatchdogSec=0\nRestart=no\nExecStart=\n"
        "ExecStart=/opt/openclaw/venv/bin/openclaw --config /etc/openclaw/openclaw.toml ask "
        f"--json '{QUESTION.removeprefix('open claw, ')}'\n"
        "StandardOutput=truncate:/var/lib/openclaw/ask.json\nStandardError=journal\n"
        # The model is asked even where a title-block field would answer at once.
        "Environment=OPENCLAW_ANSWER__FAST_PATH=false OPENCLAW_ANSWER__START_TIMEOUT_S=900 "
        "OPENCLAW_ANSWER__FIRST_SENTENCE_TIMEOUT_S=600 OPENCLAW_ANSWER__TIMEOUT_S=900\n",
        encoding="utf-8",
    )
    drop_ins = [
        (folder / "probe.conf", "/etc/systemd/system/openclaw-probe.service.d/probe.conf"),
        (folder / "ask.conf", "/etc/systemd/system/openclaw-ask.service.d/ask.conf"),
    ]
    if WX_NEEDED_HERE:
        (folder / "wx.conf").write_text("[Service]\nMemoryDenyWriteExecute=no\n", encoding="utf-8")
        drop_ins.append((folder / "wx.conf", "/etc/systemd/system/openclaw.service.d/wx.conf"))
    (folder / "openclaw-bench.target").write_text(
        "[Unit]\nDescription=The appliance and the probe\n"
        "Wants=openclaw-console.service openclaw.service openclaw-probe.service "
        "openclaw-ask.service\n"
        "After=openclaw-console.service openclaw.service openclaw-probe.service "
        "openclaw-ask.service\n",
        encoding="utf-8",
    )
    # What image-build's install script creates with useradd/groupadd.
    (folder / "openclaw-users.conf").write_text(
        'u openclaw - "OpenClaw appliance" /var/lib/openclaw /usr/sbin/nologin\n'
        "g gpio -\ng bluetooth -\n"
        "m openclaw audio\nm openclaw video\nm openclaw gpio\nm openclaw bluetooth\n",
        encoding="utf-8",
    )
    etc = "/etc/systemd/system"
    return [
        (UNIT, f"{etc}/openclaw.service"),
        # The same file under another name: every hardening setting comes with it.
        (UNIT, f"{etc}/openclaw-probe.service"),
        (UNIT, f"{etc}/openclaw-ask.service"),
        (UNIT.with_name("openclaw-console.service"), f"{etc}/openclaw-console.service"),
        *drop_ins,
        (folder / "openclaw-bench.target", f"{etc}/openclaw-bench.target"),
        (folder / "openclaw-users.conf", "/etc/sysusers.d/openclaw.conf"),
    ]


def _wait_for(what: str, check: Any, proc: subprocess.Popen[bytes], rounds: int = 900) -> Any:
    """Poll ``check`` (a bound on rounds of 1 s, not a timed assertion) until it returns a value."""
    for _ in range(rounds):
        if proc.poll() is not None:
            raise AssertionError(f"the container stopped while waiting for {what}")
        try:
            value = check()
        except (httpx.HTTPError, OSError, ValueError):
            value = None
        if value:
            return value
        time.sleep(1)
    raise AssertionError(f"gave up waiting for {what}")


def _service_status(port: int) -> dict[str, str]:
    """/proc/<pid>/status of the process serving ``port``, found from the host."""
    needle = f":{port:04X} "
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text(encoding="ascii").splitlines()[1:]:
            fields = line.split()
            if needle in f"{fields[1]} " and fields[3] == "0A":  # LISTEN
                inodes.add(fields[9])
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
            links = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in fds}
        except OSError:
            continue
        if any(f"socket:[{inode}]" in links for inode in inodes):
            text = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
            return dict(re.findall(r"^(\w+):\s*(.*)$", text, re.M))
    raise AssertionError(f"no process listens on port {port}")


def test_the_unit_serves_answers_and_refuses(tmp_path: Path) -> None:
    port = _free_port()
    state = tmp_path / "state"
    _prepare_state(state)
    config = tmp_path / "openclaw.toml"
    _config(config, port)
    venv = _venv(tmp_path / "venv")
    journal = tmp_path / "journal"
    binds_ro = [
        (REPO, str(REPO)),
        (venv, "/opt/openclaw/venv"),
        (SITE_PACKAGES, f"/opt/openclaw/venv/lib/{SITE_PACKAGES.name}"),
        (config, "/etc/openclaw/openclaw.toml"),
        *_units(tmp_path / "units"),
    ]
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o1777)
    issue = tmp_path / "issue.d"  # what install.sh creates; the console unit writes only here
    issue.mkdir()
    binds = [(state, "/var/lib/openclaw"), (shared, SHARED), (issue, "/etc/issue.d")]
    with booted(
        Path("/"),
        unit="openclaw-bench.target",
        log=tmp_path / "nspawn.log",
        binds=binds,
        binds_ro=binds_ro,
        volatile="yes",
        journal=journal,
    ) as proc:
        try:
            base = f"http://127.0.0.1:{port}"
            health = _wait_for(
                "the status page", lambda: httpx.get(f"{base}/healthz", timeout=10), proc
            )
            page = httpx.get(f"{base}/", timeout=10)
            status = _service_status(port)

            def answered() -> dict[str, Any] | None:
                questions = httpx.get(f"{base}/api/state", timeout=10).json()["questions"]
                return questions[0] if questions else None

            components = httpx.get(f"{base}/api/state", timeout=10).json()["components"]
            try:
                record = _wait_for("the spoken question's answer", answered, proc)
            except AssertionError as err:
                raise AssertionError(f"{err}; components: {components}") from None
            asked = _wait_for(
                "the command-line answer",
                lambda: json.loads((state / "ask.json").read_text(encoding="utf-8")),
                proc,
            )
            probe = _wait_for(
                "the probe",
                lambda: json.loads((state / "probe.json").read_text(encoding="utf-8")),
                proc,
            )
        except AssertionError as err:
            raise AssertionError(f"{err}\n{journal_text(journal)[-6000:]}") from None

    # First boot: the console unit made the token for the service's user and put it on the login
    # screen's notice, readable by root only.
    token_file = state / "secrets" / "admin-token"
    notice = issue / "openclaw.issue"
    assert token_file.read_text().strip() in notice.read_text()
    assert notice.stat().st_mode & 0o777 == 0o600 and notice.stat().st_uid == 0
    assert token_file.stat().st_uid == state.stat().st_uid != 0
    assert token_file.stat().st_mode & 0o777 == 0o600

    # The page answers, from the process that runs under the unit's sandbox.
    assert health.status_code == 200, health.text
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert status["NoNewPrivs"] == "1" and status["Seccomp"] == "2"
    assert int(status["CapEff"], 16) == 0 and int(status["CapBnd"], 16) == 0
    print(
        "spoken question:", json.dumps({k: record.get(k) for k in ("question", "answer", "mode")})
    )
    print("probe:", json.dumps(probe))
    # A question is answered, with its source.
    assert "1024" in record["question"], record
    assert "6061-T6" in record["answer"], record
    assert record["citations"] and record["citations"][0]["drawing_number"] == "A-1024"

    # The same question from the command line, with writable executable memory refused everywhere.
    print("ask:", json.dumps({k: asked.get(k) for k in ("text", "mode", "fallback_reason")}))
    assert "6061-T6" in asked["text"], asked
    # llama.cpp ran in the worker: its answer was said, or written and refused by the claim check.
    assert asked["mode"] == "llm" or asked.get("rejected_text"), asked

    # What the service must not do fails; what it needs still works.
    assert probe["status"]["NoNewPrivs"] == "1" and int(probe["status"]["CapEff"], 16) == 0
    assert probe["udp_public"] == "EPERM"  # IPAddressDeny=any: the BPF filter drops it
    assert probe["tcp_public"] != "ok"
    assert probe["tcp_loopback"] == "ok"  # IPAddressAllow=localhost
    for family in ("netlink_socket", "packet_socket", "bluetooth_socket"):
        assert probe[family] == "EAFNOSUPPORT", family  # RestrictAddressFamilies=
    assert probe["write_state_dir"] == "ok"
    assert probe["write_etc"] in ("EROFS", "EACCES")
    assert probe["write_shared_folder"] == "EROFS"  # ProtectSystem=strict
    assert not (shared / "probe-write.txt").exists()
    assert probe["clock_state"] == "EPERM"  # @clock is outside SystemCallFilter=
    assert probe["mount"] == "EPERM"
    assert probe["proc_meminfo"] == "ENOENT"  # ProcSubset=pid
    assert probe["seccomp_filter"] == "ok"  # the answer worker can still lock itself down
    assert probe["landlock"] in ("ok", "EOPNOTSUPP"), probe["landlock"]  # not EPERM: allowed
    # The probe keeps the unit's own MemoryDenyWriteExecute= (the x86_64 override is the service's).
    assert _unit_settings()["MemoryDenyWriteExecute"] == "yes"
    assert probe["wx_memory"] == "EPERM"
