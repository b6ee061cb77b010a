"""A `subdash listen` or `subdash serve` process on a loopback port (port 0: the server picks one
and prints `listening on http://127.0.0.1:PORT → DIR`), restarted when a case kills it so the
remaining cases still run; every death is counted as a crash."""
import os, re, subprocess


class Server:
    def __init__(self, argv, log_path):
        self.argv, self.log_path, self.proc, self.port, self.deaths = argv, log_path, None, None, []

    def start(self):
        log = open(self.log_path, "a")
        # A crash ends the process at once (no minutes of symbolication holding the port open).
        env = {**os.environ, "SWIFT_BACKTRACE": "enable=no"}
        self.proc = subprocess.Popen(self.argv, stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, env=env)
        log.close()
        line = self.proc.stdout.readline().decode("utf-8", "replace")
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            self.proc.kill()
            raise SystemExit(f"hostile: server did not start ({' '.join(self.argv[:3])}…): {line!r}; log {self.log_path}:\n"
                             + open(self.log_path).read()[-2000:])
        self.port = int(m.group(1))
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def revive(self):
        """After a case: False (and a restart) when the process died, with the signal or code kept."""
        if self.alive():
            return True
        self.deaths.append(self.proc.returncode)
        self.start()
        return False

    def responsive(self):
        """Whether the server still answers a plain request (after a case that hung): a process that
        lives on but answers nothing is killed and restarted, so one hang does not fail every case after."""
        from rawhttp import exchange, request
        try:
            if exchange(self.port, request("GET", "/", None, None), 3) is not None:
                return True
        except Exception:
            pass
        self.proc.kill()
        self.proc.wait()
        return False

    def log_tail(self, lines=3):
        try:
            return open(self.log_path, errors="replace").read().splitlines()[-lines:]
        except OSError:
            return []

    def stop(self):
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
