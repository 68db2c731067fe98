"""Re-check a blind explanation pass (a cases JSON under benchmarks/results: each case's id,
lang, round, recording, truth 'true'|'bluff', text) with this checkout's checker, against the
recorded H200 gradings (tests/grader/recorded.py); print the tally by round and language and
every wrong verdict. A verdict is right when backed == (truth == 'true').

    python benchmarks/explanation_pass.py \
        benchmarks/results/2026-12-03-cpu-explanation-fresh-pass-4.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import checkpoints  # noqa: E402
from grader.judge import explanation  # noqa: E402
from tests.grader.recorded import grading  # noqa: E402


def main(path: str) -> None:
    rows: dict[tuple[str, str], list[int]] = {}
    wrong = []
    for c in json.loads(Path(path).read_text()):
        g = grading(c["recording"])
        spec = checkpoints.get(g.checkpoint).definition.rubric
        r = explanation.check(c["text"], spec, g.citable)
        true = c["truth"] == "true"
        rnd = str(c["round"])
        for key in ((rnd, c["lang"]), (rnd, "all"), ("all", "all")):
            t = rows.setdefault(key, [0, 0, 0, 0, 0])
            t[0] += 1
            t[1 if true else 3] += 1
            t[2 if true else 4] += (not r.backed) if true else bool(r.backed)
        if bool(r.backed) != true:
            wrong.append((c["id"], c["truth"], (r.messages or ["(backed)"])[0][:160]))
    print("| round | lang | texts | true | true refused | bluff | bluff backed |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(rows):
        print(f"| {k[0]} | {k[1]} | " + " | ".join(map(str, rows[k])) + " |")
    print()
    for w in wrong:
        print("- " + " · ".join(w))


if __name__ == "__main__":
    main(sys.argv[1])
