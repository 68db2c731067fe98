"""The similarity report of one checkpoint for a course: 500 students × 10 submissions.

The 5,000 sources are made from the repository's real softmax kernels (the reference, the
course's lab file, the security catalog's honest submissions, the wrong solutions: 28
originals): each student draws one original, and each of their ten submissions is it disguised
by tests/app/similarity_disguise.py (every bound name renamed, reformatted, independent
statements swapped, up to three small edits). Ten students copy: three of their submissions are
another student's latest (of another original), disguised again with an edit of their own.

Timed end to end, several rounds, medians: `Corpus(starter=…)`, `add` of the 5,000 sources
(normalize + fingerprint), `report()` (starter and common fingerprints dropped, the inverted
index, candidate pairs, scores and regions). Then the same from stored documents
(`Document.from_dict` of each submission's `to_dict()`, as a service that fingerprints a
submission once, when it arrives, would do). Checked: every planted copy found (recall), and
how many pairs join students of different originals (nothing was copied between those).
About 18 students share each original, so they are disguised copies of one file to each other
too: those pairs are counted apart; a course's honest students share far less.

    .venv/bin/python benchmarks/similarity_speed.py [--students 500] [--per-student 10] [--rounds 3]

Writes benchmarks/results/DATE-cpu-similarity.{txt,json}.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.similarity import Corpus, Document, Params, Report, fingerprint  # noqa: E402
from benchmarks._common import DATE, machine, write  # noqa: E402
from tests.app.similarity_disguise import disguise, folder, honest_kernels, starter  # noqa: E402

CHECKPOINT = "c3a-softmax"
Row = tuple[str, str, str]  # submission, student, source
COPIERS = 10


def originals() -> list[str]:
    kernels = list(honest_kernels(CHECKPOINT).values())
    wrong = sorted((folder(CHECKPOINT) / "solutions" / "wrong").glob("*.py"))
    # the lab file as written is the pruned one less two lines: one original, not two
    return kernels + [p.read_text() for p in wrong if p.name != "lab_a1_autotune.py"]


def population(students: int, per: int, seed: int = 7, copiers: int = COPIERS) -> dict[str, Any]:
    """(submission, student, source) rows, each student's original, and the planted pairs."""
    rng = random.Random(seed)
    bases = originals()
    base_of = {f"s{i:03d}": rng.randrange(len(bases)) for i in range(students)}
    subs: dict[str, list[str]] = {}
    for s, b in base_of.items():
        n = int(s[1:])
        subs[s] = [disguise(bases[b], seed=n * 1000 + j, edits=j % 4, habit=n) for j in range(per)]
    names = sorted(base_of)
    planted = []
    while len(planted) < copiers:
        a, b = rng.sample(names, 2)
        taken = {x for p in planted for x in p}
        if base_of[a] == base_of[b] or a in taken or b in taken:
            continue
        for j in range(per - 3, per):  # b's last three: a's latest, disguised again
            subs[b][j] = disguise(subs[a][-1], seed=rng.randrange(10**9), edits=1)
        planted.append((a, b))
    rows = [(f"{s}-{j}", s, src) for s in names for j, src in enumerate(subs[s])]
    # which originals each student's files come from: a copier's, theirs and their source's
    origins = {s: {b} for s, b in base_of.items()}
    for a, b in planted:
        origins[b].add(base_of[a])
    return {"rows": rows, "origins": origins, "planted": planted, "originals": len(bases)}


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(t: tuple[float, float]) -> tuple[float, float]:
    return time.perf_counter() - t[0], time.process_time() - t[1]


def one_round(rows: list[Row], start: str) -> tuple[dict[str, float], Report, list[Document]]:
    """From the sources: (wall and CPU seconds of each phase, the report, the documents)."""
    t0 = _clock()
    corpus = Corpus(starter=start)
    docs = [corpus.add(sub, student, src) for sub, student, src in rows]
    add = _since(t0)
    t1 = _clock()
    report = corpus.report()
    rep = _since(t1)
    assert all(d is not None for d in docs)
    times = {"add": add[0], "report": rep[0], "total": add[0] + rep[0]}
    times |= {"add_cpu": add[1], "report_cpu": rep[1], "total_cpu": add[1] + rep[1]}
    return times, report, [d for d in docs if d is not None]


def stored_round(rows: list[Row], stored: list[str], start: str) -> dict[str, float]:
    """From stored documents (JSON text, as a database column would hold them)."""
    t0 = _clock()
    corpus = Corpus(starter=start)
    for (sub, student, _), text in zip(rows, stored, strict=True):
        corpus.add_document(sub, student, Document.from_dict(json.loads(text)))
    load = _since(t0)
    t1 = _clock()
    corpus.report()
    rep = _since(t1)
    times = {"load": load[0], "report": rep[0], "total": load[0] + rep[0]}
    return times | {"load_cpu": load[1], "report_cpu": rep[1], "total_cpu": load[1] + rep[1]}


def check(report: Report, pop: dict[str, Any]) -> dict[str, Any]:
    found = {tuple(sorted((str(p.a.student), str(p.b.student)))) for p in report.pairs}
    planted = {tuple(sorted(p)) for p in pop["planted"]}
    origins = pop["origins"]
    cross = [p for p in found if p not in planted and not origins[p[0]] & origins[p[1]]]
    same = [p for p in found if p not in planted and origins[p[0]] & origins[p[1]]]
    scores = {tuple(sorted((str(p.a.student), str(p.b.student)))): p.score for p in report.pairs}
    return {
        "pairs_reported": len(report.pairs),
        "planted": len(planted),
        "planted_found": len(planted & found),
        "recall": len(planted & found) / len(planted),
        "planted_scores": sorted(scores[p] for p in planted & found),
        "pairs_between_different_originals": len(cross),
        "pairs_between_same_original": len(same),
        "common_fingerprints": report.common_fingerprints,
    }


