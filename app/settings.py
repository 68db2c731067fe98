"""The one settings object, shared by the CLI, the web app and the workers (prefix KGRADE_)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KGRADE_", extra="ignore")

    home: Path = Path(".kgrade")
    # Grading limits (per submission).
    time_limit_cpu: float = Field(60.0, gt=0, description="seconds, interpreter grading")
    time_limit_gpu: float = Field(300.0, gt=0, description="seconds, GPU grading")
    memory_limit_gib: float = Field(8.0, gt=0, description="host memory of the sandbox tree")
    max_processes: int = Field(256, ge=16)
    output_limit_kib: int = Field(64, ge=1, description="captured stdout/stderr kept")
    # Extra folders of checkpoints (colon-separated), besides the built-in ones.
    checkpoint_dirs: Annotated[list[Path], NoDecode] = Field(default_factory=list)

    @field_validator("checkpoint_dirs", mode="before")
    @classmethod
    def _split(cls, v: object) -> object:
        if isinstance(v, str):
            return [p for p in v.split(":") if p]
        return v


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()  # type: ignore[call-arg]  # values come from the environment
