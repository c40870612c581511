// systemd's unit and environment-file syntax, as much as the deployment kit's test needs: sections of
// `Key=value` lines (a key may repeat: Environment=, EnvironmentFile=), `#`/`;` comments, `\` continuations;
// an environment file is `KEY=value` lines with `#` comments.

export type Unit = Map<string, Map<string, string[]>>

export function parseUnit(text: string): Unit {
  const unit: Unit = new Map()
  let section: Map<string, string[]> | undefined
  const joined = text.replace(/\\\n/g, ' ')
  for (const raw of joined.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[(.+)\]$/.exec(line)
    if (header?.[1]) {
      unit.set(header[1], (section = new Map()))
      continue
    }
    const [, key, value] = /^([A-Za-z0-9]+)=(.*)$/.exec(line) ?? []
    if (key === undefined || value === undefined || !section) throw new Error(`not a unit line: ${line}`)
    section.set(key, [...(section.get(key) ?? []), value.trim()])
  }
  return unit
}

/** The values of a key in a section (every line of it, in order). */
export function values(unit: Unit, section: string, key: string): string[] {
  return unit.get(section)?.get(key) ?? []
}

/** One value: the last line wins, as systemd reads single-valued keys. */
export function value(unit: Unit, section: string, key: string): string | undefined {
  return values(unit, section, key).at(-1)
}

/** `Environment=A=1 B=2` lines as pairs (quoted values included). */
export function environment(unit: Unit): [string, string][] {
  return values(unit, 'Service', 'Environment').flatMap(line =>
    [...line.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)=([^"]*)"|([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g)].map(
      m => [m[1] ?? m[3], m[2] ?? m[4]] as [string, string],
    ),
  )
}

export interface EnvFile {
  /** KEY=value lines in force */
  set: Record<string, string>
  /** `# KEY=value`: documented, left at the default */
  commented: Record<string, string>
}

export function parseEnvFile(text: string): EnvFile {
  const file: EnvFile = { set: {}, commented: {} }
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const [, key, value] = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line) ?? []
    if (key !== undefined && value !== undefined) {
      if (key in file.set) throw new Error(`${key} is set twice`)
      file.set[key] = value
      continue
    }
    const [, offKey, offValue] = /^#\s*([A-Z][A-Z0-9_]*)=(\S*)$/.exec(line) ?? []
    if (offKey !== undefined && offValue !== undefined) file.commented[offKey] = offValue
    else if (line && !line.startsWith('#')) throw new Error(`not an environment line: ${line}`)
  }
  return file
}