def sweep(
    rows: list[Row], docs: list[Document], start: str, pop: dict[str, Any]
) -> list[dict[str, Any]]:
    """The report again from the same documents with the common-fingerprint filter at other
    shares (1.0: off), and once without the starter removed: what each default buys."""
    out = []
    settings: list[tuple[str | None, float]] = [
        (start, share) for share in (0.02, 0.05, 0.1, 0.2, 1.0)
    ]
    for starter_text, share in [*settings, (None, 0.1)]:
        corpus = Corpus(starter=starter_text, params=Params(common_share=share))
        for (sub, student, _), doc in zip(rows, docs, strict=True):
            corpus.add_document(sub, student, doc)
        result = check(corpus.report(), pop)
        out.append({"starter_removed": starter_text is not None, "common_share": share, **result})
    return out


def small_course(start: str) -> list[dict[str, Any]]:
    """A course of 50 students (5 copiers): the common filter's floor, which sets its limit
    below 100 students, and the starter's removal, at floors 2 to 50."""
    pop = population(50, 10, seed=11, copiers=5)
    rows = pop["rows"]
    docs = [fingerprint(src, Params().k, Params().w) for _, _, src in rows]
    out = []
    for starter_text, floor in [(start, f) for f in (2, 5, 10, 20, 50)] + [(None, 10)]:
        corpus = Corpus(starter=starter_text, params=Params(common_floor=floor))
        for (sub, student, _), doc in zip(rows, docs, strict=True):
            corpus.add_document(sub, student, doc)
        result = check(corpus.report(), pop)
        out.append({"starter_removed": starter_text is not None, "common_floor": floor, **result})
    return out


def median(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.median(r[k] for r in rounds), 3) for k in rounds[0]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--students", type=int, default=500)
    ap.add_argument("--per-student", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    t = time.perf_counter()
    pop = population(args.students, args.per_student)
    made = time.perf_counter() - t
    rows, start = pop["rows"], starter(CHECKPOINT)
    cold, warm = [], []
    for _ in range(args.rounds):
        times, report, docs = one_round(rows, start)
        cold.append(times)
        stored = [json.dumps(d.to_dict()) for d in docs]
        warm.append(stored_round(rows, stored, start))
    result = check(report, pop)
    swept = sweep(rows, docs, start, pop)
    small = small_course(start)
    data = {
        "command": " ".join(["python", "benchmarks/similarity_speed.py", *sys.argv[1:]]),
        "machine": machine(),
        "checkpoint": CHECKPOINT,
        "students": args.students,
        "per_student": args.per_student,
        "submissions": len(rows),
        "originals": pop["originals"],
        "characters_total": sum(len(src) for _, _, src in rows),
        "params": report.params.__dict__,
        "generation_s": round(made, 2),
        "rounds_from_sources": cold,
        "rounds_from_stored": warm,
        "median_from_sources": median(cold),
        "median_from_stored": median(warm),
        **result,
        "sweep": swept,
        "small_course": small,
    }
    m, s = data["median_from_sources"], data["median_from_stored"]
    text = [
        f"similarity report, {DATE}: {data['command']}",
        str(data["machine"]),
        f"{len(rows)} submissions ({args.students} students × {args.per_student}) of "
        f"{CHECKPOINT}, from {pop['originals']} originals; params {data['params']}",
        f"from sources, median of {args.rounds}: {m['total']:.2f} s wall, "
        f"{m['total_cpu']:.2f} s CPU "
        f"(normalize + fingerprint {m['add']:.2f} s, report {m['report']:.2f} s)",
        f"from stored documents: {s['total']:.2f} s wall, {s['total_cpu']:.2f} s CPU "
        f"(load {s['load']:.2f} s, report {s['report']:.2f} s)",
        f"planted copies found: {result['planted_found']}/{result['planted']} "
        f"(recall {result['recall']:.2f}), scores {result['planted_scores']}",
        f"pairs reported: {result['pairs_reported']}: between students of different originals "
        f"{result['pairs_between_different_originals']}, of the same original "
        f"{result['pairs_between_same_original']}; common fingerprints dropped "
        f"{result['common_fingerprints']}",
        "the same documents, other settings (starter removed, common share: planted found, "
        "pairs between different originals, pairs of the same original, common dropped):",
        *[
            f"  {w['starter_removed']!s:>5} {w['common_share']:<4}: {w['planted_found']}/"
            f"{w['planted']}, {w['pairs_between_different_originals']}, "
            f"{w['pairs_between_same_original']}, {w['common_fingerprints']}"
            for w in swept
        ],
        "a course of 50 students, 5 copiers (starter removed, common floor: the same columns):",
        *[
            f"  {w['starter_removed']!s:>5} {w['common_floor']:<4}: {w['planted_found']}/"
            f"{w['planted']}, {w['pairs_between_different_originals']}, "
            f"{w['pairs_between_same_original']}, {w['common_fingerprints']}"
            for w in small
        ],
        f"rounds from sources: {cold}",
        f"rounds from stored: {warm}",
    ]
    write("similarity", data, "\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
