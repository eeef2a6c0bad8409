"""Whistle sensing: the streaming detector, per-whistle signatures and the sensor."""
