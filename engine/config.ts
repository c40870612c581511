// One typed config, read from the environment once at start. A bad value stops the start
// with a message naming the variable: an operator should never have to guess which one.
import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { isAddress } from '../workers/values/index.js'

const port = z.coerce.number().int().min(0).max(65535)
const positiveInt = z.coerce.number().int().positive()
const address = z
  .string()
  .refine(isAddress, 'must be a 0x address (40 hex characters)')
  .transform(s => s.toLowerCase() as `0x${string}`)
/** a public origin (and optional path) a proxy serves a surface on, in one of `schemes`; no trailing slash kept */
const publicUrl = (schemes: string[], example: string) =>
  z
    .string()
    .refine(
      u => {
        const x = URL.canParse(u) ? new URL(u) : null
        return !!x && schemes.includes(x.protocol) && !x.search && !x.hash && !x.username
      },
      `must be a ${schemes.map(s => s.replace(':', '')).join(' or ')} URL with no query, e.g. ${example}`,
    )
    .transform(u => u.replace(/\/+$/, ''))
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform(v => v === 'true' || v === '1' || v === 'yes')

/** Every variable the service reads, with its default. The README's table mirrors this. */
export const configSchema = z.object({
  API_PORT: port.default(3000),
  TERMINAL_PORT: port.default(3001),
  RELAY_PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  API_KEY: z.string().min(1).optional(),
  CHAIN_ID: positiveInt.default(31337),
  SPOT_RFQ_ADDRESS: address.optional(),
  EIP712_NAME: z.string().min(1).default('SpotRFQ'),
  RPC_URL: z.url().optional(),
  /** chain: fills must show on chain (needs RPC_URL and SPOT_RFQ_ADDRESS); off: trust the body (the spec's behaviour) */
  FILL_VERIFY: z.enum(['chain', 'off']).default('chain'),
  // Route finder (engine/sor): protocols file, pool scan range, one-block state reads, quote timeout
  SOR_PROTOCOLS_FILE: z.string().min(1).optional(),
  SOR_SCAN_BLOCK_RANGE: positiveInt.default(2000),
  MULTICALL_ADDRESS: address.optional(),
  SOR_V3_WORDS: z.coerce.number().int().min(0).max(64).default(4),
  SOR_QUOTE_TIMEOUT_MS: positiveInt.default(2000),
  /** how often the route finder reads the chain head and follows new blocks (0: only scan/refresh calls) */
  SOR_FOLLOW_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  SOR_STALE_AFTER_SECS: positiveInt.default(300),
  /** route-search threads, apart from the signature threads (unset: half of POOL_THREADS, at least 1) */
  SOR_THREADS: positiveInt.optional(),
  /** the OS niceness of the route threads (0: as the rest of the process; 19: lowest) */
  SOR_THREAD_NICE: z.coerce.number().int().min(0).max(19).default(19),
  /** idle: the route threads also run under Linux's SCHED_IDLE, so a waking relay thread preempts them at once */
  SOR_THREAD_POLICY: z.enum(['idle', 'normal']).default('idle'),
  /** process: the route threads in a child process, all its threads (V8's GC helpers too) at that policy and niceness */
  SOR_LANE: z.enum(['process', 'thread']).default('process'),
  /** server-side baselines: route tasks a second, RFQs waiting, the window that coalesces a pair's, the longest wait */
  SOR_BASELINE_RATE: positiveInt.default(20),
  SOR_BASELINE_QUEUE: positiveInt.default(1000),
  SOR_BASELINE_COALESCE_MS: z.coerce.number().int().min(0).max(10_000).default(100),
  SOR_BASELINE_MAX_WAIT_MS: positiveInt.default(10_000),
  RATE_LIMIT_PER_MIN: positiveInt.default(30),
  RFQ_TTL_SECS: positiveInt.default(60),
  PUBLIC_RATE_LIMIT_PER_MIN: positiveInt.default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** pretty (a person reads it) or json (a machine does); unset: pretty on a TTY, json otherwise */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** the sandbox's anvil port (`make sandbox`); 0 picks a free one */
  SANDBOX_RPC_PORT: port.default(8545),
  BODY_LIMIT_BYTES: positiveInt.default(64 * 1024),
  TRUST_PROXY: bool.default(false),
  CORS_ORIGIN: z.string().min(1).default('*'),
  // Behind a proxy (deploy/nginx): where browsers reach the terminal and the relay, given to the console in
  // /console/config.json; unset, the console uses the host it was loaded from at TERMINAL_PORT / RELAY_PORT
  PUBLIC_TERMINAL_URL: publicUrl(['http:', 'https:'], 'https://terminal.example.com').optional(),
  PUBLIC_RELAY_URL: publicUrl(['http:', 'https:', 'ws:', 'wss:'], 'wss://relay.example.com').optional(),
  POOL_THREADS: positiveInt.default(Math.max(1, availableParallelism() - 1)),
  POOL_TASKS_PER_THREAD: positiveInt.default(4),
  /** which libsecp256k1 recovers signers: the system's (built by make build; the package's when it was not) or the
   *  secp256k1 npm package's bundled one. Read by the pool's threads themselves (workers/sig/recover.ts). */
  SIG_RECOVERY: z.enum(['system', 'package']).default('system'),
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(5000),
  // Aggregator price proxy (0x Swap API v2 price format); unset AGG_BASE_URL = not configured
  AGG_BASE_URL: z.url().optional(),
  AGG_API_KEY: z.string().min(1).optional(),
  AGG_TIMEOUT_MS: positiveInt.default(2000),
  AGG_ID: z.string().min(1).default('agg'),
  AGG_CHAIN_ID: positiveInt.optional(),
  AGG_PRICE_PATH: z.enum(['/swap/permit2/price', '/swap/allowance-holder/price']).default('/swap/permit2/price'),
  // RFQ REST API and agents (engine/agents, engine/rfqApi, engine/feed, engine/profile)
  AGENT_RATE_PER_MIN: positiveInt.default(60),
  AGENT_RATE_PER_HOUR: positiveInt.default(1000),
  AGENT_REGISTRATION_PER_HOUR: positiveInt.default(5),
  AGENT_REGISTRATION_PER_DAY: positiveInt.default(15),
  MAX_ACTIVE_RFQS_PER_WALLET: positiveInt.default(10),
  SSE_HEARTBEAT_MS: positiveInt.default(15000),
  BADGE_CACHE_MS: positiveInt.default(600000),
  TOKENS_FILE: z.string().min(1).optional(),
  /** list: only the token list's tokens (and those the pool scanner read); chain: an unknown address is read on chain (needs RPC_URL) */
  TOKENS_POLICY: z.enum(['list', 'chain']).default('list'),
  // Relay (engine/relay): cancel auth defaults to open on CHAIN_ID 31337, signature elsewhere
  RELAY_CANCEL_AUTH: z.enum(['open', 'signature']).optional(),
  RELAY_PING_INTERVAL_MS: positiveInt.default(30_000),
  RELAY_MAX_BACKPRESSURE: positiveInt.default(4 * 1024 * 1024),
  RELAY_SIG_BATCH: positiveInt.default(64),
  RELAY_SIG_BATCHES_PER_THREAD: positiveInt.default(4),
  RELAY_COMMITS_IN_FLIGHT: positiveInt.default(2),
  /** quote partitions (a day each) older than this many days are dropped, hourly (0: kept forever); at least 2 */
  QUOTES_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .refine(n => n === 0 || (n >= 2 && n <= 36_500), 'must be 0 (keep) or 2-36500 days')
    .default(0),
  /** RFQ partitions (a day each) older than this many days are dropped after their quotes (0: kept forever) */
  RFQS_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .refine(n => n === 0 || (n >= 2 && n <= 36_500), 'must be 0 (keep) or 2-36500 days')
    .default(0),
  /** quote archives (engine/store/archive): set, retention exports each partition here before it drops it */
  ARCHIVE_DIR: z.string().min(1).optional(),
  /** admission control: quotes are refused with BUSY while more than this many ms of work is in flight (0: off) */
  RELAY_ADMISSION_MS: z.coerce.number().int().min(0).max(10_000).default(20),
  RELAY_MAX_PAYLOAD_BYTES: positiveInt.default(64 * 1024),
  // Cluster (engine/cluster): unset NATS_URL is one node exactly as before; set, the process joins the venue's
  // nodes on that NATS server (all nodes share DATABASE_URL)
  NATS_URL: z
    .string()
    .regex(
      /^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/,
      'must be nats:// (or tls://) URLs, comma-separated, e.g. nats://127.0.0.1:4222',
    )
    .optional(),
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores')
    .optional(),
  /** a node's RFQ events leave together every this many ms (0: at the end of each event-loop turn) */
  CLUSTER_BATCH_MS: z.coerce.number().int().min(0).max(100).default(5),
  /** this node's key: a file holding its nkey user seed (SU...); it signs every message the node sends and, unless
   *  NATS_URL carries a credential, is the node's credential at nats-server (docs/cluster.md#who-may-speak-on-the-wire) */
  CLUSTER_NODE_KEY_FILE: z.string().min(1).optional(),
  /** every node of the venue with its public key, this node's included: NODE_ID:U..., comma-separated */
  CLUSTER_PEERS: z
    .string()
    .regex(
      /^[A-Za-z0-9_.-]{1,64}:U[A-Z2-7]{55}(,[A-Za-z0-9_.-]{1,64}:U[A-Z2-7]{55})*$/,
      'must be NODE_ID:public-nkey pairs, comma-separated, e.g. node-1:UAB...,node-2:UCD... (56-character keys starting with U)',
    )
    .optional(),
  /** the CA that signed nats-server's certificate: set, the node speaks TLS only and checks the server against it */
  NATS_TLS_CA_FILE: z.string().min(1).optional(),
  /** a client certificate and its key, for a nats-server that verifies its clients (tls { verify: true }) */
  NATS_TLS_CERT_FILE: z.string().min(1).optional(),
  NATS_TLS_KEY_FILE: z.string().min(1).optional(),
  // Options market data ingestion (engine/ingest): its own process, started by `make ingest`, or by `make run` when
  // not off
  INGEST_SOURCE: z.enum(['off', 'deribit', 'replay', 'synthetic']).default('off'),
  INGEST_FILE: z.string().min(1).optional(),
  DERIBIT_BASE_URL: z.url().default('https://www.deribit.com/api/v2'),
  INGEST_CURRENCIES: z
    .string()
    .regex(/^[A-Z0-9_]+(,[A-Z0-9_]+)*$/, 'must be comma-separated currency codes, e.g. BTC,ETH')
    .default('BTC,ETH'),
  INGEST_INTERVAL_MS: positiveInt.default(10_000),
  INGEST_SNAPSHOT_INTERVAL_MS: positiveInt.default(60_000),
  INGEST_TICKERS_PER_CYCLE: z.coerce.number().int().min(0).default(10),
  INGEST_TRADES_PAGE: z.coerce.number().int().min(1).max(1000).default(1000),
  INGEST_BACKFILL_MINUTES: z.coerce.number().int().min(0).default(60),
  INGEST_TIMEOUT_MS: positiveInt.default(10_000),
  INGEST_BACKOFF_MAX_MS: positiveInt.default(60_000),
  INGEST_REPLAY_REBASE: bool.default(false),
  INGEST_SYNTHETIC_TRADES_PER_CYCLE: positiveInt.default(20),
  // Limits on every door (docs/limits.md): proxies, REST rates per IP, WebSocket connections per IP,
  // a slow SSE reader's buffer, failed authentications per IP, USD inputs
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(16).default(1),
  RELAY_REST_RATE_LIMIT_PER_MIN: positiveInt.default(1200),
  TERMINAL_RATE_LIMIT_PER_MIN: positiveInt.default(600),
  RELAY_MAX_CONNECTIONS_PER_IP: positiveInt.default(64),
  SSE_MAX_BUFFER_BYTES: positiveInt.default(1 << 20),
  AUTH_FAILURES_PER_MIN: positiveInt.default(20),
})

export type Config = z.infer<typeof configSchema>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads and validates the environment; empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, string> = {}
  for (const key of Object.keys(configSchema.shape)) {
    const v = env[key]
    if (v !== undefined && v !== '') raw[key] = v
  }
  const parsed = configSchema.safeParse(raw)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      i => `${i.path.join('.')}=${JSON.stringify(raw[String(i.path[0])] ?? '')}: ${i.message}`,
    )
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`)
  }
  return parsed.data
}
