// The sandbox walk-through's commands: `register` prints a fresh agent API key; `fill <rfqId>`
// fills the best quote on chain as the taker and records the fill with the agent key ($KEY).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'
import { registerAgent, bestQuote, fillOnChain, recordAgentFill } from './agentClient.js'
import { usdValue } from './venue.js'
import { parseCli } from '../ops/cli.js'
import { holderOf } from '../ops/instanceLock.js'

const { positionals } = parseCli('cli.js', `Usage: node dist/engine/sandbox/cli.js <command>

Commands for the sandbox walk-through (docs/sandbox.md), against the sandbox \`make sandbox\` started:
  register          registers an agent whose wallet is the sandbox's taker; prints its API key
  fill <rfqId>      fills the RFQ's best quote on chain as the taker, then records the fill with $KEY`, {}, { positionals: true })
const [cmd, arg] = positionals
const stateFile = join(repoRoot, '.data/sandbox/sandbox.json')
// the sandbox's lock says whether one runs (a sandbox.json left by a stopped one proves nothing)
if (!existsSync(stateFile) || !await holderOf('sandbox', join(repoRoot, '.data/sandbox'))) {
  console.error('no sandbox running; start one with `make sandbox`')
  process.exit(1)
}
const state = JSON.parse(readFileSync(stateFile, 'utf8'))

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
