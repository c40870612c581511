// A real Prometheus (Debian's package) for tests: scraping given targets every second on a loopback port, with
// its data in a temporary directory, asked through its HTTP query API. Found through PROMETHEUS_BIN, then PATH,
// then Debian's place; missing, the suite fails with one line saying what to install.
import {
  accessSync,
  constants,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { spawnTethered } from '../../engine/ops/tethered.js'
import { repoRoot } from '../../engine/paths.js'
import { freePort } from '../../engine/store/embedded.js'

const MISSING = 'prometheus not found: install it (apt-get install prometheus) or set PROMETHEUS_BIN'

export function findBinary(name: 'prometheus' | 'promtool', envVar: string): string {
  const candidates = [
    process.env[envVar],
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map(d => join(d, name)),
    `/usr/bin/${name}`,
  ]
  const found = candidates.find(p => {
    try {
      accessSync(p!, constants.X_OK)
      return !!p
    } catch {
      return false
    }
  })
  if (!found) throw new Error(MISSING.replace('prometheus not found', `${name} not found`))
  return found
}

export interface Prometheus {
  url: string
  /** an instant query: the result vector's samples */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>
  /** the alerts its rules hold now, pending or firing */
  alerts(): Promise<{ labels: Record<string, string>; state: 'pending' | 'firing' }[]>
  stop(): Promise<void>
}

/** `kit`: the kit's own configuration (deploy/prometheus/: its scrape config and rules) with the given targets as
 *  its nodes, scraped and evaluated every second instead of every 15 */
export async function startPrometheus(
  targets: string[],
  opts: { ruleFile?: string; kit?: boolean } = {},
): Promise<Prometheus> {
  const bin = findBinary('prometheus', 'PROMETHEUS_BIN')
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-'))
  const config = join(dir, 'prometheus.yml')
  if (opts.kit) kitConfig(dir, targets)
  else
    writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        ...(opts.ruleFile ? ['rule_files: [' + JSON.stringify(opts.ruleFile) + ']'] : []),
        'scrape_configs:',
        '  - job_name: rfq-engine',
        '    metrics_path: /metrics',
        `    static_configs: [{ targets: ${JSON.stringify(targets)} }]`,
      ].join('\n') + '\n',
    )
  const port = await freePort()
  const proc = spawnTethered(
    'prometheus-guard',
    bin,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { unref: true },
  )
  let log = ''
  proc.guard.stderr!.on('data', c => {
    log = (log + c).slice(-4000)
  })
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    await proc.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  for (let i = 0; ; i++) {
    if (
      await fetch(`${url}/-/ready`).then(
        r => r.ok,
        () => false,
      )
    )
      break
    if (i > 200) {
      await stop()
      throw new Error(`prometheus did not become ready: ${log}`)
    }
    await new Promise(r => setTimeout(r, 50))
  }
  return {
    url,
    stop,
    async alerts() {
      const r = (await (await fetch(`${url}/api/v1/alerts`)).json()) as { data: { alerts: never[] } }
      return r.data.alerts
    },
    async query(expr) {
      const r = (await (await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as {
        status: string
        error?: string
        data: { result: never[] }
      }
      if (r.status !== 'success') throw new Error(`${expr}: ${r.error}`)
      return r.data.result
    },
  }
}

function kitConfig(dir: string, targets: string[]): void {
  const kit = join(repoRoot, 'deploy/prometheus')
  const config = readFileSync(join(kit, 'prometheus.yml'), 'utf8')
  if (!/scrape_interval: 15s/.test(config) || !/evaluation_interval: 15s/.test(config))
    throw new Error("the kit's intervals moved")
  writeFileSync(join(dir, 'prometheus.yml'), config.replace(/(scrape|evaluation)_interval: 15s/g, '$1_interval: 1s'))
  copyFileSync(join(kit, 'rules.yml'), join(dir, 'rules.yml'))
  mkdirSync(join(dir, 'targets'))
  writeFileSync(join(dir, 'targets/rfq-engine.yml'), `- targets: ${JSON.stringify(targets)}\n`)
  writeFileSync(join(dir, 'targets/nats.yml'), '[]\n')
}
