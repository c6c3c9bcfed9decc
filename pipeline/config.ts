/** The window of dates the business-day dataset covers and the server answers for. */
export const FIRST_YEAR = 1990;
export const LAST_YEAR = 2099;

/** The window of time zone transitions the dataset carries (offsets at any instant in it answer from our compiled tzdata). */
export const TZ_FIRST_YEAR = 1970;
export const TZ_LAST_YEAR = 2099;
