"""One file case: run a `subdash` command on a hostile input within a time bound and assert its
exact exit code, a phrase of its message, that the message is one line (warnings aside) with no
trap or backtrace, and that nothing was written where the command refuses."""
import os, subprocess
from snapshot import snapshot, differences, judge_writes

TRAPS = ["Fatal error", "Stack dump", "Current stack trace", "backtrace", "Illegal instruction", "Segmentation fault"]


class FileCases:
    def __init__(self, tally, subdash, watched, group="files"):
        self.tally, self.subdash, self.watched, self.group = tally, subdash, watched, group
        # A trap still prints "Fatal error: …" (caught below) but ends at once, without a backtrace.
        self.env = {**os.environ, "SWIFT_BACKTRACE": "enable=no"}

    def case(self, name, args, code, phrase, stdin=None, writes=None, timeout=30, cwd=None):
        """args: subdash's arguments; code: the exact exit code; phrase: text the output (stderr,
        or stdout for verify's verdicts) must contain; stdin: bytes piped in; writes: None (nothing
        may change in the watched directory) or check(diff) → problem or None."""
        before = snapshot(self.watched)
        problems, crash, hang, wrong, lost = [], False, False, False, False
        try:
            r = subprocess.run([self.subdash] + args, input=stdin, capture_output=True, timeout=timeout, cwd=cwd,
                               stdin=None if stdin is not None else subprocess.DEVNULL, env=self.env)
            out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
            if r.returncode < 0 or any(t in err or t in out for t in TRAPS):
                crash = True
                problems.append(f"crashed (exit {r.returncode}): {(err.strip().splitlines() or [''])[0][:200]!r}")
            if r.returncode != code:
                problems.append(f"expected exit {code}, got {r.returncode}: {(err.strip() or out.strip())[:200]!r}")
                wrong = code != 0 and r.returncode == 0
            elif phrase is not None and phrase not in err + out:
                problems.append(f"output lacks {phrase!r}: {(err.strip() or out.strip())[:200]!r}")
            # The command-line error style's usage hint (CommandLineStyle) is not a second message.
            lines = [l for l in err.splitlines() if l.strip() and "warning:" not in l and not l.startswith("usage: ")]
            if code != 0 and len(lines) > 1:
                problems.append(f"{len(lines)} lines on stderr, not one: {lines[:2]!r}")
        except subprocess.TimeoutExpired:
            hang = True
            problems.append(f"hang: no exit within {timeout} s")
        found, wrote, lost = judge_writes(differences(before, snapshot(self.watched)), writes, "command")
        problems += found
        wrong = wrong or wrote
        return self.tally.record(self.group, name, problems, crash, hang, wrong, lost)
