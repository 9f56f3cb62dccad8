import { describe, expect, it } from 'vitest';
import { mayOpen, operatorRolesOf } from './operator-roles';

describe('operator roles', () => {
  it('are the roles the API sends, and for a payload without them, all of them to role admin', () => {
    expect(operatorRolesOf({ role: 'admin', operator_roles: ['support', 'vps'] })).toEqual([
      'support',
      'vps',
    ]);
    expect(operatorRolesOf({ role: 'admin', operator_roles: [] })).toEqual([]);
    expect(operatorRolesOf({ role: 'admin' })).toEqual(['admin']);
    expect(operatorRolesOf({ role: 'user' })).toEqual([]);
    expect(operatorRolesOf(undefined)).toEqual([]);
  });

  it('open what needs one of them, what needs none, and with admin everything', () => {
    expect(mayOpen(['support'], 'support')).toBe(true);
    expect(mayOpen(['support'], 'billing')).toBe(false);
    expect(mayOpen(['support'], 'admin')).toBe(false);
    expect(mayOpen(['support'], undefined)).toBe(true);
    expect(mayOpen(['billing', 'vps'], 'vps')).toBe(true);
    expect(mayOpen(['admin'], 'monitoring')).toBe(true);
    expect(mayOpen(['admin'], 'admin')).toBe(true);
    expect(mayOpen([], undefined)).toBe(false);
    expect(mayOpen([], 'support')).toBe(false);
  });
});
