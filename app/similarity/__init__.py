"""Similarity of submissions, MOSS-style: normalized Python tokens, winnowed k-gram
fingerprints, the starter's and the common fingerprints removed, pairs of students found
through an inverted index. The engine (normalize, fingerprint, corpus) is pure (standard
library only: no FastAPI, SQL or torch; an import contract holds it so); the service on top
(`service.py`, `repository.py`, `router.py`) reads a checkpoint's submissions and answers
instructors (docs/SIMILARITY.md)."""

from app.similarity.corpus import Corpus, Key, Pair, Params, Region, Report, Side, Skipped
from app.similarity.fingerprint import Document, fingerprint
from app.similarity.normalize import Normalized, Unreadable, normalize

__all__ = [
    "Corpus",
    "Document",
    "Key",
    "Normalized",
    "Pair",
    "Params",
    "Region",
    "Report",
    "Side",
    "Skipped",
    "Unreadable",
    "fingerprint",
    "normalize",
]
