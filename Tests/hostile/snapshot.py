"""What a directory holds, to the byte (path → mode, size, SHA-256), so a case can assert that a
refused request or command wrote, changed and removed nothing."""
import hashlib, os, stat


def snapshot(root, skip=()):
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if any(rel == s or rel.startswith(s + "/") for s in skip):
                continue
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode):
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
            else:
                digest = None
            out[rel] = (stat.S_IFMT(st.st_mode), st.st_mode & 0o7777, st.st_size, digest)
    return out


def differences(before, after):
    """Paths added, removed or changed, as short words for a failure line."""
    out = [f"+{p}" for p in after if p not in before]
    out += [f"-{p}" for p in before if p not in after]
    out += [f"~{p}" for p in before if p in after and before[p] != after[p]]
    return sorted(out)


def judge_writes(diff, writes, refused):
    """What the files' differences say about a case: (problems, wrong, lost). `writes` is None when
    nothing may change (a refused command or request: `refused` names it), else a check that returns
    why the change is not the expected one. A file that appeared means the case was accepted (wrong);
    one removed or changed means data was lost."""
    problems, wrong, lost = [], False, False
    if writes is None:
        if diff:
            problems.append(f"files changed by a refused {refused}: {diff[:4]}")
            wrong = any(d.startswith("+") for d in diff)
            lost = any(d[0] in "-~" for d in diff)
    else:
        why = writes(diff)
        if why:
            problems.append(why)
            lost = any(d[0] in "-~" for d in diff)
    return problems, wrong, lost
