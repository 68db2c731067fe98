"""The similarity engine (app/similarity) on the repository's real kernels: disguised copies
are reported, independent honest kernels and the starter are not, regions point at the lines.
No database, no timing (benchmarks/similarity_speed.py times it)."""

from __future__ import annotations

import ast
import io
import itertools
import json
import os
import random
import subprocess
import sys
import tokenize

import pytest

from app.similarity import Corpus, Document, Params, Unreadable, fingerprint, normalize
from app.similarity.fingerprint import kgram_hashes, winnow
from tests.app.similarity_disguise import (
    CHECKPOINTS,
    ROOT,
    disguise,
    folder,
    honest_kernels,
    reformat,
    rename,
    reorder,
    starter,
)

# The defaults under test (k=10, w=4, names kept after a dot, threshold 0.7, min_symbols 75)
# were chosen on these same files by benchmarks/similarity_tune.py: disguised copies scored at
# least 0.864 (0.789 with edits), independent kernels at most 0.627, a starter plus one line
# covered at most 52 shared symbols (results/2026-12-01-cpu-similarity-tuning.txt).
P = Params()


def reference(checkpoint: str) -> str:
    return (folder(checkpoint) / "reference.py").read_text()


def pairs_of(checkpoint: str, *sources: str) -> list:
    """The pairs of a corpus of one submission per student: student i submitted sources[i]."""
    corpus = Corpus(starter=starter(checkpoint))
    for i, src in enumerate(sources):
        corpus.add(f"sub{i}", f"student{i}", src)
    return corpus.pairs()


def names_in(source: str) -> set[str]:
    toks = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string for t in toks if t.type == tokenize.NAME}


def bound_names(source: str) -> set[str]:
    """Names the source binds itself (long enough not to be a word of Python), less those that
    are also keyword arguments (`mask=mask`: the API's `mask` must stay)."""
    out = set()
    keywords = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.keyword) and node.arg:
            keywords.add(node.arg)
        if isinstance(node, ast.FunctionDef):
            out.add(node.name)
            out |= {a.arg for a in node.args.args}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
    return {n for n in out if len(n) > 3 and not n.startswith("__")} - keywords


# --- normalization ---------------------------------------------------------------------------


def test_layout_comments_docstrings_and_names_do_not_change_the_symbols() -> None:
    a = (
        '"""Doc."""\nimport triton.language as tl\n\ndef f(x, n):\n'
        "    y = tl.load(x + 1)  # c\n    return (y, n)\n"
    )
    b = (
        "import triton.language as L\ndef g(p,\n      q):\n\n\n  '''other doc'''\n"
        "  r = L.load(p + 7,); return r, q\n"
    )
    assert normalize(a).symbols == normalize(b).symbols
    assert normalize(a).symbols.count("N") >= 6 and "#" in normalize(a).symbols


def test_imports_are_dropped_whatever_their_alias() -> None:
    with_imports = "import torch, triton\nfrom triton import language as tl\nx = tl.load(p)\n"
    assert normalize(with_imports).symbols == normalize("x = tl.load(p)\n").symbols
    assert (
        normalize("def f():\n    import math\n    return 1\n").symbols
        == normalize("def f():\n    return 1\n").symbols
    )


def test_attribute_names_stay_apart_unless_every_name_is_abstracted() -> None:
    load, store = "y = tl.load(p)\n", "y = tl.store(p)\n"
    assert normalize(load).symbols != normalize(store).symbols
    assert normalize(load, "all").symbols == normalize(store, "all").symbols


def test_a_string_that_is_not_a_statement_is_kept() -> None:
    assert "$" in normalize('if "a" in s:\n    pass\n').symbols
    assert "$" not in normalize('def f():\n    "doc"\n    return 1\n').symbols


def test_each_symbol_remembers_its_lines() -> None:
    src = "a = 1\n\n# note\nb = (2 +\n     3)\n"
    n = normalize(src)
    assert n.first_lines[n.symbols.index("N")] == 1
    plus = n.symbols.index("+")
    assert n.first_lines[plus] == 4
    assert n.last_lines[-1] == 5  # the statement's end, after the 3 on line 5


