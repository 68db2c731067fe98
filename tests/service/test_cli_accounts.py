"""`kgrade users …` as an operator runs it, against PostgreSQL: a roster import with its links,
list, disable, enable, reset; and the refusal to make a database silently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROSTER = "name,email,section\nann,ann@example.edu,A\nbob,,B\n"


def kgrade(
    *args: str, env: dict[str, str], stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("KGRADE_")}, **env},
        input=stdin,
        timeout=120,
    )


def test_a_roster_import_prints_a_link_per_new_account_and_is_idempotent(
    service_env: dict[str, str], tmp_path: Path
) -> None:
    env = {**service_env, "KGRADE_PUBLIC_URL": "https://kgrade.example.edu"}
    roster = tmp_path / "cs101.csv"
    roster.write_text(ROSTER)
    first = kgrade("users", "import", str(roster), env=env)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].split()[:4] == ["created", "ann", "student,", "section"]
    assert lines[0].split()[-1].startswith("https://kgrade.example.edu/invite/")
    assert lines[1].split()[-1].startswith("https://kgrade.example.edu/invite/")
    assert "database 127.0.0.1:5432/" in first.stderr  # which database, said
    assert "cs101.csv: 2 created, 0 updated, 0 unchanged" in first.stderr
    again = kgrade("users", "import", "-", env=env, stdin=ROSTER.replace(",B", ",C"))
    assert again.returncode == 0, again.stderr
    assert [ln.split()[0] for ln in again.stdout.splitlines()] == ["unchanged", "updated"]
    assert "section B → C" in again.stdout and "/invite/" not in again.stdout
    listed = kgrade("users", "list", "--section", "C", env=env)
    assert listed.returncode == 0 and listed.stdout.splitlines()[1].split()[:4] == [
        "bob",
        "student",
        "C",
        "invited",
    ]


def test_bad_rows_are_each_a_line_with_its_number_and_nothing_is_imported(
    service_env: dict[str, str],
) -> None:
    bad = "name,role\nann,student\nbob,teacher\n,student\n"
    proc = kgrade("users", "import", "-", env=service_env, stdin=bad)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("kgrade: stdin: line")]
    assert errors == [
        "kgrade: stdin: line 3: unknown role 'teacher' (student, instructor or admin)",
        "kgrade: stdin: line 4: no name",
    ]
    assert proc.stderr.strip().splitlines()[-1] == "kgrade: stdin: 2 problems, nothing imported"
    assert kgrade("users", "list", env=service_env).stdout == ""


def test_disable_enable_and_reset(service_env: dict[str, str]) -> None:
    assert kgrade("users", "import", "-", env=service_env, stdin="name\nann\n").returncode == 0
    off = kgrade("users", "disable", "ann", env=service_env)
    assert off.returncode == 0 and "disabled 'ann'" in off.stdout
    assert "disabled" in kgrade("users", "list", env=service_env).stdout
    assert kgrade("users", "enable", "ann", env=service_env).returncode == 0
    reset = kgrade("users", "reset", "ann", env=service_env)
    assert reset.returncode == 0, reset.stderr
    assert "revoked" in reset.stdout
    assert reset.stdout.strip().splitlines()[-1].startswith("http://127.0.0.1:8000/invite/")
    missing = kgrade("users", "reset", "nobody", env=service_env)
    said = missing.stderr.strip().splitlines()  # which database, then the one-line error
    assert missing.returncode == 2 and said[-1] == "kgrade: no user named 'nobody'"
    assert len(said) == 2 and said[0].startswith("kgrade: database ")


def test_no_database_is_made_silently(tmp_path: Path) -> None:
    home = tmp_path / "elsewhere"
    env = {"KGRADE_HOME": str(home)}
    refused = kgrade("users", "add", "ann", env=env)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert f"no kgrade home at {home}" in refused.stderr and "--create" in refused.stderr
    assert not home.exists()
    unset = kgrade("users", "list", env={})  # KGRADE_HOME unset: ./.kgrade of the cwd
    if not (ROOT / ".kgrade").exists():
        assert unset.returncode == 2 and "KGRADE_HOME unset" in unset.stderr
    made = kgrade("users", "add", "ann", "--create", env=env)
    assert made.returncode == 0, made.stderr
    assert f"a new database, database {home}/kgrade.db" in made.stderr
    again = kgrade("users", "add", "bob", env=env)
    assert again.returncode == 0 and "a new database" not in again.stderr
    assert f"database {home}/kgrade.db (KGRADE_HOME)" in again.stderr


def test_cli_invite_links_name_the_configured_port_or_url(service_env: dict[str, str]) -> None:
    """`users import` and `users reset` print links to the server this deployment runs: on
    KGRADE_PORT when nothing else is set (they once said port 8000 whatever it was)."""
    env = {**service_env, "KGRADE_PORT": "8123"}
    imported = kgrade("users", "import", "-", env=env, stdin="name\nann\n")
    assert imported.returncode == 0, imported.stderr
    assert "http://127.0.0.1:8123/invite/" in imported.stdout, imported.stdout
    reset = kgrade("users", "reset", "ann", env={**env, "KGRADE_URL": "https://k.example.edu"})
    assert reset.stdout.strip().splitlines()[-1].startswith("https://k.example.edu/invite/")


def test_users_list_has_a_header(service_env: dict[str, str]) -> None:
    assert kgrade("users", "import", "-", env=service_env, stdin="name\nann\n").returncode == 0
    lines = kgrade("users", "list", env=service_env).stdout.splitlines()
    assert lines[0].split() == ["name", "role", "section", "state", "tokens", "email"]
    assert lines[1].split()[0] == "ann"
