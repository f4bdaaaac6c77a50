"""The REST service: FastAPI app, API keys, tenants, the job queue and its workers."""
