#!/usr/bin/env python3
"""Independent reference for Protocol/sync.md §7, "The opening summary".

Writes summary-vectors.json beside this file:

    python3 summary_reference.py

Each vector lists the documents a side covers (id, version vector, newest grant epoch and its
members, newest access list) and the 256 bucket hashes it sends in `SessionSummary.buckets`.
BLAKE2b-256 comes from hashlib. Written from the spec, without looking at the Swift code.
"""
import hashlib
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
DOMAIN = b"places/summary/1\x00"


def entry(doc):
    out = bytes.fromhex(doc["id"])
    authors = sorted((bytes.fromhex(a), s) for a, s in doc["vector"].items() if s >= 1)
    out += struct.pack(">H", len(authors))
    for key, seq in authors:
        out += key + struct.pack(">Q", seq)
    out += struct.pack(">I", doc["grantEpoch"])
    members = sorted(bytes.fromhex(m) for m in doc["grantMembers"])
    out += struct.pack(">H", len(members))
    for member in members:
        out += member
    access = doc.get("access")
    out += struct.pack(">IQ", access["epoch"], access["issuedMs"]) if access else bytes(12)
    return out


def buckets(docs):
    by_bucket = [[] for _ in range(256)]
    for doc in docs:
        by_bucket[bytes.fromhex(doc["id"])[0]].append(doc)
    hashes = []
    for bucket in by_bucket:
        data = DOMAIN + b"".join(entry(d) for d in sorted(bucket, key=lambda d: bytes.fromhex(d["id"])))
        hashes.append(hashlib.blake2b(data, digest_size=32).digest()[:16].hex())
    return hashes


def key(n):
    return hashlib.blake2b(b"key %d" % n, digest_size=32).hexdigest()


def doc_id(first, n):
    return (bytes([first]) + hashlib.blake2b(b"doc %d" % n, digest_size=15).digest()).hex()


def main():
    trip = {
        "id": doc_id(0x2A, 1),
        "vector": {key(1): 12, key(2): 3, key(3): 0},
        "grantEpoch": 2,
        "grantMembers": [key(2), key(4)],
        "access": {"epoch": 2, "issuedMs": 1764460800123},
    }
    same_bucket = {
        "id": doc_id(0x2A, 2),
        "vector": {key(2): 1},
        "grantEpoch": 0,
        "grantMembers": [],
        "access": None,
    }
    other_bucket = {
        "id": doc_id(0xF0, 3),
        "vector": {key(1): 4294967295},
        "grantEpoch": 7,
        "grantMembers": [key(5)],
        "access": None,
    }
    one_more_op = dict(trip, vector={key(1): 13, key(2): 3})
    vectors = [
        {"label": "nothing covered: every bucket hashes the prefix alone", "docs": []},
        {"label": "one trip", "docs": [trip]},
        {"label": "two trips in bucket 0x2a and one in 0xf0", "docs": [same_bucket, other_bucket, trip]},
        {"label": "the first trip with one more op: only bucket 0x2a differs",
         "docs": [same_bucket, other_bucket, one_more_op]},
    ]
    for vector in vectors:
        vector["buckets"] = buckets(vector["docs"])
    with open(os.path.join(HERE, "summary-vectors.json"), "w") as f:
        json.dump({"domain": DOMAIN.hex(), "vectors": vectors}, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
