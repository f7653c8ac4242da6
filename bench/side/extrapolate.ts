// A power law fitted to measured points (least squares on log-log): y = c * x^b. Used by `growth`
// to put 10M documents "on paper" from the ingest times measured at smaller sizes.

export interface PowerFit {
  c: number;
  b: number;
  /** points the fit used */
  n: number;
  at(x: number): number;
}

/** Null with fewer than two distinct x (a line needs two points). */
export function fitPower(points: ReadonlyArray<readonly [number, number]>): PowerFit | null {
  const pts = points.filter(([x, y]) => x > 0 && y > 0);
  if (new Set(pts.map(([x]) => x)).size < 2) return null;
  const lx = pts.map(([x]) => Math.log(x));
  const ly = pts.map(([, y]) => Math.log(y));
  const mx = lx.reduce((a, b) => a + b, 0) / pts.length;
  const my = ly.reduce((a, b) => a + b, 0) / pts.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < pts.length; i++) {
    sxy += (lx[i]! - mx) * (ly[i]! - my);
    sxx += (lx[i]! - mx) ** 2;
  }
  const b = sxy / sxx;
  const c = Math.exp(my - b * mx);
  return { c, b, n: pts.length, at: (x) => c * x ** b };
}
