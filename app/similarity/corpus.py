"""One checkpoint's submissions, and the pairs of students whose kernels are alike.

    corpus = Corpus(starter=starter_source)
    for sub in submissions:
        corpus.add(sub.id, sub.user_id, sub.source)   # or add_document(…) from a stored one
    report = corpus.report()                           # report.pairs: list[Pair], best first

The parameters' defaults were chosen by measurement (`benchmarks/similarity_tune.py`,
`benchmarks/results/2026-12-01-cpu-similarity-tuning.txt`); `Params` says which and why.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.similarity.fingerprint import Document, all_kgrams, fingerprint
from app.similarity.normalize import NameMode, Unreadable

Key = str | int


@dataclass(frozen=True)
class Params:
    """How sources are fingerprinted and which pairs are reported. The defaults come from
    `benchmarks/similarity_tune.py` (results/2026-12-01-cpu-similarity-tuning.txt) on the
    repository's kernels: disguised copies (renamed, reformatted, statements swapped, with and
    without two small edits), independent honest kernels of the same checkpoint, and two
    students each adding the same one line to the starter.

    k, w: k-grams of 10 symbols, windows of 4, so that any shared run of 13 symbols (a short
    line of kernel code) is always found. Of the grid k 8-25 × w 4-12, this pair kept the
    widest gaps: disguised copies scored at least 0.864 (edited ones 0.789), independent
    kernels at most 0.627; a starter plus one line covered at most 52 shared symbols, the
    least a copy covered was 102.
    names: "attributes", a name after a dot stays itself (`tl.load` is not `tl.store`): at
    equal k and w it separated copies from independent kernels as well as or better than
    abstracting every name ("all").
    threshold: the share of the smaller submission's fingerprints that the other has, at
    which a pair is reported: 0.7, about halfway between those two scores (0.71). Jaccard
    (over the union) separated them less (a gap of 0.141 against 0.162): code added around a
    copy dilutes it.
    min_symbols: and the shared fingerprints must cover at least 75 symbols of both (about
    four lines): one line that two students wrote alike is never a pair.
    common_share, common_floor: a fingerprint that more than max(common_floor, common_share
    × students) students have says nothing about any two of them and is dropped (MOSS's -m):
    10 % of a course, but never fewer than 10 students, so a small course keeps its copies
    (`benchmarks/similarity_speed.py` measures the share on 500 students).
    """

    k: int = 10
    w: int = 4
    names: NameMode = "attributes"
    threshold: float = 0.7
    min_symbols: int = 75
    common_share: float = 0.1
    common_floor: int = 10

    def __post_init__(self) -> None:
        if self.k < 1 or self.w < 1:
            raise ValueError("k and w must be at least 1")
        if not 0 <= self.threshold <= 1:
            raise ValueError("threshold must be in [0, 1]")
        if not 0 < self.common_share <= 1:
            raise ValueError("common_share must be in (0, 1]")
        if self.min_symbols < 1:
            raise ValueError("min_symbols must be at least 1")


@dataclass(frozen=True)
class Side:
    """One submission of a pair: whose, which, how many fingerprints it has left once the
    starter's and the common ones are dropped, and how many of its (normalized) symbols the
    shared fingerprints cover."""

    student: Key
    submission: Key
    fingerprints: int
    covered: int


@dataclass(frozen=True)
class Region:
    """A run of shared fingerprints: the same code at lines a[0]…a[1] of the first submission
    and b[0]…b[1] of the second (1-based, inclusive)."""

    a: tuple[int, int]
    b: tuple[int, int]
    fingerprints: int


@dataclass(frozen=True)
class Pair:
    """Two students' most alike submissions. score: shared fingerprints over the smaller
    side's (1.0: all of one is in the other); jaccard: over the union, for reference."""

    a: Side
    b: Side
    shared: int
    score: float
    jaccard: float
    regions: tuple[Region, ...]


@dataclass(frozen=True)
class Skipped:
    """A submission left out of the comparison, and why (it does not tokenize)."""

    student: Key
    submission: Key
    reason: str


@dataclass(frozen=True)
class Report:
    """What a page or the CLI shows: the pairs above the threshold, best first, what could not
    be read, and what the comparison was made with."""

    params: Params
    students: int
    submissions: int
    common_fingerprints: int
    pairs: list[Pair]
    skipped: list[Skipped] = field(default_factory=list)


@dataclass
class _Entry:
    student: Key
    submission: Key
    doc: Document
    kept: frozenset[int] = frozenset()


class Corpus:
    """The submissions to one checkpoint. `starter` and every text in `base` are removed from
    each submission before comparing: any of its k-grams, wherever it falls there (a starter
    that does not tokenize raises `Unreadable`: it is the course's, not a student's)."""

    def __init__(
        self, starter: str | None = None, base: Iterable[str] = (), params: Params | None = None
    ) -> None:
        self.params = params or Params()
        self._ignored: set[int] = set()
        for text in [starter, *base] if starter is not None else list(base):
            self._ignored |= all_kgrams(text, self.params.k, self.params.names)
        self._entries: list[_Entry] = []
        self.skipped: list[Skipped] = []

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, submission: Key, student: Key, source: str) -> Document | None:
        """Fingerprint and add one submission; None (and a `Skipped`) if it does not tokenize."""
        p = self.params
        try:
            doc = fingerprint(source, p.k, p.w, p.names)
        except Unreadable as e:
            self.skipped.append(Skipped(student, submission, str(e)))
            return None
        self.add_document(submission, student, doc)
        return doc

    def add_document(self, submission: Key, student: Key, doc: Document) -> None:
        """Add a submission fingerprinted before (with the same k, w and names)."""
        p = self.params
        if (doc.k, doc.w, doc.names) != (p.k, p.w, p.names):
            raise ValueError(
                f"document fingerprinted with k={doc.k} w={doc.w} names={doc.names}, "
                f"corpus uses k={p.k} w={p.w} names={p.names}"
            )
        self._entries.append(_Entry(student, submission, doc))

    def _filter(self) -> tuple[list[list[_Entry]], int]:
        """Each entry's fingerprints less the starter's and the common ones; the entries by
        student, the students in order."""
        by_student: dict[Key, list[_Entry]] = defaultdict(list)
        ignored = self._ignored
        for e in self._entries:
            e.kept = frozenset(e.doc.hashes).difference(ignored)
            by_student[e.student].append(e)
        students_with: dict[int, int] = defaultdict(int)
        for entries in by_student.values():
            for h in frozenset().union(*(e.kept for e in entries)):
                students_with[h] += 1
        p = self.params
        limit = max(p.common_floor, math.ceil(p.common_share * len(by_student)))
        common = frozenset(h for h, n in students_with.items() if n > limit)
        if common:
            for e in self._entries:
                e.kept = e.kept.difference(common)
        return [by_student[s] for s in sorted(by_student, key=_order)], len(common)

    def _candidates(self, students: list[list[_Entry]], cut: float) -> list[tuple[int, int]]:
        """Pairs of students (their indexes) who share enough fingerprints to reach the
        threshold and min_symbols, found through the inverted index from each fingerprint to
        the students whose submissions have it."""
        index: dict[int, list[int]] = defaultdict(list)
        smallest = []
        for i, entries in enumerate(students):
            for h in frozenset().union(*(e.kept for e in entries)):
                index[h].append(i)  # in order of i: each list is sorted
            smallest.append(min((len(e.kept) for e in entries if e.kept), default=0))
        counts: dict[tuple[int, int], int] = defaultdict(int)
        for holders in index.values():
            if len(holders) > 1:
                for x, s in enumerate(holders):
                    for t in holders[x + 1 :]:
                        counts[s, t] += 1
        # Two submissions share at most what their students share. A fingerprint covers k
        # symbols: fewer than min_symbols / k cannot cover enough; and a score of `cut` needs
        # cut × the smaller side's fingerprints, at least cut × the student's smallest.
        p = self.params
        floor = math.ceil(p.min_symbols / p.k)
        return [
            (s, t)
            for (s, t), n in counts.items()
            if n >= floor and n >= cut * min(smallest[s], smallest[t])
        ]

    def pairs(self, threshold: float | None = None) -> list[Pair]:
        """For every two students, their most alike submissions (by score, then shared
        fingerprints) if at or above the threshold (the params' by default); best first."""
        return self.report(threshold).pairs

    def report(self, threshold: float | None = None) -> Report:
        p = self.params
        cut = p.threshold if threshold is None else threshold
        students, n_common = self._filter()
        found = []
        for s, t in self._candidates(students, cut):
            pair = _best(students[s], students[t], cut, p)
            if pair is not None:
                found.append(pair)
        found.sort(key=lambda x: (-x.score, -x.shared, _order(x.a.student), _order(x.b.student)))
        return Report(p, len(students), len(self._entries), n_common, found, list(self.skipped))


