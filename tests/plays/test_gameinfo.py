"""Each game's package data: its BoardGameGeek id and whether it is cooperative."""

from __future__ import annotations

import pytest

from companion import gameinfo, registry
from companion.errors import ConfigError

# Confirmed from public pages that link the BGG entry (see docs/plays.md); the
# others are left empty rather than guessed.
BGG = {"shear-panic": 18866, "battle-sheep": 54137, "fleeced": None, "sheep-hop": None, "pendleton-hill": None}


@pytest.mark.parametrize("name", list(registry.BUILTIN))
def test_every_game_carries_its_bgg_id_and_cooperative_flag(name):
    info = registry.info(name)
    assert info.bgg_id == BGG[name]
    assert info.cooperative is (name == "sheep-hop")
    assert registry.get(name).cooperative is info.cooperative
    assert registry.get(name).info == info


def test_a_game_without_package_data_is_competitive_with_no_id():
    from companion import testing

    testing.register()
    assert registry.info("tally") == gameinfo.GameInfo(None, False)


def test_a_bad_meta_file_names_its_key(tmp_path, monkeypatch):
    pkg = tmp_path / "oddgame"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "meta.toml").write_text('bgg_id = "twelve"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError, match=r"meta.toml: bgg_id: expected a whole number >= 1, got 'twelve'"):
        gameinfo.for_module("oddgame")
