// A webhook receiver on loopback for the delivery tests: records every request it reads (path,
// headers, raw body), and answers each path by a script: 'fail' (500), 'hang' (never answers),
// 'drop' (destroys the connection), or 'ok' (200) once the script for that path is used up; with
// `answerAfterMs`, every answer comes that long after the request was read (a slow receiver).
// `underWay()` counts the requests read and not yet answered (a hung one stays under way).
// Every post is held to openapi.json's `webhooks` (support/webhookPayloads.ts): a mismatch fails the
// test it arrived in (a hook of this module's, in every file that starts a receiver), or else the
// close. A suite that posts stand-in data to test delivery itself says so (`payloads: 'stand-ins'`).
import http from 'node:http';
import { afterEach, expect } from 'vitest';
import { type PayloadKind, webhookPostProblems } from './webhookPayloads.js';

export type Answer = 'ok' | 'fail' | 'hang' | 'drop';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  answer: Answer;
  /** What is wrong with it by openapi.json's webhooks (nothing: []). */
  problems: string[];
}

export interface Receiver {
  url: (path: string) => string;
  received: ReceivedRequest[];
  /** Requests read and not yet answered: the posts a worker has under way at this receiver. */
  underWay: () => number;
  /** Answers the next requests to `path` in this order, then 'ok'. */
  script: (path: string, answers: Answer[]) => void;
  close: () => Promise<void>;
}

/** The posts that did not match their description, not yet reported, of every receiver open. */
const unreported: string[] = [];
afterEach(() => {
  const mismatches = unreported.splice(0);
  expect(mismatches, "webhook posts that do not match openapi.json's webhooks").toEqual([]);
});

export async function startReceiver(
  options: { answerAfterMs?: number; payloads?: PayloadKind } = {},
): Promise<Receiver> {
  const scripts = new Map<string, Answer[]>();
  const received: ReceivedRequest[] = [];
  const payloads = options.payloads ?? 'described';
  let underWay = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const answer = scripts.get(path)?.shift() ?? 'ok';
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      );
      const body = Buffer.concat(chunks).toString('utf8');
      let problems: string[];
      try {
        problems = webhookPostProblems(headers, body, payloads);
      } catch (error) {
        problems = [`the check itself failed: ${String(error)}`];
      }
      if (problems.length > 0) unreported.push(`${path}: ${problems.join('; ')} in ${body.slice(0, 500)}`);
      received.push({ path, headers, body, answer, problems });
      underWay++;
      if (options.answerAfterMs) setTimeout(() => respond(answer), options.answerAfterMs);
      else respond(answer);
    });
    const respond = (answer: Answer) => {
      if (answer === 'hang') return;
      underWay--;
      if (answer === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer === 'ok' ? 200 : 500, { 'content-type': 'text/plain' });
      res.end(answer === 'ok' ? 'thanks' : 'x'.repeat(5000));
    };
  });
  // Never closes an idle connection under the service's webhook client (test/support/service.ts says why).
  server.keepAliveTimeout = 0;
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    url: (path) => `http://127.0.0.1:${address.port}${path}`,
    received,
    underWay: () => underWay,
    script: (path, answers) => scripts.set(path, [...answers]),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const late = received.flatMap((request) => request.problems);
      if (late.length > 0)
        throw new Error(`webhook posts that do not match openapi.json's webhooks: ${late.join('; ')}`);
    },
  };
}
