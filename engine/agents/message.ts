// The texts wallets sign (EIP-191 personal_sign) for the agent API. Fixed lines, addresses
// lowercase, so a client can rebuild them byte for byte.

export interface RegistrationFields {
  name: string
  ownerWallet: string
  agentWallet: string
  roles: readonly string[]
  timestamp: number
}

/** Six lines joined by "\n", roles in the order given. */
export function registrationMessage(f: RegistrationFields): string {
  return [
    'RFQ agent registration',
    `name: ${f.name}`,
    `owner: ${f.ownerWallet.toLowerCase()}`,
    `agent: ${f.agentWallet.toLowerCase()}`,
    `roles: ${f.roles.join(',')}`,
    `timestamp: ${f.timestamp}`,
  ].join('\n')
}

/** What a taker signs to cancel an RFQ without an agent key: `Cancel RFQ <id> at <unix seconds>`. */
export function cancelMessage(rfqId: string, timestamp: number): string {
  return `Cancel RFQ ${rfqId} at ${timestamp}`
}

/** Signature and cancel timestamps must be within this many seconds of now, either side. */
export const SIGNATURE_WINDOW_SECS = 300
