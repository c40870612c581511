// Small pieces the views share: a ticking clock, and the props that make a table row selectable by
// mouse and keyboard (focusable, Enter or Space selects, and says it is selected).
import { useEffect, useState } from 'preact/hooks'

export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(t)
  }, [everyMs])
  return now
}

export function selectable(selected: boolean, onSelect: () => void) {
  return {
    tabIndex: 0,
    'aria-selected': selected,
    onClick: onSelect,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault()
        onSelect()
      }
    },
  }
}

/** `value`, once it has stopped changing for `ms` (a search box asks once, not on every key) */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}
