"""The container recipe (README, "Deployment"): Docker is not on this machine or in CI, so its essentials are
checked from the Dockerfile's text: a non-root USER before the command, a HEALTHCHECK on /healthz, the data dir as
a VOLUME (and as RULESBOT_DATA_DIR), `rulesbot serve --host 0.0.0.0`, code not handed to the runtime user, and
every `pip install` from the package registry only. With Docker available, the image is built and smoke-tested."""

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    logical, current = [], ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        logical.append(current + stripped)
        current = ""
    result = []
    for text in logical:
        name, _, arguments = text.partition(" ")
        result.append((name.upper(), arguments.strip()))
    return result


def final_stage() -> list[tuple[str, str]]:
    """The instructions of the last stage (the image that runs)."""
    steps = instructions()
    starts = [index for index, (name, _) in enumerate(steps) if name == "FROM"]
    assert starts, "no FROM"
    return steps[starts[-1] :]


def test_the_service_runs_as_a_non_root_user_before_its_command():
    stage = final_stage()
    users = [(index, arguments) for index, (name, arguments) in enumerate(stage) if name == "USER"]
    assert users, "no USER: the service would run as root"
    index, user = users[-1]
    assert user.split(":")[0] not in ("root", "0")
    command = next(position for position, (name, _) in enumerate(stage) if name in ("CMD", "ENTRYPOINT"))
    assert index < command


def test_a_healthcheck_probes_healthz():
    checks = [arguments for name, arguments in final_stage() if name == "HEALTHCHECK"]
    assert len(checks) == 1 and "/healthz" in checks[0] and "CMD" in checks[0]


def test_the_data_dir_is_a_volume_and_the_settings_point_there():
    stage = final_stage()
    volumes = [json.loads(arguments) if arguments.startswith("[") else arguments.split() for name, arguments in stage if name == "VOLUME"]
    env = " ".join(arguments for name, arguments in stage if name == "ENV")
    data_dir = re.search(r"RULESBOT_DATA_DIR=(\S+)", env)
    assert data_dir, "RULESBOT_DATA_DIR is not set"
    assert any(data_dir.group(1) in volume for volume in volumes)


def test_the_command_serves_on_all_interfaces():
    (command,) = [arguments for name, arguments in final_stage() if name == "CMD"]
    words = json.loads(command)
    assert words[:2] == ["rulesbot", "serve"] and words[words.index("--host") + 1] == "0.0.0.0"


def test_the_code_is_not_owned_by_the_runtime_user():
    stage = final_stage()
    user = [arguments for name, arguments in stage if name == "USER"][-1]
    for name, arguments in stage:
        if name in ("COPY", "ADD"):
            assert "--chown" not in arguments and "--chmod" not in arguments, arguments
        if name == "RUN":
            for owned in re.findall(r"chown\s+(?:-\w+\s+)*\S+\s+(\S+)", arguments):
                assert owned == "/data", f"{owned} is handed to {user}"


def test_pip_installs_only_from_the_package_registry():
    runs = [arguments for name, arguments in instructions() if name == "RUN"]
    installs = [part for run in runs for part in run.split("&&") if re.search(r"\bpip\b.*\b(install|wheel)\b", part)]
    assert installs
    for command in installs:
        assert not re.search(r"https?://|git\+|--index-url|--extra-index-url|\s-i\s|--find-links|--trusted-host", command), command
    assert not any(name == "ADD" and "://" in arguments for name, arguments in instructions())


def _docker_available() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=15, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.slow
def test_the_image_builds_and_answers_healthz():
    if not _docker_available():
        pytest.skip("no Docker daemon here: the Dockerfile's essentials are linted above")
    tag = "rulesbot-test:ci"
    subprocess.run(["docker", "build", "-t", tag, str(ROOT)], check=True, timeout=1800)
    container = subprocess.run(
        ["docker", "run", "-d", "-p", "127.0.0.1::8000", "-e", "RULESBOT_BACKEND=bm25", tag],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    try:
        port = subprocess.run(["docker", "port", container, "8000"], check=True, capture_output=True, text=True).stdout
        base = "http://" + port.strip().splitlines()[0]
        import httpx

        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(1)
        answer = httpx.post(base + "/v1/ask", json={"question": "How many cards in hand?"}, timeout=30)
        assert answer.status_code == 200 and answer.json()["id"]
    finally:
        subprocess.run(["docker", "rm", "-f", container], check=False, timeout=60)
