"""Reading a photo file safely: its size checked before it is decoded.

A photo of the dice tray comes from a camera: 640x480 to about 50 MP.  A file
outside that is refused with one line naming the file, before OpenCV spends
seconds and gigabytes on it:

- larger than ``MAX_PIXELS`` (a 12000 x 12000 scan, or a *decompression bomb*:
  a small PNG whose header declares a huge image): the size is read from the
  PNG or JPEG header, nothing is decoded;
- smaller than ``MIN_SIDE`` on a side (a 1x1 image shows no dice);
- a truncated JPEG (no end-of-image marker: OpenCV would decode the part that
  is there and grey out the rest, read as if whole) or PNG (no ``IEND`` chunk);
- not an image, a directory, unreadable.

Large photos are decoded already reduced where the format allows (JPEG's
1/2, 1/4, 1/8 decoding), so that their long side stays at least
``WORK_SIDE``: a 12 MP phone photo is decoded at 2000 x 1500, in a fraction
of the time, and no reader needs more.  ``read_image`` returns BGR uint8.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from companion.errors import RecordError

MAX_PIXELS = 50_000_000  # a 50 MP camera's photo; a larger file is no camera frame
MIN_SIDE = 16
WORK_SIDE = 1600  # large photos are decoded (or scaled) down to no less than this long side


def _png_size(head: bytes) -> tuple[int, int] | None:
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
        w, h = struct.unpack(">II", head[16:24])
        return w, h
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        i += 2 + length
    return None


def image_size(data: bytes) -> tuple[str, tuple[int, int] | None]:
    """(format, (width, height) from the header or None) of an encoded image."""
    png = _png_size(data[:24])
    if png is not None:
        return "PNG", png
    if data[:2] == b"\xff\xd8":
        return "JPEG", _jpeg_size(data)
    return "other", None


def _refuse(path: Path, reason: str) -> RecordError:
    return RecordError(str(path), 0, reason)


def read_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """The photo at ``path`` (BGR uint8), checked, and reduced if very large."""
    import cv2

    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise _refuse(path, "cannot read the image: it is a directory") from None
    except OSError as e:
        raise _refuse(path, f"cannot read the image ({e.strerror or e})") from None
    kind, size = image_size(data)
    if size is not None:
        w, h = size
        if w * h > max_pixels:
            raise _refuse(
                path,
                f"the image is {w}x{h} ({w * h / 1e6:.0f} MP): expected a camera photo of at most "
                f"{max_pixels / 1e6:.0f} MP (scale it down first)",
            )
        if min(w, h) < MIN_SIDE:
            raise _refuse(path, f"the image is {w}x{h}: expected at least {MIN_SIDE}x{MIN_SIDE} pixels to show dice")
    if kind == "JPEG" and data.rstrip(b"\x00\r\n ")[-2:] != b"\xff\xd9":
        raise _refuse(path, "the JPEG is truncated (no end-of-image marker): copy the photo again")
    if kind == "PNG" and b"IEND" not in data[-16:]:
        raise _refuse(path, "the PNG is truncated (no IEND chunk): copy the photo again")
    flags = cv2.IMREAD_COLOR
    if kind == "JPEG" and size is not None:
        for factor, flag in ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4), (2, cv2.IMREAD_REDUCED_COLOR_2)):
            if max(size) // factor >= WORK_SIDE:
                flags = flag
                break
    buffer = np.frombuffer(data, np.uint8)
    try:
        frame = cv2.imdecode(buffer, flags)
    except cv2.error:
        frame = None
    if frame is None:
        if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"avif", b"hevc"):
            # An iPhone's default (HEIC): OpenCV builds carry no HEIF decoder.
            raise _refuse(path, "a HEIC/AVIF photo: expected PNG or JPEG (save it as JPEG, or set the camera to "
                                "'Most Compatible')")
        raise _refuse(path, "cannot read the image (not a PNG or JPEG photo, or damaged)")
    h, w = frame.shape[:2]
    if size is None and (h * w > max_pixels or min(h, w) < MIN_SIDE):
        raise _refuse(path, f"the image is {w}x{h}: expected {MIN_SIDE}x{MIN_SIDE} to {max_pixels / 1e6:.0f} MP")
    if max(h, w) > 2 * WORK_SIDE:
        f = 2 * WORK_SIDE / max(h, w)
        frame = cv2.resize(frame, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return frame
