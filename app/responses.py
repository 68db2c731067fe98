"""Responses the API and the pages share."""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi.responses import Response


def attachment(filename: str) -> str:
    """A Content-Disposition header for any name: headers are Latin-1, and a quote would end
    the parameter, so an ASCII fallback plus the exact name in RFC 5987 form."""
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


def csv_download(text: str, filename: str) -> Response:
    return Response(
        text, media_type="text/csv", headers={"Content-Disposition": attachment(filename)}
    )
