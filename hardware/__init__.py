"""Devices to events: microphone, camera, GPIO buttons.

Each sensor runs its device work in a worker thread and puts
``companion.events.Event`` objects and ``SensorStatus`` changes on a queue that
the UI drains on its clock.  Every device sits on an injectable backend chosen
by configuration or an environment variable (like gpiozero's pin factories),
with fake backends shipped in ``hardware.testing``.
"""
