#!/usr/bin/env bash
# Install the Debian / Raspberry Pi OS packages Bellwether needs, only those missing.
#   python3-venv python3-dev gcc   the virtual environment, and building PyAudio
#   portaudio19-dev                 PyAudio's headers (libportaudio2 comes with it)
#   libgl1 libgl1-mesa-dri libegl1 libmtdev1   what Kivy's SDL2 window needs at run time
#   xvfb xauth x11-utils            a virtual screen for the UI tests on a headless machine (xwininfo sees the window)
#   espeak-ng sox                   spoken prompts; test audio (speech, resampling)
set -euo pipefail

packages=(python3-venv python3-dev gcc portaudio19-dev libgl1 libgl1-mesa-dri libegl1 libmtdev1
          xvfb xauth x11-utils espeak-ng sox)

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "system-packages: not a Debian-like system; install the equivalents of: ${packages[*]}" >&2
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "system-packages: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
