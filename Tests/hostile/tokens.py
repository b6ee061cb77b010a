"""App Store Server API bearer tokens as a backend makes them (ES256 JWT: kid, iss, bid, aud
"appstoreconnect-v1", iat, exp) and the ways one can be wrong."""
import os, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from jws import b64url, compact


def new_p8(path):
    """A team's In-App Purchase key (.p8: P-256 in PKCS#8), private to us as serve requires."""
    key = ec.generate_private_key(ec.SECP256R1())
    # Created 0600: never readable by others, not even between a write and a chmod.
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return key


class Tokens:
    def __init__(self, key, kid, iss, bid):
        self.key, self.kid, self.iss, self.bid = key, kid, iss, bid

    def make(self, header=None, claims=None, key=None, signature=None):
        """A token; header/claims entries override the good ones (None removes one)."""
        now = int(time.time())
        h = {"alg": "ES256", "kid": self.kid, "typ": "JWT"}
        c = {"iss": self.iss, "iat": now, "exp": now + 1200, "aud": "appstoreconnect-v1", "bid": self.bid}
        for target, over in ((h, header or {}), (c, claims or {})):
            for k, v in over.items():
                if v is None:
                    target.pop(k, None)
                else:
                    target[k] = v
        data = f"{b64url(compact(h))}.{b64url(compact(c))}"
        if signature is None:
            r, s = decode_dss_signature((key or self.key).sign(data.encode(), ec.ECDSA(hashes.SHA256())))
            signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return f"{data}.{b64url(signature)}"

    def good(self):
        return "Bearer " + self.make()
