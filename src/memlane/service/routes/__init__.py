"""The ``/v1`` routes, one module per area; each route is one call into the tenant's ``Memory``."""
