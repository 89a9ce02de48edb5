// The part of Bruno's converter (@usebruno/converters, shipped without types) scripts/collection.ts uses.
declare module '@usebruno/converters' {
  /** An OpenAPI document as a Bruno collection: folders (one per tag) of requests, and environments. */
  export function openApiToBruno(spec: unknown, options?: { groupBy?: 'tags' | 'path' }): BrunoCollection;

  export interface BrunoCollection {
    name: string;
    items: BrunoItem[];
    environments: unknown[];
    root?: unknown;
  }

  export interface BrunoItem {
    type: string;
    name: string;
    seq?: number;
    tags?: string[];
    items?: BrunoItem[];
    root?: { meta?: { name?: string; seq?: number } };
    request?: {
      method: string;
      url: string;
      params: Array<{ name: string; value: string; enabled: boolean; type: string }>;
      auth: Record<string, unknown>;
      body: Record<string, unknown>;
      headers: unknown[];
      script?: Record<string, unknown>;
      vars?: { req: unknown[]; res: unknown[] };
      docs?: string;
    };
    examples?: BrunoExample[];
  }

  /** A recorded answer of a request, with the request that got it. */
  export interface BrunoExample {
    name: string;
    request: {
      url: string;
      method: string;
      headers: Array<{ name: string; value: string; enabled: boolean }>;
      params: Array<{ name: string; value: string; enabled: boolean; type: string }>;
      body: { mode: string; json?: string | null; text?: string | null };
    };
    response: unknown;
  }
}
