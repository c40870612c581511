// What a socket hears: uWS topics, one per encoding, so each broadcast is encoded at most twice however many clients
// listen. `<enc>:rfqs` and `<enc>:quotes` carry the public broadcasts, `<enc>:share:<sha256(token)>` both kinds for one
// private RFQ, only for sockets that presented its token (at connect, in SUBSCRIBE or with a QUOTE_SUBMIT).
import { hashShareToken } from '../../actors/book.js'
import type { Channel } from './broadcasts.js'
import { CHANNELS } from './upgrade.js'
import type { RelaySocket, SocketSession } from './socketSession.js'

/** share tokens one socket may hold: past it, a new token is ignored */
export const MAX_SHARE_TOKENS = 64

/** The topics a new socket joins: its channels and the share token it connected with. */
export function subscribeAtOpen(ws: RelaySocket, session: SocketSession): void {
  for (const channel of session.channels) ws.subscribe(`${session.enc}:${channel}`)
  for (const hash of session.shares.keys()) ws.subscribe(`${session.enc}:share:${hash}`)
}

/** What moves from `current` to `wanted`: the public channels to join and to leave. */
export function channelChanges(
  current: ReadonlySet<Channel>,
  wanted: ReadonlySet<Channel>,
): { join: Channel[]; leave: Channel[] } {
  return {
    join: CHANNELS.filter(channel => wanted.has(channel) && !current.has(channel)),
    leave: CHANNELS.filter(channel => !wanted.has(channel) && current.has(channel)),
  }
}

export function setChannels(ws: RelaySocket, session: SocketSession, wanted: Set<Channel>): void {
  const { join, leave } = channelChanges(session.channels, wanted)
  for (const channel of join) ws.subscribe(`${session.enc}:${channel}`)
  for (const channel of leave) ws.unsubscribe(`${session.enc}:${channel}`)
  session.channels = wanted
}

/** Joins a private RFQ's topic by its token; false when the token is known already or the socket holds its max. */
export function addShare(ws: RelaySocket, session: SocketSession, token: string): boolean {
  const hash = hashShareToken(token)
  if (session.shares.has(hash) || session.shares.size >= MAX_SHARE_TOKENS) return false
  session.shares.set(hash, token)
  ws.subscribe(`${session.enc}:share:${hash}`)
  return true
}
