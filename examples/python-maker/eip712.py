"""EIP-712 for the relay's quotes, from the relay's AsyncAPI document alone (its x-eip712 section): the
domain, the Quote type and its field order are read from the document, never written here. Signing is
deterministic (RFC 6979) and low-S, as the relay requires (it refuses high-S signatures)."""
from Cryptodome.Hash import keccak
from ecdsa import SECP256k1, SigningKey, VerifyingKey
from ecdsa.util import sigdecode_string, sigencode_string_canonize


def keccak256(data: bytes) -> bytes:
    return keccak.new(digest_bits=256, data=data).digest()


class Eip712:
    """Hashes typed data of the types the document lists (address, uint256, string; all the relay uses)."""

    def __init__(self, section: dict):
        self.types = section["types"]
        self.primary = section["primaryType"]
        self.domain = section["domain"]
        self.separator = self.hash_struct("EIP712Domain", self.domain)

    def encode_type(self, name: str) -> str:
        return name + "(" + ",".join(f"{f['type']} {f['name']}" for f in self.types[name]) + ")"

    def hash_struct(self, name: str, value: dict) -> bytes:
        words = [keccak256(self.encode_type(name).encode())]
        for field in self.types[name]:
            words.append(self.encode_value(field["type"], value[field["name"]]))
        return keccak256(b"".join(words))

    @staticmethod
    def encode_value(kind: str, value) -> bytes:
        if kind == "address":
            return bytes(12) + bytes.fromhex(value[2:])
        if kind == "uint256":
            return int(value).to_bytes(32, "big")
        if kind == "string":
            return keccak256(value.encode())
        raise ValueError(f"EIP-712 type {kind} is not one this maker encodes")

    def digest(self, message: dict) -> bytes:
        return keccak256(b"\x19\x01" + self.separator + self.hash_struct(self.primary, message))


def address_of(vk: VerifyingKey) -> str:
    return "0x" + keccak256(vk.to_string())[12:].hex()


def sign(key: SigningKey, digest: bytes) -> str:
    """r || s || v as 0x + 130 hex digits, s in the lower half of the curve order."""
    rs = key.sign_digest_deterministic(digest, sigencode=sigencode_string_canonize)
    candidates = VerifyingKey.from_public_key_recovery_with_digest(rs, digest, SECP256k1, sigdecode=sigdecode_string)
    for recid, vk in enumerate(candidates):   # the candidates come in recovery-id order (R's y even, then odd)
        if vk.to_string() == key.get_verifying_key().to_string():
            return "0x" + rs.hex() + format(27 + recid, "02x")
    raise RuntimeError("no recovery id recovers our own key")


def recover(digest: bytes, signature: str) -> str:
    """The address that signed `digest`, from r || s || v."""
    raw = bytes.fromhex(signature[2:])
    recid = raw[64] - 27 if raw[64] >= 27 else raw[64]
    keys = VerifyingKey.from_public_key_recovery_with_digest(raw[:64], digest, SECP256k1, sigdecode=sigdecode_string)
    return address_of(keys[recid])
