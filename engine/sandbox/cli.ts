// The sandbox walk-through's commands (docs/sandbox.md). Every failure is one line with a code and the
// next step, exit 1 (usage: exit 2); the stack only with DEBUG=1. `register --api` works against any
// engine; everything else against the running sandbox of --dir (default .data/sandbox).
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Address, Hex } from 'viem'
import { repoRoot } from '../paths.js'
import { parseCli } from '../ops/cli.js'
import { holderOf } from '../ops/instanceLock.js'
import { CliFailure, failureLine } from './cliFailure.js'
import { register, createRfq, fill, record, lastRfq, requireKey, type SandboxState } from './cliCommands.js'

const USAGE = `Usage: node dist/engine/sandbox/cli.js <command> [options]

Commands (against the sandbox \`make sandbox\` started, unless --api is given):
  register                 registers an agent; prints its API key (stdout) for: export KEY=$(... register)
      --api URL            any engine's API instead of the sandbox's (then --owner-key and --agent-wallet)
      --owner-key HEX      the owner wallet's private key, which signs the registration (or OWNER_KEY)
      --agent-wallet ADDR  the agent's wallet address (sandbox default: its taker)
      --name NAME          the agent's name (default sandbox-<time>)
      --roles LIST         comma-separated roles (default taker,monitor)
  rfq                      asks for a price with $KEY; prints the RFQ id and remembers it for --last
      --in SYM --out SYM   the pair (default WETH -> USDC)
      --amount N           tokenIn in token units, e.g. 1.5 (default 1)
      --ttl SECONDS        how long it stays open (10 to 300; default the engine's 30)
      --private            a private RFQ (its share token is remembered for fill)
  last                     prints the last RFQ id rfq asked for
  fill <rfqId> | --last    checks the RFQ and the quote, fills the best quote on chain as the taker,
                           prints the txHash, then records the fill with $KEY
  record <rfqId> <txHash>  records a fill already on chain (after a fill that could not be recorded)

Options for every command:
  --dir DIR                the sandbox's directory (default .data/sandbox)
Environment: KEY (the agent API key), OWNER_KEY, DEBUG=1 (a failure's stack).`

const { values, positionals } = parseCli(
  'cli.js',
  USAGE,
  {
    dir: { type: 'string' },
    api: { type: 'string' },
    'owner-key': { type: 'string' },
    'agent-wallet': { type: 'string' },
    name: { type: 'string' },
    roles: { type: 'string' },
    in: { type: 'string' },
    out: { type: 'string' },
    amount: { type: 'string' },
    ttl: { type: 'string' },
    private: { type: 'boolean' },
    last: { type: 'boolean' },
  },
  { positionals: true },
)
const [cmd, ...args] = positionals
const dir = resolve(values.dir ?? join(repoRoot, '.data/sandbox'))

/** The running sandbox's state; its lock says whether one runs (a sandbox.json left by a stopped one proves nothing). */
async function sandbox(): Promise<SandboxState> {
  const file = join(dir, 'sandbox.json')
  if (!existsSync(file) || !(await holderOf('sandbox', dir)))
    throw new CliFailure('NO_SANDBOX', 'no sandbox running', 'start one with `make sandbox`')
  return JSON.parse(readFileSync(file, 'utf8'))
}

async function run(): Promise<void> {
  switch (cmd ?? '') {
    case 'register': {
      const name = values.name ?? `sandbox-${Date.now()}`
      const roles = (values.roles ?? 'taker,monitor')
        .split(',')
        .map(r => r.trim())
        .filter(Boolean)
      if (values.api) {
        const ownerKey = values['owner-key'] ?? process.env.OWNER_KEY
        const wallet = values['agent-wallet']
        if (!ownerKey || !wallet)
          throw new CliFailure(
            'USAGE',
            'register --api needs --owner-key (or OWNER_KEY) and --agent-wallet',
            'see cli.js --help',
          )
        return register(values.api.replace(/\/$/, ''), ownerKey as Hex, wallet as Address, name, roles)
      }
      const s = await sandbox()
      return register(
        s.urls.api,
        (values['owner-key'] ?? s.accounts.agentOwner.privateKey) as Hex,
        (values['agent-wallet'] ?? s.accounts.taker.address) as Address,
        name,
        roles,
      )
    }
    case 'rfq': {
      const s = await sandbox()
      return createRfq(s, dir, requireKey(), {
        tokenIn: values.in ?? 'WETH',
        tokenOut: values.out ?? 'USDC',
        amount: values.amount ?? '1',
        ttl: values.ttl,
        private: values.private,
      })
    }
    case 'last': {
      await sandbox()
      process.stdout.write(lastRfq(dir).rfqId + '\n')
      return
    }
    case 'fill': {
      const s = await sandbox()
      const key = requireKey()
      if (!values.last && !args[0])
        throw new CliFailure('USAGE', 'fill needs an RFQ id, or --last', 'see cli.js --help')
      const last = values.last || existsSync(join(dir, 'last-rfq.json')) ? lastRfq(dir) : null
      const rfqId = values.last ? last!.rfqId : args[0]!
      return fill(s, key, rfqId, last?.rfqId === rfqId ? last.shareToken : null) // a private RFQ's token, if rfq made it
    }
    case 'record': {
      const s = await sandbox()
      const key = requireKey()
      if (!args[0] || !/^0x[0-9a-fA-F]{64}$/.test(args[1] ?? ''))
        throw new CliFailure('USAGE', "record needs an RFQ id and the fill's txHash", 'see cli.js --help')
      return record(s, key, args[0], args[1] as Hex)
    }
    default:
      process.stderr.write(`cli.js: ${cmd ? `unknown command ${cmd}` : 'a command is required'} (see cli.js --help)\n`)
      process.exit(2)
  }
}

run().catch((e: unknown) => {
  process.stderr.write(failureLine(e) + '\n')
  if (process.env.DEBUG === '1' && e instanceof Error) process.stderr.write(e.stack + '\n')
  process.exit(e instanceof CliFailure && e.code === 'USAGE' ? 2 : 1)
})
