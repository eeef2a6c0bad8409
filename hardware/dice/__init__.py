"""Reading physical dice from camera frames.

- ``pips``: pip dice (count the dark round pips of each die's top face);
- ``colour``: colour and symbol dice (classify the top face against calibrated samples);
- ``settle``: when a roll has come to rest, and reporting each resting roll once;
- ``sensor``: ``DiceSensor``, the camera-to-``roll``-event sensor;
- ``evaluation``: the manifest evaluation behind ``bellwether dice eval``.
"""

from .model import DieReading

__all__ = ["DieReading"]
