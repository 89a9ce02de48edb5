// One POST to a receiver, which cannot hurt the service: a time limit, no redirects followed, at most
// 1 kB of its answer read (the rest is dropped with the connection), and in production the URL held to
// its rules (https, an allowed port) and the address checked where the connection is made (undici's
// fetch through dispatcher.ts's Agent).
import { type Dispatcher, fetch } from 'undici';
import { type DestinationRules, refusedUrl } from './destinations.js';
import { DestinationRefusedError, deliveryDispatcher } from './dispatcher.js';
import type { SignedRequest } from './signing.js';

/** How much of a receiver's answer is kept. */
const RESPONSE_LIMIT_BYTES = 1024;

export interface PostOutcome {
  at: Date;
  statusCode: number | null;
  latencyMs: number | null;
  response: string | null;
  error: string | null;
  delivered: boolean;
}

/** Reads at most `limit` bytes of a body, then cancels the rest. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function describeFailure(error: unknown, timeoutMs: number, production: boolean): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  // A refused destination says only what destinations.ts lets it say.
  if (cause instanceof DestinationRefusedError) return cause.message;
  // In production only an error's code: a message may name the address connected to.
  const message = production
    ? 'connection failed'
    : (cause?.message ?? (error instanceof Error ? error.message : String(error)));
  const detail = cause?.code ?? message;
  return `the request failed: ${detail}`.slice(0, RESPONSE_LIMIT_BYTES);
}

export async function postWebhook(
  url: string,
  request: SignedRequest,
  options: {
    timeoutMs: number;
    rules: DestinationRules;
    now: () => Date;
    /** Where connections are made; absent: this process's (deliveryDispatcher). */
    dispatcher?: Dispatcher;
  },
): Promise<PostOutcome> {
  const at = options.now();
  const refused = refusedUrl(new URL(url), options.rules);
  if (refused) return { at, statusCode: null, latencyMs: null, response: null, error: refused, delivered: false };
  const started = performance.now();
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { ...request.headers, 'user-agent': 'device-financing-webhooks/1' },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
      dispatcher: options.dispatcher ?? deliveryDispatcher(options.rules.production),
    });
    const latencyMs = Math.round(performance.now() - started);
    const response = await readLimited(answer.body, RESPONSE_LIMIT_BYTES).catch(() => '');
    const delivered = answer.status >= 200 && answer.status < 300;
    return { at, statusCode: answer.status, latencyMs, response, error: null, delivered };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    return {
      at,
      statusCode: null,
      latencyMs,
      response: null,
      error: describeFailure(error, options.timeoutMs, options.rules.production),
      delivered: false,
    };
  }
}
