"""What an oracle script against `subdash serve` starts with: Apple's API client pointed at the
local server, Apple's verifier trusting the test root, and the list of failed checks.

  oracle = ServeOracle(BASE_URL, KEY_P8, KEY_ID, ISSUER_ID, BUNDLE_ID, ROOT_DER)
"""
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


class ServeOracle:
    def __init__(self, base, key_path, key_id, issuer, bundle, root_path):
        with open(key_path, "rb") as f:
            self.client = AppStoreServerAPIClient(f.read(), key_id, issuer, bundle, Environment.SANDBOX)
        self.client._base_url = base + "/sandbox"  # Apple's library has no base-URL option; this is its one attribute
        with open(root_path, "rb") as f:
            self.verifier = SignedDataVerifier([f.read()], False, Environment.SANDBOX, bundle)
        self.failures = []

    def check(self, cond, what):
        if not cond:
            self.failures.append(what)
