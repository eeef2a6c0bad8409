"""Child process for the crash test: appends entries until it is killed.

Op k of the endless script is an undo when k % 5 == 4, else a roll of
(k % 6) + 1.  Before each op it prints ``send k``, after the session returns
(the commit is on disk) ``ack k``.
"""

from __future__ import annotations

import sys

from companion.events import Event
from companion.session import Session
from companion.store import Store
from companion.testing import register


def op(session: Session, k: int) -> None:
    if k % 5 == 4 and session.can_undo:
        session.undo()
    else:
        session.apply(Event("roll", {"die": "d6", "faces": [k % 6 + 1]}, time=float(k)))


def main() -> None:
    register()
    store = Store(sys.argv[1])
    session = Session.resume(store, int(sys.argv[2]))
    k = len(session.log)
    print("ready", flush=True)
    while True:
        print(f"send {k}", flush=True)
        op(session, k)
        print(f"ack {k}", flush=True)
        k += 1


if __name__ == "__main__":
    main()
