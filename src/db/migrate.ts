// Runs the migrations in migrations/. They are listed here by import rather than found on disk, so
// they load the same way under tsx, vitest and any bundler; a test checks the list against the folder.
import type { Knex } from 'knex';
import * as principals from '../../migrations/20261121000100_principals.js';
import * as stores from '../../migrations/20261121000200_stores.js';
import * as customersDevices from '../../migrations/20261121000300_customers_devices.js';
import * as sales from '../../migrations/20261121000400_sales.js';
import * as ledger from '../../migrations/20261121000500_ledger.js';
import * as idempotency from '../../migrations/20261121000600_idempotency.js';
import * as auditEvents from '../../migrations/20261121000700_audit_events.js';
import * as customersPhoneIndex from '../../migrations/20261121000800_customers_phone_index.js';
import * as notificationDirectories from '../../migrations/20261121000900_notification_directories.js';
import * as events from '../../migrations/20261124000100_events.js';
import * as webhooks from '../../migrations/20261124000200_webhooks.js';
import * as eventsDataJson from '../../migrations/20261124000300_events_data_json.js';
import * as apiKeyWrites from '../../migrations/20261124000410_api_key_writes.js';
import * as rateLimits from '../../migrations/20261125000100_rate_limits.js';
import * as eventsTraceparent from '../../migrations/20261125000200_events_traceparent.js';
import * as rateLimitsUnlogged from '../../migrations/20261126000100_rate_limits_unlogged.js';
import * as listingIndexes from '../../migrations/20261127000100_listing_indexes.js';
import * as webhookTools from '../../migrations/20261127000500_webhook_tools.js';
import * as partnerPolicy from '../../migrations/20261127100100_partner_policy.js';
import * as paymentReferences from '../../migrations/20261127100200_payment_references.js';
import * as lockTimeline from '../../migrations/20261127100300_lock_timeline.js';
import * as deviceDoor from '../../migrations/20261127200100_device_door.js';
import * as deviceCommands from '../../migrations/20261127200200_device_commands.js';
import * as unlockCodes from '../../migrations/20261127200300_unlock_codes.js';
import * as partitionTransactions from '../../migrations/20261128000200_partition_transactions.js';
import * as partitionEvents from '../../migrations/20261128000300_partition_events.js';
import * as checkinSequence from '../../migrations/20261128210100_checkin_sequence.js';
import * as sealedUnlockKeys from '../../migrations/20261128210200_sealed_unlock_keys.js';
import * as timelineExact from '../../migrations/20261128210400_timeline_exact.js';
import * as webhookFanOut from '../../migrations/20261129000100_webhook_fan_out.js';
import * as corrections from '../../migrations/20261129100100_corrections.js';
import * as reversalOpposites from '../../migrations/20261129100110_reversal_opposites.js';
import * as book from '../../migrations/20261130000100_book.js';
import * as deviceEvents from '../../migrations/20261201000100_device_events.js';
import * as partnerNextLock from '../../migrations/20261201000200_partner_next_lock.js';
import * as distributableSchema from '../../migrations/20261202000100_distributable_schema.js';

export const MIGRATIONS: Readonly<Record<string, Knex.Migration>> = {
  '20261121000100_principals': principals,
  '20261121000200_stores': stores,
  '20261121000300_customers_devices': customersDevices,
  '20261121000400_sales': sales,
  '20261121000500_ledger': ledger,
  '20261121000600_idempotency': idempotency,
  '20261121000700_audit_events': auditEvents,
  '20261121000800_customers_phone_index': customersPhoneIndex,
  '20261121000900_notification_directories': notificationDirectories,
  '20261124000100_events': events,
  '20261124000200_webhooks': webhooks,
  '20261124000300_events_data_json': eventsDataJson,
  '20261124000410_api_key_writes': apiKeyWrites,
  '20261125000100_rate_limits': rateLimits,
  '20261125000200_events_traceparent': eventsTraceparent,
  '20261126000100_rate_limits_unlogged': rateLimitsUnlogged,
  '20261127000100_listing_indexes': listingIndexes,
  '20261127000500_webhook_tools': webhookTools,
  '20261127100100_partner_policy': partnerPolicy,
  '20261127100200_payment_references': paymentReferences,
  '20261127100300_lock_timeline': lockTimeline,
  '20261127200100_device_door': deviceDoor,
  '20261127200200_device_commands': deviceCommands,
  '20261127200300_unlock_codes': unlockCodes,
  '20261128000200_partition_transactions': partitionTransactions,
  '20261128000300_partition_events': partitionEvents,
  '20261128210100_checkin_sequence': checkinSequence,
  '20261128210200_sealed_unlock_keys': sealedUnlockKeys,
  '20261128210400_timeline_exact': timelineExact,
  '20261129000100_webhook_fan_out': webhookFanOut,
  '20261129100100_corrections': corrections,
  '20261129100110_reversal_opposites': reversalOpposites,
  '20261130000100_book': book,
  '20261201000100_device_events': deviceEvents,
  '20261201000200_partner_next_lock': partnerNextLock,
  '20261202000100_distributable_schema': distributableSchema,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

const migratorConfig: Knex.MigratorConfig = { migrationSource };

/** Applies every pending migration; returns the names applied. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(migratorConfig)) as [number, string[]];
  return applied;
}

/** Rolls back the last batch, or every migration when `all` is set; returns the names undone. */
export async function rollback(db: Knex, all = false): Promise<string[]> {
  const [, undone] = (await db.migrate.rollback(migratorConfig, all)) as [number, string[]];
  return undone;
}

/** Names of migrations not yet applied. */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list(migratorConfig)) as [unknown, Array<{ file: string } | string>];
  return pending.map((entry) => (typeof entry === 'string' ? entry : entry.file));
}

/** How the database's schema stands against this build's migrations (decisions.md 27). */
interface SchemaDrift {
  /** This build's migrations the database has not applied. */
  behind: string[];
  /** Migrations the database has applied that this build does not know: a newer release migrated it. */
  ahead: string[];
  /** How many migrations the database has applied (none: a new database). */
  applied: number;
}

/**
 * Reads the applied migrations' names from Knex's own table, without taking its lock or validating the
 * list (Knex's list refuses a database ahead of the code with an error, where this names what is ahead).
 */
export async function schemaDrift(db: Knex): Promise<SchemaDrift> {
  const known = Object.keys(MIGRATIONS).sort();
  const applied = (await db.schema.hasTable('knex_migrations'))
    ? ((await db('knex_migrations').select('name').orderBy('id')) as Array<{ name: string }>).map((row) => row.name)
    : [];
  const appliedSet = new Set(applied);
  return {
    behind: known.filter((name) => !appliedSet.has(name)),
    ahead: applied.filter((name) => !(name in MIGRATIONS)),
    applied: applied.length,
  };
}
