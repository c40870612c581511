// Where a browser reaches the terminal and the relay when a proxy serves them on public names
// (PUBLIC_TERMINAL_URL, PUBLIC_RELAY_URL): the console reads these from /console/config.json, and the
// OpenAPI document names them as its servers. The relay serves REST and its WebSocket on one port, so one
// setting gives both forms: wss:// for the socket, https:// for REST (ws:// and http:// alike).
import type { Config } from '../config.js'

export interface PublicUrls {
  /** null: the host the page was loaded from, at TERMINAL_PORT */
  terminal: string | null
  /** the relay's REST origin; null: this host at RELAY_PORT */
  relay: string | null
  /** the relay's WebSocket URL; null: this host at RELAY_PORT */
  relayWs: string | null
}

export function publicUrls(config: Pick<Config, 'PUBLIC_TERMINAL_URL' | 'PUBLIC_RELAY_URL'>): PublicUrls {
  const relay = config.PUBLIC_RELAY_URL ?? null
  return {
    terminal: config.PUBLIC_TERMINAL_URL ?? null,
    relay: relay && relay.replace(/^ws(s?):/, 'http$1:'),
    relayWs: relay && relay.replace(/^http(s?):/, 'ws$1:'),
  }
}
