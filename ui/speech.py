"""Spoken prompts through espeak-ng, when the system has it.

The speaker runs in its own process so the screen never waits for speech;
a new prompt interrupts the one still being spoken.
"""

from __future__ import annotations

import shutil
import subprocess


class Speaker:
    def __init__(self, program: str = "espeak-ng") -> None:
        self.path = shutil.which(program) or shutil.which("espeak")
        self._proc: subprocess.Popen[bytes] | None = None
        self.last: str | None = None

    @property
    def available(self) -> bool:
        return self.path is not None

    @property
    def reason(self) -> str:
        return f"using {self.path}" if self.path else "espeak-ng is not installed"

    def say(self, text: str) -> bool:
        if not self.path or not text:
            return False
        self.stop()
        self.last = text
        self._proc = subprocess.Popen(
            [self.path, "-s", "150", "--", text], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        return True

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
        self._proc = None
