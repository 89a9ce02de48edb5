import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { statementsDuring } from '../../../test/support/statements.js';
import { listenToChannel } from '../../db/notifications.js';
import { EVENTS_CHANNEL, publishEvents } from './publish.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const event = (partner: string, n: number) => ({ partner_id: partner, id: `evt_${String(n).padStart(26, '0')}` });

describe('publishEvents', () => {
  it("tells the events of one turn's changes in one statement, every one of them, in order", async () => {
    const heard: string[] = [];
    const listener = await listenToChannel(database.db, EVENTS_CHANNEL, {
      // Its own events' only: the seed's, published after their commit, may be heard late.
      onPayload: (payload) => {
        if (payload.includes(':evt_0000')) heard.push(payload);
      },
      onLost: () => {},
    });
    try {
      const { statements } = await statementsDuring(database.db, () =>
        // Three changes committed in the same turn (concurrent requests), then one in a later turn.
        Promise.all([
          publishEvents(database.db, [event('1', 1), event('1', 2)]),
          publishEvents(database.db, [event('2', 3)]),
          publishEvents(database.db, [event('1', 4)]),
        ]).then(() => publishEvents(database.db, [event('2', 5)])),
      );
      expect(statements.map((statement) => statement.sql)).toEqual([
        expect.stringMatching(/^select pg_notify\(/),
        expect.stringMatching(/^select pg_notify\(/),
      ]);
      await vi.waitFor(() => expect(heard).toHaveLength(5));
      expect(heard).toEqual([
        `1:${event('1', 1).id}`,
        `1:${event('1', 2).id}`,
        `2:${event('2', 3).id}`,
        `1:${event('1', 4).id}`,
        `2:${event('2', 5).id}`,
      ]);
    } finally {
      await listener.close();
    }
  });

  it('sends nothing for no events, and logs a failed notify to every publisher of its turn without throwing', async () => {
    const { statements } = await statementsDuring(database.db, () => publishEvents(database.db, []));
    expect(statements).toEqual([]);
    const warned: unknown[] = [];
    const logger = { warn: (fields: unknown) => warned.push(fields) };
    // A handle whose pool gives no connection: the statement fails.
    const broken = {
      raw: database.db.raw.bind(database.db),
      client: { acquireConnection: () => Promise.reject(new Error('connection lost')) },
    } as unknown as TestDatabase['db'];
    await expect(
      Promise.all([publishEvents(broken, [event('1', 6)], logger), publishEvents(broken, [event('1', 7)], logger)]),
    ).resolves.toEqual([undefined, undefined]);
    expect(warned).toEqual([expect.objectContaining({ events: 2 })]);
  });
});
