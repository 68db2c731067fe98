"""Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) over a source's normalized symbols.

Every k consecutive symbols (a k-gram) get a hash; of every w consecutive k-gram hashes (a
window) the smallest is selected, the rightmost if several are equal, and each selection is a
fingerprint, recorded once however many windows select it. Two sources that share a run of
at least w + k - 1 symbols share a whole window, so they share its fingerprint: that is the
guarantee (`tests/app/test_similarity.py` checks it). A shorter run may be found or not.

The hashes are stable: each symbol's id is its CRC-32, and a k-gram's hash is a polynomial in
those ids modulo the Mersenne prime 2^61 - 1 (Karp and Rabin's rolling hash), the same in every
process and on every machine, unlike Python's salted `hash()`. So a document's fingerprints can
be stored with the submission and compared later without its source.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.similarity.normalize import NAME_MODES, NameMode, Normalized, normalize

_MOD = (1 << 61) - 1
_BASE = 1_000_003
_ids: dict[str, int] = {}


def symbol_ids(symbols: Sequence[str]) -> list[int]:
    """Each symbol's stable id (its CRC-32, plus one: no symbol is 0)."""
    ids = _ids
    out = []
    for s in symbols:
        i = ids.get(s)
        if i is None:
            i = ids[s] = zlib.crc32(s.encode()) + 1
        out.append(i)
    return out


def kgram_hashes(ids: Sequence[int], k: int) -> list[int]:
    """The hash of every k-gram of `ids`, in order (len(ids) - k + 1 of them, none if fewer)."""
    if k < 1:
        raise ValueError("k must be at least 1")
    if len(ids) < k:
        return []
    mod, base = _MOD, _BASE
    top = pow(base, k - 1, mod)  # the weight of a k-gram's first id, removed as it rolls out
    h = 0
    for x in ids[:k]:
        h = (h * base + x) % mod
    out = [h]
    for i in range(k, len(ids)):
        h = ((h - ids[i - k] * top) * base + ids[i]) % mod
        out.append(h)
    return out


def winnow(hashes: Sequence[int], w: int) -> list[int]:
    """The positions of the fingerprints selected from `hashes`, in order (robust winnowing:
    the rightmost minimum of each window; a position selected by several windows is listed
    once). Fewer hashes than a window: the minimum of all of them."""
    if w < 1:
        raise ValueError("w must be at least 1")
    n = len(hashes)
    if n == 0:
        return []
    w = min(w, n)
    selected: list[int] = []
    pos = -1
    for right in range(w - 1, n):
        left = right - w + 1
        if pos < left:  # the window's minimum left it: scan the window again
            window = hashes[left : right + 1]
            smallest = min(window)
            pos = right - window[::-1].index(smallest)
            selected.append(pos)
        elif hashes[right] <= hashes[pos]:  # a new (rightmost) minimum entered
            pos = right
            selected.append(pos)
    return selected


@dataclass(frozen=True, slots=True)
class Document:
    """A source's fingerprints, in order of position: the k-gram hash, the index of the
    k-gram's first symbol, and the first and last source line the k-gram spans. All a
    comparison needs; store it with the submission to skip the tokenizing next time
    (`to_dict` / `from_dict`)."""

    k: int
    w: int
    names: NameMode
    n_symbols: int
    hashes: tuple[int, ...]
    positions: tuple[int, ...]
    first_lines: tuple[int, ...]
    last_lines: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "w": self.w,
            "names": self.names,
            "n_symbols": self.n_symbols,
            "fingerprints": [
                [h, p, a, b]
                for h, p, a, b in zip(
                    self.hashes, self.positions, self.first_lines, self.last_lines, strict=True
                )
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Document:
        rows = data["fingerprints"]
        cols = list(zip(*rows, strict=True)) if rows else [(), (), (), ()]
        names = data["names"]
        if names not in NAME_MODES:
            raise ValueError(f"unknown names mode {names!r}")
        return cls(
            k=int(data["k"]),
            w=int(data["w"]),
            names=names,
            n_symbols=int(data["n_symbols"]),
            hashes=tuple(int(h) for h in cols[0]),
            positions=tuple(int(p) for p in cols[1]),
            first_lines=tuple(int(a) for a in cols[2]),
            last_lines=tuple(int(b) for b in cols[3]),
        )


def document(normalized: Normalized, k: int, w: int, names: NameMode) -> Document:
    """The fingerprints of a normalized source."""
    hashes = kgram_hashes(symbol_ids(normalized.symbols), k)
    chosen = winnow(hashes, w)
    first, last = normalized.first_lines, normalized.last_lines
    return Document(
        k=k,
        w=w,
        names=names,
        n_symbols=len(normalized),
        hashes=tuple(hashes[p] for p in chosen),
        positions=tuple(chosen),
        first_lines=tuple(first[p] for p in chosen),
        last_lines=tuple(last[p + k - 1] for p in chosen),
    )


def fingerprint(source: str, k: int, w: int, names: NameMode = "attributes") -> Document:
    """Normalize and fingerprint a source; raises `Unreadable` if it does not tokenize."""
    return document(normalize(source, names), k, w, names)


def all_kgrams(source: str, k: int, names: NameMode = "attributes") -> set[int]:
    """Every k-gram hash of a source, not only the selected ones: what a starter or base text
    contributes to any submission, wherever its windows fall there."""
    return set(kgram_hashes(symbol_ids(normalize(source, names).symbols), k))
