import { rutCheckDigit } from '../../libs/shared-kernel/src';

/** A deterministic pseudo-random sequence in [0, 1) (mulberry32), so two runs with one seed give the same data. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A valid RUT of this body, with its check digit (`12345678-5`). */
export function rutOf(body: number): string {
  return `${body}-${rutCheckDigit(String(body))}`;
}
