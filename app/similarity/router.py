from __future__ import annotations

from fastapi import APIRouter

from app.deps import SessionDep, SettingsDep, Staff
from app.errors import documented
from app.models import User
from app.similarity import service
from app.similarity.schemas import SimilarityOut

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
