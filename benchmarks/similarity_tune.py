"""The measurements behind app/similarity's defaults (k, w, which names stay, the threshold and
min_shared), on the repository's real kernels:

- copies: each honest kernel of each checkpoint against five disguised copies of it (every
  bound name renamed, reformatted, comments added, independent assignments swapped:
  tests/app/similarity_disguise.py), and against five more with two small edits as well;
- independent: every two honest kernels of the same checkpoint (the reference, the course's lab
  file, the security catalog's honest submissions);
- starter + one line: two students who each submit the starter with the same one line of the
  reference's kernel added (each renamed and reformatted in their own way), for every
  single-line statement of every reference kernel.

Each pair is scored as the engine scores it (a two-student `Corpus` with the checkpoint's
starter removed; the common-fingerprint filter cannot act on two students).

    .venv/bin/python benchmarks/similarity_tune.py [--quick]

Writes benchmarks/results/DATE-cpu-similarity-tuning.{txt,json}.
"""

from __future__ import annotations

import argparse
import ast
import functools
import itertools
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.similarity import Corpus, Document, Params, fingerprint  # noqa: E402
from app.similarity.normalize import NameMode  # noqa: E402
from benchmarks._common import DATE, machine, write  # noqa: E402
from tests.app.similarity_disguise import (  # noqa: E402
    CHECKPOINTS,
    disguise,
    folder,
    honest_kernels,
    starter,
)

Case = tuple[str, str, str, str]  # checkpoint, label, source a, source b


def copies(edits: int) -> list[Case]:
    out = []
    for ck in CHECKPOINTS:
        for name, src in honest_kernels(ck).items():
            for seed in range(5):
                out.append(
                    (ck, f"{name} #{seed}", src, disguise(src, 100 * edits + seed, edits=edits))
                )
    return out


def family(name: str) -> str:
    """Who wrote it: the reference, the course's lab file, or the security catalog, whose
    honest softmax files are one template with one feature changed each (so, to a similarity
    engine, copies of one another: `variants`, not `independent`)."""
    return name.split("/")[0]


def independent(same_family: bool) -> list[Case]:
    out = []
    for ck in CHECKPOINTS:
        for (na, a), (nb, b) in itertools.combinations(honest_kernels(ck).items(), 2):
            if (family(na) == family(nb)) == same_family:
                out.append((ck, f"{na} ~ {nb}", a, b))
    return out


def kernel_lines(source: str) -> list[str]:
    """The single-line statements inside the @triton.jit functions of a source."""
    lines = source.splitlines()
    out = []
    for fn in ast.walk(ast.parse(source)):
        if isinstance(fn, ast.FunctionDef) and any(
            "jit" in ast.unparse(d) for d in fn.decorator_list
        ):
            for stmt in ast.walk(fn):
                if isinstance(stmt, ast.stmt) and stmt is not fn and stmt.lineno == stmt.end_lineno:
                    out.append(lines[stmt.lineno - 1].strip())
    return out


def starter_lines() -> list[Case]:
    out = []
    for ck in CHECKPOINTS:
        base = starter(ck)
        todo = next(ln for ln in base.splitlines() if "# Your code" in ln)
        indent = todo[: len(todo) - len(todo.lstrip())]
        for i, line in enumerate(kernel_lines((folder(ck) / "reference.py").read_text())):
            text = base.replace(todo, indent + line, 1)
            # reformatted and renamed by each, but the starter's lines left in their order
            a = disguise(text, 2 * i, reordering=0.0)
            b = disguise(text, 2 * i + 1, reordering=0.0)
            out.append((ck, line, a, b))
    return out


@functools.cache
def doc(source: str, k: int, w: int, names: NameMode) -> Document:
    return fingerprint(source, k, w, names)


def measure(case: Case, p: Params) -> dict[str, Any]:
    ck, label, a, b = case
    c = Corpus(starter=starter(ck), params=p)
    c.add_document("a", "A", doc(a, p.k, p.w, p.names))
    c.add_document("b", "B", doc(b, p.k, p.w, p.names))
    pairs = c.pairs(threshold=0.0)
    if not pairs:
        return {
            "checkpoint": ck,
            "case": label,
            "score": 0.0,
            "jaccard": 0.0,
            "shared": 0,
            "symbols": 0,
        }
    x = pairs[0]
    return {
        "checkpoint": ck,
        "case": label,
        "score": x.score,
        "jaccard": x.jaccard,
        "shared": x.shared,
        "symbols": min(x.a.covered, x.b.covered),
    }


