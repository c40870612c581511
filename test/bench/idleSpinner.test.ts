// The relay bench's control spinner: a process at SCHED_IDLE and niceness 19 that burns CPU until stopped, and says
// how much it burnt.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { startIdleSpinner } from '../../bench/lib/idleSpinner.js'

const SCHED_IDLE = 5

test('the spinner runs at SCHED_IDLE and niceness 19, burns CPU, and is gone once stopped', async () => {
  const spinner = startIdleSpinner(5)
  const pid = spinner.pid
  assert.ok(pid, 'the spinner started (chrt, from util-linux, is on PATH)')
  await sleep(400) // node starts, then spins
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // from the 3rd field on
  assert.equal(Number(fields[16]), 19, 'niceness (field 19)')
  assert.equal(Number(fields[38]), SCHED_IDLE, 'scheduling policy (field 41)')
  assert.match(fields[0]!, /^[RS]$/)
  const ms = spinner.stop()
  assert.ok(ms > 0, `its CPU is read before it is stopped (${ms} ms)`)
  for (let i = 0; i < 50; i++) {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0]
      if (state === 'Z') break // killed, not yet reaped
    } catch {
      break // gone
    }
    await sleep(20)
    assert.ok(i < 49, 'the spinner ends when stopped')
  }
})
