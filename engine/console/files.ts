// The console's built files (dist/web/, written by build.ts), held in memory with their precompressed
// copies, and the reply for one of them: the smallest encoding the browser accepts, an ETag, and 304
// when the browser already has it.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { extname, join } from 'node:path'
import type { Reply } from '../front/request.js'

export interface StaticFile {
  type: string
  etag: string
  raw: Buffer
  gzip?: Buffer
  brotli?: Buffer
}
export interface ConsoleFiles {
  index: StaticFile
  assets: Map<string, StaticFile>
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
}

/** null while the console is not built (no dist/web/index.html). */
export function loadConsoleFiles(dir: string): ConsoleFiles | null {
  if (!existsSync(join(dir, 'index.html'))) return null
  const assetDir = join(dir, 'assets')
  const names = existsSync(assetDir) ? readdirSync(assetDir).filter(n => !n.endsWith('.gz') && !n.endsWith('.br')) : []
  return { index: load(join(dir, 'index.html')), assets: new Map(names.map(n => [n, load(join(assetDir, n))])) }
}

function load(file: string): StaticFile {
  const raw = readFileSync(file)
  const optional = (p: string) => (existsSync(p) ? readFileSync(p) : undefined)
  return {
    type: TYPES[extname(file)] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
    raw,
    gzip: optional(`${file}.gz`),
    brotli: optional(`${file}.br`),
  }
}

/** The reply for a file: 304 on a matching If-None-Match, else the smallest encoding accepted. */
export function fileReply(f: StaticFile, headers: Record<string, string>, cacheControl: string): Reply {
  const common = {
    etag: f.etag,
    'cache-control': cacheControl,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  }
  if (headers['if-none-match'] === f.etag) return { status: 304, headers: common }
  const accepted = new Set(
    (headers['accept-encoding'] ?? '').split(',').map(s => s.split(';')[0]!.trim().toLowerCase()),
  )
  const [body, encoding] =
    f.brotli && accepted.has('br')
      ? [f.brotli, 'br']
      : f.gzip && accepted.has('gzip')
        ? [f.gzip, 'gzip']
        : [f.raw, undefined]
  return {
    status: 200,
    text: body,
    headers: { ...common, 'content-type': f.type, ...(encoding ? { 'content-encoding': encoding } : {}) },
  }
}
