// `node dist/engine/cluster/nodeKey.js --node NODE_ID --out FILE`: a new node's key, and the two lines that admit
// it to the venue: its entry in CLUSTER_PEERS (every node) and its user in nats-server.conf. A key file already
// there is never overwritten: its lines are printed again. deploy/README.md says where each line goes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createUser } from '@nats-io/nkeys'
import { parseCli } from '../ops/cli.js'
import { nodeKeyFromSeed } from './nodeKeys.js'
import { natsUser } from './subjects.js'

const USAGE = `Usage: node dist/engine/cluster/nodeKey.js --node NODE_ID --out FILE

Makes a cluster node's key: an nkey user seed (SU...) written to FILE with mode 0600, for the node's
CLUSTER_NODE_KEY_FILE. Then prints the node's entry for CLUSTER_PEERS (on every node) and its user line for
nats-server.conf's authorization { users: [...] } (it may publish under its own key only). A FILE that exists
is kept, and its lines are printed again. Rotating a key: docs/cluster.md#who-may-speak-on-the-wire.

Options:
  --node NODE_ID   the node's name (its NODE_ID): letters, digits, dots, dashes, underscores
  --out FILE       where its key goes`

const { values } = parseCli('nodeKey', USAGE, { node: { type: 'string' }, out: { type: 'string' } })
const fail = (line: string, code: number): never => {
  process.stderr.write(`nodeKey: ${line}\n`)
  process.exit(code)
}
const node = values.node ?? fail('--node is required (see nodeKey --help)', 2)
const out = values.out ?? fail('--out is required (see nodeKey --help)', 2)
if (!/^[A-Za-z0-9_.-]{1,64}$/.test(node)) {
  fail(`--node ${JSON.stringify(node)}: 1-64 letters, digits, dots, dashes or underscores (see nodeKey --help)`, 2)
}

let kept = false
let seed: string
if (existsSync(out)) {
  seed = readFileSync(out, 'utf8')
  kept = true
} else {
  seed = new TextDecoder().decode(createUser().getSeed())
  try {
    writeFileSync(out, seed + '\n', { mode: 0o600, flag: 'wx' })
  } catch (e) {
    fail(`cannot write ${out}: ${(e as Error).message}`, 1)
  }
}
let publicKey = ''
try {
  publicKey = nodeKeyFromSeed(seed).publicKey
} catch (e) {
  fail(`${out} is there and holds no node key (${(e as Error).message}): choose another --out`, 1)
}

process.stdout.write(
  [
    kept
      ? `${out} was already there: ${node}'s key, kept.`
      : `${node}'s key is in ${out} (mode 0600): keep it on ${node}'s host only, readable by the engine.`,
    '',
    'In CLUSTER_PEERS, on every node of the venue:',
    `  ${node}:${publicKey}`,
    '',
    'In nats-server.conf, authorization { users: [ ... ] }, then reload nats-server (systemctl reload nats-server):',
    `  ${natsUser(node, publicKey)}`,
    '',
  ].join('\n'),
)
