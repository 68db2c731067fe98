"""The one settings object, shared by the CLI, the web app and the workers (prefix KGRADE_)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KGRADE_", extra="ignore")

    home: Path = Path(".kgrade")
    # Service. Unset URLs mean the embedded default: SQLite and a SQLite-backed broker in home.
    database_url: str | None = None
    redis_url: str | None = None
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    # GPU models this deployment has workers for (comma-separated, e.g. "h200,rtx5090");
    # correct prechecks are routed to the queue gpu.<model> of a checkpoint target among them.
    gpu_models: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Reliability: a claimed grading holds a lease, renewed by a heartbeat from a thread of the
    # worker every heartbeat_every seconds (a quarter of the lease: three beats in a row may
    # fail before it runs out, e.g. while PostgreSQL restarts); an expired lease is re-queued by
    # the reconciler, at most max_attempts times, then internal_error. A grading whose worker
    # died is so sent again within lease + reconcile seconds (at most 55 s by default), and
    # only the holder of the lease may write a result (a late finisher's is dropped).
    lease_seconds: int = Field(45, ge=30)
    max_attempts: int = Field(3, ge=1)
    # How often the reconciler (Celery beat, one per deployment) looks for such rows.
    reconcile_seconds: float = Field(10.0, ge=1)
    # Signs the browser's session cookie; unset: generated once into home/secret_key.
    secret_key: str | None = None
    # The CLI's client commands (submit, status, …) talk to this server with this token
    # (unset: this host's, on `port`).
    url: str = "http://127.0.0.1:8000"
    token: str | None = None
    # Accounts. An invite link (from a roster import or a reset) sets a password once, within
    # this many hours; links name this address (unset: KGRADE_URL; the pages: the request's).
    invite_hours: float = Field(168.0, gt=0)
    public_url: str | None = None
    # Failed password sign-ins allowed within the window, per account and per client address,
    # before sign-in is refused until the oldest of them leaves the window.
    signin_failures_per_account: int = Field(5, ge=1)
    signin_failures_per_address: int = Field(30, ge=1)
    signin_window_minutes: float = Field(15.0, gt=0)
    # The reverse proxies (addresses or CIDR networks, comma-separated; "*": any) whose
    # X-Forwarded-For / X-Forwarded-Proto the API believes (uvicorn's forwarded_allow_ips).
    # Empty (the default): none, not even a local peer; the client is the TCP peer. Behind
    # nginx or a load balancer, name it here, or every student shares its address (the
    # per-address sign-in limit would lock out the class) (docs/DEPLOY.md).
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # The session cookie's Secure flag. Unset: on when the request came over HTTPS (from a
    # trusted proxy's X-Forwarded-Proto) or the API listens beyond loopback (KGRADE_HOST);
    # browsers keep Secure cookies on http://localhost too.
    secure_cookies: bool | None = None
    # /metrics (Prometheus): with a token, only a scrape that sends it (`Authorization: Bearer
    # <token>`); without one, only clients on this host's loopback (docs/DEPLOY.md).
    metrics_token: str | None = None
    # Admission.
    submissions_per_hour: int = Field(30, ge=1, description="per student and checkpoint")
    # Grading limits (per submission).
    time_limit_cpu: float = Field(60.0, gt=0, description="seconds, interpreter grading")
    time_limit_gpu: float = Field(300.0, gt=0, description="seconds, GPU grading")
    memory_limit_gib: float = Field(8.0, gt=0, description="host memory of the sandbox tree")
    max_processes: int = Field(256, ge=16)
    output_limit_kib: int = Field(64, ge=1, description="captured stdout/stderr kept")
    # Nsight Compute on GPU workers. Off: no profile, so no level 3 (the grade says why); for
    # a worker whose ncu cannot read counters, or to measure the rest of the pipeline alone.
    # "explained": only for submissions that carry an explanation, the only ones that can
    # reach level 3 (the others' GPU gradings are shorter, e.g. near a deadline: what it saves
    # is in docs/PERFORMANCE.md, section 4).
    gpu_profile: bool | Literal["explained"] = True
    # GPU workers: check the outputs on the GPU after the sandboxed child has exited, instead
    # of on the CPU as they stream in (off: it was no faster on H200s; docs/PERFORMANCE.md, 4).
    check_on_gpu: bool = False
    # CPU precheck workers start under `nice -n` this much (0: not at all), inherited by their
    # pool and sandboxes, so that where they share a host with GPU workers the grading that
    # holds a GPU gets the CPU first. Niceness orders processes within one scheduling group:
    # not across containers (docker-compose.yml sets cpu_shares for that), nor, where the
    # kernel's autogroup is on, against a sandbox's own session.
    precheck_nice: int = Field(10, ge=0, le=19)
    # CPU precheck workers' torch threads (OMP_NUM_THREADS; 0: torch's default, every core).
    # A precheck's own tensors are small; workers that each start a thread per core make the
    # host's cores spin against each other: with one thread each, prechecks side by side draw
    # their inputs ten times faster and the batch is as fast (docs/PERFORMANCE.md, section 3;
    # not yet measured on the GPU host).
    precheck_threads: int = Field(1, ge=0)
    # A precheck worker keeps one sandboxed child started (Python, torch and Triton imported,
    # waiting for a job) for its next precheck, and starts the next while it grades: the start
    # is most of a precheck's time, so one worker drains about twice as many. Each submission
    # still gets a fresh process. A busy worker then uses about two cores, and an idle one
    # keeps a process of its own (docs/PERFORMANCE.md, section 3). Off by default for now: in
    # one CI run of the 40-submission burst test (two workers with spares) one submission came
    # out internal_error, not yet explained.
    precheck_spare: bool = False
    # Extra folders of checkpoints (colon-separated), besides the built-in ones.
    checkpoint_dirs: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    # Tests only: GPU names (comma-separated) that `kgrade worker --gpu all` starts one worker
    # for each, pinned to CUDA_VISIBLE_DEVICES=<its index>, instead of asking CUDA: so that the
    # per-GPU workers and their supervision are tested on a machine without a GPU; a worker
    # with it set grades the GPU stage on the CPU (the interpreter), as the precheck does.
    test_gpus: Annotated[list[str], NoDecode] = Field(default_factory=list)

    @field_validator("checkpoint_dirs", mode="before")
    @classmethod
    def _split(cls, v: object) -> object:
        if isinstance(v, str):
            return [p for p in v.split(":") if p]
        return v

    @field_validator("gpu_models", "test_gpus", "trusted_proxies", mode="before")
    @classmethod
    def _split_models(cls, v: object) -> object:
        if isinstance(v, str):
            return [p.strip() for p in v.split(",") if p.strip()]
        return v

    @model_validator(mode="after")
    def _url_on_port(self) -> Settings:
        """KGRADE_URL unset: this host's server, on KGRADE_PORT (the CLI's invite links and
        client commands named port 8000 whatever the port was)."""
        if "url" not in self.model_fields_set:
            self.url = f"http://127.0.0.1:{self.port}"
        return self

    @property
    def all_checkpoint_dirs(self) -> list[Path]:
        """Checkpoints added with `kgrade checkpoints add` live in home/checkpoints."""
        return [*self.checkpoint_dirs, self.home / "checkpoints"]

    @property
    def db_url(self) -> str:
        return self.database_url or f"sqlite:///{self.home.resolve()}/kgrade.db"

    @property
    def broker_url(self) -> str:
        return self.redis_url or f"sqla+sqlite:///{self.home.resolve()}/broker.db"

    @property
    def embedded(self) -> bool:
        return self.database_url is None and self.redis_url is None

    @property
    def heartbeat_every(self) -> float:
        """Seconds between two renewals of a held lease."""
        return self.lease_seconds / 4

    @property
    def hard_time_limit(self) -> float:
        """Seconds one task may take: interpreter + GPU grading + Nsight, with margin."""
        return self.time_limit_cpu + 3 * self.time_limit_gpu + 120


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()  # type: ignore[call-arg]  # values come from the environment