def _order(key: Key) -> tuple[int, int, str]:
    """A total order over mixed int and str keys: the ints first."""
    return (0, key, "") if isinstance(key, int) else (1, 0, key)


def _best(xs: list[_Entry], ys: list[_Entry], cut: float, p: Params) -> Pair | None:
    """The most alike of two students' submissions (by score, then shared fingerprints) among
    those whose shared fingerprints cover at least min_symbols on both sides."""
    ranked = []
    for a in xs:
        ka = a.kept
        na = len(ka)
        if not na:
            continue
        for b in ys:
            nb = len(b.kept)
            if nb:
                shared = len(ka & b.kept)
                if shared and shared >= cut * (na if na < nb else nb):
                    ranked.append((shared / min(na, nb), shared, a, b))
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    for score, shared, a, b in ranked:
        common = a.kept & b.kept
        ca, cb = _covered(a.doc, common, p.k), _covered(b.doc, common, p.k)
        if min(ca, cb) >= p.min_symbols:
            return Pair(
                a=Side(a.student, a.submission, len(a.kept), ca),
                b=Side(b.student, b.submission, len(b.kept), cb),
                shared=shared,
                score=round(score, 4),
                jaccard=round(shared / len(a.kept | b.kept), 4),
                regions=regions(a.doc, b.doc, common, gap=p.k + p.w),
            )
    return None


