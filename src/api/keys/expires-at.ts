// `expiresAt` of POST /keys (auth-keys.md §5), parsed like Meilisearch's `parse_expiration_date`:
// RFC 3339, then `YYYY-MM-DDTHH:MM:SS`, `YYYY-MM-DD HH:MM:SS` and `YYYY-MM-DD` (all three UTC).

// RFC 3339 as the `time` crate reads it: `T`/`t` separator, any number (≥ 1) of fraction digits
// (beyond nanoseconds ignored), `Z`/`z` or a `±HH:MM` offset.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const PRIMITIVE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** µs since the Unix epoch of a date in one of the accepted formats, or null when it does not parse. */
export function parseKeyDate(raw: string): number | null {
  let m = RFC3339.exec(raw);
  if (m) {
    const base = civil(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!);
    if (base === null) return null;
    const fraction = m[7] === undefined ? 0 : Number((m[7] + '000000').slice(0, 6));
    let offsetMicros = 0;
    if (m[8] === undefined) {
      const oh = Number(m[10]);
      const om = Number(m[11]);
      if (oh > 23 || om > 59) return null;
      offsetMicros = (oh * 3600 + om * 60) * 1_000_000 * (m[9] === '-' ? -1 : 1);
    }
    return base + fraction - offsetMicros;
  }
  m = PRIMITIVE.exec(raw);
  if (m) {
    // The two primitive formats differ only by their separator (`T` or space).
    return civil(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!);
  }
  m = DATE_ONLY.exec(raw);
  if (m) return civil(m[1]!, m[2]!, m[3]!, '00', '00', '00');
  return null;
}

function civil(y: string, mo: string, d: string, h: string, mi: string, s: string): number | null {
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const days = daysFromCivil(year, month, day);
  return ((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
