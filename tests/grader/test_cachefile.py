"""The measurement cache files (grader/cachefile.py) shared by gradings: threads of one process
(a checkpoint's side-by-side validation grades in threads) store them at the same time."""

from __future__ import annotations

import threading
from pathlib import Path

from grader import cachefile


def test_stores_from_threads_of_one_process_do_not_collide(tmp_path: Path) -> None:
    """Each store wrote to a temporary file named by the process id alone: two threads
    storing at once shared it, and the second rename failed (FileNotFoundError), which
    turned a grading into an internal error."""
    path = tmp_path / "kernel_compile.json"
    errors: list[BaseException] = []

    def store(n: int) -> None:
        try:
            for i in range(200):
                cachefile.store(path, {f"k{n}": i, "pad": "x" * 2000})
        except BaseException as exc:  # the failure under test
            errors.append(exc)

    threads = [threading.Thread(target=store, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:1]
    assert cachefile.load(path)  # whole and parseable
    assert not list(tmp_path.glob("*.tmp"))
