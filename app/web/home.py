"""The page a signed-in user lands on: per checkpoint (the open ones, then closed ones with
their submissions), the statement, the due time where there is one, their best level and
speedup, the next step (the best result's own reasons), and their history: each submission in
order, with the GPU-graded ones placed on the bandwidth roofline."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.checkpoints import service as checkpoints
from app.deps import SessionDep
from app.settings import get_settings
from app.submissions import progress, results
from app.web import plots
from app.web.auth import NotSignedIn, signed_in
from app.web.templating import page

router = APIRouter(include_in_schema=False)


def _figures(p: progress.Progress) -> dict[str, Any]:
    cid = p.checkpoint.id
    climbs = [
        plots.climb(
            [(pt.version, pt.gbps, pt.level) for pt in c.points],
            c.ceiling_gbps,
            c.baselines_gbps,
            f"{cid} on the roofline · {c.gpu} · {c.shape}",
        )
        for c in p.climbs
    ]
    graded = [(p.versions[s.id], s.level) for s in p.history if s.level is not None]
    level_plot = plots.levels(graded, f"{cid}: level by version") if len(graded) > 1 else None
    on_gpu = {pt.submission_id for c in p.climbs for pt in c.points}
    return {"climbs": climbs, "levels": level_plot, "off_roofline": len(p.history) - len(on_gpu)}


@router.get("/")
def home(request: Request, db: SessionDep) -> Response:
    try:
        user, data = signed_in(request, db)
    except NotSignedIn:
        return RedirectResponse("/signin", 303)
    cards = progress.home(db, user, checkpoints.listed(get_settings()))
    changed = results.in_force_by_id(db, [p.best.id for p in cards if p.best])
    return page(
        request,
        "home.html",
        user=user,
        csrf=data["csrf"],
        cards=[(p, _figures(p)) for p in cards],
        changed=changed,  # the override in force on each best, with the grader's level
    )
