/**
 * `Date.prototype.toISOString` for the years 0000–9999, computed in JavaScript: the same text,
 * about 2.5x faster than the built-in (which dominates encoding of result sets full of dates).
 * Other years, invalid dates and Date subclasses go through the built-in.
 */

const PAD2: readonly string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const PAD3: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

export function isoString(date: Date): string {
    const ms = date.getTime();
    if (!(ms >= FIRST_MS && ms <= LAST_MS) || Object.getPrototypeOf(date) !== Date.prototype) {
        return date.toISOString();
    }
    const days = Math.floor(ms / DAY_MS);
    let rest = ms - days * DAY_MS;
    const hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
    const minutes = Math.floor(rest / 60_000);
    rest -= minutes * 60_000;
    const seconds = Math.floor(rest / 1000);
    const millis = rest - seconds * 1000;

    // civil date from days since 1970-01-01 (proleptic Gregorian calendar, eras of 400 years)
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const dayOfEra = z - era * 146_097;
    const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
    const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const mp = Math.floor((5 * dayOfYear + 2) / 153);
    const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
    const month = mp < 10 ? mp + 3 : mp - 9;
    const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);

    const y = year >= 1000 ? String(year) : String(year).padStart(4, '0');
    return `${y}-${PAD2[month]}-${PAD2[day]}T${PAD2[hours]}:${PAD2[minutes]}:${PAD2[seconds]}.${PAD3[millis]}Z`;
}
