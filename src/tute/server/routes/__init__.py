"""The site's HTTP routes and sockets, a module per domain, over the services of
:class:`~tute.server.routes.common.Site`; a refusal is raised as a
:class:`~tute.core.errors.TuteError` and answered by the one handler,
:func:`~tute.server.routes.common.refused`."""
