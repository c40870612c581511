// A node's connection to nats-server: its credential (the one NATS_URL carries, else its nkey: nats-server sends a
// nonce, the node signs it with CLUSTER_NODE_KEY_FILE's key), and TLS (NATS_TLS_*, or a tls:// URL). A refusal at
// start is one line saying what to fix, by its variable. A server that lets anyone in, or a link in clear, is a
// warning at start: the node still joins (its peers still check every signature), but whoever reaches the port can
// read the venue's private RFQs and quotes, and flood the wire.
import { connect as tcp } from 'node:net'
import { connect, nkeyAuthenticator, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node'
import type { Logger } from 'pino'
import type { ClusterIdentity } from './identity.js'
import { parseNatsUrl, type NatsTarget } from './natsUrl.js'

const WHO = 'docs/cluster.md#who-may-speak-on-the-wire'

export async function connectNats(
  url: string,
  id: ClusterIdentity,
  log: Logger,
): Promise<{ nc: NatsConnection; redacted: string }> {
  const target = parseNatsUrl(url)
  const credential: Partial<ConnectionOptions> = target.token
    ? { token: target.token }
    : target.user
      ? { user: target.user, pass: target.pass }
      : { authenticator: nkeyAuthenticator(id.key.seed) }
  const tls = id.tls ?? (target.servers.some(s => s.startsWith('tls://')) ? {} : undefined)
  let nc: NatsConnection
  try {
    // noEcho: a node never hears its own messages back; reconnects forever, even while the server refuses its key
    // (its users being edited): it rejoins without a restart once the key is let in again. What is sent while the
    // link is down is lost (the client drops its buffer when it reconnects): the sequence numbers tell the others
    nc = await connect({
      servers: target.servers,
      ...credential,
      ...(tls ? { tls } : {}),
      name: id.nodeId,
      noEcho: true,
      maxReconnectAttempts: -1,
      ignoreAuthErrorAbort: true,
      reconnectTimeWait: 250,
      pingInterval: 5000,
      timeout: 5000,
    })
  } catch (err) {
    throw new Error(`NATS at ${target.redacted} ${await refusal(err, target, id)}`)
  }
  warnIfOpen(nc, target.redacted, log)
  if (!tls && !nc.info?.tls_required) {
    log.warn(
      { nats: target.redacted, see: WHO },
      'the NATS link is not encrypted: private RFQs, quotes and their ' +
        'signatures cross the network in clear; give nats-server a tls {} block and the nodes NATS_TLS_CA_FILE',
    )
  }
  return { nc, redacted: target.redacted }
}

/** Said at start, and again after a reconnect (a server restarted with its users gone lets anyone in). */
export function warnIfOpen(nc: NatsConnection, redacted: string, log: Logger): void {
  if (nc.info?.auth_required) return
  log.warn(
    { nats: redacted, see: WHO },
    'NATS accepts anonymous clients: anyone who reaches it can read ' +
      'every private RFQ and quote and flood the wire (the nodes still drop what their peers did not sign); ' +
      'give each node an nkey user',
  )
}

/** What a failed first connection means, and the variable to fix. */
async function refusal(err: unknown, target: NatsTarget, id: ClusterIdentity): Promise<string> {
  const { message = String(err), code = '' } = (err ?? {}) as { message?: string; code?: string }
  const cause = (err as { cause?: { message?: string; code?: string } })?.cause
  const text = `${message} ${code} ${cause?.message ?? ''} ${cause?.code ?? ''}`
  if (/authorization violation|authentication/i.test(text)) {
    return target.token || target.user
      ? `refused the credential in NATS_URL (${message}): fix NATS_URL`
      : `refused this node's nkey ${id.key.publicKey} (${message}): nats-server.conf must list it as a user (${WHO}); ` +
          "fix CLUSTER_NODE_KEY_FILE or the server's users"
  }
  if (/does not support 'tls'/.test(text)) {
    return 'does not offer TLS, which NATS_TLS_CA_FILE asks for: give nats-server a tls {} block, or fix NATS_URL'
  }
  if (/certificate required|CERTIFICATE_REQUIRED|bad certificate|unknown ca|ALERT/i.test(text)) {
    return `refused this node's TLS client certificate (${message}): fix NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE`
  }
  if (/certificate|self.signed|issuer|altname|ERR_TLS|SSL/i.test(text)) {
    return (
      `failed TLS (${message}): NATS_TLS_CA_FILE must hold the CA that signed nats-server's certificate, ` +
      'for the name in NATS_URL'
    )
  }
  // a server that checks client certificates drops a TLS 1.3 client it refuses after the handshake, without a word;
  // its greeting (sent before TLS) says that it checks them
  if ((await greeting(target.servers[0]!))?.tls_verify === true) {
    return id.tls?.cert
      ? `dropped this node's TLS client certificate (${message}): ` +
          'NATS_TLS_CERT_FILE must be signed by the CA nats-server trusts'
      : 'asks every client for a TLS certificate and this node has none: set NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE'
  }
  return `does not answer (${message}): start nats-server or fix NATS_URL`
}

/** The INFO line a NATS server greets every connection with (before any TLS), or undefined. */
function greeting(server: string): Promise<Record<string, unknown> | undefined> {
  const { hostname, port } = new URL(server)
  return new Promise(resolve => {
    const sock = tcp(Number(port) || 4222, hostname.replace(/^\[|\]$/g, ''))
    let buf = ''
    const done = (info?: Record<string, unknown>) => {
      clearTimeout(timer)
      sock.destroy()
      resolve(info)
    }
    const timer = setTimeout(() => done(), 2000)
    sock.on('data', d => {
      buf += d.toString()
      const m = /^INFO (\{.*\})[ \t]*\r?\n/.exec(buf)
      if (m) {
        try {
          done(JSON.parse(m[1]!))
        } catch {
          done() // an INFO that is not JSON: no greeting to read
        }
      }
    })
    sock.on('error', () => done())
  })
}
