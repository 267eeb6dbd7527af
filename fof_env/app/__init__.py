"""The application shell: terminal play (``fof play``), the engine protocol on stdio
(``fof engine``) and the WebSocket server with the browser board (``fof serve``).

The only place in ``fof_env`` that may import ``agents``, ``training`` or ``evaluation``.
Every front end renders views (:mod:`fof_env.core.view`), never states.
"""
