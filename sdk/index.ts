// The maker SDK's entry point (the package `rfq-maker-sdk`, built from this folder by `npm pack`).
export { MakerClient, type MakerClientOptions } from './maker.js'
export { DEFAULT_RECONNECT, backoffDelayMs, jittered } from './backoff.js'
export { describeFault } from './faults.js'
export { quoteTypes, signQuote, signCancel, relayCancelMessage } from './sign.js'
export { quoteAmounts, type PriceRule } from './pricing.js'
export type * from './types.js'
