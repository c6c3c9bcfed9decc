/** The window of dates the business-day dataset covers and the server answers for. */
export const FIRST_YEAR = 1990;
export const LAST_YEAR = 2099;

/**
 * The window of time zone transitions the dataset carries (offsets at any instant in it answer from our compiled
 * tzdata). It covers astronomy's dates (1900-2100, lib/astronomy.ts): every area tells the time by these zones.
 */
export const TZ_FIRST_YEAR = 1900;
export const TZ_LAST_YEAR = 2100;
