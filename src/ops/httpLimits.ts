// Sizes and times the service refuses to exceed: the query string of a request, and how long the HTTP
// server waits for a request to arrive. Bodies are limited where they are read (64 kB payments,
// 64 kB /graphql).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Request, Response } from 'express';
import { sendDoorError } from '../http/errorResponses.js';
import { AppError } from '../kernel/errors.js';

/** Longer query strings are refused with 414 (Node itself refuses request heads over 16 KiB with 431). */
export const MAX_QUERY_STRING_LENGTH = 8 * 1024;

export const uriTooLong = () =>
  new AppError('URI_TOO_LONG', `the query string is longer than ${MAX_QUERY_STRING_LENGTH} bytes`);

/** Answers 414 URI_TOO_LONG, in the error body of the door the path belongs to, and says so; else false. */
export function refusedLongQueryString(req: Request, res: Response): boolean {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  if (start === -1 || url.length - start - 1 <= MAX_QUERY_STRING_LENGTH) return false;
  sendDoorError(req, res, uriTooLong());
  return true;
}

interface HttpServerTimeouts {
  /** The whole request (head and body) must arrive within this; else 408 and the connection closes. */
  requestTimeout: number;
  /** The request head must arrive within this (slow-header clients), always below requestTimeout. */
  headersTimeout: number;
  /** An idle keep-alive connection is closed after this: longer than the usual 60 s idle timeout of
   * load balancers, so the balancer closes first and never sends a request on a closing connection. */
  keepAliveTimeout: number;
}

export function httpServerTimeouts(requestTimeoutMs: number): HttpServerTimeouts {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(10_000, Math.floor(requestTimeoutMs / 2)),
    keepAliveTimeout: 65_000,
  };
}

/** The HTTP server of the process, with its timeouts; Node checks them every second (not every 30 s). */
export function createHttpServer(listener: RequestListener, requestTimeoutMs: number): Server {
  const timeouts = httpServerTimeouts(requestTimeoutMs);
  const server = createServer(
    {
      requestTimeout: timeouts.requestTimeout,
      headersTimeout: timeouts.headersTimeout,
      connectionsCheckingInterval: Math.min(1000, timeouts.headersTimeout),
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  return server;
}
