import { describe, expect, it } from 'vitest';
import { runShutdownSteps } from './shutdown.js';

function recordingLogger() {
  const errors: Array<{ fields: Record<string, unknown>; message: string }> = [];
  return {
    errors,
    logger: { error: (fields: Record<string, unknown>, message: string) => errors.push({ fields, message }) },
  };
}

describe('runShutdownSteps', () => {
  it('runs every step in order', async () => {
    const ran: string[] = [];
    const { errors, logger } = recordingLogger();
    const steps = ['a', 'b', 'c'].map((name) => ({ name, run: async () => ran.push(name) }));
    expect(await runShutdownSteps(steps, { timeoutMs: 1000, logger: logger as never })).toBe('done');
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual([]);
  });

  it('ends a step that hangs past the timeout, naming it', async () => {
    const { errors, logger } = recordingLogger();
    const steps = [
      { name: 'quick', run: async () => undefined },
      { name: 'the listener: requests in flight', run: () => new Promise<void>(() => undefined) },
      { name: 'never reached', run: async () => undefined },
    ];
    expect(await runShutdownSteps(steps, { timeoutMs: 100, logger: logger as never })).toBe('timed out');
    expect(errors).toEqual([
      {
        fields: { step: 'the listener: requests in flight', shutdownTimeoutMs: 100 },
        message:
          'shutdown did not finish within SHUTDOWN_TIMEOUT_MS: still waiting for the listener: requests in flight',
      },
    ]);
  });

  it('logs a step that fails and still runs the next ones', async () => {
    const ran: string[] = [];
    const { errors, logger } = recordingLogger();
    const steps = [
      { name: 'broken', run: async () => Promise.reject(new Error('pool already closed')) },
      { name: 'after', run: async () => ran.push('after') },
    ];
    expect(await runShutdownSteps(steps, { timeoutMs: 1000, logger: logger as never })).toBe('failed');
    expect(ran).toEqual(['after']);
    expect(errors[0]).toMatchObject({ fields: { step: 'broken' }, message: 'shutdown step failed' });
  });
});
