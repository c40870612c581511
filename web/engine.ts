// Where the engine's surfaces are, as the engine says (GET /console/config.json on this origin): the
// API is this page's own origin; the terminal and the relay are at their public URLs when the engine runs
// behind a proxy (PUBLIC_TERMINAL_URL, PUBLIC_RELAY_URL), else on the same host at their ports. The
// token list is read once and shared by every view, so addresses show as symbols with their decimals.
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { getJson } from './http'

export interface ConsoleConfig {
  ports: { api: number; terminal: number; relay: number }
  /** public URLs behind a proxy; null: this page's host at the port */
  urls: { terminal: string | null; relay: string | null; relayWs: string | null }
  chainId: number
  version: string
  terminalKeyRequired: boolean
}

export interface Token {
  address: string
  symbol: string | null
  decimals: number | null
}

export interface Engine {
  config: ConsoleConfig
  api: string
  terminal: string
  relay: string
  relayWs: string
  tokens: Map<string, Token>
  tokenList: Token[]
}

export async function connectEngine(): Promise<Engine> {
  const config = await getJson<ConsoleConfig>('/console/config.json')
  const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname
  const { tokens } = await getJson<{ tokens: Token[] }>('/api/v1/tokens')
  const ws = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const urls = config.urls ?? { terminal: null, relay: null, relayWs: null }
  return {
    config,
    api: location.origin,
    terminal: urls.terminal ?? `${location.protocol}//${host}:${config.ports.terminal}`,
    relay: urls.relay ?? `${location.protocol}//${host}:${config.ports.relay}`,
    relayWs: urls.relayWs ?? `${ws}//${host}:${config.ports.relay}`,
    tokens: new Map(tokens.map(t => [t.address.toLowerCase(), t])),
    tokenList: tokens,
  }
}

export const EngineContext = createContext<Engine | null>(null)

export function useEngine(): Engine {
  const e = useContext(EngineContext)
  if (!e) throw new Error('useEngine outside the console')
  return e
}

/** A token by address: the registry's, else the address itself with unknown decimals. */
export function tokenOf(e: Engine, address: string | { address: string } | null | undefined): Token {
  const a = (typeof address === 'string' ? address : (address?.address ?? '')).toLowerCase()
  return e.tokens.get(a) ?? { address: a, symbol: null, decimals: null }
}

export function symbolOf(t: Token): string {
  return t.symbol ?? `${t.address.slice(0, 6)}…${t.address.slice(-4)}`
}

/** Each token's name in a list: its symbol, and its short address too when another token has the same symbol. */
export function tokenLabels(list: Token[]): Map<string, string> {
  const count = new Map<string, number>()
  for (const t of list) count.set(symbolOf(t).toLowerCase(), (count.get(symbolOf(t).toLowerCase()) ?? 0) + 1)
  return new Map(
    list.map(t => {
      const s = symbolOf(t)
      const shared = (count.get(s.toLowerCase()) ?? 0) > 1 && t.symbol
      return [t.address, shared ? `${s} (${t.address.slice(0, 6)}…${t.address.slice(-4)})` : s]
    }),
  )
}

/** The terminal's API key, when the engine runs with API_KEY: asked once, kept for this tab only. */
export const terminalKey = {
  get: () => sessionStorage.getItem('console.terminalKey') ?? '',
  set: (k: string) =>
    k ? sessionStorage.setItem('console.terminalKey', k) : sessionStorage.removeItem('console.terminalKey'),
}

export function terminalHeaders(): Record<string, string> {
  const k = terminalKey.get()
  return k ? { authorization: `Bearer ${k}` } : {}
}
