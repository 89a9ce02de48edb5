// The places of API keys' counts an instance holds (decisions.md 53), on a clock the test holds: each
// place taken once and in order, none after its window, none of another address's, and one
// admission at a time per key and address.
import { describe, expect, it } from 'vitest';
import { Reservations } from '../../src/pipeline/rateLimits/reservations.js';

function clocked() {
  let now = 1_000_000;
  const reservations = new Reservations(() => now);
  const advance = (ms: number) => {
    now += ms;
  };
  return { reservations, advance, now: () => now };
}

describe('Reservations', () => {
  it('gives each reserved place once, in order, with the ms left of its window, then nothing', () => {
    const { reservations, advance, now } = clocked();
    reservations.hold('198.51.100.1', 'key:k', 5, 7, now(), 60_000);
    advance(1000);
    expect(reservations.take('198.51.100.1', 'key:k')).toEqual({ consumed: 5, msBeforeNext: 59_000 });
    expect(reservations.take('198.51.100.1', 'key:k')).toEqual({ consumed: 6, msBeforeNext: 59_000 });
    expect(reservations.take('198.51.100.1', 'key:k')).toEqual({ consumed: 7, msBeforeNext: 59_000 });
    expect(reservations.take('198.51.100.1', 'key:k')).toBeNull();
  });

  it('holds nothing for an admission that counted one place', () => {
    const { reservations, now } = clocked();
    reservations.hold('198.51.100.1', 'key:k', 8, 7, now(), 60_000);
    expect(reservations.take('198.51.100.1', 'key:k')).toBeNull();
  });

  it('gives no place once its window has ended, reckoned from when Redis was asked', () => {
    const { reservations, advance, now } = clocked();
    const askedAt = now();
    advance(300); // Redis's answer came 300 ms later: its window's 1,000 ms were reckoned from then.
    reservations.hold('198.51.100.1', 'key:k', 2, 10, askedAt, 1000);
    advance(699);
    expect(reservations.take('198.51.100.1', 'key:k')).toEqual({ consumed: 2, msBeforeNext: 1 });
    advance(1);
    expect(reservations.take('198.51.100.1', 'key:k')).toBeNull();
  });

  it("keeps each address's places its own, and lets go of an address's all at once", () => {
    const { reservations, now } = clocked();
    reservations.hold('198.51.100.1', 'key:a', 2, 3, now(), 60_000);
    reservations.hold('198.51.100.1', 'key:b', 12, 13, now(), 60_000);
    reservations.hold('198.51.100.2', 'key:a', 22, 23, now(), 60_000);
    expect(reservations.take('198.51.100.3', 'key:a')).toBeNull();
    expect(reservations.take('198.51.100.2', 'key:a')?.consumed).toBe(22);
    reservations.dropAddress('198.51.100.1');
    expect(reservations.take('198.51.100.1', 'key:a')).toBeNull();
    expect(reservations.take('198.51.100.1', 'key:b')).toBeNull();
    expect(reservations.take('198.51.100.2', 'key:a')?.consumed).toBe(23);
  });

  it('drops the places whose window has ended once many are held, and keeps the live ones', () => {
    const { reservations, advance, now } = clocked();
    for (let i = 0; i < 4096; i++) reservations.hold(`198.51.100.${i % 200}`, `key:${i}`, 2, 3, now(), 1000);
    reservations.hold('198.51.100.1', 'key:live', 2, 3, now(), 60_000);
    advance(1000);
    // The next reservation sweeps: the 4,096 ended ones go, the live one stays.
    reservations.hold('198.51.100.2', 'key:new', 2, 3, now(), 60_000);
    expect(reservations.take('198.51.100.1', 'key:live')?.consumed).toBe(2);
    expect(reservations.take('198.51.100.0', 'key:0')).toBeNull();
  });

  it('runs one admission at a time for a key and address: the others wait for it and get null', async () => {
    const { reservations } = clocked();
    let release: (value: string) => void = () => {};
    let asked = 0;
    const ask = () => {
      asked++;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const leader = reservations.once('198.51.100.1', 'key:k', ask);
    const waiter = reservations.once('198.51.100.1', 'key:k', ask);
    const otherAddress = reservations.once('198.51.100.2', 'key:k', async () => 'other');
    expect(asked).toBe(1);
    expect(await otherAddress).toBe('other');
    release('admitted');
    expect(await leader).toBe('admitted');
    expect(await waiter).toBeNull();
    // Done: the next one asks again.
    expect(await reservations.once('198.51.100.1', 'key:k', async () => 'again')).toBe('again');
  });

  it('lets the waiters go when the admission fails, and the next ask runs', async () => {
    const { reservations } = clocked();
    const failing = reservations.once('198.51.100.1', 'key:k', async () => {
      throw new Error('store down');
    });
    const waiter = reservations.once('198.51.100.1', 'key:k', async () => 'never');
    await expect(failing).rejects.toThrow('store down');
    expect(await waiter).toBeNull();
    expect(await reservations.once('198.51.100.1', 'key:k', async () => 'next')).toBe('next');
  });
});
