#!/usr/bin/env python3
"""Independent reference for Protocol/op-format.md: builds op-vectors.json.

Ed25519 and ChaCha20-Poly1305 come from `cryptography`, BLAKE2b from hashlib, HChaCha20
(for XChaCha20) and the human id are written out below from their specifications. With
--check-libsodium the results are cross-checked against the system libsodium via ctypes.

    python3 op_vectors_reference.py > op-vectors.json
"""
import hashlib, json, struct, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives import serialization

def rotl(v, c): return ((v << c) & 0xffffffff) | (v >> (32 - c))

def hchacha20(key, nonce16):
    s = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]
    s += list(struct.unpack('<8I', key)) + list(struct.unpack('<4I', nonce16))
    def qr(a, b, c, d):
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 7)
    for _ in range(10):
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15)
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14)
    return struct.pack('<8I', *(s[0:4] + s[12:16]))

def xchacha_seal(plaintext, key, nonce24, ad):
    """XChaCha20-Poly1305 (IETF): returns nonce ‖ ciphertext ‖ tag, as SecretBox.seal does."""
    sub = hchacha20(key, nonce24[:16])
    return nonce24 + ChaCha20Poly1305(sub).encrypt(b'\0\0\0\0' + nonce24[16:], plaintext, ad)

def signed_bytes(h, ciphertext):
    out = b'PLOP\x01' + h['doc'] + h['author']
    out += struct.pack('>QQIH', h['seq'], h['lamport'], h['epoch'], len(h['deps']))
    out += b''.join(h['deps']) + struct.pack('>I', len(ciphertext)) + ciphertext
    return out

B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

def luhn32(group):
    factor, total = 1, 0
    for ch in group:
        addend = factor * B32.index(ch)
        factor = 1 if factor == 2 else 2
        total += addend // 32 + addend % 32
    return B32[(32 - total % 32) % 32]

def human_id(pk):
    bits = ''.join(f'{b:08b}' for b in pk) + '0000'          # 256 bits + 4 zero bits
    b32 = ''.join(B32[int(bits[i:i + 5], 2)] for i in range(0, 260, 5))  # 52 chars
    full = ''.join(b32[g * 13:g * 13 + 13] + luhn32(b32[g * 13:g * 13 + 13]) for g in range(4))
    return '-'.join(full[i:i + 7] for i in range(0, 56, 7))

def author(seed):
    sk = Ed25519PrivateKey.from_private_bytes(seed)
    pk = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return sk, pk

def compact(obj): return json.dumps(obj, ensure_ascii=False, separators=(',', ':'))

