// The archive commands as an operator runs them (node dist/engine/store/archive/cli.js, what `make archive` runs):
// export a day's partition, list it, restore it into its side table; a corrupt archive is one line on stderr naming
// the file and the line, exit 1, and no side table; a directory that is not one is refused naming ARCHIVE_DIR.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { repoRoot } from '../../../engine/paths.js'
import { testDatabase } from '../../helpers/db.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import { DAY, quote, rfq } from './rows.js'

function cli(env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  return new Promise(resolve => {
    execFile(
      process.execPath,
      [join(repoRoot, 'dist/engine/store/archive/cli.js'), ...args],
      { env: { ...base, ...env } },
      (e, out, err) => resolve({ code: e ? Number(e.code ?? 1) : 0, out, err }),
    )
  })
}

test(
  'the CLI exports, lists and restores an archive; a corrupt one is refused in one line',
  { timeout: 60_000 },
  async () => {
    const db = await testDatabase('arccli')
    const dir = mkdtempSync(join(tmpdir(), 'archive-cli-'))
    try {
      const at = Math.floor(Date.now() / DAY) * DAY - 4 * DAY
      const partition = partitionName('quotes', new Date(at).toISOString().slice(0, 10))
      await ensurePartitions(db.sql, { now: at, ahead: 0 })
      await insertRfq(db.sql, { ...rfq('rfq_c', new Date(at)), expiry: 1 }, null)
      const w = createQuoteWriter(db.sql)
      const q = (maker: number) =>
        quote('rfq_c', maker, {
          signature: `0x${'cd'.repeat(65)}`,
          amountIn: `${maker}000000000000000000000`,
          amountOut: '1',
        })
      await Promise.all([1, 2, 3, 4, 5].map(m => w.write(q(m))))
      const env = { DATABASE_URL: db.url, ARCHIVE_DIR: dir, LOG_LEVEL: 'warn' }

      const exported = await cli(env, 'export', partition)
      assert.deepEqual(
        [exported.code, exported.out],
        [0, `${partition}: 5 rows written to ${join(dir, `${partition}.copy.gz`)}\n`],
      )
      const listed = await cli(env, 'list')
      assert.equal(listed.code, 0, listed.err)
      const [header, row, ...more] = listed.out.trim().split('\n')
      assert.match(header!, /^partition\s+day\s+rows\s+bytes\s+schema\s+written$/)
      assert.match(
        row!,
        new RegExp(`^${partition}\\s+${new Date(at).toISOString().slice(0, 10)}\\s+5\\s+\\d+\\s+\\S+\\.sql\\s`),
      )
      assert.deepEqual(more, [])

      const restored = await cli(env, 'restore', partition)
      assert.deepEqual([restored.code, restored.out], [0, `${partition}: 5 rows loaded into archive_${partition}\n`])
      const sums = async (table: string) => [
        ...(await db.sql.unsafe(`select maker, amount_in from ${table} order by maker`)),
      ]
      assert.deepEqual(await sums(`archive_${partition}`), await sums(partition))

      // a bad line, under a checksum rewritten to match: one line naming the file and the line, exit 1, nothing loaded
      const gz = join(dir, `${partition}.copy.gz`),
        manifestPath = join(dir, `${partition}.manifest.json`)
      const lines = gunzipSync(readFileSync(gz)).toString('utf8').split('\n')
      lines[2] = lines[2]!.replace(/\t[^\t]*$/, '\tyesterday')
      const bad = gzipSync(lines.join('\n'))
      writeFileSync(gz, bad)
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>
      writeFileSync(
        manifestPath,
        JSON.stringify({ ...manifest, sha256: createHash('sha256').update(bad).digest('hex') }),
      )
      await db.sql.unsafe(`drop table archive_${partition}`)
      const refused = await cli(env, 'restore', partition)
      assert.equal(refused.code, 1)
      assert.equal(refused.err, `${gz}: line 3: signature is not a bytea: yesterday\n`)
      assert.equal((await db.sql`select to_regclass(${`archive_${partition}`}) as t`)[0]!.t, null)

      const notDir = await cli({ ...env, ARCHIVE_DIR: gz }, 'list')
      assert.deepEqual([notDir.code, notDir.err], [2, `ARCHIVE_DIR=${gz}: not a directory (${gz})\n`])
      const usage = await cli(env, 'restore')
      assert.equal(usage.code, 2)
      assert.match(usage.err, /^archive: unknown or incomplete command: restore \(see archive --help\)\n$/)
    } finally {
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
