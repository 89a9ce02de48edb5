import { isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { LookupCustomerQuery, SecureStatus } from '../__generated__/operations.js';
import { buildSchema } from '../pipeline/schema.js';
import { lookupCustomerBody } from './mappers.js';

/** A lookup's data with the device in `secureStatus` (null: the device has no current order). */
function lookupData(secureStatus: SecureStatus | null): LookupCustomerQuery {
  const amount = '1.00';
  return {
    customer: {
      id: '1',
      financeOrder: {
        id: '2',
        currency: 'USD',
        downPayment: amount,
        financeAmount: amount,
        monthlyCost: amount,
        months: 1,
        pricePreTax: amount,
        purchaseAmount: amount,
        remainingBalance: amount,
        time: 0,
        weeklyCost: amount,
        payments: [],
        paymentOptions: [],
        device: {
          validThrough: null,
          imei: '123456789012347',
          simNumber: null,
          lastSeen: null,
          secureStatus,
          family: { id: '3', name: 'family' },
          model: { id: '4', makeModel: 'make', name: 'model' },
        },
      },
    },
  };
}

describe('the legacy secure status', () => {
  it("is the mapper's text for each status of the graph", () => {
    const legacyText = (status: SecureStatus | null) =>
      lookupCustomerBody(lookupData(status), 'x').device?.secureStatus;
    expect(legacyText('ACTIVE_AND_SECURED')).toBe('Device Active And Secured');
    expect(legacyText('LOCKED')).toBe('Device Locked');
    expect(legacyText('RELEASED')).toBe('Device Released');
    expect(legacyText(null)).toBeNull();
  });

  it('is no field of the graph: the graph has the enum only', () => {
    const schema = buildSchema();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type)) continue;
      expect(Object.keys(type.getFields()), type.name).not.toContain('secureStatusText');
    }
    expect(schema.getType('SecureStatus')).toBeDefined();
  });
});
