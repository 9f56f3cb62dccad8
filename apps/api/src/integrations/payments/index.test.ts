import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config.ts';
import { createGateways, gatewayFor, shouldServeSandboxGateway } from './index.ts';
import type { GatewayId, PaymentGateway } from './port.ts';

function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'x'.repeat(40),
    DATABASE_URL: 'postgres://u@127.0.0.1/db',
    PUBLIC_URL: 'https://console.example',
    ...env,
  });
}

const PAYEER = { PAYEER_SHOP_ID: '12345', PAYEER_SECRET_KEY: 'payeer-secret' };

/** A gateway that only names itself and its methods. */
const fake = (id: GatewayId, methods: PaymentGateway['methods']) =>
  ({ id, methods }) as PaymentGateway;

describe('createGateways', () => {
  it('builds the drivers of PAYMENT_DRIVERS in its order', () => {
    const gateways = createGateways(testConfig({ PAYMENT_DRIVERS: 'payeer,sandbox', ...PAYEER }));
    expect([...gateways.keys()]).toEqual(['payeer', 'sandbox']);
    expect(gateways.get('payeer')!.id).toBe('payeer');
    expect(gateways.get('sandbox')!.id).toBe('sandbox');
  });

  it('builds the sandbox alone by default outside production', () => {
    expect([...createGateways(testConfig()).keys()]).toEqual(['sandbox']);
  });

  it('skips payeer while its shop is not configured', () => {
    const config = testConfig();
    const withoutShop: Config = {
      ...config,
      payments: { ...config.payments, drivers: ['payeer', 'sandbox'], payeer: undefined },
    };
    expect([...createGateways(withoutShop).keys()]).toEqual(['sandbox']);
  });

  it('refuses the sandbox in production', () => {
    const config = testConfig();
    expect(() => createGateways({ ...config, isProduction: true })).toThrow(
      /never runs in production/,
    );
  });
});

describe('gatewayFor', () => {
  it('picks the first enabled gateway that serves the method', () => {
    const gateways = createGateways(testConfig({ PAYMENT_DRIVERS: 'payeer,sandbox', ...PAYEER }));
    expect(gatewayFor(gateways, 'card')!.id).toBe('payeer');
    expect(gatewayFor(gateways, 'ewallet')!.id).toBe('payeer');
    const sandboxFirst = createGateways(
      testConfig({ PAYMENT_DRIVERS: 'sandbox,payeer', ...PAYEER }),
    );
    expect(gatewayFor(sandboxFirst, 'card')!.id).toBe('sandbox');
  });

  it('passes over a gateway that does not serve the method', () => {
    const gateways = new Map<GatewayId, PaymentGateway>([
      ['payeer', fake('payeer', ['ewallet'])],
      ['sandbox', fake('sandbox', ['card', 'ewallet'])],
    ]);
    expect(gatewayFor(gateways, 'card')!.id).toBe('sandbox');
    expect(gatewayFor(gateways, 'ewallet')!.id).toBe('payeer');
    expect(gatewayFor(new Map([['payeer', fake('payeer', ['ewallet'])]]), 'card')).toBeUndefined();
  });

  it('finds nothing without gateways', () => {
    expect(gatewayFor(new Map(), 'card')).toBeUndefined();
  });
});

describe('shouldServeSandboxGateway', () => {
  it('serves the page while the sandbox driver is on, outside production only', () => {
    expect(shouldServeSandboxGateway(testConfig())).toBe(true);
    const payeerOnly = testConfig({ PAYMENT_DRIVERS: 'payeer', ...PAYEER });
    expect(shouldServeSandboxGateway(payeerOnly)).toBe(false);
    expect(shouldServeSandboxGateway({ ...testConfig(), isProduction: true })).toBe(false);
  });
});
