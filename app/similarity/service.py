"""The similarity report of a checkpoint, for its instructors: every submission's source read
through the repository, the checkpoint's starter and its registered handouts removed
(handouts.py), the pairs of `Corpus.report` at or above the threshold with the text of their
shared regions, and the summary: the highest-scoring pairs down to SUMMARY_FLOOR (as JSON, on
the page and as CSV)."""

from __future__ import annotations

import io

from sqlalchemy.orm import Session

from app.checkpoints import service as checkpoints
from app.core.csvcell import writer
from app.settings import Settings
from app.similarity import handouts, repository
from app.similarity.corpus import Corpus, Pair, Params
from app.similarity.normalize import Unreadable
from app.similarity.schemas import (
    PairOut,
    RegionOut,
    SideOut,
    SimilarityOut,
    SkippedOut,
    SummaryRowOut,
)

# The summary goes below the threshold, to a pair that shares half of the smaller side's
# fingerprints: independent honest kernels of the repository score up to 0.63 (docs/
# SIMILARITY.md), so the near misses are there to look at, and the rows stop at 50.
SUMMARY_FLOOR = 0.5
SUMMARY_ROWS = 50


def report(session: Session, s: Settings, checkpoint: str) -> SimilarityOut:
    """The pairs at or above the threshold with their regions' text, and the summary of the
    highest pairs down to SUMMARY_FLOOR (NotFound for an unknown checkpoint). A starter that
    does not tokenize is the course's, not a student's: compared without it."""
    cp = checkpoints.get(s, checkpoint)
    starter = cp.starter.read_text() if cp.starter else None
    params = Params()
    base = []
    for text in handouts.listed(s.home, checkpoint).values():  # each on its own: one that
        try:  # does not tokenize is left out, not the others
            Corpus(base=[text], params=params)
            base.append(text)
        except Unreadable:
            continue
    try:
        corpus = Corpus(starter=starter, base=base, params=params)
    except Unreadable:
        corpus = Corpus(base=base, params=params)
    texts: dict[int, str] = {}
    for sid, student, source in repository.sources(session, checkpoint):
        texts[sid] = source
        corpus.add(sid, student, source)
    r = corpus.report(threshold=min(SUMMARY_FLOOR, params.threshold))
    above = [p for p in r.pairs if _reaches(p, params.threshold)]  # as report() would find
    return SimilarityOut(
        checkpoint=checkpoint,
        threshold=params.threshold,
        min_symbols=params.min_symbols,
        students=r.students,
        submissions=r.submissions,
        common_fingerprints=r.common_fingerprints,
        pairs=[_pair(p, texts) for p in above],
        skipped=[
            SkippedOut(student=str(k.student), submission_id=int(k.submission), reason=k.reason)
            for k in r.skipped
        ],
        summary_floor=min(SUMMARY_FLOOR, params.threshold),
        summary=[_row(i, p, params.threshold) for i, p in enumerate(r.pairs[:SUMMARY_ROWS], 1)],
    )


def _reaches(p: Pair, threshold: float) -> bool:
    """The pair's exact score (not its rounded one) at or above `threshold`: the corpus's
    own test, so the cards are what a report at the threshold gives."""
    return p.shared >= threshold * min(p.a.fingerprints, p.b.fingerprints)


def _row(rank: int, p: Pair, threshold: float) -> SummaryRowOut:
    return SummaryRowOut(
        rank=rank,
        a=str(p.a.student),
        a_submission=int(p.a.submission),
        b=str(p.b.student),
        b_submission=int(p.b.submission),
        score=p.score,
        jaccard=p.jaccard,
        shared=p.shared,
        regions=len(p.regions),
        above_threshold=_reaches(p, threshold),
    )


SUMMARY_COLUMNS = [
    "rank",
    "student_a",
    "submission_a",
    "student_b",
    "submission_b",
    "score",
    "jaccard",
    "shared",
    "regions",
    "above_threshold",
]


def summary_csv(session: Session, s: Settings, checkpoint: str) -> str:
    """The summary's rows as CSV, one per pair, highest first (names made spreadsheet-safe)."""
    out = io.StringIO()
    w = writer(out)
    w.writerow(SUMMARY_COLUMNS)
    for r in report(session, s, checkpoint).summary:
        yes = "yes" if r.above_threshold else "no"
        w.writerow(
            [
                r.rank,
                r.a,
                r.a_submission,
                r.b,
                r.b_submission,
                r.score,
                r.jaccard,
                r.shared,
                r.regions,
                yes,
            ]
        )
    return out.getvalue()


def _lines(text: str, span: tuple[int, int]) -> str:
    lines = text.splitlines()
    return "\n".join(lines[span[0] - 1 : span[1]])


def _pair(p: Pair, texts: dict[int, str]) -> PairOut:
    a, b = int(p.a.submission), int(p.b.submission)
    return PairOut(
        a=SideOut(
            student=str(p.a.student),
            submission_id=a,
            fingerprints=p.a.fingerprints,
            covered=p.a.covered,
        ),
        b=SideOut(
            student=str(p.b.student),
            submission_id=b,
            fingerprints=p.b.fingerprints,
            covered=p.b.covered,
        ),
        shared=p.shared,
        score=p.score,
        jaccard=p.jaccard,
        regions=[
            RegionOut(
                a_lines=g.a,
                b_lines=g.b,
                fingerprints=g.fingerprints,
                a_text=_lines(texts[a], g.a),
                b_text=_lines(texts[b], g.b),
            )
            for g in p.regions
        ],
    )


def put_handout(s: Settings, checkpoint: str, name: str, text: str) -> list[str]:
    """Register (or replace) a handout as base text; the names registered after."""
    checkpoints.get(s, checkpoint)  # NotFound for an unknown checkpoint
    handouts.put(s.home, checkpoint, name, text)
    return list(handouts.listed(s.home, checkpoint))


def remove_handout(s: Settings, checkpoint: str, name: str) -> list[str]:
    checkpoints.get(s, checkpoint)
    handouts.remove(s.home, checkpoint, name)
    return list(handouts.listed(s.home, checkpoint))


def handout_names(s: Settings, checkpoint: str) -> list[str]:
    checkpoints.get(s, checkpoint)
    return list(handouts.listed(s.home, checkpoint))
