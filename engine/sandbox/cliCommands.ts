// The CLI's commands as functions: each prints what a script needs on stdout, what a person needs on
// stderr, and fails with a CliFailure (one line, a code, the next step). Used by cli.ts only.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createPublicClient,
  http,
  parseEventLogs,
  parseUnits,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
} from 'viem'
import { foundry } from 'viem/chains'
import { registerAgent, bestQuote, fillOnChain, call, type RelayQuote } from './agentClient.js'
import { preflight, revertFailure, type TokenInfo } from './chainChecks.js'
import { usdValue } from './venue.js'
import { spotRfqArtifact } from '../chain/spotRfq.js'
import { CliFailure, ApiRefusal } from './cliFailure.js'

export interface SandboxState {
  urls: { api: string; relay: string; rpc: string }
  chainId: number
  spotRfq: Address
  accounts: Record<'maker' | 'taker' | 'agentOwner', { address: Address; privateKey: Hex }>
  tokens: Record<string, { address: string; decimals: number; usd: number }>
}

const say = (line: string) => process.stderr.write(line + '\n')

export function requireKey(): string {
  const key = process.env.KEY
  if (!key)
    throw new CliFailure(
      'NO_KEY',
      'KEY is not set',
      'register an agent first: export KEY=$(node dist/engine/sandbox/cli.js register)',
    )
  return key
}

export async function register(
  api: string,
  ownerKey: Hex,
  agent: Hex /* the agent's private key, or its address */,
  name: string,
  roles: string[],
): Promise<void> {
  const r = await registerAgent(api, ownerKey, agent, name, roles)
  process.stdout.write(r.apiKey + '\n')
  say(
    `agent ${r.agentId} registered (wallet ${r.agentWallet}, roles ${roles.join(', ')}); keep the key: it is shown once`,
  )
}

export async function createRfq(
  s: SandboxState,
  dir: string,
  key: string,
  o: { tokenIn: string; tokenOut: string; amount: string; ttl?: string; private?: boolean },
): Promise<void> {
  await checkKey(s.urls.api, key)
  const tokenIn = s.tokens[o.tokenIn.toUpperCase()]
  if (!tokenIn)
    throw new CliFailure(
      'UNKNOWN_TOKEN',
      `no sandbox token ${o.tokenIn}`,
      `use one of ${Object.keys(s.tokens).join(', ')}`,
    )
  let amountIn: bigint
  try {
    amountIn = parseUnits(o.amount, tokenIn.decimals)
  } catch {
    throw new CliFailure(
      'BAD_AMOUNT',
      `--amount ${o.amount} is not a number of ${o.tokenIn}`,
      'give it in token units, e.g. --amount 1.5',
    )
  }
  const ttlSeconds = o.ttl === undefined ? undefined : Number(o.ttl)
  const r = await call<{ rfqId: string; shareToken: string | null; expiry: number }>(
    'POST',
    `${s.urls.api}/api/v1/agent/rfqs`,
    {
      tokenIn: o.tokenIn,
      tokenOut: o.tokenOut,
      amountIn: amountIn.toString(),
      ttlSeconds,
      visibility: o.private ? 'private' : 'public',
    },
    key,
  )
  writeFileSync(join(dir, 'last-rfq.json'), JSON.stringify({ rfqId: r.rfqId, shareToken: r.shareToken }))
  process.stdout.write(r.rfqId + '\n')
  say(
    `RFQ ${r.rfqId}: ${o.amount} ${o.tokenIn} -> ${o.tokenOut}, open until ${new Date(r.expiry * 1000).toISOString()}; fill it with \`cli.js fill --last\``,
  )
}

export function lastRfq(dir: string): { rfqId: string; shareToken: string | null } {
  const file = join(dir, 'last-rfq.json')
  if (!existsSync(file))
    throw new CliFailure(
      'NO_LAST_RFQ',
      'no RFQ asked for from this sandbox yet',
      'ask for one with `cli.js rfq --in WETH --out USDC --amount 1`',
    )
  return JSON.parse(readFileSync(file, 'utf8'))
}

export async function fill(s: SandboxState, key: string, rfqId: string, shareToken: string | null): Promise<void> {
  await checkKey(s.urls.api, key)
  await requireFillable(s.urls.api, key, rfqId)
  const q = await bestQuote(s.urls.relay, rfqId, shareToken)
  if (!q)
    throw new CliFailure(
      'NO_QUOTE',
      `no quote for ${rfqId} yet`,
      `wait a moment for the maker bot, then run fill again (quotes: ${s.urls.relay}/quotes?rfqId=${rfqId})`,
    )
  const tokens = tokenList(s)
  await preflight(s.urls.rpc, s.chainId, s.spotRfq, s.accounts.taker.address, q, tokens)
  let sent: Hex | undefined
  try {
    await fillOnChain(s.urls.rpc, s.chainId, s.spotRfq, s.accounts.taker.privateKey, q, txHash => {
      sent = txHash
      process.stdout.write(`txHash ${txHash}\n`)
    })
  } catch (e) {
    if (!sent) throw revertFailure(e)
    throw new CliFailure(
      'FILL_NOT_CONFIRMED',
      `the fill was sent (tx ${sent}) but not confirmed: ${(e as Error).message.split('\n')[0]}`,
      `check it on chain; if it settled, record it with \`cli.js record ${rfqId} ${sent}\``,
    )
  }
  await recordOrExplain(s, key, rfqId, sent!, q)
}

