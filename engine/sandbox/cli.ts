// The sandbox walk-through's commands: `register` prints a fresh agent API key; `fill <rfqId>`
// fills the best quote on chain as the taker and records the fill with the agent key ($KEY).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'
import { registerAgent, bestQuote, fillOnChain, recordAgentFill } from './agentClient.js'
import { usdValue } from './venue.js'

const state = JSON.parse(readFileSync(join(repoRoot, '.data/sandbox/sandbox.json'), 'utf8'))
const [cmd, arg] = process.argv.slice(2)

if (cmd === 'register') {
  const r = await registerAgent(state.urls.api, state.accounts.agentOwner.privateKey, state.accounts.taker.privateKey, `sandbox-${Date.now()}`)
  process.stdout.write(r.apiKey + '\n')
} else if (cmd === 'fill' && arg) {
  const key = process.env.KEY
  if (!key) throw new Error('set KEY to the agent API key (step 1)')
  const q = await bestQuote(state.urls.relay, arg)
  if (!q) throw new Error(`no quote for ${arg} yet`)
  const { txHash } = await fillOnChain(state.urls.rpc, state.chainId, state.spotRfq, state.accounts.taker.privateKey, q)
  const tokenIn = Object.values(state.tokens as Record<string, { address: string; decimals: number; usd: number }>).find(t => t.address === q.quote.tokenIn.toLowerCase())
  const amountInUsd = tokenIn ? usdValue(tokenIn, BigInt(q.quote.amountIn)) : 0
  const r = await recordAgentFill(state.urls.api, key, arg, q, txHash, amountInUsd)
  console.log(JSON.stringify(r, null, 2))
} else {
  console.error('usage: cli.js register | cli.js fill <rfqId>')
  process.exit(2)
}
