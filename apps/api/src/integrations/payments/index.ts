import type { GatewayMethod } from '@tradehost/contracts';
import type { Config } from '../../config.ts';
import { createPayeerGateway } from './payeer.ts';
import type { GatewayId, PaymentGateway } from './port.ts';
import { createSandboxGateway } from './sandbox.ts';

export type {
  CheckoutForm,
  CheckoutOrder,
  GatewayAck,
  GatewayId,
  GatewayNotification,
  PaymentGateway,
} from './port.ts';
export { GatewaySignatureError } from './port.ts';
export { formFields } from './fields.ts';
export { sandboxGatewayRoutes } from './sandbox-gateway.ts';

/**
 * The gateways of PAYMENT_DRIVERS, in its order (the order of preference). Payeer is built
 * only when its shop id and key are set (the config requires them when it is named).
 */
export function createGateways(config: Config): Map<GatewayId, PaymentGateway> {
  const gateways = new Map<GatewayId, PaymentGateway>();
  for (const id of config.payments.drivers) {
    if (id === 'sandbox') {
      // the config refuses this already; a second lock, as the sandbox pays without money
      if (config.isProduction) throw new Error('the sandbox gateway never runs in production');
      gateways.set(id, createSandboxGateway(config));
    } else if (id === 'payeer' && config.payments.payeer) {
      gateways.set(id, createPayeerGateway(config.payments.payeer));
    }
  }
  return gateways;
}

/** The first gateway (in the order of preference) that serves `method`, or undefined. */
export function gatewayFor(
  gateways: ReadonlyMap<GatewayId, PaymentGateway>,
  method: GatewayMethod,
): PaymentGateway | undefined {
  for (const gateway of gateways.values()) {
    if (gateway.methods.includes(method)) return gateway;
  }
  return undefined;
}

/** Whether buildApp registers sandboxGatewayRoutes (under /api): the driver is on, not production. */
export function shouldServeSandboxGateway(config: Config): boolean {
  return !config.isProduction && config.payments.drivers.includes('sandbox');
}
