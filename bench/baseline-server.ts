// The bench's one bare baseline process: Express and `pg`, no GraphQL, no knex, no middleware,
// serving each door that has a baseline with the service's own statements: lookup-customer
// (baseline-lookup.ts), record-customer-payment (baseline-payment.ts), list-transactions
// (baseline-transactions.ts). Run by bench/run.ts as its own process: DATABASE_URL, PORT,
// DATABASE_POOL_MAX.

import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { lookupCustomer } from './baseline-lookup.js';
import { recordCustomerPayment } from './baseline-payment.js';
import { baselineTransactionsApp } from './baseline-transactions.js';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX ?? 10),
});

const app = express();
app.get('/v1/lookup-customer.php', async (req, res) => {
  try {
    const answer = await lookupCustomer(pool, req.query);
    res.status(answer.status).json(answer.body);
  } catch (error) {
    res.status(500).json({ valid: false, message: String(error) });
  }
});
app.get('/v1/record-customer-payment.php', async (req, res) => {
  try {
    const answer = await recordCustomerPayment(pool, req.query, req.get('idempotency-key'));
    res.status(answer.status).json(answer.body);
  } catch (error) {
    res.status(500).json({ valid: false, message: String(error) });
  }
});
app.get('/healthz', (_req, res) => void res.json({ ok: true }));
// list-transactions: the service's key and page statements, the legacy body streamed (baseline-transactions.ts).
app.use(baselineTransactionsApp(pool));

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`baseline listening on 127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const shutdown = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
