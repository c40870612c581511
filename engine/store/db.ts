// postgres.js with the house's types. A bare bigint would go out as int8 (porsager/postgres#874),
// so uint256 amounts travel as numeric: serialised as decimal text, parsed back to bigint.
import postgres from 'postgres'
import { backoffDelayMs } from '../../workers/retry/backoff.js'

export type Sql = postgres.Sql<{ u256: bigint }>
/** The pool, or a transaction: what a store function that may run inside a caller's transaction takes. */
export type Tx = Sql | postgres.TransactionSql<{ u256: bigint }>

export interface DbOptions {
  max?: number
  onnotice?: (n: postgres.Notice) => void
  /** settings sent in each connection's startup packet (a GUC for this pool's sessions only) */
  connection?: Record<string, string>
}

/**
 * A pool of `max` connections. A URL may name a Unix socket's directory as libpq does, `...?host=/var/run/postgresql`
 * (postgres.js takes it as an option instead): no TCP stack on either side of each round trip.
 */
export function connect(url: string, { max = 10, onnotice = () => {}, connection }: DbOptions = {}): Sql {
  const u = new URL(url)
  const socketDir = u.searchParams.get('host')
  if (socketDir?.startsWith('/')) u.searchParams.delete('host')
  return postgres(u.toString(), {
    max,
    ...(socketDir?.startsWith('/') ? { path: `${socketDir}/.s.PGSQL.${u.port || 5432}` } : {}),
    onnotice,
    ...(connection ? { connection } : {}),
    idle_timeout: 30,
    // An unreachable server fails a query within seconds (then 503), instead of the 30 s default; and
    // reconnects back off to at most half a second: postgres.js's default grows to 20 s, which held
    // queued requests for 10-20 s during an outage and after the server was back.
    connect_timeout: 3,
    backoff: (retries: number) => backoffDelayMs(retries, 50, 500) / 1000, // seconds, by the house's backoff
    types: {
      u256: { to: 1700, from: [1700], serialize: (x: bigint) => x.toString(), parse: (x: string) => BigInt(x) },
      // int8 counts and ids fit comfortably in a JS number for everything we store as int8
      bigint: { to: 20, from: [20], serialize: (x: number | bigint) => x.toString(), parse: (x: string) => Number(x) },
    },
  })
}
