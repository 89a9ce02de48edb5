// The sandbox view (decisions.md 46): outside production, the partner's clock and the buttons that move
// it: a day on, a week on, to just past the next lock, and back to real time. Each move re-reads the
// partner's time first (another tab or person may have moved it), and the view after.
import { useState } from 'react';
import resetDocument from '../../operations/resetSandboxClock.graphql';
import clockDocument from '../../operations/sandboxClock.graphql';
import setDocument from '../../operations/setSandboxClock.graphql';
import type {
  ConsoleResetSandboxClockMutation,
  ConsoleResetSandboxClockMutationVariables,
  ConsoleSandboxClockQuery,
  ConsoleSandboxClockQueryVariables,
  ConsoleSetSandboxClockMutation,
  ConsoleSetSandboxClockMutationVariables,
} from '../__generated__/operations.js';
import * as format from '../format.js';
import { ask } from '../graph.js';
import { useSession } from '../session.js';
import { ErrorNote, Loading, View } from '../ui.js';
import { useAnswer } from '../useAnswer.js';

const DAY = 86_400;
const WEEK = 7 * DAY;

type ClockPartner = NonNullable<ConsoleSandboxClockQuery['partner']>;

/** Where a move puts the clock, from the partner as just re-read; null: nowhere to go. */
type Move = (partner: ClockPartner, partnerNow: number) => number | null;

const dayOn: Move = (_partner, partnerNow) => partnerNow + DAY;
const weekOn: Move = (_partner, partnerNow) => partnerNow + WEEK;
// A second past the lock, so the lock has fallen due at the partner's time.
const toNextLock: Move = (partner) => (partner.nextLockAt == null ? null : partner.nextLockAt + 1);

/**
 * The partner's time now. On real time the graph gives no clock: real time is then this computer's,
 * which only places the target of a move (the mutation's answer says where the clock went).
 */
const partnerNowOf = (partner: ClockPartner): number => partner.sandboxClock?.now ?? Math.floor(Date.now() / 1000);

export function Sandbox() {
  const { partner } = useSession();
  return <View title="Sandbox">{partner ? <Clock partnerId={partner.id} /> : null}</View>;
}

function Clock(props: { partnerId: string }) {
  const { partnerId } = props;
  const { key } = useSession();
  const clock = useAnswer<ConsoleSandboxClockQuery, ConsoleSandboxClockQueryVariables>(clockDocument, { partnerId });
  const [busy, setBusy] = useState(false);
  const [moved, setMoved] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);

  async function run(change: () => Promise<number | null>) {
    setBusy(true);
    setMoved(null);
    setRefusal(null);
    try {
      const now = await change();
      if (now !== null) setMoved(now);
    } catch (error) {
      setRefusal(error);
    } finally {
      setBusy(false);
      clock.reload();
    }
  }

  const move = (to: Move) =>
    run(async () => {
      const { partner } = await ask<ConsoleSandboxClockQuery, ConsoleSandboxClockQueryVariables>(key, clockDocument, {
        partnerId,
      });
      if (!partner) throw new Error('The partner was not found.');
      const now = to(partner, partnerNowOf(partner));
      if (now === null) throw new Error('The partner has no lock ahead.');
      const answer = await ask<ConsoleSetSandboxClockMutation, ConsoleSetSandboxClockMutationVariables>(
        key,
        setDocument,
        { input: { partnerId, now } },
      );
      return answer.setSandboxClock.now;
    });

  const reset = () =>
    run(async () => {
      const answer = await ask<ConsoleResetSandboxClockMutation, ConsoleResetSandboxClockMutationVariables>(
        key,
        resetDocument,
        { partnerId },
      );
      return answer.resetSandboxClock.now;
    });

  const partner = clock.data?.partner ?? null;
  return (
    <>
      {clock.error ? <ErrorNote error={clock.error} /> : null}
      {clock.loading && !clock.data ? <Loading what="the partner's clock" /> : null}
      {clock.data && !partner ? <p>The partner was not found.</p> : null}
      {partner ? <ClockFigures partner={partner} /> : null}
      <h2>Move the clock</h2>
      <div className="row clock-actions">
        <button type="button" disabled={busy || !partner} onClick={() => move(dayOn)}>
          A day on
        </button>
        <button type="button" disabled={busy || !partner} onClick={() => move(weekOn)}>
          A week on
        </button>
        <button type="button" disabled={busy || partner?.nextLockAt == null} onClick={() => move(toNextLock)}>
          To the next lock
        </button>
        <button type="button" disabled={busy || !partner} onClick={reset}>
          Back to real time
        </button>
      </div>
      {refusal ? <ErrorNote error={refusal} /> : null}
      {moved !== null ? (
        <p className="notice" role="status">
          Partner time is now {format.time(moved)}
        </p>
      ) : null}
    </>
  );
}

function ClockFigures(props: { partner: ClockPartner }) {
  const { sandboxClock, nextLockAt } = props.partner;
  return (
    <dl className="clock">
      <div>
        <dt>Partner time</dt>
        <dd>{sandboxClock ? format.time(sandboxClock.now) : 'On real time'}</dd>
      </div>
      <div>
        <dt>Real time</dt>
        <dd>
          {sandboxClock
            ? format.time(sandboxClock.realNow)
            : `${format.time(Math.floor(Date.now() / 1000))} (this computer's clock)`}
        </dd>
      </div>
      <div>
        <dt>Next lock</dt>
        <dd>{nextLockAt == null ? 'None ahead' : format.time(nextLockAt)}</dd>
      </div>
    </dl>
  );
}
