// What resolving a token answers: the token, or a refusal with a code. Each surface words the refusal for
// itself (engine/replies/api.ts): the RFQ API keeps the spec's "Unknown tokenIn" text, the route finder its
// "not found in registry".
import type { Token } from '../store/tokens.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export type TokenRefusal =
  /** neither the registry knows it nor (TOKENS_POLICY=list) may the chain be asked */
  | (Refused<'TOKEN_UNKNOWN'> & { given: string })
  /** a symbol that names several tokens of one kind (several list entries, or several chain reads and no list entry) */
  | (Refused<'TOKEN_AMBIGUOUS'> & { given: string; candidates: string[] })
  /** TOKENS_POLICY=chain: the address holds no contract, or one that does not answer as an ERC-20 */
  | (Refused<'TOKEN_NOT_ERC20'> & { given: string; reason: string })
  /** TOKENS_POLICY=chain: the chain did not answer; nothing was cached */
  | (Refused<'CHAIN_UNAVAILABLE'> & { reason: string })

export type TokenOutcome = Outcome<{ token: Token }, TokenRefusal>
