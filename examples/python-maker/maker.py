#!/usr/bin/python3
"""A maker in Python, written from the relay's contract alone (GET /asyncapi.json on the relay port): it reads
the EIP-712 domain and Quote type from the document, checks its own hashing against the document's signed
example, then quotes every RFQ it hears at a fixed price less a spread. Nothing of the engine's TypeScript.

  RELAY_URL=ws://127.0.0.1:8080 MAKER_PRIVATE_KEY=0x... PRICE_NUM=1 PRICE_DEN=1 SPREAD_BPS=5 /usr/bin/python3 maker.py

Needs Debian's python3-websockets, python3-ecdsa and python3-pycryptodome (Debian's /usr/bin/python3)."""
import sys

try:
    import websockets
    from ecdsa import SECP256k1, SigningKey
    from eip712 import Eip712, address_of, recover, sign
except ImportError as missing:
    print(f"python-maker: {missing.name or missing} is missing: "
          "apt-get install python3-websockets python3-ecdsa python3-pycryptodome (and run Debian's /usr/bin/python3)", file=sys.stderr)
    sys.exit(2)

import asyncio
import itertools
import json
import os
import time
import urllib.request


def log(*parts):
    print(*parts, flush=True)


def fetch_contract(relay_url: str) -> dict:
    http = relay_url.replace("ws", "http", 1).split("?")[0].rstrip("/")
    with urllib.request.urlopen(f"{http}/asyncapi.json", timeout=10) as res:
        return json.load(res)


def check_hashing(doc: dict, eip: Eip712) -> None:
    """The document's QuoteSubmit example is signed under this relay's domain: recovering it checks our hashing."""
    example = doc["components"]["messages"]["QuoteSubmit"]["examples"][0]["payload"]["data"]
    signer = recover(eip.digest(example["quote"]), example["signature"])
    if signer != example["quote"]["maker"].lower():
        raise SystemExit(f"python-maker: EIP-712 hashing disagrees with the relay's document (recovered {signer})")


def amounts(rfq: dict, num: int, den: int, spread_bps: int):
    """EXACT_IN pays amountIn * price less the spread; EXACT_OUT asks amountOut / price plus it (rounded up)."""
    if rfq["kind"] == 0 and rfq["amountIn"] is not None:
        amount_in = int(rfq["amountIn"])
        return amount_in, amount_in * num * (10_000 - spread_bps) // (den * 10_000)
    if rfq["kind"] == 1 and rfq["amountOut"] is not None:
        amount_out = int(rfq["amountOut"])
        return -(-amount_out * den * (10_000 + spread_bps) // (num * 10_000)), amount_out
    return None


async def quote_loop(url: str, key: SigningKey, eip: Eip712, price) -> None:
    maker = address_of(key.get_verifying_key())
    nonces = itertools.count(time.time_ns() // 1000)
    async with websockets.connect(url, ping_interval=None, max_size=1 << 20) as ws:
        log(f"maker {maker} quoting under {eip.domain['name']} on chain {eip.domain['chainId']}")
        pinger = asyncio.create_task(ping_every(ws, 30))
        try:
            async for raw in ws:
                try:
                    frame = json.loads(raw)
                    kind, data = frame["type"], frame.get("data")
                except (ValueError, KeyError, TypeError) as bad:
                    log(f"fault: unreadable frame from the relay: {bad!r}")
                    continue
                if kind == "RFQ_BROADCAST":
                    terms = amounts(data["rfq"], *price)
                    if not terms or terms[1] <= 0:
                        continue
                    rfq = data["rfq"]
                    quote = {"maker": maker, "taker": rfq["taker"], "tokenIn": rfq["tokenIn"], "tokenOut": rfq["tokenOut"],
                             "amountIn": str(terms[0]), "amountOut": str(terms[1]), "expiry": rfq["expiry"],
                             "nonce": str(next(nonces)), "deadline": int(time.time()) + 60}
                    signature = sign(key, eip.digest(quote))
                    submit = {"rfqId": data["rfqId"], "quote": quote, "signature": signature}
                    await ws.send(json.dumps({"type": "QUOTE_SUBMIT", "data": submit}))
                elif kind == "QUOTE_BROADCAST" and data["quote"]["maker"] == maker:
                    log(f"{data['rfqId']} quoted {data['quote']['amountOut']}")
                elif kind == "ERROR":
                    log(f"{data.get('rfqId', '-')} refused: {data['code']} {data['message']}")
                elif kind == "PING":
                    await ws.send(json.dumps({"type": "PONG", "data": {}}))
        finally:
            pinger.cancel()


async def ping_every(ws, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        await ws.send(json.dumps({"type": "PING", "data": {}}))


async def main() -> None:
    url = os.environ.get("RELAY_URL", "ws://127.0.0.1:8080")
    secret = os.environ.get("MAKER_PRIVATE_KEY")
    if not secret:
        raise SystemExit("python-maker: MAKER_PRIVATE_KEY=0x... is required")
    key = SigningKey.from_string(bytes.fromhex(secret.removeprefix("0x")), curve=SECP256k1)
    price = tuple(int(os.environ.get(name, default)) for name, default in (("PRICE_NUM", "1"), ("PRICE_DEN", "1"), ("SPREAD_BPS", "5")))
    doc = fetch_contract(url)
    eip = Eip712(doc["x-eip712"])
    check_hashing(doc, eip)
    delay = 1.0
    while True:   # the spec's reconnect advice: from 1 s, doubling (capped at 30 s here), each cause logged
        try:
            await quote_loop(url, key, eip, price)
            cause = "the relay closed the connection"
        except (OSError, websockets.exceptions.WebSocketException) as e:
            cause = f"{type(e).__name__}: {e}"
        log(f"fault: {cause}; reconnecting in {delay:.0f} s")
        await asyncio.sleep(delay)
        delay = min(delay * 2, 30.0)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
