"""The suite's book: every case tried, passed or failed with why, and the figures
docs/reliability.md gives (crashes, hangs, wrong accepts, data lost)."""


class Tally:
    def __init__(self, verbose=False):
        self.verbose = verbose
        self.tried = {}      # group → count
        self.failures = []   # (group, case, why)
        self.crashes = self.hangs = self.wrong_accepts = self.data_lost = 0

    def record(self, group, case, problems, crash=False, hang=False, wrong_accept=False, data_lost=False):
        self.tried[group] = self.tried.get(group, 0) + 1
        self.crashes += crash
        self.hangs += hang
        self.wrong_accepts += wrong_accept
        self.data_lost += data_lost
        if problems:
            self.failures.append((group, case, "; ".join(problems)))
            print(f"FAIL [{group}] {case}: {'; '.join(problems)}", flush=True)
        elif self.verbose:
            print(f"ok   [{group}] {case}", flush=True)
        return not problems

    @property
    def total(self):
        return sum(self.tried.values())

    def summary(self):
        groups = ", ".join(f"{g} {n}" for g, n in self.tried.items())
        return (f"hostile: {self.total - len(self.failures)} passed, {len(self.failures)} failed\n"
                f"hostile: cases tried {self.total} ({groups}); crashes {self.crashes}, hangs {self.hangs}, "
                f"wrong accepts {self.wrong_accepts}, data lost {self.data_lost}")
