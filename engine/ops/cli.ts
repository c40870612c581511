// Every entry point explains itself: `--help` (or -h) prints its usage and exits 0; an unknown or
// malformed option is one line that says so and points at --help (exit 2). node:util's parseArgs does
// the parsing: no hand-rolled argv slicing.
import { parseArgs, type ParseArgsConfig } from 'node:util'

type Options = NonNullable<ParseArgsConfig['options']>

export function parseCli<O extends Options>(
  name: string,
  usage: string,
  options: O,
  opts: { positionals?: boolean; argv?: string[] } = {},
): { values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string }; positionals: string[] } {
  try {
    const args = negativeValues(opts.argv ?? process.argv.slice(2), options)
    const parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: opts.positionals ?? false,
      strict: true,
    })
    if ((parsed.values as { help?: boolean }).help) {
      process.stdout.write(usage.trimEnd() + '\n')
      process.exit(0)
    }
    return parsed
  } catch (e) {
    process.stderr.write(
      `${name}: ${(e as Error).message.replace(/\n[^]*$/, '').replace(/\. To specify a positional.*$/, '')} (see ${name} --help)\n`,
    )
    process.exit(2)
  }
}

/**
 * `--rate -5` as `--rate=-5`: parseArgs calls a value that starts with a dash "ambiguous", so a negative
 * number would be refused for the wrong reason; joined, it reaches the option's own check, which names it.
 */
function negativeValues(argv: string[], options: Options): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!,
      next = argv[i + 1]
    const name = /^--([^=]+)$/.exec(a)?.[1]
    if (name && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

/** A bench's usage: what it measures and the environment variables that scale it. */
export function benchUsage(name: string, what: string, env: Record<string, string> = {}): string {
  const vars = Object.entries(env)
    .map(([k, v]) => `  ${k.padEnd(22)} ${v}`)
    .join('\n')
  return `Usage: node dist/bench/${name}.js\n\n${what}\n${vars ? `\nEnvironment:\n${vars}\n` : ''}`
}
