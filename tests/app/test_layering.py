"""The layers hold: the import-linter contracts of pyproject.toml (app never imports worker;
grader no web, queue or database code; services and repositories no FastAPI; …), run here so
that CI (`make test`) fails on a violation; and the CLI's user command loads neither FastAPI
nor torch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept(tmp_path: Path) -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    proc = subprocess.run(
        [lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_users_add_loads_neither_fastapi_nor_torch(tmp_path: Path) -> None:
    probe = (
        "import sys\n"
        "from app.cli import main\n"
        "code = main(['users', 'add', 'ann'])\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "heavy = sorted(top & {'fastapi', 'starlette', 'torch'})\n"
        "print('loaded:', ','.join(heavy) or '-')\n"
        "sys.exit(code)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}
    proc = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**env, "KGRADE_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "created student 'ann'" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "loaded: -"
