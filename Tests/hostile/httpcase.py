"""One HTTP case against a running server: send, then assert the exact status and a phrase of
the body, that nothing was written where the request is refused, that the answer came within
the deadline (else a hang) and that the process is still alive (else a crash, and a restart)."""
import time
from rawhttp import Hang
from snapshot import snapshot, differences, judge_writes

# Paths no request may ever put a file in or change: the state directory and what is around it.
LOCAL_WORDS = ["/tmp/", "/work/", ".json", "errno", "No such file", "Permission denied"]


class HTTPCases:
    def __init__(self, tally, group, server, watched):
        """watched: directories whose bytes a refused request must leave as they are."""
        self.tally, self.group, self.server, self.watched = tally, group, server, watched

    def case(self, name, send, status, phrase=None, writes=None, deadline=5.0, within=None, no_local=False):
        """send(port) → rawhttp.Answer or None (closed without an answer). status: the exact code,
        or "closed" for a connection the server must close without answering. phrase: text the
        body must contain. writes: None (nothing may change) or check(diff) → problem or None.
        within: seconds the answer must come in (a slow-client bound tighter than the deadline)."""
        before = [snapshot(d) for d in self.watched]
        problems, crash, hang, wrong, lost = [], False, False, False, False
        started = time.monotonic()
        answer = None
        try:
            answer = send(self.server.port)
        except Hang as e:
            hang = True
            problems.append(f"hang: {e}")
        except OSError as e:
            answer = None
            if status != "closed":
                problems.append(f"connection error {e.__class__.__name__}: {e}")
        took = time.monotonic() - started
        if not hang:
            got = "closed" if answer is None else answer.status
            if got != status:
                problems.append(f"expected {status}, got {got}" + (f" {answer.text[:200]!r}" if answer is not None else ""))
                expected_refusal = status == "closed" or (isinstance(status, int) and status >= 300)
                if expected_refusal and answer is not None and 200 <= answer.status < 300:
                    wrong = True
            elif phrase is not None and phrase not in answer.text:
                problems.append(f"body lacks {phrase!r}: {answer.text[:200]!r}")
            if no_local and answer is not None:
                leaked = [w for w in LOCAL_WORDS + self.watched if w in answer.text]
                if leaked:
                    problems.append(f"the answer tells the sender local details {leaked}: {answer.text[:200]!r}")
            if within is not None and took > within:
                problems.append(f"answered after {took:.2f} s, bound {within} s")
        after = [snapshot(d) for d in self.watched]
        diff = sum((differences(b, a) for b, a in zip(before, after)), [])
        found, wrote, lost = judge_writes(diff, writes, "request")
        problems += found
        wrong = wrong or wrote
        if hang and not self.server.responsive():
            problems.append("the server stopped answering; restarted")
        if not self.server.revive():
            crash = True
            problems.append(f"the server died (exit {self.server.deaths[-1]}); log: {self.server.log_tail(2)}")
        return self.tally.record(self.group, name, problems, crash, hang, wrong, lost)
