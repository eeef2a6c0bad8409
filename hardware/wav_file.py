"""WAV files as recorders write them: PCM of 8 to 32 bits, IEEE float, WAVE_FORMAT_EXTENSIBLE.

Python 3.11's ``wave`` reads plain PCM only (format tag 1).  A 24-bit or 96 kHz WAV from ffmpeg or sox,
and many field recorders' files, carry the extensible tag (0xFFFE) with PCM inside; Audacity's and
numpy's float exports carry tag 3.  ``wave`` refused all of them ("unknown format: 65534"), so a
table's own recording of its whistles could not be checked with ``bellwether whistle detect``.  This
is the few lines of RIFF that Python 3.12's ``wave`` added for extensible PCM, plus float.

A recording cut short (a recorder unplugged, a stream never finalised) says its data chunk is longer
than the file, or 0 or 0xFFFFFFFF bytes long: the samples that are there are read.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

PCM, FLOAT, EXTENSIBLE = 1, 3, 0xFFFE
_NAMES = {2: "ADPCM", 6: "A-law", 7: "mu-law", 0x11: "IMA ADPCM", 0x55: "MP3"}
_MAGIC = {b"fLaC": "FLAC", b"OggS": "Ogg", b"ID3": "MP3", b"RF64": "RF64 (a WAV over 4 GB)"}
CONVERT = "convert it with: sox IN OUT.wav (or ffmpeg -i IN OUT.wav)"


class WavError(ValueError):
    """What is wrong with a file's RIFF structure, in words (the caller adds the path)."""


class WavReader:
    """``wave.Wave_read``'s reading half (the methods this package uses), for every PCM and float WAV."""

    def __init__(self, path: str | Path) -> None:
        self._file: BinaryIO = open(path, "rb")  # noqa: SIM115 (closed by close(), as wave.open's)
        try:
            self._read_header()
        except BaseException:
            self._file.close()
            raise

    def _read_header(self) -> None:
        f = self._file
        head = f.read(12)
        if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            kind = next((name for magic, name in _MAGIC.items() if head.startswith(magic)), None)
            raise WavError(f"{kind} file, not WAV: {CONVERT}" if kind else "file does not start with RIFF....WAVE")
        size = f.seek(0, 2)
        f.seek(12)
        fmt: bytes | None = None
        while True:
            chunk = f.read(8)
            if len(chunk) < 8:
                raise WavError("no data chunk" if fmt else "no fmt chunk")
            cid, length = struct.unpack("<4sI", chunk)
            if cid == b"fmt ":
                fmt = f.read(length)
                f.seek(length & 1, 1)
            elif cid == b"data":
                if fmt is None:
                    raise WavError("data chunk before the fmt chunk")
                break
            else:
                f.seek(length + (length & 1), 1)
        self._parse_fmt(fmt)
        self._start = f.tell()
        if length in (0, 0xFFFFFFFF) or self._start + length > size:
            length = size - self._start  # cut short or never finalised: what is there
        self._nframes = length // self._align
        self._pos = 0

    def _parse_fmt(self, fmt: bytes) -> None:
        if len(fmt) < 16:
            raise WavError(f"fmt chunk of {len(fmt)} bytes, expected at least 16")
        tag, self._channels, self._rate, _, self._align, bits = struct.unpack("<HHIIHH", fmt[:16])
        if tag == EXTENSIBLE:
            if len(fmt) < 40:
                raise WavError(f"extensible fmt chunk of {len(fmt)} bytes, expected 40")
            tag = struct.unpack("<H", fmt[24:26])[0]  # the sub-format GUID's first two bytes
        if tag not in (PCM, FLOAT):
            name = _NAMES.get(tag, f"format {tag}")
            raise WavError(f"{name} samples, expected PCM or IEEE float: {CONVERT}")
        if self._channels < 1:
            raise WavError(f"channels expected at least 1, got {self._channels}")
        # The container's width (the block over the channels): 24 valid bits in 32 are read as 32.
        self._width = self._align // self._channels if self._align % self._channels == 0 else 0
        widths = (1, 2, 3, 4) if tag == PCM else (4, 8)
        if self._width not in widths:
            expected = "8, 16, 24 or 32" if tag == PCM else "32 or 64"
            raise WavError(f"sample size expected {expected} bits, got {bits} (block of {self._align} bytes)")
        self.floating = tag == FLOAT

    def getnchannels(self) -> int:
        return self._channels

    def getframerate(self) -> int:
        return self._rate

    def getsampwidth(self) -> int:
        return self._width

    def getnframes(self) -> int:
        return self._nframes

    def readframes(self, n: int) -> bytes:
        n = max(0, min(n, self._nframes - self._pos))
        data = self._file.read(n * self._align)
        n = len(data) // self._align
        self._pos += n
        return data[: n * self._align]

    def rewind(self) -> None:
        self._file.seek(self._start)
        self._pos = 0

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> WavReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
