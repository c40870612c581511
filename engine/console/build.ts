// `make build`'s last step: bundles the web console (web/, browser code with its own tsconfig) into
// dist/web/ with esbuild. Asset names carry a content hash, so the engine serves them as immutable;
// index.html is written from web/index.html with those names. Every file is also stored gzip- and
// brotli-compressed beside itself, so the engine never compresses while serving. The first-load size
// (index.html + script + stylesheet, everything the page fetches before its first data call) is
// printed and kept in dist/web/manifest.json, which the console's test reads back.
import { build } from 'esbuild'
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import { repoRoot } from '../paths.js'
import { parseCli } from '../ops/cli.js'

export interface ConsoleManifest {
  /** the hashed asset names index.html refers to */
  script: string
  stylesheet: string
  /** bytes of index.html + script + stylesheet: as stored, and as sent gzip- or brotli-compressed */
  firstLoad: { raw: number; gzip: number; brotli: number }
}

export async function buildConsole(outDir = join(repoRoot, 'dist/web')): Promise<ConsoleManifest> {
  const assets = join(outDir, 'assets')
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(assets, { recursive: true })
  const result = await build({
    entryPoints: [join(repoRoot, 'web/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: assets,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
  })
  const outputs = Object.keys(result.metafile.outputs).map(p => basename(p))
  const script = outputs.find(n => n.endsWith('.js'))
  const stylesheet = outputs.find(n => n.endsWith('.css'))
  if (!script || !stylesheet) throw new Error(`esbuild wrote ${outputs.join(', ')}: expected one .js and one .css`)
  const html = readFileSync(join(repoRoot, 'web/index.html'), 'utf8')
    .replace('{{script}}', `/assets/${script}`)
    .replace('{{stylesheet}}', `/assets/${stylesheet}`)
  writeFileSync(join(outDir, 'index.html'), html)

  const sizes = new Map<string, { raw: number; gzip: number; brotli: number }>()
  const files = [join(outDir, 'index.html'), ...readdirSync(assets).map(n => join(assets, n))]
  for (const file of files) {
    const body = readFileSync(file)
    const gz = gzipSync(body, { level: 9 })
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    })
    writeFileSync(`${file}.gz`, gz)
    writeFileSync(`${file}.br`, br)
    sizes.set(basename(file), { raw: body.length, gzip: gz.length, brotli: br.length })
  }
  const first = ['index.html', script, stylesheet].map(n => sizes.get(n)!)
  const sum = (k: 'raw' | 'gzip' | 'brotli') => first.reduce((a, s) => a + s[k], 0)
  const manifest: ConsoleManifest = {
    script,
    stylesheet,
    firstLoad: { raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') },
  }
  writeFileSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return manifest
}

if (import.meta.url === `file://${process.argv[1]}`) {
  parseCli(
    'build.js',
    `Usage: node dist/engine/console/build.js   (make build runs it)

Bundles the web console from web/ into dist/web/ (esbuild), with gzip and brotli copies and manifest.json.
Takes no options.`,
    {},
  )
  const m = await buildConsole()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`
  console.log(
    `console: dist/web/ first load ${kb(m.firstLoad.raw)} (${kb(m.firstLoad.gzip)} gzip, ${kb(m.firstLoad.brotli)} brotli)`,
  )
}
