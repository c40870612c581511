// What `make sandbox` prints once everything runs: every surface, the accounts with their keys (the
// sandbox's throw-away keys, said so), and a walk-through that needs nothing copied by hand.
import type { Sandbox } from './start.js'

export function sandboxBanner({ urls, venue, files }: Pick<Sandbox, 'urls' | 'venue' | 'files'>, dir?: string): string {
  const a = venue.accounts
  const cli = `node dist/engine/sandbox/cli.js${dir ? ` --dir ${dir}` : ''}`
  return `
Sandbox is up (chain ${venue.chainId}). Addresses: ${files.addresses}

  api       ${urls.api}         (RFQs, agents, fills, route finder, league)
  openapi   ${urls.api}/api/v1/openapi.json
  metrics   ${urls.api}/metrics
  terminal  ${urls.terminal}    (options market data)
  relay     ${urls.relayWs}     (WebSocket; REST on ${urls.relay})
  chain     ${urls.rpc}         (anvil, chain id ${venue.chainId})
  SpotRFQ   ${venue.spotRfq}

Tokens: ${Object.entries(venue.tokens)
    .map(([s, t]) => `${s} ${t.address} (${t.decimals} dp)`)
    .join('\n        ')}

Accounts: anvil's public development keys, throw-away keys for this sandbox only; never use them elsewhere.
  maker  ${a.maker.address}  key ${a.maker.privateKey}  (the sandbox maker bot quotes with it)
  taker  ${a.taker.address}  key ${a.taker.privateKey}
  owner  ${a.agentOwner.address}  key ${a.agentOwner.privateKey}  (owns the agents cli.js registers)

Try it (in another terminal, from this folder):
  1. Register an agent (the owner signs; the agent's wallet is the taker):
       export KEY=$(${cli} register)
  2. Ask for a price on 1 WETH -> USDC (prints the RFQ id and remembers it):
       ${cli} rfq --in WETH --out USDC --amount 1
  3. Watch the maker's quote arrive:  curl -s "${urls.relay}/quotes?rfqId=$(${cli} last)"
  4. Fill the best quote on chain as the taker and record the fill:
       ${cli} fill --last
  5. See it benchmarked and ranked:
       curl -s "${urls.api}/api/v1/rfq/performance?rfqId=$(${cli} last)"
       curl -s '${urls.api}/api/v1/league?role=taker'

Every command: ${cli} --help. Ctrl-C stops everything.
`
}
