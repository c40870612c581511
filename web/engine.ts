// Where the engine's surfaces are, as the engine says (GET /console/config.json on this origin): the
// API is this page's own origin; the terminal and the relay are on the same host at their ports. The
// token list is read once and shared by every view, so addresses show as symbols with their decimals.
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { getJson } from './http'

export interface ConsoleConfig {
  ports: { api: number; terminal: number; relay: number }
  chainId: number
  version: string
  terminalKeyRequired: boolean
}

export interface Token { address: string; symbol: string | null; decimals: number | null }

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
  return {
    config, api: location.origin,
    terminal: `${location.protocol}//${host}:${config.ports.terminal}`,
    relay: `${location.protocol}//${host}:${config.ports.relay}`,
    relayWs: `${ws}//${host}:${config.ports.relay}`,
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
  const a = (typeof address === 'string' ? address : address?.address ?? '').toLowerCase()
  return e.tokens.get(a) ?? { address: a, symbol: null, decimals: null }
}

export function symbolOf(t: Token): string {
  return t.symbol ?? `${t.address.slice(0, 6)}…${t.address.slice(-4)}`
}

/** The terminal's API key, when the engine runs with API_KEY: asked once, kept for this tab only. */
export const terminalKey = {
  get: () => sessionStorage.getItem('console.terminalKey') ?? '',
  set: (k: string) => k ? sessionStorage.setItem('console.terminalKey', k) : sessionStorage.removeItem('console.terminalKey'),
}

export function terminalHeaders(): Record<string, string> {
  const k = terminalKey.get()
  return k ? { authorization: `Bearer ${k}` } : {}
}
