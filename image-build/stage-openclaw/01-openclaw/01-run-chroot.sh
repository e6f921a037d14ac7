#!/bin/bash -e
# Inside the image: user, venv, llama.cpp built for arm64, the appliance, verified models, the unit.
SRC=/opt/openclaw/src
VENV=/opt/openclaw/venv
LLAMA_VERSION=0.3.36

id openclaw >/dev/null 2>&1 || useradd --system --home-dir /var/lib/openclaw --shell /usr/sbin/nologin \
	--groups audio,video,gpio,bluetooth openclaw
install -d -o openclaw -g openclaw -m 0750 /var/lib/openclaw /var/lib/openclaw/models

# python3-lgpio comes from Debian (it needs the matching liblgpio); everything else from the lock file.
python3 -m venv --system-site-packages "$VENV"
"$VENV/bin/pip" install --upgrade pip wheel
# No aarch64 wheel exists: compile llama.cpp here. Portable Cortex-A76/A72 flags, no native probing.
CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_CPU_ARM_ARCH=armv8.2-a+dotprod+fp16 -DLLAVA_BUILD=OFF" \
	"$VENV/bin/pip" install --no-cache-dir "llama-cpp-python==${LLAMA_VERSION}"
"$VENV/bin/pip" install --no-cache-dir -r "$SRC/requirements.lock"
# Editable: the package runs from $SRC, beside models/manifest.toml and the committed wake-word head.
"$VENV/bin/pip" install --no-cache-dir --no-deps -e "$SRC"
# The wake-word feature graphs ride in this wheel (a model carrier: never imported, files verified).
"$VENV/bin/pip" install --no-cache-dir --no-deps "$(grep '^openwakeword==' "$SRC/models/carriers.txt")"

install -d -m 0755 /etc/openclaw
install -m 0644 "$SRC/image-build/files/openclaw.toml" /etc/openclaw/openclaw.toml

# Models: fetched from the manifest's published URLs and checked against its sha256 values.
export OPENCLAW_CONFIG=/etc/openclaw/openclaw.toml
# The Piper voice speaks the answers (audio.tts_engine = "auto" falls back to espeak-ng without it).
# Both Qwen2.5-Coder answer models ship (1.6 GB): the appliance is offline, so answer.llm_model can be
# switched between them on the board (docs/decisions/0012-answer-model.md) without a download.
"$VENV/bin/openclaw" models fetch all-minilm-l6-v2-int8 smollm2-135m-instruct-q4_1 vosk-model-small-en-us \
	piper-en-us-joe-medium qwen2.5-coder-0.5b-instruct-q4_k_m qwen2.5-coder-1.5b-instruct-q4_k_m
"$VENV/bin/openclaw" models verify all-minilm-l6-v2-int8 smollm2-135m-instruct-q4_1 vosk-model-small-en-us \
	speech-embedding kws-open-claw kws-open-claw-contrast piper-en-us-joe-medium \
	qwen2.5-coder-0.5b-instruct-q4_k_m qwen2.5-coder-1.5b-instruct-q4_k_m
chown -R openclaw:openclaw /var/lib/openclaw

install -m 0644 "$SRC/systemd/openclaw.service" /etc/systemd/system/openclaw.service
systemctl enable openclaw.service