def repo_sources() -> list[str]:
    files = sorted((ROOT / "reference_kernels").rglob("*.py"))
    files += sorted((ROOT / "tests" / "security" / "honest").glob("*.py"))
    files += sorted((ROOT / "tests" / "fixtures" / "submissions").rglob("*.py"))
    files += sorted((ROOT / "app").rglob("*.py")) + sorted((ROOT / "grader").rglob("*.py"))
    return [p.read_text() for p in files]


def test_the_interpreters_tokens_and_tokenizes_give_the_same_symbols() -> None:
    """The fast path (3.11: the interpreter's tokenizer) against `tokenize` on every kernel of
    the repository, its disguises and the service's own code; unreadable ones alike."""
    sources = repo_sources()
    kernels = [s for s in sources if "@triton.jit" in s]
    sources += [disguise(s, i) for i, s in enumerate(kernels)]
    assert len(sources) > 200
    for src in sources:
        for names in ("all", "attributes"):
            try:
                fast = normalize(src, names)
            except Unreadable:
                with pytest.raises(Unreadable):
                    normalize(src, names, fast=False)
                continue
            assert fast == normalize(src, names, fast=False)


def test_a_source_that_does_not_tokenize_raises_unreadable() -> None:
    bad = (ROOT / "tests" / "fixtures" / "submissions" / "syntax_error.py").read_text()
    with pytest.raises(Unreadable):
        normalize(bad)
    with pytest.raises(Unreadable):
        normalize("def f():\n        a = 1\n    b = 2\n")  # a dedent to no level


# --- winnowing -------------------------------------------------------------------------------


def test_any_shared_run_of_w_plus_k_minus_1_symbols_shares_a_fingerprint() -> None:
    rng = random.Random(1)
    for trial in range(300):
        k, w = rng.randint(2, 12), rng.randint(1, 10)
        run = [rng.randrange(50) for _ in range(w + k - 1)]
        a = [rng.randrange(50) for _ in range(rng.randrange(40))] + run
        b = run + [rng.randrange(50) for _ in range(rng.randrange(40))]
        ha, hb = kgram_hashes(a, k), kgram_hashes(b, k)
        fa = {ha[p] for p in winnow(ha, w)}
        fb = {hb[p] for p in winnow(hb, w)}
        assert fa & fb, (trial, k, w)


def test_winnowing_selects_the_rightmost_minimum_of_every_window_once() -> None:
    rng = random.Random(2)
    for _ in range(200):
        hashes = [rng.randrange(8) for _ in range(rng.randint(1, 40))]
        w = rng.randint(1, 8)
        expected = []
        for left in range(max(1, len(hashes) - w + 1)):
            window = hashes[left : left + w]
            pos = left + max(i for i, h in enumerate(window) if h == min(window))
            if not expected or expected[-1] != pos:
                expected.append(pos)
        assert winnow(hashes, w) == expected


def test_fingerprints_are_the_same_in_every_process() -> None:
    """Stored documents must compare with ones made later: no salted hash() anywhere."""
    code = (
        "import sys; from app.similarity import fingerprint; "
        "print(list(fingerprint(sys.stdin.read(), 10, 4).hashes))"
    )
    src = reference("c3a-softmax")
    seen = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=src,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            check=True,
        )
        seen.add(out.stdout)
    assert len(seen) == 1 and len(json.loads(seen.pop())) > 20


def test_a_document_survives_json_and_refuses_other_parameters() -> None:
    doc = fingerprint(reference("c3a-rmsnorm"), P.k, P.w)
    again = Document.from_dict(json.loads(json.dumps(doc.to_dict())))
    assert again == doc
    with pytest.raises(ValueError, match="k=12"):
        Corpus().add_document("s", "u", fingerprint(reference("c3a-rmsnorm"), 12, P.w))


# --- the disguise is real --------------------------------------------------------------------


@pytest.mark.parametrize("checkpoint", CHECKPOINTS)
def test_the_disguised_copy_renames_reformats_and_reorders(checkpoint: str) -> None:
    src = reference(checkpoint)
    copy = disguise(src, seed=3)
    compile(copy, "copy", "exec")
    assert not bound_names(src) & names_in(copy)  # every name of the file's own is new
    assert "#" in copy and copy.splitlines() != src.splitlines()
    assert reorder(ast.parse(src), random.Random(3), chance=1.0) > 0  # something to swap


