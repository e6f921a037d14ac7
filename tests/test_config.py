"""Configuration: defaults, TOML, environment overrides, one clear line per bad value."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.config import load_config
from appliance.errors import ConfigError


def test_defaults_load_without_a_file(tmp_path: Path) -> None:
    cfg = load_config(environ={})
    assert cfg.index.fusion == "rrf" and cfg.source == "<defaults>"


def test_file_and_environment_merge(tmp_path: Path) -> None:
    path = tmp_path / "openclaw.toml"
    path.write_text('[paths]\ndata_dir = "state"\n[index]\nmax_results = 5\nfusion = "weighted"\n')
    cfg = load_config(path, environ={"OPENCLAW_INDEX__MAX_RESULTS": "3"})
    assert cfg.index.max_results == 3 and cfg.index.fusion == "weighted"
    assert cfg.paths.data_dir == (tmp_path / "state").resolve()
    assert cfg.source == "openclaw.toml"


@pytest.mark.parametrize(
    ("toml", "env", "needle"),
    [
        (
            "[index]\nfusion = 'magic'\n",
            {},
            "index.fusion: 'magic' is not allowed; choose one of 'rrf', 'weighted'",
        ),
        ("[index]\nmax_results = 'many'\n", {}, "index.max_results: expected an integer"),
        ("[index]\nmin_score = 2.0\n", {}, "index.min_score: must be between 0 and 1"),
        ("[index]\ncolour = 'red'\n", {}, "index.colour: unknown key"),
        ("[nonsense]\nx = 1\n", {}, "config.nonsense: unknown key"),
        ("", {"OPENCLAW_INDEX__EMBED_THREADS": "zero"}, "index.embed_threads: expected an integer"),
        ("[ingest]\noverlap_tokens = 500\n", {}, "ingest.overlap_tokens"),
        ("[answer]\nin_hand_s = -1\n", {}, "answer.in_hand_s: must be 0 (off) to 86400 seconds"),
        ("not = [valid toml", {}, "not valid TOML"),
    ],
)
def test_bad_values_name_the_key(
    tmp_path: Path, toml: str, env: dict[str, str], needle: str
) -> None:
    path = tmp_path / "openclaw.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as err:
        load_config(path, environ=env)
    assert needle in str(err.value)
    assert "\n" not in err.value.message


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: not found"):
        load_config(tmp_path / "nowhere.toml", environ={})


def test_profiles_load() -> None:
    """The shipped development and Pi profiles are valid configurations."""
    repo = Path(__file__).resolve().parents[1]
    dev = load_config(repo / "appliance" / "profiles" / "development.toml", environ={})
    assert dev.audio.source == "wav" and dev.gpio.pin_factory == "mock"
    assert dev.paths.data_dir == (repo / "var").resolve()
    pi = load_config(repo / "image-build" / "files" / "openclaw.toml", environ={})
    assert pi.paths.data_dir == Path("/var/lib/openclaw") and pi.audio.source == "sounddevice"


def test_the_acknowledgement_is_made_ahead_only_for_a_model() -> None:
    """Without an answer model nothing is ever acknowledged, so nothing is synthesised for it."""
    quiet = load_config(environ={}).answer
    assert quiet.llm_model == "" and quiet.acknowledgement
    assert quiet.acknowledgement_heard == ""
    asked = load_config(
        environ={"OPENCLAW_ANSWER__LLM_MODEL": "qwen2.5-coder-0.5b-instruct-q4_k_m"}
    ).answer
    assert asked.acknowledgement_heard == asked.acknowledgement == "Checking the drawings."
