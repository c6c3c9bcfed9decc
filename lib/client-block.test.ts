import { describe, expect, it } from 'vitest';
import { clientBlock, ipv6PrefixOf } from './client-block.js';

describe('clientBlock', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as IPv4', () => {
    expect(clientBlock('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBlock('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups IPv6 callers by /64: every address of one subscriber\'s block is one caller', () => {
    expect(clientBlock('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBlock('::1')).toBe('0:0:0:0::/64');
    expect(clientBlock('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBlock('2001:db8:1:3::1')).not.toBe(clientBlock('2001:db8:1:2::1'));
  });

  it('takes another prefix, down to a bit inside a group', () => {
    expect(clientBlock('2001:db8:1:2:3:4:5:6', 48)).toBe('2001:db8:1::/48');
    expect(clientBlock('2001:db8:1:2:3:4:5:6', 56)).toBe('2001:db8:1:0::/56');
    expect(clientBlock('2001:db8:1:2ff:3:4:5:6', 56)).toBe('2001:db8:1:200::/56');
    expect(clientBlock('2001:db8:1:2:3:4:5:6', 128)).toBe('2001:db8:1:2:3:4:5:6/128');
    expect(clientBlock('2001:db8:1:2:3:4:5:6', 1)).toBe('0::/1');
  });

  it('returns what it cannot parse unchanged (never throws on a header)', () => {
    for (const bad of ['unknown', '', '1::2::3', 'zz::1', '1:2:3:4:5:6:7:8:9', '::ffff:1.2.3.999']) expect(clientBlock(bad)).toBe(bad);
  });
});

describe('ipv6PrefixOf (ANON_IPV6_PREFIX)', () => {
  it('defaults to 64 and takes 1-128', () => {
    expect(ipv6PrefixOf(undefined)).toBe(64);
    expect(ipv6PrefixOf('')).toBe(64);
    expect(ipv6PrefixOf('48')).toBe(48);
    expect(ipv6PrefixOf('128')).toBe(128);
  });
  it('refuses anything else, saying what it takes', () => {
    for (const bad of ['0', '129', '64.5', 'x', '-1']) expect(() => ipv6PrefixOf(bad)).toThrow(/ANON_IPV6_PREFIX must be a whole number from 1 to 128/);
  });
});
