// How the console writes the graph's values: amounts as the graph gives them (exact decimal strings)
// with their currency, ratios as percentages, times in UTC. Nothing here does arithmetic on money.

/** "1234.50" USD -> "1,234.50 USD": the decimal string grouped, never turned into a float. */
export function money(amount: string | null | undefined, currency: string): string {
  if (amount == null) return '-';
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = amount.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`} ${currency}`;
}

/** A ratio of 4 places ("0.1234") as a percentage ("12.34%"); null (nothing to divide by) as "n/a". */
export function percent(ratio: string | null | undefined): string {
  if (ratio == null) return 'n/a';
  const [whole = '0', fraction = ''] = ratio.split('.');
  const places = fraction.padEnd(4, '0');
  const hundredths = BigInt(whole) * 10000n + BigInt(places.slice(0, 4) || '0');
  const integer = hundredths / 100n;
  const rest = (hundredths % 100n).toString().padStart(2, '0');
  return `${integer}.${rest}%`;
}

/** A ratio as a number for drawing only (a chart's y); never for figures shown as text. */
export function ratioForChart(ratio: string | null | undefined): number | null {
  return ratio == null ? null : Number(ratio);
}

/** Unix seconds as "2026-11-29 10:22:05 UTC". */
export function time(seconds: number | null | undefined): string {
  if (seconds == null) return '-';
  return `${new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** Unix seconds as the day, "2026-11-29" (UTC). */
export function day(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** An enum value as words: "DEVICE_LOCKED" -> "Device locked". */
export function words(value: string): string {
  const lower = value.toLowerCase().replace(/[_.]/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/** A whole number grouped by thousands: 12345 -> "12,345". */
export function count(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** An amount as a number for drawing only (a bar's height); never for figures shown as text. */
export function amountForChart(amount: string): number {
  return Number(amount);
}
