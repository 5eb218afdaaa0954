"""One kernel shared by threads (issue 21 item 4): no crash, every call acknowledged once, seq dense,
the journal verifies. The threads run in a child process, so that a crash (the SIGSEGV a shared SQLite
connection used to give) fails the test instead of ending the test run."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

THREADS = 8
CALLS = 1_000

_WORKER = textwrap.dedent(
    """
    import json, sys, threading
    from syscalls.boot import open_kernel
    from kernel.services import default_services

    path, threads, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    kernel = open_kernel(path, services=default_services(), create=True)
    kernel.call("memory.awmu.create", {"context_id": "shared"}, principal="operator:t")
    seqs, failures = [], []
    lock = threading.Lock()

    def work(number):
        user = f"u{number}"
        for index in range(calls):
            kind = index % 5
            if kind == 0:
                args = {"user_id": user, "key": f"k{index}", "memory_type": "preference",
                        "source": "explicit_user"}
                result = kernel.call("memory.write", args, principal=f"user:{user}")
            elif kind == 1:
                result = kernel.call("memory.get", {"user_id": user, "key": f"k{index - 1}"},
                                     principal=f"user:{user}")
            elif kind == 2:
                result = kernel.call("memory.list", {"user_id": user}, principal=f"user:{user}")
            elif kind == 3:
                result = kernel.call("memory.awmu.turn", {"context_id": "shared"}, principal="operator:t")
            else:
                result = kernel.call("kernel.record", {"kind": "t", "payload": {"i": index}},
                                     principal=f"agent:{number}")
            with lock:
                if result.seq is None:
                    failures.append(result.to_dict())
                else:
                    seqs.append(result.seq)

    workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    kernel.close()
    print(json.dumps({"seqs": sorted(seqs), "failures": failures[:5], "failed": len(failures)}))
    """
)


def test_threads_share_one_kernel(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    completed = subprocess.run(
        [sys.executable, "-c", _WORKER, str(path), str(THREADS), str(CALLS)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    report = json.loads(completed.stdout.splitlines()[-1])
    assert report["failed"] == 0, report["failures"]
    assert report["seqs"] == list(range(2, THREADS * CALLS + 2))  # seq 1 created the context
    from tools.cli import main

    assert main(["journal", "verify", "--db", str(path), "--chain-only"]) == 0
    assert main(["journal", "verify", "--db", str(path)]) == 0
