// Where the nodes speak on NATS: `rfq.v3.<chainId>.<contract>.<node's public key>.<channel>`. The key in the subject
// is what nats-server's permissions hold a node to (it may publish under its own key only), and what a receiver
// checks the message's signature against, so a subject names its speaker twice over. A public nkey is 56 letters
// and digits, never a dot, so no name can pass for another's. (v3: signed messages under per-node subjects.)

/** What travels: a node's RFQ events, its heartbeats, and the rate-limit hits it counted. */
export type Channel = 'events' | 'nodes' | 'limits'
export const CHANNELS: readonly Channel[] = ['events', 'nodes', 'limits']

const ROOT = 'rfq.v3'

/** Where a node publishes: under its own public key. */
export function subjectOf(venue: string, publicKey: string, channel: Channel): string {
  return `${ROOT}.${venue}.${publicKey}.${channel}`
}

/** What a node listens to: every node's messages of one channel in this venue. */
export function channelSubjects(venue: string, channel: Channel): string {
  return `${ROOT}.${venue}.*.${channel}`
}

/** The public key a subject names (its last-but-one token). */
export function keyOfSubject(subject: string): string {
  const end = subject.lastIndexOf('.')
  return subject.slice(subject.lastIndexOf('.', end - 1) + 1, end)
}

/**
 * A node as nats-server.conf's `authorization { users: [...] }` lists it, on one line: known by its public key,
 * allowed to publish under that key only (in any venue), and to read the venue's subjects.
 */
export function natsUser(nodeId: string, publicKey: string): string {
  const permissions = `{ publish: "${ROOT}.*.*.${publicKey}.>", subscribe: "${ROOT}.>" }`
  return `{ nkey: ${publicKey}, permissions: ${permissions} }   # ${nodeId}`
}
