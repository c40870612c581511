// The console's entry: its stylesheets (uPlot's own, then ours) and the app, rendered into #app.
import { render } from 'preact'
import 'uplot/dist/uPlot.min.css'
import './style.css'
import { App } from './app'

const root = document.getElementById('app')!
root.textContent = '' // the "Loading" line index.html shows until the script runs
render(<App />, root)
