"""Fake device backends shipped in the package (like gpiozero's ``pins/mock.py``).

``hardware.testing.audio`` holds fake microphones, ``hardware.testing.camera``
fake cameras; tests and the app's demo mode use them instead of devices.
"""
