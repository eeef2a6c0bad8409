"""The pure core of Bellwether: rules, state, events, the session and its store.

Nothing here imports Kivy, a device library, or anything from ``hardware``/``ui``.
"""
