"""An engine module that fails when imported, for the Home screen's test
(tests/ui/scenarios.py ``broken_engine_pick``): games still being written
must not stop the others."""

raise RuntimeError("a half-written engine")
