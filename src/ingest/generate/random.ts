/**
 * A small seeded pseudo-random generator and the few distributions the data set
 * generator needs. Math.random cannot be seeded, and `cpb generate` must write the
 * same bytes for the same seed (CONVENTIONS.md, Commands), so the generator is ours:
 * sfc32 (Chris Doty-Humphrey's "small fast counting" generator, PractRand-clean),
 * seeded through a string hash so any seed text works.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** A standard normal deviate (Box-Muller; the second value is kept for the next call). */
  normal(): number;
  /** exp(N(mu, sigma)): the skewed shape of revenues, limits and loss amounts. */
  logNormal(mu: number, sigma: number): number;
}

/** A generator for `seed`; `stream` names an independent sequence from the same seed. */
export function createRandom(seed: string | number, stream = ""): Random {
  let [a, b, c, d] = hashSeed(`${String(seed)}\u0000${stream}`);
  const next = (): number => {
    // sfc32: 32-bit state words, all arithmetic kept in int32 with `| 0` and `>>> 0`.
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of a freshly seeded sfc32 are poorly mixed; discard them.
  for (let i = 0; i < 15; i++) next();

  let spare = Number.NaN;
  const normal = (): number => {
    if (!Number.isNaN(spare)) {
      const value = spare;
      spare = Number.NaN;
      return value;
    }
    const u = 1 - next(); // (0, 1]: log(0) would be -Infinity
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };

  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    normal,
    logNormal: (mu, sigma) => Math.exp(mu + sigma * normal()),
  };
}

/** cyrb128: four well-mixed 32-bit words from a string, enough state for sfc32. */
function hashSeed(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}
