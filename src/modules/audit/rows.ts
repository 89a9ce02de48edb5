/** A row of `audit_events` (append-only). */
export interface AuditEventRow {
  id: string;
  occurred_at: Date;
  actor_kind: 'operator' | 'cli' | 'partner' | 'device';
  actor_id: string | null;
  actor_key_id: string | null;
  action: string;
  subject_kind: string;
  subject_id: string | null;
  partner_id: string | null;
  details: Record<string, unknown>;
  client_address: string | null;
  request_id: string | null;
}

/** Who acted, and from where. */
export interface AuditActor {
  kind: 'operator' | 'cli' | 'partner' | 'device';
  id: string | null;
  keyId: string | null;
  clientAddress: string | null;
  requestId: string | null;
}

/** What was done to what. Details never hold a secret or a customer's personal data. */
export interface AuditEntry {
  action: string;
  subjectKind: string;
  subjectId: string | null;
  partnerId?: string | null;
  details?: Record<string, unknown>;
}

/** What a listing of the trail is narrowed to. */
export interface AuditEventFilter {
  action?: string | null;
  partnerId?: string | null;
}

/** A page of the trail as the graph answers it. */
export interface AuditEventPage {
  rows: AuditEventRow[];
  hasNextPage: boolean;
  filter: AuditEventFilter;
  /** The filter names a partner id that cannot exist: nothing matches, nothing is asked of the database. */
  empty?: boolean;
  /** Whether the trail holds an event at or before the page's after cursor (null: a first page). */
  previousExists: (() => Promise<boolean>) | null;
}

/** An edge of an AuditEventConnection. */
export interface AuditEventEdgeParent {
  cursor: string;
  node: AuditEventRow;
}
