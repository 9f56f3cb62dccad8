import { describe, expect, it } from 'vitest';
import { isLoopback, rateLimitKeyOf } from './client-address.ts';

describe('rateLimitKeyOf', () => {
  it('keeps an IPv4 address, also as a dual-stack socket writes it', () => {
    expect(rateLimitKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, however the address is written', () => {
    const key = '2001:db8:a:b::/64';
    expect(rateLimitKeyOf('2001:db8:a:b::1')).toBe(key);
    expect(rateLimitKeyOf('2001:0db8:000a:000b:ffff:ffff:ffff:fffe')).toBe(key);
    expect(rateLimitKeyOf('2001:DB8:A:B:1:2:3:4')).toBe(key);
    expect(rateLimitKeyOf('2001:db8:a:b:1:2:1.2.3.4')).toBe(key);
    expect(rateLimitKeyOf('2001:db8:a:b::1%eth0')).toBe(key);
    // the next /64 is another client
    expect(rateLimitKeyOf('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(rateLimitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKeyOf('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('passes anything else through (it is a key, never parsed again)', () => {
    expect(rateLimitKeyOf('')).toBe('');
    expect(rateLimitKeyOf('not an address')).toBe('not an address');
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['192.168.1.10', false],
    ['::', false],
    ['::2', false],
    ['1::1', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1', false],
    ['localhost', false],
    ['', false],
  ])('%s: %s', (ip, loopback) => {
    expect(isLoopback(ip)).toBe(loopback);
  });
});
