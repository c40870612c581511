// The EIP-712 domain quotes are signed under, from the config: name `SpotRFQ` (EIP712_NAME),
// version `1`, CHAIN_ID, SPOT_RFQ_ADDRESS. Without a contract address the zero address stands in,
// so a local relay still validates (makers read the domain from GET /health and sign under it).
import type { Config } from '../config.js'
import type { Domain } from '../../workers/sig/types.js'
import { DOMAIN_VERSION } from '../../workers/sig/quoteHash.js'
import { ZERO_ADDRESS } from '../../workers/values/index.js'

export function relayDomain(
  config: Pick<Config, 'EIP712_NAME' | 'CHAIN_ID' | 'SPOT_RFQ_ADDRESS'>,
): Domain & { chainId: number } {
  return {
    name: config.EIP712_NAME,
    version: DOMAIN_VERSION,
    chainId: config.CHAIN_ID,
    verifyingContract: config.SPOT_RFQ_ADDRESS ?? ZERO_ADDRESS,
  }
}
