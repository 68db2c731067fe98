from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from app.deps import SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import User
from app.responses import csv_download
from app.similarity import service
from app.similarity.schemas import HandoutIn, HandoutsOut, SimilarityOut

router = APIRouter(tags=["similarity"], responses=documented(401, 403, 404, 422, 503))


@router.get(
    "/api/similarity/{checkpoint}",
    response_model=SimilarityOut,
    summary="Pairs of students with alike submissions (instructors)",
)
def similarity(
    checkpoint: str, session: SessionDep, s: SettingsDep, _: User = Staff
) -> SimilarityOut:
    """For every two students, their most alike submissions to the checkpoint if they score
    at or above the threshold, best first, with the shared regions' lines on both sides; the
    starter's code and code most of the course shares never count (docs/SIMILARITY.md)."""
    return service.report(session, s, checkpoint)


@router.get(
    "/api/similarity/{checkpoint}/summary.csv",
    summary="The highest-scoring pairs of a checkpoint as CSV (instructors)",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "One line per pair."}},
)
def summary_csv(checkpoint: str, session: SessionDep, s: SettingsDep, _: User = Staff) -> Response:
    """The report's summary: every two students' most alike submissions, highest first, down
    to the summary's floor (below the threshold too, marked so), the starter and the
    handouts subtracted."""
    return csv_download(service.summary_csv(session, s, checkpoint), f"similarity-{checkpoint}.csv")


@router.get(
    "/api/similarity/{checkpoint}/handouts",
    response_model=HandoutsOut,
    summary="The handouts subtracted from a checkpoint's submissions (instructors)",
)
def handouts(checkpoint: str, s: SettingsDep, _: User = Staff) -> HandoutsOut:
    return HandoutsOut(checkpoint=checkpoint, handouts=service.handout_names(s, checkpoint))


@router.put(
    "/api/similarity/{checkpoint}/handouts/{name}",
    response_model=HandoutsOut,
    summary="Register a handout as base text of a checkpoint's report (instructors)",
)
def put_handout(
    checkpoint: str, name: str, body: HandoutIn, s: SettingsDep, _: User = Staff
) -> HandoutsOut:
    """The course's handout (a lab file, a tutorial's kernel): its code is removed from every
    submission before comparing, like the starter's, so a class that began from it is not
    paired by it."""
    names = service.put_handout(s, checkpoint, name, body.text)
    return HandoutsOut(checkpoint=checkpoint, handouts=names)


@router.delete(
    "/api/similarity/{checkpoint}/handouts/{name}",
    response_model=HandoutsOut,
    summary="Remove a handout from a checkpoint's base text (instructors)",
)
def remove_handout(checkpoint: str, name: str, s: SettingsDep, _: User = Staff) -> HandoutsOut:
    names = service.remove_handout(s, checkpoint, name)
    return HandoutsOut(checkpoint=checkpoint, handouts=names)
