"""Signed data for the hostile cases: ES256 compact JWS with the x5c chain of a CA made by
`subdash ca init` (the approach of scripts/bench/listen_load.py's Signer), and the tricks an
attacker plays on it: another alg, a short or foreign chain, a tampered payload, a forged signature."""
import base64, json
from cryptography import x509
from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def unb64url(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


class RawNumber(str):
    """A number written exactly as given (`2.6e14`, not Python's `260000000000000.0`): the text an
    attacker chooses is what the parser under test must read."""
    def __repr__(self):
        return str(self)


def compact(obj):
    raw = {}

    def mark(o):
        if isinstance(o, RawNumber):
            key = f"@@raw{len(raw)}@@"
            raw[key] = str(o)
            return key
        if isinstance(o, dict):
            return {k: mark(v) for k, v in o.items()}
        if isinstance(o, list):
            return [mark(v) for v in o]
        return o
    text = json.dumps(mark(obj), separators=(",", ":"))
    for key, literal in raw.items():
        text = text.replace(f'"{key}"', literal)
    return text.encode()


class Signer:
    """ES256 with the leaf key of a `subdash ca init` directory; `chain` is its x5c (leaf first)."""
    def __init__(self, ca):
        self.key = serialization.load_pem_private_key(open(f"{ca}/leaf-key.pem", "rb").read(), None)
        self.chain = []
        for name in ["leaf.pem", "intermediate.pem", "root.pem"]:
            cert = x509.load_pem_x509_certificate(open(f"{ca}/{name}", "rb").read())
            self.chain.append(base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode())

    def header(self, **override):
        h = {"alg": "ES256", "x5c": self.chain}
        for k, v in override.items():
            if v is None:
                h.pop(k, None)
            else:
                h[k] = v
        return h

    def sign(self, payload, header=None, payload_bytes=None):
        """The JWS of `payload` (or raw `payload_bytes`) under `header` (default: ES256 + chain)."""
        h = b64url(compact(header if header is not None else self.header()))
        p = b64url(payload_bytes if payload_bytes is not None else compact(payload))
        data = f"{h}.{p}"
        r, s = decode_dss_signature(self.key.sign(data.encode(), ec.ECDSA(hashes.SHA256())))
        return data + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))

    def with_signature(self, payload, signature, header=None):
        """Header and payload as given, any bytes as the signature (no key needed: the attack)."""
        h = b64url(compact(header if header is not None else self.header()))
        return f"{h}.{b64url(compact(payload))}.{b64url(signature)}"

    def hs256(self, payload):
        """alg HS256 keyed with the leaf certificate's DER: the classic algorithm-confusion forgery."""
        h = b64url(compact({"alg": "HS256", "x5c": self.chain}))
        data = f"{h}.{b64url(compact(payload))}"
        mac = hmac.HMAC(base64.b64decode(self.chain[0]), hashes.SHA256())
        mac.update(data.encode())
        return data + "." + b64url(mac.finalize())


def tampered(jws, payload):
    """The signed JWS with its payload swapped for another: the signature no longer covers it."""
    h, _, s = jws.split(".")
    return f"{h}.{b64url(compact(payload))}.{s}"


def flipped_signature(jws):
    h, p, s = jws.split(".")
    sig = bytearray(unb64url(s))
    sig[10] ^= 0x01
    return f"{h}.{p}.{b64url(bytes(sig))}"


def apple_header(jws_path):
    """The protected header (Apple's own x5c chain) of a real Apple-signed JWS file."""
    return json.loads(unb64url(open(jws_path).read().strip().split(".")[0]))
