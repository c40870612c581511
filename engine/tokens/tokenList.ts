// Reading a token list: a file in the Token Lists format (https://tokenlists.org), checked against the
// schema `@uniswap/token-lists` publishes, then the entries of one chain taken out. Anything wrong is one
// line naming the file and, where there is one, the entry: the start stops there, nothing half-loaded.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { ConfigError } from '../config.js'
import { isAddress, type Address } from '../../workers/values/index.js'

export interface ListedToken {
  address: Address
  symbol: string
  decimals: number
  name: string
  /** its index in the file's `tokens`, for messages */
  entry: number
}

export interface TokenList {
  /** how messages name the list: `TOKENS_FILE=/etc/…` or the shipped list's file */
  source: string
  name: string
  version: string
  chainId: number
  tokens: ListedToken[]
}

/** A list that cannot be used: the message is one line naming the file and the entry. */
export class TokenListError extends ConfigError {
  override name = 'TokenListError'
}

let validator: ValidateFunction | undefined
function validate(doc: unknown): ErrorObject[] {
  if (!validator) {
    const schema = createRequire(import.meta.url)('@uniswap/token-lists/src/tokenlist.schema.json') as object
    const ajv = new Ajv({ allErrors: false, strict: false })
    ;(addFormats as unknown as (a: Ajv) => void)(ajv)
    validator = ajv.compile(schema)
  }
  return validator(doc) ? [] : (validator.errors ?? [])
}

/** The entries of `chainId` in the Token Lists file `file`; `source` names it in messages. */
export function readTokenList(file: string, chainId: number, source: string): TokenList {
  let doc: unknown
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message.split('\n')[0]
    throw new TokenListError(`${source}: not a readable JSON token list (${why})`)
  }
  const errors = validate(doc)
  if (errors.length) throw new TokenListError(`${source}: not a valid token list: ${describe(doc, errors)}`)
  const list = doc as {
    name: string
    version: Record<'major' | 'minor' | 'patch', number>
    tokens: Record<string, unknown>[]
  }
  const tokens: ListedToken[] = []
  const seen = new Map<string, number>()
  list.tokens.forEach((t, entry) => {
    if (t.chainId !== chainId) return
    const at = `${source}: entry ${entry} (${String(t.symbol)} ${String(t.address)})`
    if (!isAddress(t.address)) throw new TokenListError(`${at}: the address is not an EVM address (0x + 40 hex digits)`)
    const address = t.address.toLowerCase() as Address
    const first = seen.get(address)
    if (first !== undefined) throw new TokenListError(`${at}: the same address as entry ${first} on chain ${chainId}`)
    seen.set(address, entry)
    tokens.push({ address, symbol: t.symbol as string, decimals: t.decimals as number, name: t.name as string, entry })
  })
  if (!tokens.length) {
    const chains = [...new Set(list.tokens.map(t => t.chainId as number))].sort((a, b) => a - b)
    throw new TokenListError(
      `${source}: no token for chain ${chainId} (CHAIN_ID); the list has chains ${chains.join(', ')}`,
    )
  }
  const v = list.version
  return { source, name: list.name, version: `${v.major}.${v.minor}.${v.patch}`, chainId, tokens }
}

// The schema's first complaint, as a sentence: where (the entry, with its symbol and address), what field, why.
function describe(doc: unknown, errors: ErrorObject[]): string {
  const first = errors[0]!
  // an anyOf (symbol, name: empty or a pattern) fails with one error per branch: the pattern says the rule
  const e = errors.find(x => x.instancePath === first.instancePath && x.keyword === 'pattern') ?? first
  const m = /^\/tokens\/(\d+)(\/.*)?$/.exec(e.instancePath)
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
      : ''
  if (!m) return `${e.instancePath || 'the document'} ${e.message}${extra}`
  const token = (doc as { tokens: Record<string, unknown>[] }).tokens[Number(m[1])] ?? {}
  const field = m[2] ? `${m[2].slice(1)} ${JSON.stringify(valueAt(token, m[2]))} ` : ''
  return `entry ${m[1]} (${String(token.symbol)} ${String(token.address)}): ${field}${e.message}${extra}`
}

function valueAt(o: unknown, path: string): unknown {
  return path
    .split('/')
    .slice(1)
    .reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o)
}
