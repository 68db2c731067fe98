"""Checkpoints: listed and read through the registry's cache, opened and closed by admins, and
installed by one function (`install`) under one name derived from the id, whichever way they
come in (the API's validation task, `kgrade checkpoints add FOLDER`). The files are an admin's
code, and the service reads them as data only: the TOML checked against its schema, the names
and sizes, the Python parsed (never imported). problem.py runs only in its own sandbox
(grader/sandbox/problem.py), in the validation task and the gradings."""

from __future__ import annotations

import re
import shutil
import tempfile
import tomllib
from pathlib import Path

from sqlalchemy.orm import Session

from app.checkpoints import course, registry, versions
from app.core.errors import Conflict, Invalid, NotFound
from app.models import CheckpointVersion
from app.settings import Settings
from grader import authoring, checkpoints

_NAME = re.compile(r"^[A-Za-z0-9_]{1,64}\.py$")
MAX_FILE_BYTES = 1 << 20  # each file of an upload
MAX_UPLOAD_BYTES = 8 << 20  # all of them
MAX_WRONG = 64  # known-bad solutions
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{1,63}$")


def listed(s: Settings) -> list[checkpoints.Checkpoint]:
    """Every checkpoint as this deployment has it (course.py: built-ins it closed), in the
    course's order."""
    shape = course.read(s.home)
    cps = [
        course.shaped(shape, c, registry.is_builtin(c))
        for c in registry.listed(s.all_checkpoint_dirs)
    ]
    return course.ordered(shape, cps)


def get(s: Settings, checkpoint_id: str) -> checkpoints.Checkpoint:
    try:
        found = registry.get(checkpoint_id, s.all_checkpoint_dirs)
    except checkpoints.CheckpointError as exc:
        raise NotFound(str(exc)) from exc
    return course.shaped(course.read(s.home), found, registry.is_builtin(found))


def set_order(s: Settings, order: list[str]) -> list[checkpoints.Checkpoint]:
    """The home page's and the lists' order: these first, the rest after them."""
    known = {c.id for c in registry.listed(s.all_checkpoint_dirs)}
    unknown = [cid for cid in order if cid not in known]
    if unknown:
        raise NotFound(f"no checkpoint {', '.join(repr(c) for c in unknown)}")
    if len(set(order)) != len(order):
        raise Invalid("the order names a checkpoint twice")
    shape = course.read(s.home)
    course.write(s.home, {**shape, "order": order})
    return listed(s)


def version(checkpoint: checkpoints.Checkpoint) -> str | None:
    """The installed version of a loaded checkpoint: its files' content hash."""
    try:
        return versions.of_folder(checkpoint.folder)[0]
    except OSError:
        return None


def versions_of(
    session: Session, s: Settings, checkpoint_id: str
) -> tuple[str | None, list[CheckpointVersion]]:
    """The installed version (its files kept) and every stored one, oldest first."""
    checkpoint = get(s, checkpoint_id)
    current, files = versions.of_folder(checkpoint.folder)
    versions.keep(session, checkpoint_id, current, files)
    return current, versions.listed(session, checkpoint_id)


def version_files(session: Session, checkpoint_id: str, version: str) -> CheckpointVersion:
    row = versions.find(session, checkpoint_id, version)
    if row is None:
        raise NotFound(f"no version {version!r} of checkpoint '{checkpoint_id}'")
    return row


def folder_name(checkpoint_id: str) -> str:
    """The one name a checkpoint is installed under: its id, dashes as underscores."""
    return checkpoint_id.replace("-", "_")


def check_id(checkpoint_id: str) -> None:
    """An id an admin may add: well formed, and not a built-in's."""
    if not _ID.match(checkpoint_id):
        raise Invalid("checkpoint.toml needs an id of lower-case letters, digits and dashes")
    if checkpoint_id in registry.builtin_ids():
        raise Conflict(f"'{checkpoint_id}' is a built-in checkpoint")


def files_of(
    definition: str, problem: str, reference: str, starter: str | None, wrong: dict[str, str]
) -> tuple[str, dict[str, str]]:
    """An upload as a checkpoint folder's files (path → text), and its id; refused at once if
    it cannot be one (bad TOML, a bad id, a bad file name)."""
    try:
        cid = str(tomllib.loads(definition).get("id", ""))
    except tomllib.TOMLDecodeError as exc:
        raise Invalid(str(authoring.toml_error(exc))) from exc
    check_id(cid)
    files = {"checkpoint.toml": definition, "problem.py": problem, "reference.py": reference}
    if starter is not None:
        files["starter.py"] = starter
    if len(wrong) > MAX_WRONG:
        raise Invalid(f"at most {MAX_WRONG} known-bad solutions, not {len(wrong)}")
    for name, text in wrong.items():
        if not _NAME.match(name):
            raise Invalid(f"bad file name for a wrong solution: {name!r}")
        files[f"solutions/wrong/{name}"] = text
    sizes = {path: len(text.encode("utf-8", "surrogatepass")) for path, text in files.items()}
    for path, size in sizes.items():
        if size > MAX_FILE_BYTES:
            raise Invalid(f"{path} is {size} bytes; at most {MAX_FILE_BYTES} per file")
    if sum(sizes.values()) > MAX_UPLOAD_BYTES:
        raise Invalid(f"the upload is {sum(sizes.values())} bytes; at most {MAX_UPLOAD_BYTES}")
    return cid, files


