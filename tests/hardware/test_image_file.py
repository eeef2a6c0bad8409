"""Photo files as users hand them over: huge, tiny, bombs, truncated (real files, real decoder, real CLI)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import RecordError
from hardware.image_file import WORK_SIDE, image_size, read_image


def _png_claiming(path: Path, width: int, height: int) -> Path:
    """A small valid-looking PNG whose header declares width x height (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = zlib.compress(b"\x00" * (1 + 3 * min(width, 64)) * 64, 9)  # far less than the header promises
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
    return path


def _photo(path: Path, w: int = 640, h: int = 480) -> Path:
    rng = np.random.default_rng(3)
    cv2.imwrite(str(path), rng.integers(0, 255, (h, w, 3), dtype=np.uint8))
    return path


def test_a_decompression_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    bomb = _png_claiming(tmp_path / "bomb.png", 100_000, 100_000)
    assert bomb.stat().st_size < 2000
    with pytest.raises(RecordError, match=r"100000x100000 \(10000 MP\): expected a camera photo of at most 50 MP"):
        read_image(bomb)


def test_a_12000_square_image_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="12000x12000"):
        read_image(_png_claiming(tmp_path / "huge.png", 12000, 12000))


def test_a_one_pixel_image_is_refused(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    with pytest.raises(RecordError, match="1x1: expected at least 16x16"):
        read_image(tiny)


def test_a_truncated_jpeg_is_not_read_as_if_whole(tmp_path: Path) -> None:
    whole = _photo(tmp_path / "whole.jpg")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert cv2.imread(str(cut)) is not None  # OpenCV alone would hand back half a photo
    with pytest.raises(RecordError, match="JPEG is truncated"):
        read_image(cut)
    assert read_image(whole).shape == (480, 640, 3)


def test_a_truncated_png_and_garbage_are_refused(tmp_path: Path) -> None:
    whole = _photo(tmp_path / "whole.png")
    cut = tmp_path / "cut.png"
    cut.write_bytes(whole.read_bytes()[:-40])
    with pytest.raises(RecordError, match="PNG is truncated"):
        read_image(cut)
    junk = tmp_path / "notes.jpg"
    junk.write_text("not a photo")
    with pytest.raises(RecordError, match="not a PNG or JPEG"):
        read_image(junk)
    with pytest.raises(RecordError, match="directory"):
        read_image(tmp_path)
    # An iPhone's default format, which OpenCV cannot decode: said by name, with what to do.
    heic = tmp_path / "IMG_0001.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(4000))
    with pytest.raises(RecordError, match=r"a HEIC/AVIF photo: expected PNG or JPEG \(save it as JPEG"):
        read_image(heic)


def test_a_large_jpeg_is_decoded_reduced(tmp_path: Path) -> None:
    big = _photo(tmp_path / "big.jpg", 4000, 3000)
    assert image_size(big.read_bytes()) == ("JPEG", (4000, 3000))
    frame = read_image(big)
    assert frame.shape == (1500, 2000, 3) and max(frame.shape) >= WORK_SIDE


def test_the_cli_refuses_bad_photos_in_one_line(cli, tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    whole = _photo(tmp_path / "whole.jpg")
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole.read_bytes()[:5000])
    cases = {
        _png_claiming(tmp_path / "huge.png", 12000, 12000): "12000x12000",
        _png_claiming(tmp_path / "bomb.png", 60000, 60000): "60000x60000",
        tiny: "1x1",
        cut: "truncated",
    }
    for path, words in cases.items():
        r = cli("dice", "read", str(path), timeout=30)
        assert r.returncode == 1, r.stdout
        assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0, r.stderr
        assert str(path) in r.stderr and words in r.stderr
