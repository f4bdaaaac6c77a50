"""The memory page: where people see, correct and delete what memlane remembers about them.

Served by ``memlane serve`` at ``/`` (docs/web.md). Two ways in: a signed, expiring, revocable link
to one user's memory (:mod:`~memlane.service.web.links`), or staff signing in with an API key of
their tenant. Either opens a page session in a cookie (:mod:`~memlane.service.web.access`); the
page then calls the ordinary ``/v1`` routes with it (:mod:`~memlane.service.web.guard` keeps a
user's session to that user), so every action goes through the public API and its audit log.
The page itself is plain HTML, CSS and JavaScript in ``static/`` (:mod:`~memlane.service.web.page`).
"""
