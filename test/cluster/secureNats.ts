// A nats-server run as a venue runs it (engine/devcluster/devCredentials.ts): TLS with a throw-away CA, one nkey user
// per node allowed to publish under its own key only, no anonymous client. The cluster and fault suites run their
// nodes on it, and speak on the wire themselves as one of its nodes (a node id the test holds the key of) or as a
// client with rights no node has (`users`), through the same seal the nodes use.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node'
import { createUser } from '@nats-io/nkeys'
import { startNatsServer, type NatsServer } from '../../engine/devcluster/natsServer.js'
import {
  devCredentials,
  type DevCredentialOptions,
  type DevCredentials,
} from '../../engine/devcluster/devCredentials.js'
import { nodeKeyFromSeed, type NodeKey } from '../../engine/cluster/nodeKeys.js'
import { seal } from '../../engine/cluster/envelope.js'
import { subjectOf, type Channel } from '../../engine/cluster/subjects.js'

/** the relay's venue on the test chain: chain 31337, SPOT_RFQ_ADDRESS unset */
export const TEST_VENUE = '31337.0x0000000000000000000000000000000000000000'

export interface SecureNats {
  server: NatsServer
  /** tls://127.0.0.1:<port> */
  url: string
  creds: DevCredentials
  /** a node's variables: NATS_URL, NODE_ID, its key, CLUSTER_PEERS, the CA */
  env(id: string, url?: string): Record<string, string>
  /** a NATS client with node `id`'s nkey (or any seed given), over TLS */
  connectAs(id: string | NodeKey): Promise<NatsConnection>
  stop(): Promise<void>
  /** again on the same port, with the same configuration */
  start(): Promise<void>
  /** stops the server and removes its credentials */
  close(): Promise<void>
}

export async function startSecureNats(ids: string[], opts: DevCredentialOptions = {}): Promise<SecureNats> {
  const dir = mkdtempSync(join(tmpdir(), 'secure-nats-'))
  const creds = devCredentials(dir, ids, opts)
  const run = (port?: number) => startNatsServer({ port, args: ['-c', creds.natsConfig] })
  const s: SecureNats = {
    server: await run(),
    url: '',
    creds,
    env: (id, url = s.url) => ({ NATS_URL: url, ...creds.env(id) }),
    connectAs: async who => {
      const seed = typeof who === 'string' ? nodeKeyFromSeed(readFileSync(creds.keyFile(who), 'utf8')).seed : who.seed
      return connect({ servers: s.url, authenticator: nkeyAuthenticator(seed), tls: { caFile: creds.caFile } })
    },
    stop: () => s.server.stop(),
    start: async () => {
      s.server = await run(s.server.port)
    },
    close: async () => {
      await s.server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  s.url = `tls://127.0.0.1:${s.server.port}`
  return s
}

/** A fresh nkey user: its key, and the line nats-server.conf gives it (publish and subscribe on the given subjects). */
export function extraUser(publish: string, subscribe = publish): { key: NodeKey; line: string } {
  const key = nodeKeyFromSeed(new TextDecoder().decode(createUser().getSeed()))
  return { key, line: `{ nkey: ${key.publicKey}, permissions: { publish: "${publish}", subscribe: "${subscribe}" } }` }
}

/** Speaks as node `id`, signed with `key` (a forger's, if it is not `id`'s), under `key`'s subjects or `subjectKey`'s. */
export function speaker(
  nc: NatsConnection,
  id: string,
  key: NodeKey,
  opts: { epoch?: number; subjectKey?: string } = {},
) {
  const seqs: Record<Channel, number> = { events: 0, nodes: 0, limits: 0 }
  const epoch = opts.epoch ?? Date.now()
  return {
    /** seals and publishes; returns the bytes, to replay or alter */
    send(channel: Channel, body: unknown, seq = ++seqs[channel]): Uint8Array {
      const bytes = seal(key.privateKey, channel, id, epoch, seq, body)
      nc.publish(subjectOf(TEST_VENUE, opts.subjectKey ?? key.publicKey, channel), bytes)
      return bytes
    },
    /** the last number sent on a channel */
    last: (channel: Channel) => seqs[channel],
    raw(channel: Channel, bytes: Uint8Array): void {
      nc.publish(subjectOf(TEST_VENUE, opts.subjectKey ?? key.publicKey, channel), bytes)
    },
  }
}

/** What a node's /metrics says it dropped, by reason (and in all). */
export async function dropped(api: string): Promise<Record<string, number> & { all: number }> {
  const text = await (await fetch(`${api}/metrics`)).text()
  const byReason: Record<string, number> = {}
  for (const m of text.matchAll(/^cluster_messages_dropped_total\{reason="(\w+)"\} (\d+)$/gm))
    byReason[m[1]!] = Number(m[2])
  return Object.assign(byReason, { all: Object.values(byReason).reduce((a, b) => a + b, 0) })
}
