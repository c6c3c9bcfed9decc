import { describe, expect, it } from 'vitest';
import { buildTimeline, formatOffset, stateIndexAt } from './zone-timeline.js';

describe('zone timeline', () => {
  const est = { offset_minutes: -300, abbreviation: 'EST', is_dst: false };
  const edt = { offset_minutes: -240, abbreviation: 'EDT', is_dst: true };
  const tl = buildTimeline(est, [
    { at_ms: Date.UTC(2026, 2, 8, 7), state: edt },
    { at_ms: Date.UTC(2026, 10, 1, 6), state: est },
  ]);
  it('finds the state in force on both sides of a transition', () => {
    expect(tl.states[stateIndexAt(tl, Date.UTC(2026, 2, 8, 6, 59, 59, 999))].abbreviation).toBe('EST');
    expect(tl.states[stateIndexAt(tl, Date.UTC(2026, 2, 8, 7))].abbreviation).toBe('EDT');
    expect(tl.states[stateIndexAt(tl, Date.UTC(2030, 0, 1))].abbreviation).toBe('EST');
    expect(tl.states[stateIndexAt(tl, -1e15)].abbreviation).toBe('EST');
  });
  it('gives a DST state the standard offset around it', () => {
    expect(tl.states[1].standard_offset_minutes).toBe(-300);
    const opensInDst = buildTimeline(edt, [{ at_ms: 0, state: est }]);
    expect(opensInDst.states[0].standard_offset_minutes).toBe(-300);
  });
  it('formats offsets with sign, hours and minutes', () => {
    expect(formatOffset(-300)).toBe('-05:00');
    expect(formatOffset(345)).toBe('+05:45');
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(-210)).toBe('-03:30');
  });
});
