"""A form's fields checked by the API's own request model (app/<domain>/schemas.py), so that
a page accepts exactly what the JSON API accepts: the same bounds, the same 422 and its words,
and nothing stored on a refusal. The services check their rules again behind both."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.errors import ApiError

M = TypeVar("M", bound=BaseModel)


def said(exc: ValidationError) -> str:
    """The first problem, as the API's 422 says it: `field: message`."""
    errors = exc.errors()
    if not errors:
        return "invalid"
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"] if p != "body")
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def validated(model: type[M], **fields: Any) -> M:
    """`model` from the form's fields, or a 422 (the error page) naming the field."""
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise ApiError(422, said(exc)) from exc
