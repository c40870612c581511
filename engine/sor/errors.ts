// The route finder's error texts: the spec's, word for word, and ours for what the spec leaves open.
import { Errors as Http, HttpError } from '../front/errors.js'

export const SorErrors = {
  missingParams: () => Http.badRequest('Missing required params: tokenIn, tokenOut, amountIn'),
  invalidAddress: () => Http.badRequest('Invalid token address format'),
  sameToken: () => Http.badRequest('tokenIn and tokenOut must be different'),
  invalidAmount: () => Http.badRequest('amountIn must be a positive integer (raw units)'),
  tokenNotFound: (given: string) => Http.notFound(`Token ${given} not found in registry`),
  // not in the spec's table: ranges of the optional parameters
  maxHops: () => Http.badRequest('maxHops must be 1 or 2'),
  maxRoutes: (max: number) => Http.badRequest(`maxRoutes must be an integer between 1 and ${max}`),
  maxSplit: (max: number) => Http.badRequest(`maxSplit must be an integer between 1 and ${max}`),
  slugs: () => Http.badRequest('slugs must be a comma-separated list of protocol slugs'),
  explain: () => Http.badRequest('explain must be true or false'),
  invalidAddressParam: () => Http.badRequest('address must be a 0x address (40 hex characters)'),
  poolNotTracked: (address: string) => Http.notFound(`Pool ${address} is not tracked`),
  noRpc: () => Http.unavailable('Route finder has no chain: RPC_URL is not configured'),
  rpc: (detail: string) => Http.unavailable(`Chain RPC failed: ${detail}`),
  timeout: (ms: number) => new HttpError(503, `Route search timed out after ${ms} ms`),
  protocolsFile: (detail: string) => new HttpError(500, `Protocols file invalid: ${detail}`),
}
