/** The window of dates the dataset covers and the server answers for. */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2045;
