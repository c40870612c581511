// The values module: the one owner of every wire value's grammar (addresses, uint256 strings, hex,
// unix seconds, text, JSON objects, an RFQ's status and lifetime). Pure, so every floor may import it: workers,
// actors and engine alike.
export * from './address.js'
export * from './uint.js'
export * from './hex.js'
export * from './text.js'
export * from './number.js'
export * from './object.js'
export * from './rfqStatus.js'
export * from './rfqId.js'
export * from './packedBlanks.js'
