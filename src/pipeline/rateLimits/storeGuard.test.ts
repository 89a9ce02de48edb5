import { describe, expect, it } from 'vitest';
import { type RateLimitStoreObserver, StoreGuard } from './storeGuard.js';

function recordingGuard(connected?: () => boolean) {
  const lines: Array<{ level: 'warn' | 'info'; msg: string }> = [];
  const events: string[] = [];
  const logger = {
    warn: (_fields: unknown, msg: string) => void lines.push({ level: 'warn', msg }),
    info: (_fields: unknown, msg: string) => void lines.push({ level: 'info', msg }),
  };
  const observer: RateLimitStoreObserver = {
    failedOver: (store) => void events.push(`failedOver ${store}`),
    recovered: (store) => void events.push(`recovered ${store}`),
    insuranceDecision: (store) => void events.push(`insurance ${store}`),
  };
  return { guard: new StoreGuard('redis', logger as never, observer, connected), lines, events };
}

const failing = () => Promise.reject(new Error('connection refused'));
const answering = () => Promise.resolve('shared');
const insurance = () => Promise.resolve('insurance');

describe('StoreGuard', () => {
  it('answers from the insurance limiter while the store fails, logging the switch once and back once', async () => {
    const { guard, lines, events } = recordingGuard();
    expect(guard.status()).toBe('shared (redis)');
    expect(await guard.run(failing, insurance)).toBe('insurance');
    expect(await guard.run(failing, insurance)).toBe('insurance');
    expect(guard.status()).toMatch(/^insurance \(redis store failing since \S+: connection refused\)$/);
    expect(await guard.run(answering, insurance)).toBe('shared');
    expect(guard.status()).toBe('shared (redis)');
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info']);
    expect(events).toEqual(['failedOver redis', 'insurance redis', 'insurance redis', 'recovered redis']);
  });

  it('does not take a call started before the last failure for a recovery', async () => {
    const { guard, lines } = recordingGuard();
    let answerLate: (value: string) => void = () => {};
    const late = guard.run(() => new Promise<string>((resolve) => (answerLate = resolve)), insurance);
    await guard.run(failing, insurance);
    answerLate('shared');
    expect(await late).toBe('shared');
    expect(guard.status()).toMatch(/^insurance/);
    expect(lines).toHaveLength(1);
  });

  it('says a store whose connection is down is not shared, before any request finds out', () => {
    let up = false;
    const { guard } = recordingGuard(() => up);
    expect(guard.status()).toBe('insurance (redis not connected)');
    up = true;
    expect(guard.status()).toBe('shared (redis)');
  });
});
