#!/usr/bin/env python3
"""Independent reference for Protocol/handshake.md, written from the document alone.

Generates places-sync-1.json: a full Places handshake (Noise_XX_25519_ChaChaPoly_BLAKE2b,
prologue "places/sync/1", identity proofs in messages 2 and 3) and two framed transport
messages, from fixed Ed25519 seeds and ephemeral keys. Needs Python 3 and `cryptography`.
Usage: python3 places_sync_1_reference.py > places-sync-1.json
"""
import hashlib, hmac, json
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives import serialization

RAW = serialization.Encoding.Raw
P = 2**255 - 19
HASHLEN = 64
PROLOGUE = b"places/sync/1"
NAME = b"Noise_XX_25519_ChaChaPoly_BLAKE2b"
CONTEXT = b"places/sync/1 identity" + b"\x00"


def H(data): return hashlib.blake2b(data, digest_size=64).digest()
def HMAC(key, data): return hmac.new(key, data, lambda: hashlib.blake2b(digest_size=64)).digest()
def HKDF(ck, ikm):
    temp = HMAC(ck, ikm)
    o1 = HMAC(temp, b"\x01")
    return o1, HMAC(temp, o1 + b"\x02")


def x25519_pub(sk): return X25519PrivateKey.from_private_bytes(sk).public_key().public_bytes(RAW, serialization.PublicFormat.Raw)
def dh(sk, pk):
    out = X25519PrivateKey.from_private_bytes(sk).exchange(X25519PublicKey.from_public_bytes(pk))
    assert out != bytes(32)
    return out


def ed_keys(seed):
    sk = Ed25519PrivateKey.from_private_bytes(seed)
    return sk, sk.public_key().public_bytes(RAW, serialization.PublicFormat.Raw)
def ed_sk_to_x25519(seed):
    h = bytearray(hashlib.sha512(seed).digest()[:32])
    h[0] &= 248; h[31] &= 127; h[31] |= 64
    return bytes(h)
def ed_pk_to_x25519(pk):
    y = int.from_bytes(pk, "little") & ((1 << 255) - 1)
    return ((1 + y) * pow(1 - y, P - 2, P) % P).to_bytes(32, "little")


class Cipher:
    def __init__(self, k=None): self.k, self.n = k, 0
    def nonce(self): return b"\x00" * 4 + self.n.to_bytes(8, "little")
    def enc(self, ad, pt):
        if self.k is None: return pt
        ct = ChaCha20Poly1305(self.k).encrypt(self.nonce(), pt, ad); self.n += 1; return ct
    def dec(self, ad, ct):
        if self.k is None: return ct
        pt = ChaCha20Poly1305(self.k).decrypt(self.nonce(), ct, ad); self.n += 1; return pt


class Side:
    def __init__(self, initiator, seed, e):
        self.initiator, self.ed_sk, self.ed_pk = initiator, *ed_keys(seed)
        self.s = ed_sk_to_x25519(seed); self.e = e
        self.h = NAME + bytes(HASHLEN - len(NAME)); self.ck = self.h; self.c = Cipher()
        self.mix_hash(PROLOGUE)
    def mix_hash(self, d): self.h = H(self.h + d)
    def mix_key(self, ikm): self.ck, k = HKDF(self.ck, ikm); self.c = Cipher(k[:32])
    def enc_hash(self, pt): ct = self.c.enc(self.h, pt); self.mix_hash(ct); return ct
    def dec_hash(self, ct): pt = self.c.dec(self.h, ct); self.mix_hash(ct); return pt
    def proof(self, n):
        return self.ed_pk + self.ed_sk.sign(CONTEXT + bytes([n]) + self.h)
    def check_proof(self, n, payload, h_before):
        assert len(payload) == 96
        pk, sig = payload[:32], payload[32:]
        assert ed_pk_to_x25519(pk) == self.rs
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
        Ed25519PublicKey.from_public_bytes(pk).verify(sig, CONTEXT + bytes([n]) + h_before)
        return pk


def run(vector):
    i = Side(True, bytes.fromhex(vector["initiator_ed25519_seed"]), bytes.fromhex(vector["initiator_ephemeral"]))
    r = Side(False, bytes.fromhex(vector["responder_ed25519_seed"]), bytes.fromhex(vector["responder_ephemeral"]))
    frames = []
    # -> e (empty clear payload)
    m1 = x25519_pub(i.e); i.mix_hash(m1); m1 += i.enc_hash(b"")
    r.re = m1[:32]; r.mix_hash(r.re); assert r.dec_hash(m1[32:]) == b""
    frames.append(m1)
    # <- e, ee, s, es, proof
    h_before = r.h; proof = r.proof(2)
    m2 = x25519_pub(r.e); r.mix_hash(m2)
    r.mix_key(dh(r.e, r.re)); m2 += r.enc_hash(x25519_pub(r.s)); r.mix_key(dh(r.s, r.re)); m2 += r.enc_hash(proof)
    assert i.h == h_before
    i.re = m2[:32]; i.mix_hash(i.re); i.mix_key(dh(i.e, i.re)); i.rs = i.dec_hash(m2[32:80]); i.mix_key(dh(i.e, i.rs))
    assert i.check_proof(2, i.dec_hash(m2[80:]), h_before) == r.ed_pk
    frames.append(m2)
    # -> s, se, proof
    h_before = i.h; proof = i.proof(3)
    m3 = i.enc_hash(x25519_pub(i.s)); i.mix_key(dh(i.s, i.re)); m3 += i.enc_hash(proof)
    r.rs = r.dec_hash(m3[:48]); r.mix_key(dh(r.e, r.rs))
    assert r.check_proof(3, r.dec_hash(m3[48:]), h_before) == i.ed_pk
    frames.append(m3)
    assert i.h == r.h
    c1, c2 = (Cipher(k[:32]) for k in HKDF(i.ck, b""))
    d1, d2 = (Cipher(k[:32]) for k in HKDF(r.ck, b""))
    t1 = c1.enc(b"", bytes.fromhex(vector["transport_payloads"][0])); assert d1.dec(b"", t1)
    t2 = d2.enc(b"", bytes.fromhex(vector["transport_payloads"][1])); assert c2.dec(b"", t2)
    frames += [t1, t2]
    vector["initiator_ed25519_public_key"] = i.ed_pk.hex()
    vector["responder_ed25519_public_key"] = r.ed_pk.hex()
    vector["initiator_static_x25519_public_key"] = x25519_pub(i.s).hex()
    vector["responder_static_x25519_public_key"] = x25519_pub(r.s).hex()
    vector["handshake_hash"] = i.h.hex()
    vector["frames"] = [(len(f).to_bytes(2, "big") + f).hex() for f in frames]
    return vector


print(json.dumps(run({
    "description": "Places sync/1: XX handshake with identity proofs (initiator, responder, initiator), "
                   "then one transport message initiator->responder and one responder->initiator. "
                   "Each frame is 2-byte big-endian length + Noise message. See Protocol/handshake.md.",
    "protocol_name": NAME.decode(), "prologue": PROLOGUE.hex(),
    "initiator_ed25519_seed": "01" * 32, "responder_ed25519_seed": "02" * 32,
    "initiator_ephemeral": "893e28b9dc6ca8d611ab664754b8ceb7bac5117349a4439a6b0569da977c464a",
    "responder_ephemeral": "bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b",
    "transport_payloads": [b"hello from the initiator".hex(), b"hello from the responder".hex()],
}), indent=1))
