// Round trips of one device check-in (docs/decisions.md 19, 20, 34), counted from the knex instance's
// query events; deterministic, no timing. A check-in runs in one transaction under the device's row
// lock: the credential's look-up, BEGIN, the locked device row (with its answer sequence), the order,
// the commands carried, the newest lock command, the device's update (lastSeen, the sequence), COMMIT.
// Binding the answer to its request (the nonce echoed, the sequence moved on) adds no statement; an
// acknowledgement adds the one that records it, and no read of the device's tag and IMEI for its event
// (they come with the locked row). A logged check-in (one an hour) adds the events' append and notify.
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_TAG } from '../../src/fixtures/demoIds.js';
import { CHECKIN_PATH, demoCheckIn } from '../support/checkins.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const OPERATOR = { 'x-api-key': 'demo-operator-key' };

async function graphql(query: string, variables: Record<string, unknown>): Promise<any> {
  const { body } = (await fixture.service.graphql(query, OPERATOR, variables)) as { body: any };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

async function checkinStatements(credential: string, acknowledged: string[] = []) {
  const { result, statements } = await statementsDuring(fixture.database.db, async () => {
    const response = await fixture.service.request(CHECKIN_PATH, demoCheckIn(credential, acknowledged));
    return { status: response.status, body: (await response.json()) as any };
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { data: result.body.data, statements: statements.map((statement) => statement.sql) };
}

describe('a check-in', () => {
  it('takes 8 statements, 10 when the log hears of it; an acknowledgement adds one; binding the answer adds none', async () => {
    const device = await graphql('query($t: String!) { device(tag: $t) { id } }', { t: DEMO_DEVICE_TAG });
    const credential = (
      await graphql('mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
        id: device.device.id,
      })
    ).issueDeviceCredential.credential as string;

    // The first check-in of the hour writes DEVICE_CHECKED_IN: the events' append and its notify.
    const logged = await checkinStatements(credential);
    expect(logged.statements.length, logged.statements.join('\n')).toBe(10);
    const plain = await checkinStatements(credential);
    expect(plain.statements.length, plain.statements.join('\n')).toBe(8);
    expect(plain.data.sequence).toBe(logged.data.sequence + 1);

    const sent = await graphql(
      'mutation($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
      { input: { deviceId: device.device.id, type: 'SHOW_MESSAGE', message: 'Your payment is due on Friday' } },
    );
    const carrying = await checkinStatements(credential);
    expect(carrying.data.commands.map((command: { id: string }) => command.id)).toEqual([sent.sendDeviceCommand.id]);
    expect(carrying.statements.length, carrying.statements.join('\n')).toBe(8);
    // The acknowledgement's update, and its event appended (with its notify); no read of the device again.
    const acknowledging = await checkinStatements(credential, [sent.sendDeviceCommand.id]);
    expect(acknowledging.data.commands).toEqual([]);
    expect(acknowledging.statements.length, acknowledging.statements.join('\n')).toBe(11);
    expect(acknowledging.statements.filter((sql) => /from "devices"/.test(sql))).toHaveLength(1);
  });
});
