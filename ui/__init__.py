"""The touchscreen app (Kivy).  ``ui.app.run(args)`` is the entry point.

Screens show the session's state and turn touches into events; they talk only
to :class:`companion.session.Session` and to sensors through one queue.
"""
