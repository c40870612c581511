// How much of a uPlot chart each of its two series colours covers: pixels of the canvas within a small
// distance of the page's --accent (the first series) and --accent-2 (the second). A line drawn wholly under
// another covers next to nothing, so this tells a visible line from a hidden one. Runs in the browser.
export function inkOfSeries(canvas: any): { calls: number; puts: number } {
  const css = getComputedStyle(canvas.ownerDocument.documentElement)
  const rgb = (v: string) => {
    const h = css.getPropertyValue(v).trim().replace('#', '')
    return [0, 2, 4].map(i => parseInt(h.slice(i, i + 2), 16))
  }
  const [a, b] = [rgb('--accent'), rgb('--accent-2')]
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height)
  const near = (i: number, c: number[]) =>
    Math.abs(data[i] - c[0]!) + Math.abs(data[i + 1] - c[1]!) + Math.abs(data[i + 2] - c[2]!) < 60 && data[i + 3] > 200
  let calls = 0,
    puts = 0
  for (let i = 0; i < data.length; i += 4) {
    if (near(i, a)) calls++
    else if (near(i, b)) puts++
  }
  return { calls, puts }
}

declare function getComputedStyle(el: any): any
