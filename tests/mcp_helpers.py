"""Helpers shared by the MCP tests: the installed `rulesbot` command and the environment of a fast server."""

import os
import shutil
import sys
from pathlib import Path

FIXTURE_KNOWLEDGE = Path(__file__).parent / "fixtures" / "knowledge"


def rulesbot_command() -> str:
    """The installed `rulesbot` console script next to this interpreter (else the one on PATH)."""
    beside = Path(sys.executable).with_name("rulesbot")
    return str(beside) if beside.exists() else shutil.which("rulesbot")


def server_env(data_dir: Path) -> dict[str, str]:
    """The environment of a fast server: the hash backend over the fixture pack, its own data dir."""
    return {
        **os.environ,
        "RULESBOT_DATA_DIR": str(data_dir),
        "RULESBOT_KNOWLEDGE_DIR": str(FIXTURE_KNOWLEDGE),
        "RULESBOT_BACKEND": "hash",
        "RULESBOT_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