def summary(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    v = sorted(r[key] for r in rows)
    return {
        "min": v[0],
        "p5": v[max(0, len(v) // 20 - 1)],
        "median": statistics.median(v),
        "p95": v[min(len(v) - 1, len(v) - len(v) // 20)],
        "max": v[-1],
    }


def sweep(
    sets: dict[str, list[Case]], grid: list[tuple[int, int, NameMode]]
) -> list[dict[str, Any]]:
    out = []
    for k, w, names in grid:
        p = Params(k=k, w=w, names=names, min_symbols=1)
        res = {name: [measure(c, p) for c in cases] for name, cases in sets.items()}
        row: dict[str, Any] = {"k": k, "w": w, "names": names}
        for name, rows in res.items():
            row[name] = {m: summary(rows, m) for m in ("score", "jaccard", "shared", "symbols")}
        row["top_independent"] = sorted(res["independent"], key=lambda r: -r["score"])[:8]
        row["low_copies"] = sorted(res["copies"], key=lambda r: r["score"])[:3]
        row["top_starter_line"] = sorted(res["starter_line"], key=lambda r: -r["symbols"])[:3]
        out.append(row)
    return out


def table(rows: list[dict[str, Any]], metric: str) -> list[str]:
    lines = [
        f"{metric}: copies min/p5 | edited copies min/p5 | independent p95/max | "
        "catalog variants median/max | shared symbols: copies min, independent max, "
        "starter+1 line max",
    ]
    for r in rows:
        c, e, i, s = (
            r["copies"][metric],
            r["edited"][metric],
            r["independent"][metric],
            r["starter_line"],
        )
        v = r["variants"][metric]
        i_sym = r["independent"]["symbols"]["max"]
        lines.append(
            f"  k={r['k']:>2} w={r['w']:>2} {r['names']:<10} "
            f"{c['min']:.3f}/{c['p5']:.3f} | {e['min']:.3f}/{e['p5']:.3f} | "
            f"{i['p95']:.3f}/{i['max']:.3f} | {v['median']:.3f}/{v['max']:.3f} | "
            f"{r['edited']['symbols']['min']:>3.0f} {i_sym:>3.0f} {s['symbols']['max']:>3.0f}"
        )
    return lines


def ranking(rows: list[dict[str, Any]]) -> list[str]:
    """Each setting's gaps: the lowest edited copy's score over the highest independent pair's,
    and the fewest shared symbols of an edited copy over the most of a starter + one line;
    by the score gap."""
    out = [
        "settings by gap (edited copies min - independent max; symbols: copies min - "
        "starter+1 line max; and the threshold halfway):"
    ]
    gaps = []
    for r in rows:
        score = r["edited"]["score"]["min"] - r["independent"]["score"]["max"]
        symbols = r["edited"]["symbols"]["min"] - r["starter_line"]["symbols"]["max"]
        mid = (r["edited"]["score"]["min"] + r["independent"]["score"]["max"]) / 2
        gaps.append((score, symbols, mid, r))
    for score, symbols, mid, r in sorted(gaps, key=lambda g: -g[0])[:12]:
        out.append(
            f"  k={r['k']:>2} w={r['w']:>2} {r['names']:<10} score gap {score:.3f} "
            f"(threshold {mid:.2f}), symbol gap {symbols:>3.0f}, fingerprints of a copy: "
            f"median {r['copies']['shared']['median']:.0f}"
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a smaller grid")
    args = ap.parse_args()
    sets = {
        "copies": copies(0),
        "edited": copies(2),
        "independent": independent(same_family=False),
        "variants": independent(same_family=True),
        "starter_line": starter_lines(),
    }
    ks = [10, 12, 15] if args.quick else [8, 10, 12, 15, 20, 25]
    ws = [4, 8] if args.quick else [4, 6, 8, 12]
    grid = [(k, w, n) for n in ("all", "attributes") for k in ks for w in ws]
    rows = sweep(sets, grid)
    text = [f"similarity tuning, {DATE}", str(machine()), ""]
    text += [f"{name}: {len(cases)} pairs" for name, cases in sets.items()]
    text += ["", *table(rows, "score"), "", *table(rows, "jaccard"), "", *ranking(rows), ""]
    for r in rows:
        text.append(f"k={r['k']} w={r['w']} {r['names']}: top independent pairs (score, shared)")
        text += [
            f"    {x['score']:.3f} {x['shared']:>3} {x['checkpoint']} {x['case']}"
            for x in r["top_independent"]
        ]
    write(
        "similarity-tuning",
        {"machine": machine(), "sizes": {n: len(c) for n, c in sets.items()}, "grid": rows},
        "\n".join(text),
    )
    print("\n".join(text))


if __name__ == "__main__":
    main()