/** Records a fill that is already on chain, reading its terms from the QuoteFilled event. */
export async function record(s: SandboxState, key: string, rfqId: string, txHash: Hex): Promise<void> {
  await checkKey(s.urls.api, key)
  const client = createPublicClient({ chain: { ...foundry, id: s.chainId }, transport: http(s.urls.rpc) })
  // no such transaction is the user's to fix (below); a chain that does not answer is not that, and says so itself
  const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return null
    throw e
  })
  if (!receipt || receipt.status !== 'success')
    throw new CliFailure(
      'NO_FILL_TX',
      `${txHash} is not a settled transaction on the sandbox chain`,
      'give the txHash that `cli.js fill` printed',
    )
  const [event] = parseEventLogs({
    abi: spotRfqArtifact().abi,
    logs: receipt.logs,
    eventName: 'QuoteFilled',
  }) as unknown as { args: { maker: Address; tokenIn: Address; amountIn: bigint; amountOut: bigint } }[]
  if (!event)
    throw new CliFailure(
      'NO_FILL_TX',
      `${txHash} has no SpotRFQ QuoteFilled event`,
      'give the txHash that `cli.js fill` printed',
    )
  const q = {
    quote: {
      maker: event.args.maker,
      tokenIn: event.args.tokenIn,
      amountIn: event.args.amountIn.toString(),
      amountOut: event.args.amountOut.toString(),
    },
  } as RelayQuote
  await recordOrExplain(s, key, rfqId, txHash, q)
}

async function recordOrExplain(
  s: SandboxState,
  key: string,
  rfqId: string,
  txHash: Hex,
  q: Pick<RelayQuote, 'quote'>,
): Promise<void> {
  const tokenIn = tokenList(s).find(t => t.address === q.quote.tokenIn.toLowerCase())
  const amountInUsd = tokenIn ? usdValue(s.tokens[tokenIn.symbol]!, BigInt(q.quote.amountIn)) : 0
  try {
    const r = await call(
      'POST',
      `${s.urls.api}/api/v1/agent/rfqs/${encodeURIComponent(rfqId)}/fill`,
      { txHash, maker: q.quote.maker, amountIn: q.quote.amountIn, amountOut: q.quote.amountOut, amountInUsd },
      key,
    )
    process.stdout.write(JSON.stringify(r, null, 2) + '\n')
  } catch (e) {
    const why =
      e instanceof ApiRefusal ? `${e.status} ${e.body?.error ?? ''}`.trim() : (e as Error).message.split('\n')[0]
    throw new CliFailure(
      'NOT_RECORDED',
      `the fill is on chain (tx ${txHash}) but was not recorded: ${why}`,
      `record it with the key of the agent that asked for this RFQ: KEY=<that key> node dist/engine/sandbox/cli.js record ${rfqId} ${txHash}`,
    )
  }
}

/** A key the engine does not know fails here, before anything is sent on chain. */
async function checkKey(api: string, key: string): Promise<void> {
  try {
    await call('GET', `${api}/api/v1/agent/auth`, undefined, key)
  } catch (e) {
    if (e instanceof ApiRefusal && e.status === 401)
      throw new CliFailure(
        'BAD_KEY',
        `KEY is not an agent key this engine knows (${e.body?.error ?? '401'})`,
        'register one: export KEY=$(node dist/engine/sandbox/cli.js register); nothing was sent',
      )
    throw e
  }
}

/** The fill rule as the API states it (docs/rfq-api.md): FILLED, CANCELLED and EXPIRED RFQs are not filled. */
async function requireFillable(api: string, key: string, rfqId: string): Promise<void> {
  const url = `${api}/api/v1/rfqs/${encodeURIComponent(rfqId)}`
  const detail = await call<{ status: string; fillTxHash?: string | null }>('GET', url)
    .catch((e: unknown) => {
      if (e instanceof ApiRefusal && e.status === 404) return call<{ status: string }>('GET', url, undefined, key) // private: its agent sees it
      throw e
    })
    .catch((e: unknown) => {
      if (e instanceof ApiRefusal && e.status === 404)
        throw new CliFailure(
          'RFQ_NOT_FOUND',
          `no RFQ ${rfqId} (or a private one this KEY did not create)`,
          'check the id: `cli.js last` prints the last one',
        )
      throw e
    })
  const next = 'ask for a new price with `cli.js rfq`; nothing was sent'
  if (detail.status === 'FILLED')
    throw new CliFailure(
      'RFQ_FILLED',
      `RFQ ${rfqId} is already filled${'fillTxHash' in detail && detail.fillTxHash ? ` (tx ${detail.fillTxHash})` : ''}`,
      next,
    )
  if (detail.status === 'EXPIRED') throw new CliFailure('RFQ_EXPIRED', `RFQ ${rfqId} has expired`, next)
  if (detail.status === 'CANCELLED') throw new CliFailure('RFQ_CANCELLED', `RFQ ${rfqId} was cancelled`, next)
}

function tokenList(s: SandboxState): TokenInfo[] {
  return Object.entries(s.tokens).map(([symbol, t]) => ({
    symbol,
    address: t.address.toLowerCase(),
    decimals: t.decimals,
  }))
}
