"""The similarity report of a checkpoint, for its instructors: every submission's source read
through the repository, the checkpoint's starter and its registered handouts removed
(handouts.py), the pairs of `Corpus.report` with
the text of their shared regions."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.checkpoints import service as checkpoints
from app.settings import Settings
from app.similarity import handouts, repository
from app.similarity.corpus import Corpus, Pair, Params
from app.similarity.normalize import Unreadable
from app.similarity.schemas import PairOut, RegionOut, SideOut, SimilarityOut, SkippedOut


def report(session: Session, s: Settings, checkpoint: str) -> SimilarityOut:
    """The pairs above the threshold (NotFound for an unknown checkpoint). A starter that does
    not tokenize is the course's, not a student's: compared without it."""
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
    r = corpus.report()
    return SimilarityOut(
        checkpoint=checkpoint,
        threshold=params.threshold,
        min_symbols=params.min_symbols,
        students=r.students,
        submissions=r.submissions,
        common_fingerprints=r.common_fingerprints,
        pairs=[_pair(p, texts) for p in r.pairs],
        skipped=[
            SkippedOut(student=str(k.student), submission_id=int(k.submission), reason=k.reason)
            for k in r.skipped
        ],
    )


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
