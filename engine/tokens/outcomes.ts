// What resolving a token answers: the token, or a refusal with a code. Each surface words the refusal for
// itself (engine/replies/api.ts): the RFQ API keeps the spec's "Unknown tokenIn" text, the route finder its
// "not found in registry".
import type { Token } from '../store/tokens.js'

export type TokenRefusal =
  /** neither the registry knows it nor (TOKENS_POLICY=list) may the chain be asked */
  | { ok: false; code: 'TOKEN_UNKNOWN'; given: string }
  /** a symbol that names several tokens of one kind (several list entries, or several chain reads and no list entry) */
  | { ok: false; code: 'TOKEN_AMBIGUOUS'; given: string; candidates: string[] }
  /** TOKENS_POLICY=chain: the address holds no contract, or one that does not answer as an ERC-20 */
  | { ok: false; code: 'TOKEN_NOT_ERC20'; given: string; reason: string }
  /** TOKENS_POLICY=chain: the chain did not answer; nothing was cached */
  | { ok: false; code: 'CHAIN_UNAVAILABLE'; reason: string }

export type TokenOutcome = { ok: true; token: Token } | TokenRefusal