def write_folder(parent: Path, checkpoint_id: str, files: dict[str, str]) -> Path:
    """The files as a checkpoint folder under `parent` (its `solutions/wrong/` always there)."""
    folder = parent / folder_name(checkpoint_id)
    (folder / "solutions" / "wrong").mkdir(parents=True)
    for path, text in files.items():
        (folder / path).write_text(text)
    return folder


def check_loads(checkpoint_id: str, files: dict[str, str]) -> None:
    """Refuse at once a checkpoint whose files cannot make one, read as data (checkpoint.toml
    against its schema, problem.py's syntax and functions, a known-bad solution without its
    `# expect:` line), before any validation is queued. Nothing of it runs here: problem.py
    raising is found by the validation, in its sandbox."""
    with tempfile.TemporaryDirectory(prefix="kgrade-checkpoint-") as staging:
        folder = write_folder(Path(staging), checkpoint_id, files)

        def unstaged(text: str) -> str:  # the files by their names, not the staging folder
            return text.replace(f"{folder}/", "").replace(str(folder), "the upload")

        try:
            check_folder(folder)
        except checkpoints.CheckpointError as exc:  # names the file and line
            raise Invalid(unstaged(str(exc))) from exc
        except (OSError, UnicodeError, ValueError) as exc:
            raise Invalid(unstaged(f"the checkpoint does not load: {exc}")) from exc


def check_folder(folder: Path) -> checkpoints.Checkpoint:
    """Load a checkpoint folder as data and check what loading alone does not: each known-bad
    solution's `# expect:` line, and that the solutions parse (grader/authoring.py)."""
    checkpoint = checkpoints.load(folder)
    wrong = checkpoint.wrong_solutions()
    authoring.check_solutions(folder, [(w.path, w.expect) for w in wrong])
    return checkpoint


def install(s: Settings, checkpoint: checkpoints.Checkpoint) -> Path:
    """Install a validated checkpoint under KGRADE_HOME/checkpoints/<folder_name(id)>, replacing
    whatever was installed with that id before, under any name: a checkpoint is never there
    twice. The copy is made in KGRADE_HOME/incoming (where no reader looks for checkpoints)
    and renamed into place."""
    check_id(checkpoint.id)
    home, spool = s.home / "checkpoints", s.home / "incoming"
    home.mkdir(parents=True, exist_ok=True)
    spool.mkdir(parents=True, exist_ok=True)
    dest = home / folder_name(checkpoint.id)
    incoming = Path(tempfile.mkdtemp(prefix=f"{dest.name}-", dir=spool))
    try:
        shutil.copytree(checkpoint.folder, incoming, dirs_exist_ok=True)
        for old in [*_installed_as(home, checkpoint.id), dest]:
            shutil.rmtree(old, ignore_errors=True)
        incoming.rename(dest)
    finally:
        shutil.rmtree(incoming, ignore_errors=True)
    return dest


def _installed_as(home: Path, checkpoint_id: str) -> list[Path]:
    """The folders under `home` that hold the checkpoint `checkpoint_id`."""
    found = []
    for toml in home.glob("*/checkpoint.toml"):
        try:
            if tomllib.loads(toml.read_text()).get("id") == checkpoint_id:
                found.append(toml.parent)
        except (OSError, tomllib.TOMLDecodeError):
            continue
    return found


def set_open(s: Settings, checkpoint_id: str, is_open: bool) -> checkpoints.Checkpoint:
    """An added checkpoint's flag is in its checkpoint.toml; a built-in's in the course file
    (its files are the repository's)."""
    checkpoint = get(s, checkpoint_id)
    if registry.is_builtin(checkpoint):
        shape = course.read(s.home)
        closed = [c for c in shape["closed"] if c != checkpoint_id]
        course.write(s.home, {**shape, "closed": closed if is_open else [*closed, checkpoint_id]})
        return get(s, checkpoint_id)
    toml = checkpoint.folder / "checkpoint.toml"
    text = re.sub(r"(?m)^open\s*=.*\n?", "", toml.read_text())
    toml.write_text(f"open = {'true' if is_open else 'false'}\n" + text)
    return get(s, checkpoint_id)
