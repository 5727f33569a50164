#!/usr/bin/env python3
"""Independent reference for the keyless join exchange (Protocol/capabilities.md §4.1,
sync.md §8.2): the redacted token a joiner presents and the holder's join proofs.

Reads token-vectors.json beside this file (for the identities and a real token) and writes
join-proof-vectors.json. Only the standard library: BLAKE2b with a key is hashlib's
blake2b(key=..., digest_size=32), the same function as libsodium's keyed
crypto_generichash with a 32-byte output.
"""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONTEXT = b"places/join-proof/1"


def proof(verdict, key, doc, token_id, nonce, joiner, holder, owner):
    message = CONTEXT + b"\x00" + bytes([verdict]) + doc + token_id + nonce + joiner + holder + owner
    return message, hashlib.blake2b(message, key=key, digest_size=32).digest()


def main():
    tokens = json.load(open(os.path.join(HERE, "token-vectors.json")))
    keys = {k["name"]: bytes.fromhex(k["publicKey"]) for k in tokens["keys"]}
    out = {"context": "keyless join: redacted token and join proofs (capabilities.md §4.1)", "vectors": []}
    for name in ("editor-full", "viewer-minimal"):
        token = next(t for t in tokens["tokens"] if t["name"] == name)
        fields = token["fields"]
        encoded = token["encoded"]
        doc_key = fields["documentKey"]
        assert encoded.count(doc_key) == 1, "the document key must appear once in the encoding"
        redacted = encoded.replace(doc_key, "00" * 32)
        key = bytes.fromhex(doc_key)
        doc = bytes.fromhex(fields["doc"])
        token_id = bytes.fromhex(fields["tokenId"])
        nonce = bytes(range(0xA0, 0xC0))
        joiner, holder, owner = keys["joiner"], keys["other"], keys["owner"]
        admit_message, admit = proof(1, key, doc, token_id, nonce, joiner, holder, owner)
        refuse_message, refuse = proof(2, key, doc, token_id, nonce, joiner, holder, bytes(32))
        out["vectors"].append({
            "token": name,
            "redactedToken": redacted,
            "nonce": nonce.hex(),
            "joiner": joiner.hex(),
            "holder": holder.hex(),
            "owner": owner.hex(),
            "admitMessage": admit_message.hex(),
            "admitProof": admit.hex(),
            "refuseMessage": refuse_message.hex(),
            "refuseProof": refuse.hex(),
        })
    with open(os.path.join(HERE, "join-proof-vectors.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