def every_swap_copy(source: str, seed: int) -> str:
    """Renamed, every independent pair of assignments swapped (not only some), reformatted."""
    rng = random.Random(seed)
    tree = ast.parse(source)
    rename(tree, rng)
    assert reorder(tree, rng, chance=1.0) > 0
    return reformat(tree, rng, comments=0.5)


# --- pairs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("checkpoint", CHECKPOINTS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_disguised_copy_of_each_reference_is_reported(checkpoint: str, seed: int) -> None:
    src = reference(checkpoint)
    (pair,) = pairs_of(checkpoint, src, disguise(src, seed))
    assert pair.score >= P.threshold
    assert {pair.a.student, pair.b.student} == {"student0", "student1"}
    (pair,) = pairs_of(checkpoint, src, every_swap_copy(src, seed))
    assert pair.score >= P.threshold


@pytest.mark.parametrize("checkpoint", CHECKPOINTS)
def test_a_copy_with_edits_of_its_own_is_reported(checkpoint: str) -> None:
    src = reference(checkpoint)
    (pair,) = pairs_of(checkpoint, src, disguise(src, seed=9, edits=2))
    assert pair.score >= P.threshold


def independent_pairs() -> list[tuple[str, str, str]]:
    """Honest kernels of one checkpoint written apart: the reference, the course's lab file
    and the security catalog (whose files are one template each, so only across those)."""
    out = []
    for ck in CHECKPOINTS:
        for a, b in itertools.combinations(honest_kernels(ck), 2):
            if a.split("/")[0] != b.split("/")[0]:
                out.append((ck, a, b))
    return out


@pytest.mark.parametrize(("checkpoint", "a", "b"), independent_pairs())
def test_independent_honest_kernels_are_not_reported(checkpoint: str, a: str, b: str) -> None:
    kernels = honest_kernels(checkpoint)
    assert pairs_of(checkpoint, kernels[a], kernels[b]) == []
    # and not once disguised either
    assert pairs_of(checkpoint, disguise(kernels[a], 1), disguise(kernels[b], 2)) == []


@pytest.mark.parametrize("checkpoint", CHECKPOINTS)
def test_the_starter_alone_submitted_by_many_is_never_a_pair(checkpoint: str) -> None:
    base = starter(checkpoint)
    sources = [base] * 5
    sources += [disguise(base, s, reordering=0.0) for s in range(10)]  # renamed, reformatted
    sources += [disguise(base, s) for s in range(10, 25)]  # and its lines swapped
    assert pairs_of(checkpoint, *sources) == []


def kernel_lines(source: str) -> list[str]:
    lines = source.splitlines()
    out = []
    for fn in ast.walk(ast.parse(source)):
        if isinstance(fn, ast.FunctionDef) and "jit" in ast.unparse(fn.decorator_list[0:1] or [fn]):
            for st in ast.walk(fn):
                if isinstance(st, ast.stmt) and st is not fn and st.lineno == st.end_lineno:
                    out.append(lines[st.lineno - 1].strip())
    return out


@pytest.mark.parametrize("checkpoint", CHECKPOINTS)
def test_the_starter_with_the_same_line_added_by_two_is_not_a_pair(checkpoint: str) -> None:
    base = starter(checkpoint)
    todo = next(ln for ln in base.splitlines() if "# Your code" in ln)
    indent = todo[: len(todo) - len(todo.lstrip())]
    lines = kernel_lines(reference(checkpoint))
    assert len(lines) >= 4
    for i, line in enumerate(lines):
        text = base.replace(todo, indent + line, 1)
        assert pairs_of(checkpoint, text, text) == [], line
        a, b = disguise(text, 2 * i, reordering=0.0), disguise(text, 2 * i + 1, reordering=0.0)
        assert pairs_of(checkpoint, a, b) == [], line


def test_a_student_is_never_paired_with_themself() -> None:
    src = reference("c3a-softmax")
    corpus = Corpus(starter=starter("c3a-softmax"))
    for i in range(4):
        corpus.add(f"s{i}", "alice", disguise(src, i))
    assert corpus.pairs() == []
    corpus.add("b0", "bob", src)
    assert {(p.a.student, p.b.student) for p in corpus.pairs()} == {("alice", "bob")}


