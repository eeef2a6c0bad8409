"""The face classifier's training in benchmarks/dice_train.py, session 12's options (measured in
docs/dice.md, off by default): the extra renders' share of a batch (the former draws exactly at 0) and the blur augmentation."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from hardware.dice import labelled
from hardware.dice.net import crop_die
from hardware.image_file import read_image

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dice_train
from dice_train import degrade, face_batch

GROUPS = {"webcam-train": [0, 1, 2], "fisheye-tray": [3, 4], "synthetic": [5, 6, 7, 8]}
RENDERS = np.array([100, 101, 102])


def former_draws(rng: np.random.Generator, groups: dict[str, list[int]]) -> list[int]:
    """The batch as the recipe drew it before session 12 (each crop: a group with equal weight, then a crop)."""
    names = sorted(groups)
    return [groups[n][int(rng.integers(len(groups[n])))] for n in (names[int(rng.integers(len(names)))] for _ in range(64))]


def test_without_a_share_the_batches_are_the_former_recipes() -> None:
    a, b = np.random.default_rng(16), np.random.default_rng(16)
    for _ in range(5):
        assert face_batch(a, GROUPS, RENDERS, 0.0) == former_draws(b, GROUPS)
    assert a.random() == b.random()  # the same random numbers used, so the rest of training is unchanged


def test_the_share_of_a_batch_drawn_from_the_renders() -> None:
    rng = np.random.default_rng(3)
    ks = np.concatenate([face_batch(rng, GROUPS, RENDERS, 0.25) for _ in range(200)])
    share = np.isin(ks, RENDERS).mean()
    assert 0.22 < share < 0.28
    others = ks[~np.isin(ks, RENDERS)]
    for g in GROUPS.values():  # the rest: each group with equal weight
        assert abs(np.isin(others, g).mean() - 1 / 3) < 0.04


def test_no_renders_to_draw_gives_the_groups_only() -> None:
    """A fold holding out the synthetic group has no extra renders: the share draws nothing from them."""
    ks = face_batch(np.random.default_rng(1), GROUPS, np.array([], int), 0.25)
    assert len(ks) == 64 and all(k < 100 for k in ks)


def test_the_blur_augmentation_softens_a_real_die_and_keeps_its_light(shared_data: Path) -> None:
    """``--face-blur`` (session 12, off by default): a real webcam die's crop, as the reader cuts it, loses
    sharpness under ``degrade`` but keeps its size and mean light."""
    item = next(i for i in labelled.webcam(shared_data / "dice" / "webcam-train") if len(i.dice) == 1)
    d = item.dice[0]
    crop = crop_die(cv2.cvtColor(read_image(item.path), cv2.COLOR_BGR2GRAY), d.x, d.y, d.size)
    sharp = cv2.Laplacian(crop, cv2.CV_32F).var()
    softer = 0
    for seed in range(40):
        out = degrade(np.random.default_rng(seed), crop)
        assert out.shape == crop.shape and out.dtype == np.float32
        assert abs(float(out.mean()) - float(crop.mean())) < 3
        softer += cv2.Laplacian(out, cv2.CV_32F).var() < 0.8 * sharp
    assert 12 <= softer <= 32  # about 1 - 0.75 ** 2 = 0.44 of the crops blurred or coarsened


def test_the_render_view_is_opt_in(tmp_path: Path, monkeypatch) -> None:
    """``--face-render-view`` (session 13): orthographic, the default, renders as before into the former
    cache; perspective draws the tilted dice by the pinhole camera, into a cache of its own; ghost (session 22)
    the orthographic dice with ghost pips and large swirls, into a cache of its own (v2)."""
    seen = []

    def items(n: int, seed: int, size: int = 320, tilted: float = 0.0, perspective: bool = False, ghost: bool = False):
        seen.append((n, seed, tilted, perspective, ghost))
        die = labelled.LabelledDie(60.0, 60.0, 30.0, 3)
        return [(np.full((120, 120, 3), 128, np.uint8), labelled.Labelled(Path("synthetic/x.png"), labelled.SYNTHETIC, "synthetic/x", (die,)))]

    assert dice_train.FACE_RENDER_VIEWS["orthographic"] == dice_train.FACE_CACHE
    assert dice_train.FACE_RENDER_VIEWS["ghost"].name == "dice-face-renders-v2.npz"
    assert len(set(dice_train.FACE_RENDER_VIEWS.values())) == len(dice_train.FACE_RENDER_VIEWS)
    monkeypatch.setattr(dice_train, "synthetic_items", items)
    monkeypatch.setattr(dice_train, "FACE_RENDER_VIEWS", {"orthographic": tmp_path / "o.npz", "perspective": tmp_path / "p.npz",
                                                          "ghost": tmp_path / "g.npz"})
    a = dice_train.face_render_crops((1, 2, 0.7))
    b = dice_train.face_render_crops((1, 2, 0.7), "perspective")
    c = dice_train.face_render_crops((1, 2, 0.7), "ghost")
    assert seen == [(1, 2, 0.7, False, False), (1, 2, 0.7, True, False), (1, 2, 0.7, False, True)]
    assert (tmp_path / "o.npz").is_file() and (tmp_path / "p.npz").is_file() and (tmp_path / "g.npz").is_file()
    assert a["values"].tolist()[0] == 3 and b["values"].tolist()[0] == 3 and c["values"].tolist()[0] == 3


def test_the_stored_crops_are_finer_for_a_finer_classifier_crop() -> None:
    """Session 16: a 48 px classifier is trained on crops stored at 96 px (the 32 px crop's ratio), cached
    in a file of their own; at 32 px the former cache and its 64 px crops are used as they were."""
    assert dice_train.store_side(32) == dice_train.STORE == 64 and dice_train.store_side(48) == 96
    assert dice_train.crops_cache(64) == dice_train.CACHE
    assert dice_train.crops_cache(96) != dice_train.CACHE and dice_train.crops_cache(96).parent == dice_train.CACHE.parent
    frame = np.random.default_rng(0).integers(0, 255, (240, 320), np.uint8)
    stored = dice_train._store_crop(frame, 150.0, 100.0, 40.0, dice_train.store_side(48))
    assert stored.shape == (96, 96)
    former = dice_train._store_crop(frame, 150.0, 100.0, 40.0)
    assert former.shape == (64, 64)
    # the same place either way: the finer crop brought down to 64 px is the former one, within resampling
    assert np.abs(cv2.resize(stored, (64, 64), interpolation=cv2.INTER_AREA).astype(int) - former).mean() < 40


def test_a_48_px_batch_has_the_classifiers_shape() -> None:
    """``face_sample`` follows the stored crop's own side: a 96 px stored crop read at 48 px, and the batch
    normalised as the reader normalises (N x 1 x 48 x 48)."""
    from hardware.dice.net import normalise_crops

    rng = np.random.default_rng(1)
    stored = np.random.default_rng(2).integers(0, 255, (96, 96), np.uint8)
    batch = normalise_crops(np.stack([dice_train.face_sample(rng, stored, None, 48) for _ in range(8)]))
    assert batch.shape == (8, 1, 48, 48)


def test_finer_crops_replace_the_caches_and_must_match_its_rows(tmp_path: Path, monkeypatch) -> None:
    """The finer crops are built once into their own file, and refused when their rows are not the training
    cache's (the cache was rebuilt since); at ``STORE`` the data is returned untouched."""
    import pytest

    data = {"crops_grey": np.zeros((2, 64, 64), np.uint8), "crop_meta": np.array([[0, 3], [0, 0]])}
    assert dice_train.finer_crops(data, tmp_path, 64, tmp_path / "c.npz") is data
    built = []

    def build(_shared: Path, store: int) -> dict[str, np.ndarray]:
        built.append(store)
        return {"crops": np.zeros((2, store, store, 3), np.uint8), "crops_grey": np.zeros((2, store, store), np.uint8),
                "crop_meta": np.array([[0, 3], [0, 0]])}

    monkeypatch.setattr(dice_train, "build_crops", build)
    finer = dice_train.finer_crops(data, tmp_path, 96, tmp_path / "c.npz")
    assert finer["crops_grey"].shape == (2, 96, 96) and (tmp_path / "c-crops96.npz").is_file()
    dice_train.finer_crops(data, tmp_path, 96, tmp_path / "c.npz")
    assert built == [96]  # read from its file the second time
    with pytest.raises(SystemExit, match="does not hold"):
        dice_train.finer_crops({**data, "crop_meta": np.array([[0, 3]])}, tmp_path, 96, tmp_path / "c.npz")


def test_the_face_style_is_opt_in_and_changes_the_crops() -> None:
    """``--face-style`` (session 21, off by default): "none" draws the very crops and random numbers of the former
    recipe, whatever the share; each style changes every crop it is given (``restyle``), keeping its shape."""
    stored = np.random.default_rng(2).integers(0, 255, (64, 64), np.uint8)
    a, b = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(5):
        assert np.array_equal(dice_train.face_sample(a, stored), dice_train.face_sample(b, stored, style="none", style_share=1.0))
    assert a.random() == b.random()
    p = dice_train.face_sample(np.random.default_rng(1), stored).astype(np.float32)
    for style in ("randconv", "curve", "both"):
        rng = np.random.default_rng(7)
        for _ in range(5):
            after = dice_train.restyle(rng, p, style)
            assert after.shape == p.shape and after.dtype == np.float32
            assert np.abs(after - p).mean() > 0.5
        assert dice_train.face_sample(np.random.default_rng(7), stored, style=style, style_share=1.0).shape == (32, 32)


def test_the_styles_keep_the_crops_levels_and_layout() -> None:
    """A random convolution keeps the crop's mean light; a monotone rising tone curve keeps the order of its
    pixels (its layout), within the crop's own range."""
    p = np.random.default_rng(3).uniform(40, 200, (32, 32)).astype(np.float32)
    for seed in range(20):
        out = dice_train.random_convolution(np.random.default_rng(seed), p)
        assert out.shape == p.shape and abs(float(out.mean()) - float(p.mean())) < 1
        curved = dice_train.tone_curve(np.random.default_rng(seed), p)
        assert p.min() - 1e-3 <= curved.min() and curved.max() <= p.max() + 1e-3
    flat = np.full((32, 32), 90, np.float32)
    assert np.array_equal(dice_train.random_convolution(np.random.default_rng(0), flat), flat)
    assert np.array_equal(dice_train.tone_curve(np.random.default_rng(0), flat), flat)
