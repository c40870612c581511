// The console's frame: finds the engine's surfaces, then shows one view at a time by the URL's hash
// (#/live, #/league, #/options, #/route, #/health), each reached by a link with its name. Moving to a
// view puts keyboard focus on its heading, so a screen reader says where you are.
import { useEffect, useRef, useState } from 'preact/hooks'
import { connectEngine, EngineContext, type Engine } from './engine'
import { Live } from './views/Live'
import { League } from './views/League'
import { Options } from './views/Options'
import { Route } from './views/Route'
import { Health } from './views/Health'

const VIEWS = [
  { id: 'live', name: 'Live', View: Live },
  { id: 'league', name: 'League', View: League },
  { id: 'options', name: 'Options', View: Options },
  { id: 'route', name: 'Route', View: Route },
  { id: 'health', name: 'Health', View: Health },
] as const

function currentView(): string {
  const id = location.hash.replace(/^#\/?/, '')
  return VIEWS.some(v => v.id === id) ? id : 'live'
}

export function App() {
  const [engine, setEngine] = useState<Engine | null>(null)
  const [failure, setFailure] = useState('')
  const [view, setView] = useState(currentView())
  const main = useRef<HTMLElement>(null)
  useEffect(() => {
    connectEngine().then(setEngine, (e: unknown) => setFailure(e instanceof Error ? e.message : String(e)))
  }, [])
  useEffect(() => {
    const on = () => {
      setView(currentView())
      requestAnimationFrame(() => focusHeading(main.current))
    }
    addEventListener('hashchange', on)
    return () => removeEventListener('hashchange', on)
  }, [])
  const active = VIEWS.find(v => v.id === view)!
  useEffect(() => {
    document.title = `${active.name} · RFQ engine console`
  }, [active])
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={ev => {
          ev.preventDefault()
          focusHeading(main.current)
        }}
      >
        Skip to content
      </a>
      <header>
        <span class="brand">RFQ engine</span>
        <nav aria-label="Views">
          {VIEWS.map(v => (
            <a key={v.id} href={`#/${v.id}`} aria-current={v.id === view ? 'page' : undefined}>
              {v.name}
            </a>
          ))}
        </nav>
        {engine && (
          <span class="muted small">
            chain {engine.config.chainId} · v{engine.config.version}
          </span>
        )}
      </header>
      <main id="main" ref={main}>
        {failure ? (
          <p class="error" role="alert">
            The console cannot reach the engine: {failure}
          </p>
        ) : engine ? (
          <EngineContext.Provider value={engine}>
            <active.View />
          </EngineContext.Provider>
        ) : (
          <p class="muted">Connecting to the engine…</p>
        )}
      </main>
    </>
  )
}

function focusHeading(main: HTMLElement | null): void {
  const h = main?.querySelector<HTMLElement>('h1')
  if (!h) return
  h.tabIndex = -1
  h.focus()
}
