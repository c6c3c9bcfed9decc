/** The part of date-chinese lunar-cache.ts uses (its bundled types are not reachable through its package exports). */
declare module 'date-chinese' {
  export class CalendarChinese {}
  export class CalendarKorean extends CalendarChinese {}
  export class CalendarVietnamese extends CalendarChinese {}
}
