import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appliesTo, canonicalLocation, rowAppliesTo, ISO_SUBDIVISION_INPUT_RE, LOCATION_CODE_RE, LOCATION_INPUT_RE } from './location-code.js';

const schema = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', name), 'utf8'));
/** A pattern as a client may type it: every A-Z class also takes a-z. */
const anyCase = (source: string) => source.replaceAll('[A-Z', '[A-Za-z');

describe('the location-code patterns are the schemas\' patterns', () => {
  it('LOCATION_CODE_RE is defs.schema.json $defs.LocationCode.pattern; LOCATION_INPUT_RE is the same in any letter case', () => {
    const pattern = schema('defs.schema.json').$defs.LocationCode.pattern;
    expect(LOCATION_CODE_RE.source).toBe(pattern);
    expect(LOCATION_INPUT_RE.source).toBe(anyCase(pattern));
  });

  it('ISO_SUBDIVISION_INPUT_RE is astronomy-places.schema.json\'s code pattern in any letter case', () => {
    expect(ISO_SUBDIVISION_INPUT_RE.source).toBe(anyCase(schema('astronomy-places.schema.json').properties.places.propertyNames.pattern));
  });
});

describe('canonicalLocation', () => {
  it('upper-cases a code in any letter case: a country, an ISO 3166-2 code, a date-holidays sub-region', () => {
    expect(canonicalLocation('us')).toBe('US');
    expect(canonicalLocation('US-ca')).toBe('US-CA');
    expect(canonicalLocation('br-go-goiania')).toBe('BR-GO-GOIANIA'); // a 7-letter region segment
    expect(canonicalLocation('GT-1-101')).toBe('GT-1-101');
    expect(canonicalLocation('DE-BY-123456789012')).toBe('DE-BY-123456789012'); // 12 characters: the longest segment
  });

  it('refuses anything else', () => {
    for (const text of ['', 'U', 'USA', 'U1', '1US', 'US-', 'US--CA', '-US', 'US-CA-LA-X', 'US_CA', ' US', 'US ', 'DE-BY-1234567890123', 'uſ', 'US-ÇA']) {
      expect(canonicalLocation(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('gives codes LOCATION_CODE_RE accepts', () => {
    for (const text of ['us', 'Us-Ca', 'gt-1-101']) expect(LOCATION_CODE_RE.test(canonicalLocation(text)!)).toBe(true);
    expect(LOCATION_CODE_RE.test('us')).toBe(false); // published codes are upper case
  });
});

describe('appliesTo', () => {
  it('a code applies to itself and to the locations under it', () => {
    expect(appliesTo('US', 'US')).toBe(true);
    expect(appliesTo('US', 'US-CA')).toBe(true);
    expect(appliesTo('US', 'US-CA-LA')).toBe(true);
    expect(appliesTo('US-CA', 'US-CA-LA')).toBe(true);
    expect(appliesTo('BR-GO', 'BR-GO-GOIANIA')).toBe(true);
  });

  it('not to its parent, a sibling, or a code that only starts with the same letters', () => {
    expect(appliesTo('US-CA', 'US')).toBe(false);
    expect(appliesTo('US-CA', 'US-NY')).toBe(false);
    expect(appliesTo('US-C', 'US-CA')).toBe(false); // a prefix, not an ancestor
    expect(appliesTo('GT-1', 'GT-10')).toBe(false);
    expect(appliesTo('GT-1', 'GT-1-101')).toBe(true);
    expect(appliesTo('DE', 'DK')).toBe(false);
  });
});

describe('rowAppliesTo', () => {
  it('a curated row applies to its location and the codes under it, or (written =CA) to that location only', () => {
    expect(rowAppliesTo({ location: 'CA', only: false }, 'CA-ON')).toBe(true);
    expect(rowAppliesTo({ location: 'CA' }, 'CA-ON')).toBe(true);
    expect(rowAppliesTo({ location: 'CA', only: true }, 'CA')).toBe(true);
    expect(rowAppliesTo({ location: 'CA', only: true }, 'CA-ON')).toBe(false);
    expect(rowAppliesTo({ location: 'CA', only: true }, 'US')).toBe(false);
  });
});

describe('ISO_SUBDIVISION_INPUT_RE', () => {
  it('takes a country or an ISO 3166-2 code in any case, not a date-holidays sub-region', () => {
    for (const ok of ['JP', 'jp-13', 'US-CA', 'FR-75C', 'gb-eng']) expect(ISO_SUBDIVISION_INPUT_RE.test(ok), ok).toBe(true);
    for (const bad of ['J', 'JP-', 'JP-1234', 'BR-GO-GOIANIA', 'JP13', '']) expect(ISO_SUBDIVISION_INPUT_RE.test(bad), bad).toBe(false);
  });
});
