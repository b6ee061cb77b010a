# Shared by the oracle scripts: Apple's app-store-server-library in .venv-oracle (created from
# PyPI when missing; fast when present). Source it from the repository root.
ensure_oracle_venv() {
  if ! .venv-oracle/bin/python -c "import appstoreserverlibrary" 2>/dev/null; then
    python3 -m venv .venv-oracle
    .venv-oracle/bin/pip install -q app-store-server-library
  fi
}
