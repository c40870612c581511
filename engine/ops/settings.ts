// Settings each valid alone (config.ts checked their form) but wrong together or for this machine: checked
// before the engine touches anything, every problem one line naming its variable, all of them at once.
//  - a value still holding the deployment kit's placeholder (REPLACE…), never echoed (it may be a secret's place);
//  - on any chain but the local one (31337), a contract address unset or zero;
//  - two surfaces on one port;
//  - TOKENS_POLICY=chain with no chain to ask;
//  - a HOST this machine cannot listen on (not one of its addresses, or a name that does not resolve);
//  - an ARCHIVE_DIR that is not an existing, writable directory;
//  - RFQS_RETENTION_DAYS shorter than QUOTES_RETENTION_DAYS (an RFQ would go before its quotes).
import { createServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import { ConfigError, type Config } from '../config.js'
import { ZERO_ADDRESS } from '../../workers/values/index.js'
import { archiveDirProblem } from './archiveDir.js'

const LOCAL_CHAIN = 31337

export async function checkSettings(config: Config): Promise<void> {
  const problems: string[] = []
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'string' && /REPLACE/.test(value)) {
      problems.push(`${key} still holds the deployment kit's placeholder (REPLACE…): set its real value`)
    }
  }
  if (config.CHAIN_ID !== LOCAL_CHAIN) {
    if (!config.SPOT_RFQ_ADDRESS || config.SPOT_RFQ_ADDRESS === ZERO_ADDRESS) {
      const is = config.SPOT_RFQ_ADDRESS ? 'the zero address' : 'unset'
      problems.push(
        `SPOT_RFQ_ADDRESS is ${is}: on chain ${config.CHAIN_ID} (CHAIN_ID) set the deployed SpotRFQ contract, ` +
          'the verifyingContract of every quote signature',
      )
    }
    if (config.MULTICALL_ADDRESS === ZERO_ADDRESS) {
      problems.push(
        `MULTICALL_ADDRESS is the zero address: set chain ${config.CHAIN_ID}'s Multicall3, or leave it unset`,
      )
    }
  }
  const ports = (['API_PORT', 'TERMINAL_PORT', 'RELAY_PORT'] as const).filter(k => config[k] !== 0)
  for (const [i, a] of ports.entries()) {
    const b = ports.slice(i + 1).find(k => config[k] === config[a])
    if (b) problems.push(`${a} and ${b} are both ${config[a]}: each surface needs a port of its own`)
  }
  if (config.TOKENS_POLICY === 'chain' && !config.RPC_URL) {
    problems.push('TOKENS_POLICY=chain reads unknown tokens on chain: set RPC_URL, or TOKENS_POLICY=list')
  }
  const host = await hostProblem(config.HOST)
  if (host) problems.push(host)
  const archive = config.ARCHIVE_DIR && (await archiveDirProblem(config.ARCHIVE_DIR))
  if (archive) problems.push(archive)
  const rfqs = config.RFQS_RETENTION_DAYS,
    quotes = config.QUOTES_RETENTION_DAYS
  if (rfqs > 0 && (quotes === 0 || quotes > rfqs))
    problems.push(
      `RFQS_RETENTION_DAYS=${rfqs} would drop RFQs before their quotes (QUOTES_RETENTION_DAYS=${quotes}${quotes ? '' : ', kept'}): ` +
        `set it to 0 or at least QUOTES_RETENTION_DAYS, with QUOTES_RETENTION_DAYS set`,
    )
  if (problems.length) throw new ConfigError(problems.join('\n'))
}

/** Whether this machine can listen on `host` at all: a throw-away listener on a free port says it truly. */
function hostProblem(host: string): Promise<string | undefined> {
  return new Promise(resolve => {
    const probe = createServer()
    probe.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRNOTAVAIL') {
        const own = ownAddresses().join(', ')
        resolve(
          `HOST=${host} is not an address of this machine (its addresses: ${own}): use one of them, or 0.0.0.0 for all`,
        )
      } else if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
        resolve(`HOST=${host}: no such host name here: use an address of this machine, or 0.0.0.0`)
      } else resolve(`HOST=${host} cannot be listened on: ${e.message}`)
    })
    probe.listen(0, host, () => probe.close(() => resolve(undefined)))
  })
}

function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap(list => (list ?? []).map(i => i.address))
}