def test_each_pair_of_students_keeps_their_most_alike_submissions() -> None:
    ck = "c3a-cross-entropy"
    full = reference(ck)
    corpus = Corpus(starter=starter(ck))
    corpus.add("a-starter", "alice", starter(ck))
    corpus.add("a-other", "alice", honest_kernels(ck)["honest/h3_ce_autotune_reset_atomic.py"])
    corpus.add("a-full", "alice", full)
    corpus.add("b-other", "bob", honest_kernels(ck)["honest/h_ce_host_mean.py"])
    corpus.add("b-copy", "bob", disguise(full, 5))
    (pair,) = corpus.pairs()
    assert {pair.a.submission, pair.b.submission} == {"a-full", "b-copy"}


def test_a_file_that_does_not_parse_is_reported_not_raised() -> None:
    ck = "c3a-softmax"
    bad = (ROOT / "tests" / "fixtures" / "submissions" / "syntax_error.py").read_text()
    corpus = Corpus(starter=starter(ck))
    assert corpus.add("bad", "carol", bad) is None
    corpus.add("r", "alice", reference(ck))
    corpus.add("c", "bob", disguise(reference(ck), 1))
    report = corpus.report()
    assert [(s.student, s.submission) for s in report.skipped] == [("carol", "bad")]
    assert "does not tokenize" in report.skipped[0].reason
    assert len(report.pairs) == 1 and report.submissions == 2


def test_the_shared_regions_point_at_the_copied_lines() -> None:
    """Alice's file: the RMSNorm reference, then the softmax reference's kernel. Bob's: the
    vector-add reference, then the same kernel (renamed): the region must be that kernel."""
    kernel = reference("c3a-softmax")
    kernel = kernel[kernel.index("@triton.jit") : kernel.index("def _launch_params")]
    alice_head = reference("c3a-rmsnorm")
    bob_head = reference("c3a-vector-add") + "\n\n"
    alice, bob = alice_head + "\n\n" + kernel, bob_head + disguise(kernel, 4, reordering=0.0)
    a_from = alice_head.count("\n") + 3
    b_from = bob_head.count("\n") + 1
    corpus = Corpus()
    corpus.add("a", "alice", alice)
    corpus.add("b", "bob", bob)
    (pair,) = corpus.pairs(threshold=0.0)
    big = max(pair.regions, key=lambda r: r.fingerprints)
    assert big.fingerprints >= 0.8 * pair.shared
    a_to, b_to = alice.count("\n"), bob.count("\n")
    # a k-gram may start up to k - 1 symbols before the block: `return y` ends both heads
    assert a_from - 3 <= big.a[0] and big.a[1] <= a_to, (big, a_from, a_to)
    assert b_from - 3 <= big.b[0] and big.b[1] <= b_to, (big, b_from, b_to)
    # and it spans most of the kernel on both sides, not a line of it
    assert big.a[1] - big.a[0] >= 0.6 * (a_to - a_from)
    assert big.b[1] - big.b[0] >= 0.6 * (b_to - b_from)


def test_a_starter_or_base_text_is_removed_before_comparing() -> None:
    ck = "c3a-rmsnorm"
    src = reference(ck)
    assert len(pairs_of(ck, src, disguise(src, 1))) == 1
    corpus = Corpus(starter=starter(ck), base=[src])
    corpus.add("a", "alice", src)
    corpus.add("b", "bob", disguise(src, 1, reordering=0.0))
    assert corpus.pairs() == []


def test_fingerprints_most_students_have_are_dropped() -> None:
    """Twelve students share an idiom (the softmax reference), each with host code of their
    own; s11 copies s10's file. Only those two are a pair, and only while the filter is on."""
    ck = "c3a-softmax"
    idiom = reference(ck)
    sources = {f"s{i}": disguise(idiom, i, habit=i, reordering=0.0) for i in range(12)}
    sources["s11"] = disguise(sources["s10"], 99, reordering=0.0)
    on = Corpus(starter=starter(ck))
    off = Corpus(starter=starter(ck), params=Params(common_share=1.0, common_floor=1000))
    for corpus in (on, off):
        for s, src in sources.items():
            corpus.add(s, s, src)
    report = on.report()
    assert report.common_fingerprints > 0
    assert [(p.a.student, p.b.student) for p in report.pairs] == [("s10", "s11")]
    assert len(off.pairs()) > 1
