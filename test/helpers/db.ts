// A fresh database per suite on the run's server (see test/run.ts), migrated like production.
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { connect, type Sql } from '../../engine/store/db.js'
import { migrate } from '../../engine/store/migrate.js'

export interface TestDatabase {
  url: string
  sql: Sql
  drop(): Promise<void>
}

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL
  if (!url)
    throw new Error('no test database server: run the tests through `make test` (test/run.ts), or set DATABASE_URL')
  return url
}

export async function testDatabase(prefix = 't'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`.toLowerCase()
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  await admin.end()
  const url = withDatabase(adminUrl(), name)
  const sql = connect(url, { max: 10 })
  await migrate(sql)
  return {
    url,
    sql,
    async drop() {
      await sql.end({ timeout: 1 })
      const a = postgres(adminUrl(), { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
    },
  }
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url)
  u.pathname = '/' + db
  return u.toString()
}
