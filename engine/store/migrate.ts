// Migrations are plain SQL files applied in name order, each once, each in its own transaction,
// recorded in schema_migrations. An advisory lock makes concurrent starts safe.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sql } from './db.js'
import { repoRoot } from '../paths.js'

export const migrationsDir = join(repoRoot, 'engine/store/migrations')

export async function migrate(sql: Sql, dir = migrationsDir): Promise<string[]> {
  const files = readdirSync(dir)
    .filter(f => /^\d+_.*\.sql$/.test(f))
    .sort()
  const applied: string[] = []
  await sql.begin(async tx => {
    await tx`select pg_advisory_xact_lock(7318201)`
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`
    const done = new Set((await tx`select name from schema_migrations`).map(r => r.name as string))
    for (const f of files) {
      if (done.has(f)) continue
      await tx.unsafe(readFileSync(join(dir, f), 'utf8'))
      await tx`insert into schema_migrations (name) values (${f})`
      applied.push(f)
    }
  })
  return applied
}
