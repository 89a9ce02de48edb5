export type ApiKeyKind = 'partner' | 'retail' | 'vendor' | 'operator';

/** A row of `api_keys`: metadata and the key's hash, never the key. */
export interface ApiKeyRow {
  id: string;
  key_hash: string;
  display_prefix: string;
  kind: ApiKeyKind;
  partner_id: string | null;
  vendor_id: string | null;
  operator_id: string | null;
  label: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface CreatedApiKeyParent {
  apiKey: ApiKeyRow;
  secret: string;
}

export interface AccessTokenParent {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  /** Unix seconds. */
  expiresAt: number;
}

/** The graph's ApiKeyKind of a key's kind. */
export const GRAPH_KEY_KINDS = {
  partner: 'PARTNER',
  retail: 'RETAIL',
  vendor: 'VENDOR',
  operator: 'OPERATOR',
} as const;
