"""The Dockerfile, compose.yaml and .dockerignore agree with the app and the local install.

``scripts/test_container.sh`` builds and runs the image itself (CI runs it); these tests
check, without a container engine, that the image's commands are the ones that work
here: the same requirements file, the entry point and server flags started as the image
starts them (the health check then answers), every environment variable the app reads
set to its default, and nothing the server needs left out of the build context.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from lib.games.arena.limits import LOCAL_ENV
from lib.jobs import DEFAULT_MEMORY_MB, MEMORY_ENV, WORKERS_ENV, default_workers, memory_cap_mb
from lib.settings import PREFIX

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import healthcheck  # noqa: E402  (scripts/ is not a package)


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = "\n".join(lines).replace("\\\n", " ")
    result = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def arguments(keyword: str) -> list[str]:
    """The arguments of every ``keyword`` instruction, in order."""
    return [rest for key, rest in instructions() if key == keyword]


def environment() -> dict[str, str]:
    """The ``ENV`` settings of the Dockerfile (``KEY=value`` form)."""
    env: dict[str, str] = {}
    for rest in arguments("ENV"):
        for item in shlex.split(rest):
            key, _, value = item.partition("=")
            env[key] = value
    return env


def entrypoint() -> list[str]:
    """The image's entry point (exec form)."""
    (text,) = arguments("ENTRYPOINT")
    return json.loads(text)


def app_variables() -> set[str]:
    """The environment variables ``lib`` names: string constants with the app's prefix."""
    names = set()
    for path in (ROOT / "lib").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.fullmatch(rf"{PREFIX}[A-Z0-9_]+", text):
                names.add(text)
    return names


def test_the_image_installs_the_requirements_file_community_cloud_reads() -> None:
    installs = [run for run in arguments("RUN") if "pip install" in run]
    assert installs == ["pip install -r requirements.txt"]
    assert "COPY requirements.txt ./" in [f"COPY {rest}" for rest in arguments("COPY")]
    assert (ROOT / "requirements.txt").is_file()


def test_the_base_is_a_slim_python_and_the_server_runs_as_an_unprivileged_user() -> None:
    assert "BASE_IMAGE=python:3.12-slim" in arguments("ARG")
    assert arguments("FROM") == ["${BASE_IMAGE}"]
    (user,) = arguments("USER")
    assert user not in ("root", "0")
    assert any(f"useradd --create-home --uid 10001 {user}" in run for run in arguments("RUN"))


def test_the_compiled_solvers_are_made_as_the_server_user_into_its_own_cache() -> None:
    steps = instructions()
    (user,) = arguments("USER")
    warm = steps.index(("RUN", "python -m lib.games.compiled_code"))
    assert steps.index(("USER", user)) < warm  # the cache belongs to the server's user
    assert environment()["NUMBA_CACHE_DIR"].startswith(f"/home/{user}/")


def test_the_environment_sets_every_variable_the_app_reads_to_its_default() -> None:
    env = environment()
    assert env["MALLOC_ARENA_MAX"] == "2"
    assert env[LOCAL_ENV] == "0"  # hosted caps, as on Community Cloud
    assert memory_cap_mb({MEMORY_ENV: env[MEMORY_ENV]}) == DEFAULT_MEMORY_MB
    assert default_workers({WORKERS_ENV: env[WORKERS_ENV]}) == default_workers({})
    # every variable the app's code names is set in the image and in compose.yaml
    read = app_variables()
    assert {LOCAL_ENV, WORKERS_ENV, MEMORY_ENV} <= read <= set(env)
    compose = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    for name in [*read, "MALLOC_ARENA_MAX", "STREAMLIT_SERVER_BASE_URL_PATH"]:
        assert f"{name}:" in compose


def test_the_entry_point_serves_the_app_on_every_interface() -> None:
    command = entrypoint()
    assert command[:5] == ["python", "-m", "streamlit", "run", "streamlit_app.py"]
    assert (ROOT / "streamlit_app.py").is_file()
    assert "--server.address=0.0.0.0" in command
    assert "--server.headless=true" in command


def test_every_server_flag_is_a_streamlit_option() -> None:
    from streamlit import config

    options = config.get_config_options()
    flags = [arg for arg in entrypoint() if arg.startswith("--")]
    assert flags
    for flag in flags:
        name = flag[2:].split("=", 1)[0]
        assert name in options, name
    for key in environment():
        if key.startswith("STREAMLIT_"):
            section, _, option = key[len("STREAMLIT_") :].lower().partition("_")
            camel = option.split("_")[0] + "".join(w.title() for w in option.split("_")[1:])
            assert f"{section}.{camel}" in options, key


def test_the_health_check_fetches_the_health_endpoint_under_the_base_url_path() -> None:
    (check,) = arguments("HEALTHCHECK")
    assert check.endswith('CMD ["python", "scripts/healthcheck.py"]')
    assert healthcheck.health_url({}) == "http://127.0.0.1:8501/_stcore/health"
    assert (
        healthcheck.health_url(
            {"STREAMLIT_SERVER_PORT": "9000", "STREAMLIT_SERVER_BASE_URL_PATH": "/lab/"}
        )
        == "http://127.0.0.1:9000/lab/_stcore/health"
    )


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether ``.dockerignore``'s ``patterns`` leave ``path`` (or a folder above it) out."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        for prefix in prefixes:
            if fnmatch.fnmatch(prefix, pattern) or fnmatch.fnmatch(prefix.split("/")[-1], bare):
                return True
    return False


def test_the_build_context_keeps_what_the_server_needs_and_leaves_out_the_rest() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert not any(p.startswith("!") for p in patterns)  # the check below knows no exceptions
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    kept = {path for path in tracked if not ignored(path, patterns)}
    needed = ["streamlit_app.py", "requirements.txt", ".streamlit/config.toml"]
    needed += ["scripts/healthcheck.py", "scripts/check_runtime.py"]
    assert set(needed) <= kept
    for folder in ("lib/", "pages/", "data/", "assets/"):
        in_repo = {path for path in tracked if path.startswith(folder)}
        assert in_repo and in_repo <= kept, folder
    assert not any(path.startswith(("tests/", "bench/", ".git")) for path in kept)
    assert ignored(".venv/bin/python", patterns)
    assert ignored("lib/__pycache__/x.pyc", patterns)


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_entry_point_with_the_image_environment_starts_a_healthy_server() -> None:
    """Start the image's command here (this venv's python) and run its health check."""
    port = free_port()
    env = {**os.environ, **environment(), "STREAMLIT_SERVER_PORT": str(port)}
    env.pop("VIRTUAL_ENV")  # the image's venv path; ours is sys.executable's
    env["PATH"] = os.environ.get("PATH", "")
    command = [sys.executable, *entrypoint()[1:]]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        check = [sys.executable, str(ROOT / "scripts" / "healthcheck.py")]
        while subprocess.run(check, env=env, check=False).returncode != 0:
            assert process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "not healthy within 60 s"
            time.sleep(0.5)
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode in (0, -signal.SIGTERM)
