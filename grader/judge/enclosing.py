"""Which names each function of a submission sees from the functions around it (state.py's
rule that a closure keeps no state: an enclosing function's locals are held too), made in one
pass and shared, so that the check stays linear in the file however many functions it has."""

from __future__ import annotations

import ast

from grader.judge.defines import Defines, scope_names


def enclosing_names(d: Defines, parents: dict[int, ast.AST]) -> dict[int, frozenset[str]]:
    """Each function's (or lambda's) enclosing functions' own names, by id. One pass over
    the file in `d.nodes`' order (breadth first: a function before the ones inside it), each
    function's own names read once, and the set its nested functions see made once and shared
    by them all: linear in the file, however deep functions nest or however many siblings
    (11,000 lambdas in one function took the parent 45 s when each copied the set)."""
    own: dict[int, set[str]] = {}
    enclosing: dict[int, frozenset[str]] = {}
    inside: dict[int, frozenset[str]] = {}  # what the functions inside a function see
    for n in d.nodes:
        if not isinstance(n, ast.FunctionDef | ast.Lambda):
            continue
        body: list[ast.stmt] = n.body if isinstance(n, ast.FunctionDef) else [ast.Expr(n.body)]
        own[id(n)], _ = scope_names(body, n.args)
        p = parents.get(id(n))
        while p is not None and not isinstance(p, ast.FunctionDef | ast.Lambda):
            p = parents.get(id(p))
        if p is None:
            enclosing[id(n)] = frozenset()
        else:
            if id(p) not in inside:
                inside[id(p)] = enclosing[id(p)] | own[id(p)]
            enclosing[id(n)] = inside[id(p)]
    return enclosing


class Held:
    """Names a function's body may not change: the module's held ones and its enclosing
    functions' (two shared sets), minus its own: no copy of either per function."""

    def __init__(self, *layers: set[str] | frozenset[str], own: set[str]) -> None:
        self.layers, self.own = layers, own

    def __contains__(self, name: object) -> bool:
        return name not in self.own and any(name in layer for layer in self.layers)
