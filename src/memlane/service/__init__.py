"""The REST service: FastAPI app, API keys, tenants, the job queue and its workers."""

from memlane.extras import require

require("server", "the REST service (memlane serve, worker, keys, link)")
