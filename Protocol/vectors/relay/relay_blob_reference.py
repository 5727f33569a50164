#!/usr/bin/env python3
"""Independent reference for Protocol/relay.md §8 (photos' copies at a relay).

Writes relay-blob-vectors.json beside this file:

    python3 relay_blob_reference.py

BLAKE2b comes from hashlib (keyed BLAKE2b-256 as libsodium's crypto_generichash with a key).
XChaCha20 is built here from its definition: HChaCha20 (the ChaCha20 core without the final
addition, words 0-3 and 12-15 out) derives a subkey from the key and the nonce's first 16
bytes; then the original ChaCha20 (64-bit block counter, 8-byte nonce = the nonce's last 8
bytes) runs under the subkey, through `cryptography`'s ChaCha20, whose 16-byte "nonce" is
state words 12-15: counter (8 bytes LE) then the 8-byte nonce. Written from the spec, without
looking at the Swift code.
"""
import hashlib
import json
import os
import struct

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

HERE = os.path.dirname(os.path.abspath(__file__))
NAME_CONTEXT = b"places/relay-blob-name/1\x00"
KEY_CONTEXT = b"places/relay-blob/1\x00"
NONCE = bytes(24)
MASK = 0xFFFFFFFF


def rotl(v, c):
    return ((v << c) & MASK) | (v >> (32 - c))


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 7)


def hchacha20(key, nonce16):
    s = list(struct.unpack("<4I", b"expand 32-byte k")) + list(struct.unpack("<8I", key)) + list(
        struct.unpack("<4I", nonce16))
    for _ in range(10):
        quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
    return struct.pack("<8I", *(s[0:4] + s[12:16]))


def xchacha20_xor(data, key, nonce, offset=0):
    """`data` XOR the keystream from byte `offset` on."""
    subkey = hchacha20(key, nonce[:16])
    block, skip = divmod(offset, 64)
    iv = struct.pack("<Q", block) + nonce[16:24]
    enc = Cipher(algorithms.ChaCha20(subkey, iv), mode=None).encryptor()
    stream = enc.update(bytes(skip + len(data)))[skip:]
    return bytes(a ^ b for a, b in zip(data, stream))


def photo_id(photo):
    return hashlib.blake2b(photo, digest_size=32).digest()


def relay_name(doc, pid):
    return hashlib.blake2b(NAME_CONTEXT + doc + pid, digest_size=32).digest()


def relay_key(doc, pid):
    return hashlib.blake2b(KEY_CONTEXT + doc, digest_size=32, key=pid).digest()


def vector(label, photo, doc, offset, length):
    pid = photo_id(photo)
    key = relay_key(doc, pid)
    whole = xchacha20_xor(photo, key, NONCE)
    part = xchacha20_xor(photo[offset:offset + length], key, NONCE, offset)
    assert part == whole[offset:offset + length]
    assert xchacha20_xor(whole, key, NONCE) == photo
    return {
        "label": label, "photo": photo.hex(), "doc": doc.hex(), "photoID": pid.hex(),
        "name": relay_name(doc, pid).hex(), "key": key.hex(), "copy": whole.hex(),
        "offset": offset, "length": length, "chunk": part.hex(),
    }


def main():
    photo = bytes((i * 7 + 3) % 251 for i in range(300))
    doc_a = bytes(range(16))
    doc_b = bytes(range(16, 32))
    vectors = [
        vector("300-byte photo, chunk at an offset inside a block", photo, doc_a, 100, 90),
        vector("the same photo under another document: another name, key and copy", photo, doc_b, 64, 128),
        vector("an empty photo", b"", doc_a, 0, 0),
    ]
    assert vectors[0]["name"] != vectors[1]["name"] and vectors[0]["copy"] != vectors[1]["copy"]
    with open(os.path.join(HERE, "relay-blob-vectors.json"), "w") as out:
        json.dump({"nameContext": NAME_CONTEXT.hex(), "keyContext": KEY_CONTEXT.hex(), "vectors": vectors}, out,
                  indent=2)
        out.write("\n")


if __name__ == "__main__":
    main()