def main():
    seed_a = bytes(range(0x00, 0x20)); seed_b = bytes(range(0x20, 0x40))
    sk_a, pk_a = author(seed_a); sk_b, pk_b = author(seed_b)
    keys = {'A': (sk_a, pk_a), 'B': (sk_b, pk_b)}
    doc = bytes.fromhex('0f1e2d3c4b5a69788796a5b4c3d2e1f0'); dh = doc.hex()
    doc_key = bytes(range(0x80, 0xa0))
    stop = '5f0c6b1ae3d24c8f9a7b2e4d6c8a0b1f'; place = '9c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b'
    bodies = [
        ('A', 1, 1, [], bytes(range(0x40, 0x58)), {"timeMs": 1775808000000, "changes": [
            {"op": "create", "entity": dh, "kind": "itinerary"},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "name", "value": "Lisbon in spring"},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "startDate", "value": "2026-04-10"},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "endDate", "value": "2026-04-14"},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "lodging.name", "value": "Casa do Largo"}]}),
        ('A', 2, 2, ['op1'], bytes(range(0x58, 0x70)), {"timeMs": 1775808060000, "changes": [
            {"op": "create", "entity": stop, "kind": "stop"},
            {"op": "set", "entity": stop, "kind": "stop", "field": "placeId", "value": place},
            {"op": "set", "entity": stop, "kind": "stop", "field": "position", "value": "i"},
            {"op": "set", "entity": stop, "kind": "stop", "field": "name", "value": "Torre de Belém"},
            {"op": "set", "entity": stop, "kind": "stop", "field": "latitude", "value": 38.6916},
            {"op": "set", "entity": stop, "kind": "stop", "field": "longitude", "value": -9.216},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "name", "value": "Lisbon weekend",
             "old": "Lisbon in spring"}]}),
        ('B', 1, 2, ['op1'], bytes(range(0x70, 0x88)), {"timeMs": 1775808030000, "changes": [
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "name", "value": "Lisbon & Sintra",
             "old": "Lisbon in spring"},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "travelPrice",
             "value": {"amountMinor": 12500, "currency": "EUR"}, "old": None},
            {"op": "set", "entity": dh, "kind": "itinerary", "field": "endDate", "value": None,
             "old": "2026-04-14"}]}),
    ]
    ops, ids = [], {}
    for n, (who, seq, lamport, deps, nonce, body) in enumerate(bodies, 1):
        sk, pk = keys[who]
        header = {'doc': doc, 'author': pk, 'seq': seq, 'lamport': lamport, 'epoch': 0,
                  'deps': sorted(ids[d] for d in deps)}
        plaintext = compact(body).encode()
        ad = signed_bytes(header, b'')
        ciphertext = xchacha_seal(plaintext, doc_key, nonce, ad)
        signed = signed_bytes(header, ciphertext)
        sig = sk.sign(signed)
        sk.public_key().verify(sig, signed)
        op_id = hashlib.blake2b(signed, digest_size=32).digest()
        ids[f'op{n}'] = op_id
        ops.append({
            'name': f'op{n}', 'author': who,
            'header': {'doc': dh, 'author': pk.hex(), 'seq': seq, 'lamport': lamport, 'epoch': 0,
                       'deps': [d.hex() for d in header['deps']]},
            'nonce': nonce.hex(), 'plaintext': plaintext.decode(), 'associatedData': ad.hex(),
            'ciphertext': ciphertext.hex(), 'signedBytes': signed.hex(), 'signature': sig.hex(),
            'encoded': (signed + sig).hex(), 'id': op_id.hex()})
    # Merge: op2 (A) and op3 (B) are concurrent, both lamport 2; the larger author hex wins `name`.
    winner = 'Lisbon weekend' if pk_a.hex() > pk_b.hex() else 'Lisbon & Sintra'
    state = {
        dh: {'kind': 'itinerary', 'fields': {'name': winner, 'startDate': '2026-04-10', 'endDate': None,
             'lodging.name': 'Casa do Largo', 'travelPrice': {'amountMinor': 12500, 'currency': 'EUR'}}},
        stop: {'kind': 'stop', 'fields': {'placeId': place, 'position': 'i', 'name': 'Torre de Belém',
               'latitude': 38.6916, 'longitude': -9.216}}}
    out = {
        'description': 'Places op format (PLOP 0x01) vectors; see Protocol/op-format.md. '
                       'Generated by op_vectors_reference.py. Nonces are fixed here only to make the '
                       'vectors reproducible; real ops use a fresh random 24-byte nonce.',
        'authors': [{'name': w, 'seed': s.hex(), 'publicKey': keys[w][1].hex(),
                     'secretKey': (s + keys[w][1]).hex(), 'humanId': human_id(keys[w][1])}
                    for w, s in (('A', seed_a), ('B', seed_b))],
        'document': {'id': dh, 'epoch': 0, 'key': doc_key.hex()},
        'ops': ops,
        'heads': sorted(ids[n].hex() for n in ('op2', 'op3')),
        'state': state,
    }
    if '--check-libsodium' in sys.argv: check_libsodium(out)
    print(json.dumps(out, ensure_ascii=False, indent=2))

def check_libsodium(out):
    import ctypes
    na = ctypes.CDLL('libsodium.so.23'); assert na.sodium_init() >= 0
    key = bytes.fromhex(out['document']['key'])
    for a in out['authors']:
        pk = ctypes.create_string_buffer(32); sk = ctypes.create_string_buffer(64)
        na.crypto_sign_seed_keypair(pk, sk, bytes.fromhex(a['seed']))
        assert pk.raw.hex() == a['publicKey'] and sk.raw.hex() == a['secretKey']
    for op in out['ops']:
        signed = bytes.fromhex(op['signedBytes']); h = ctypes.create_string_buffer(32)
        na.crypto_generichash(h, 32, signed, ctypes.c_ulonglong(len(signed)), None, 0)
        assert h.raw.hex() == op['id']
        sig = bytes.fromhex(op['signature'])
        assert na.crypto_sign_verify_detached(sig, signed, ctypes.c_ulonglong(len(signed)),
                                              bytes.fromhex(op['header']['author'])) == 0
        ct = bytes.fromhex(op['ciphertext']); ad = bytes.fromhex(op['associatedData'])
        m = ctypes.create_string_buffer(len(ct)); mlen = ctypes.c_ulonglong()
        rc = na.crypto_aead_xchacha20poly1305_ietf_decrypt(m, ctypes.byref(mlen), None, ct[24:],
            ctypes.c_ulonglong(len(ct) - 24), ad, ctypes.c_ulonglong(len(ad)), ct[:24], key)
        assert rc == 0 and m.raw[:mlen.value] == op['plaintext'].encode()
    print('libsodium agrees', file=sys.stderr)

if __name__ == '__main__':
    main()
