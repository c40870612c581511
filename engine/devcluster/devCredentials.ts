// The credentials of a cluster on this machine (`make cluster`, the cluster tests and bench), made on first use
// and kept under DIR: a throw-away CA and nats-server's certificate for 127.0.0.1 and localhost (DIR/tls, made
// by Debian's openssl; Node's crypto makes keys but no certificates), an nkey per node (DIR/keys/<id>.nk, mode
// 0600), and nats-server's configuration (DIR/nats.conf): TLS required, no anonymous client, each node known by
// its key and allowed to publish under it only. The nodes get CLUSTER_NODE_KEY_FILE, CLUSTER_PEERS and
// NATS_TLS_CA_FILE from `env`, so they run as deploy/ tells a venue to run them. Nothing here is for production:
// deploy/README.md says how to bring your own CA and keys.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { createUser } from '@nats-io/nkeys'
import { nodeKeyFromSeed } from '../cluster/nodeKeys.js'
import { natsUser } from '../cluster/subjects.js'

export const OPENSSL_MISSING = 'openssl is missing: apt-get install openssl (or set OPENSSL_BIN)'

export interface DevCredentials {
  /** the throw-away CA the nodes trust (NATS_TLS_CA_FILE) */
  caFile: string
  /** nats-server's configuration: pass it with -c */
  natsConfig: string
  /** CLUSTER_PEERS for every node */
  peers: string
  keyFile(id: string): string
  publicKey(id: string): string
  /** a node's cluster variables: NODE_ID and the four above (and its client certificate, when made) */
  env(id: string): Record<string, string>
}

export interface DevCredentialOptions {
  /** more `authorization.users` entries (a test's own clients), one line each */
  users?: string[]
  /** a client certificate per node, and a server that asks for one (tls { verify: true }) */
  clientCertificates?: boolean
}

export function devCredentials(dir: string, ids: string[], opts: DevCredentialOptions = {}): DevCredentials {
  const tls = join(dir, 'tls'),
    keys = join(dir, 'keys')
  mkdirSync(tls, { recursive: true, mode: 0o700 })
  mkdirSync(keys, { recursive: true, mode: 0o700 })
  const ca = join(tls, 'ca.pem'),
    caKey = join(tls, 'ca-key.pem')
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  if (!existsSync(ca) || !existsSync(caKey)) {
    openssl(tls, [
      '-x509',
      ...ec,
      '-keyout',
      caKey,
      '-out',
      ca,
      '-days',
      '3650',
      '-subj',
      '/CN=rfq-engine throw-away cluster CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ])
  }
  const leaf = (name: string, subject: string, extensions: string[]) => {
    const cert = join(tls, `${name}.pem`),
      key = join(tls, `${name}-key.pem`)
    if (!existsSync(cert) || !existsSync(key)) {
      openssl(tls, [
        '-x509',
        '-CA',
        ca,
        '-CAkey',
        caKey,
        ...ec,
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '825',
        '-subj',
        `/CN=${subject}`,
        ...['basicConstraints=critical,CA:FALSE', ...extensions].flatMap(e => ['-addext', e]),
      ])
    }
    return { cert, key }
  }
  const server = leaf('nats-server', 'nats-server', [
    'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
    'extendedKeyUsage=serverAuth',
  ])
  const clients = new Map(
    opts.clientCertificates ? ids.map(id => [id, leaf(`client-${id}`, id, ['extendedKeyUsage=clientAuth'])]) : [],
  )

  const keyFile = (id: string) => join(keys, `${id}.nk`)
  const publicKeys = new Map(
    ids.map(id => {
      const file = keyFile(id)
      if (!existsSync(file))
        writeFileSync(file, `${new TextDecoder().decode(createUser().getSeed())}\n`, { mode: 0o600 })
      return [id, nodeKeyFromSeed(readFileSync(file, 'utf8')).publicKey]
    }),
  )
  const natsConfig = join(dir, 'nats.conf')
  writeFileSync(
    natsConfig,
    [
      '# made by engine/devcluster/devCredentials.ts for a cluster on this machine; remade at every start',
      'tls {',
      `  cert_file: "${server.cert}"`,
      `  key_file: "${server.key}"`,
      `  ca_file: "${ca}"`,
      ...(opts.clientCertificates ? ['  verify: true'] : []),
      '  timeout: 2',
      '}',
      'authorization {',
      '  users: [',
      ...[...publicKeys].map(([id, key]) => `    ${natsUser(id, key)}`),
      ...(opts.users ?? []).map(u => `    ${u}`),
      '  ]',
      '}',
      '',
    ].join('\n'),
    { mode: 0o600 },
  )
  const peers = [...publicKeys].map(([id, key]) => `${id}:${key}`).join(',')
  const publicKey = (id: string) =>
    publicKeys.get(id) ??
    (() => {
      throw new Error(`no key made for ${id}`)
    })()
  return {
    caFile: ca,
    natsConfig,
    peers,
    keyFile,
    publicKey,
    env: id => {
      const client = clients.get(id)
      return {
        NODE_ID: id,
        CLUSTER_NODE_KEY_FILE: keyFile(id),
        CLUSTER_PEERS: peers,
        NATS_TLS_CA_FILE: ca,
        ...(client ? { NATS_TLS_CERT_FILE: client.cert, NATS_TLS_KEY_FILE: client.key } : {}),
      }
    },
  }
}

/** The openssl binary: OPENSSL_BIN, then PATH, then Debian's place; null when none is executable. */
export function findOpenssl(env: NodeJS.ProcessEnv = process.env): string | null {
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map(d => join(d, 'openssl'))
  const executable = (p: string) => {
    try {
      accessSync(p, constants.X_OK)
      return statSync(p).isFile()
    } catch {
      return false
    }
  }
  return [env.OPENSSL_BIN, ...onPath, '/usr/bin/openssl'].find(p => !!p && executable(p)) ?? null
}

/** `openssl req` with a configuration of its own, so what the system's openssl.cnf adds does not matter. */
function openssl(dir: string, args: string[]): void {
  const bin = findOpenssl()
  if (!bin) throw new Error(OPENSSL_MISSING)
  const conf = join(dir, 'openssl.cnf')
  writeFileSync(conf, '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n')
  const r = spawnSync(bin, ['req', '-config', conf, ...args], { encoding: 'utf8' })
  const said = (r.stderr || r.stdout || String(r.error)).trim().split('\n').slice(-2).join(' | ')
  if (r.status !== 0) throw new Error(`openssl req failed: ${said}`)
}
