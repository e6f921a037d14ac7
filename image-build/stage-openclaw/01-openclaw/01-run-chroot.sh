#!/bin/bash -e
# Inside the image: everything is done by the install script, the same one the clean-root test runs
# (tests/image/test_clean_root.py). Its settings (OPENCLAW_WHEELS, OPENCLAW_MODELS, OPENCLAW_LLAMA_ARM)
# pass through from the environment; the image build uses the defaults: fetch from the published URLs.
exec /opt/openclaw/src/image-build/install.sh
