// Who this node is on the wire, read once when it joins: its key (CLUSTER_NODE_KEY_FILE), the venue's nodes
// (CLUSTER_PEERS), its name among them (NODE_ID) and its TLS files (NATS_TLS_*). A file that cannot be read, a key
// CLUSTER_PEERS does not give this node's name, or half a client certificate stops the start with one line naming
// the variable, as a bad value does (exit 2: a restart would not fix it).
import { readFileSync } from 'node:fs'
import { ConfigError, type Config } from '../config.js'
import { nodeKeyFromSeed, parsePeers, type NodeKey, type Peer } from './nodeKeys.js'

export interface ClusterIdentity {
  nodeId: string
  key: NodeKey
  /** every node of the venue, this one included, by public key */
  peers: Map<string, Peer>
  /** PEM contents; unset: no TLS asked for (a tls:// URL still asks for it, with the system's CAs) */
  tls?: { ca?: string; cert?: string; key?: string }
}

type Variable =
  | 'CLUSTER_NODE_KEY_FILE'
  | 'CLUSTER_PEERS'
  | 'NODE_ID'
  | 'NATS_TLS_CA_FILE'
  | 'NATS_TLS_CERT_FILE'
  | 'NATS_TLS_KEY_FILE'

export function clusterIdentity(c: Config): ClusterIdentity {
  const fail = (name: Variable, why: string): never => {
    throw new ConfigError(`invalid configuration: ${name}=${JSON.stringify(c[name] ?? '')}: ${why}`)
  }
  const need = 'required with NATS_URL (docs/cluster.md#who-may-speak-on-the-wire)'
  if (!c.CLUSTER_NODE_KEY_FILE) fail('CLUSTER_NODE_KEY_FILE', `${need}: a file holding this node's nkey seed`)
  if (!c.CLUSTER_PEERS) fail('CLUSTER_PEERS', `${need}: every node's NODE_ID:public-nkey`)
  if (!c.NODE_ID) fail('NODE_ID', `${need}: this node's name in CLUSTER_PEERS`)
  const read = (name: Variable) => {
    try {
      return readFileSync(c[name]!, 'utf8')
    } catch (e) {
      return fail(name, `cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
    }
  }
  let key: NodeKey
  try {
    key = nodeKeyFromSeed(read('CLUSTER_NODE_KEY_FILE'))
  } catch (e) {
    if (e instanceof ConfigError) throw e
    return fail('CLUSTER_NODE_KEY_FILE', (e as Error).message)
  }
  let peers: Map<string, Peer>
  try {
    peers = parsePeers(c.CLUSTER_PEERS!)
  } catch (e) {
    return fail('CLUSTER_PEERS', (e as Error).message)
  }
  const self = peers.get(key.publicKey)
  if (!self) {
    fail(
      'CLUSTER_PEERS',
      `does not list this node's key (${key.publicKey}, from CLUSTER_NODE_KEY_FILE): ` +
        `add ${c.NODE_ID}:${key.publicKey}`,
    )
  }
  if (self!.id !== c.NODE_ID) fail('NODE_ID', `CLUSTER_PEERS names this node's key ${self!.id}`)
  if (!c.NATS_TLS_CERT_FILE !== !c.NATS_TLS_KEY_FILE) {
    fail(
      c.NATS_TLS_CERT_FILE ? 'NATS_TLS_KEY_FILE' : 'NATS_TLS_CERT_FILE',
      'a client certificate needs both NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE',
    )
  }
  const pem = (name: Variable, kind: string) => {
    if (!c[name]) return undefined
    const text = read(name)
    return text.includes('-----BEGIN ') && text.includes(`${kind}-----`)
      ? text
      : fail(name, `not a PEM file holding a ${kind.toLowerCase()}`)
  }
  const tls =
    c.NATS_TLS_CA_FILE || c.NATS_TLS_CERT_FILE
      ? {
          ca: pem('NATS_TLS_CA_FILE', 'CERTIFICATE'),
          cert: pem('NATS_TLS_CERT_FILE', 'CERTIFICATE'),
          key: pem('NATS_TLS_KEY_FILE', 'PRIVATE KEY'),
        }
      : undefined
  return { nodeId: c.NODE_ID!, key, peers, tls }
}