def _covered(doc: Document, shared: frozenset[int], k: int) -> int:
    """How many symbols of `doc` the k-grams of its shared fingerprints cover."""
    covered = 0
    end = -1
    for h, pos in zip(doc.hashes, doc.positions, strict=True):  # in order of position
        if h in shared:
            covered += min(k, pos + k - max(end, pos))
            end = max(end, pos + k)
    return covered


def regions(a: Document, b: Document, shared: Iterable[int], gap: int) -> tuple[Region, ...]:
    """The shared fingerprints merged into runs: consecutive matches in `a` whose partners in
    `b` follow each other too, each step at most `gap` symbols on both sides."""
    wanted = set(shared)
    in_b: dict[int, list[int]] = defaultdict(list)
    for j, h in enumerate(b.hashes):
        if h in wanted:
            in_b[h].append(j)
    runs: list[list[tuple[int, int]]] = []
    for i, h in enumerate(a.hashes):
        if h not in wanted:
            continue
        run = runs[-1] if runs else None
        if run is not None:
            pi, pj = run[-1]
            follows = [
                j
                for j in in_b[h]
                if 0 < b.positions[j] - b.positions[pj] <= gap
                and 0 < a.positions[i] - a.positions[pi] <= gap
            ]
            if follows:
                run.append((i, follows[0]))
                continue
        # a new run: its partner after the last run's in `b` if there is one (same order)
        after = [j for j in in_b[h] if runs and j > runs[-1][-1][1]]
        runs.append([(i, after[0] if after else in_b[h][0])])
    out = []
    for run in runs:
        (i0, j0), (i1, j1) = run[0], run[-1]
        out.append(
            Region(
                a=(a.first_lines[i0], a.last_lines[i1]),
                b=(b.first_lines[j0], b.last_lines[j1]),
                fingerprints=len(run),
            )
        )
    return tuple(out)
